"""Commands and menus that only read are answered within Discord's 3 s while the database is
busy. On SQLite every unit of work of the bot's process, reads included, takes its turn on one
connection: a read queued behind the bot's own write, which waits on another process's write
lock, waits as long. Here another process holds the write lock and bob's `/ofc daily` is
stuck behind it (already deferred); alice's reading command or menu choice comes next. The
lock is held until the bot acknowledged it, however long that takes, so nothing depends on the
machine's speed: a command that read before acknowledging is not answered while the lock is
held, and the wait for it fails. When the defer comes is tests/cogs/test_deferral.py's."""

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import EXTENSIONS, OFCBot
from tests.cogs.economy.test_history_stats import line, record_match
from tests.e2e.discord_double import DiscordDouble, Interaction, Member, Message

DEFERRED = 5  # the interaction callback type of "thinking..."
BOARDS = {"player1": "Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
          "player2": "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"}

# (the command alice runs, its options, what its answer says)
CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "history": ("ofc history", {}, "Recent matches"),
    "stats": ("ofc stats", {}, "Statistics"),
    "leaderboard": ("ofc leaderboard", {}, "rating"),
    "chips leaderboard": ("ofc leaderboard", {"by": "chips"}, "chips"),
    "a member's balance": ("ofc balance", {"member": "bob"}, "chips"),
    "preferences": ("ofc preferences", {}, "preferences"),
    "score": ("ofc score", BOARDS, "Player 1"),
    "solve": ("ofc solve", {"cards": "As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"}, "Top"),
    # no tournament live here: the channel's last finished one is read
    "tournament standings": ("ofc tournament standings", {}, "no tournament in this channel"),
}
# Commands that read the server's settings, read once a process (then kept in memory): asked
# before this process read them.
FIRST_READS: dict[str, tuple[str, dict[str, Any], str]] = {
    "rules": ("ofc rules", {}, "rules"),
    "score": CASES["score"],
    "solve": CASES["solve"],
}


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


async def while_busy(double: DiscordDouble, bob: Member, db_path: Path,
                     ask: Callable[[], Awaitable[Interaction]]) -> Interaction:
    """`ask()` while another process holds the write lock and the bot's own write (bob's
    daily claim) waits on it; the lock is released once the bot acknowledged what was asked."""
    await double.resolved(await bob.slash("ofc balance"))  # bob's wallet exists
    # Another process's writer; its lock is taken off the event loop (see test_slow_writes).
    other = sqlite3.connect(db_path, isolation_level=None, timeout=600,
                            check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    asked: Interaction | None = None
    try:
        claim = await bob.slash("ofc daily")  # the bot's write, waiting on the lock
        await double.wait_until(lambda: claim.callback_type == DEFERRED,
                                what="bob's claim deferred while the database is busy")
        asked = await ask()
        await double.wait_until(lambda: asked is not None and asked.callback_type is not None,
                                what="the read answered while the database is busy")
    finally:
        other.execute("COMMIT")
        other.close()
    await double.resolved(claim)
    return asked


def said(answer: Message) -> str:
    return f"{answer.content} {answer.embed}"


@pytest.mark.parametrize("case", CASES)
async def test_a_read_behind_a_waiting_write_is_deferred_then_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path,
        case: str) -> None:
    command, options, expected = CASES[case]
    asked = await while_busy(double, bob, db_path, lambda: alice.slash(
        command, {k: bob if v == "bob" else v for k, v in options.items()}))
    assert asked.callback_type == DEFERRED
    assert expected.lower() in said(await double.resolved(asked)).lower()


@pytest.mark.parametrize("case", FIRST_READS)
async def test_the_servers_settings_read_behind_a_waiting_write_are_deferred_then_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path,
        case: str) -> None:
    command, options, expected = FIRST_READS[case]

    def ask() -> Awaitable[Interaction]:
        bot.storage.settings._guild_settings.clear()  # as in a process just started
        return alice.slash(command, options)

    asked = await while_busy(double, bob, db_path, ask)
    assert asked.callback_type == DEFERRED
    assert expected.lower() in said(await double.resolved(asked)).lower()


async def test_the_server_settings_and_their_history_behind_a_waiting_write_are_deferred(
        double: DiscordDouble, croupier: Member, bot: OFCBot, bob: Member,
        db_path: Path) -> None:
    """/ofc-admin settings without options only shows the settings and their last changes
    (a read of the settings' history each time)."""
    await double.resolved(await croupier.slash("ofc-admin settings", daily_chips=7))
    asked = await while_busy(double, bob, db_path, lambda: croupier.slash("ofc-admin settings"))
    assert asked.callback_type == DEFERRED
    assert "daily_chips" in said(await double.resolved(asked)).lower().replace(" ", "_")


async def test_the_history_menus_behind_a_waiting_write_are_deferred_then_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path) -> None:
    match = await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)]],
                               [alice.id], guild=double.guild.id)
    listed = await double.resolved(await alice.slash("ofc history"))
    picked = await while_busy(double, bob, db_path, lambda: alice.select(listed, str(match)))
    assert picked.callback_type == DEFERRED
    hands = await double.resolved(picked)
    assert "Hand 1" in said(hands)
    shown = await while_busy(double, bob, db_path, lambda: alice.select(hands, "1"))
    assert shown.callback_type == DEFERRED
    assert f"#{match}" in said(await double.resolved(shown))


async def test_review_choices_behind_a_waiting_write_come_empty_within_discords_3_s(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path) -> None:
    """An autocomplete cannot be deferred: when the read waits behind the busy database, the
    member is offered no choice in time (typing `match-hand` still works) rather than an
    answer Discord drops."""
    await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)]],
                       [alice.id], guild=double.guild.id)
    offered: list[list[dict[str, Any]]] = []

    async def typed() -> Interaction:
        offered.append(await alice.autocomplete("ofc review", "hand", ""))
        return list(double.state.interactions.values())[-1]

    await while_busy(double, bob, db_path, typed)
    assert offered == [[]]
    assert len(await alice.autocomplete("ofc review", "hand", "")) == 1  # the database free
