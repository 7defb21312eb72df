"""Discord side, through the real bot and the local Discord double: per-member
cooldowns on the costly commands, embeds within Discord's limits whatever the input."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD

FOURTEEN = "As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"
X = "Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h"
Y = "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"


def slowed(answer: object) -> bool:
    embed = getattr(answer, "embed", None)
    text = str(embed["description"]) if embed else ""
    return getattr(answer, "ephemeral", False) and text.startswith("Slow down: try again in ")


async def test_score_solve_and_table_have_a_per_member_cooldown(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    for _ in range(3):  # three within 10 s, a typo corrected at once among them
        first = await double.resolved(await alice.slash("ofc score", player1=X, player2=Y))
        assert not first.ephemeral and first.embed is not None
    again = await double.resolved(await alice.slash("ofc score", player1=X, player2=Y))
    assert slowed(again), again.embed
    assert again.embed["description"].endswith(" s.")
    other = await double.resolved(await bob.slash("ofc score", player1=X, player2=Y))
    assert not slowed(other)  # per member

    for _ in range(2):
        assert not slowed(await double.resolved(await alice.slash("ofc solve", cards=FOURTEEN)))
    assert slowed(await double.resolved(await alice.slash("ofc solve", cards=FOURTEEN)))

    await double.resolved(await alice.slash("ofc create", seats=2))
    for _ in range(2):
        assert not slowed(await double.resolved(await alice.slash("ofc table")))
    assert slowed(await double.resolved(await alice.slash("ofc table")))


def long_name(letter: str) -> str:
    return (letter * 32)[:32]  # MAX_NAME characters


async def test_score_of_four_long_names_at_the_largest_point_value_fits_discord(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    boards = ("Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
              "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c",
              "Kh Ks 4c / 6s 6d 8c 8h Qc / 2d 3d 4d 8d 9d",
              "Jh Jd 5c / Th Tc 6h 6c 7s / 4s 8s 9s Js Qs")
    players = {f"player{n}": f"{long_name('ABCD'[n - 1])}: {board}"
               for n, board in enumerate(boards, start=1)}
    answer = await double.resolved(await alice.slash(
        "ofc score", variant="turbo", point_value=1_000_000, **players))
    assert not answer.ephemeral and answer.embed is not None  # Discord took it (no 400)
    text = str(answer.embed)
    for letter in "ABCD":
        assert long_name(letter) in text


@pytest.fixture
def croupier(double: DiscordDouble) -> Member:
    """A member with Manage Server (added before the bot connects)."""
    return double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))


def grants(path: Path, member: Member) -> list[tuple[int, int]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT amount, balance_after FROM ledger WHERE user_id = ? AND "
                            "kind = 'grant'", (member.id,)).fetchall()
    finally:
        conn.close()


async def test_a_grant_waiting_on_a_busy_database_is_answered_and_a_redelivery_grants_once(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        tmp_path: Path) -> None:
    database = tmp_path / "ofc.sqlite3"
    await double.resolved(await alice.slash("ofc balance"))  # alice's wallet: 1,000 chips
    other = sqlite3.connect(database, isolation_level=None)  # another process's writer
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(3.5, other.execute, "COMMIT")
    try:
        # Discord's 3 s: the bot must answer (defer) while the write waits for the database.
        asked = await croupier.slash("ofc-admin grant", member=alice, amount=250, reason="prize")
        answer = await double.resolved(asked, timeout=10)
    finally:
        await asyncio.sleep(0)
        other.close()
    assert asked.callback_type == 5 and not answer.ephemeral  # deferred, then followed up
    assert answer.embed is not None and answer.embed["title"] == "Chips granted"
    assert grants(database, alice) == [(250, 1250)]

    # Discord delivers the same interaction again (a resumed gateway): it grants once.
    await double.gateway.dispatch("INTERACTION_CREATE", croupier._payload(asked), None)
    await double.wait_until(lambda: len(double.requests_to(
        "POST", "/interactions/{interaction_id}/{token}/callback")) >= 3,
        what="the bot's answer to the redelivery")
    await asyncio.sleep(0.3)
    assert grants(database, alice) == [(250, 1250)]
