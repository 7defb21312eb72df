"""The lobby through the real bot and a local Discord (tests/e2e/discord_double): /ofc create,
join, leave, computers, start, cancel; who may do what; wallets (R12)."""

import asyncio
from typing import Any

import pytest

from bot.app import OFCBot
from bot.tables import LobbyView
from tests.cogs.conftest import buttons, enabled, lobby_message, placements, table_message
from tests.e2e.discord_double import DiscordDouble, Member

STARTING = 1000  # OFC_STARTING_CHIPS default


async def wallet(bot: OFCBot, double: DiscordDouble, member: Member) -> int:
    return (await bot.storage.wallets.wallet(double.guild.id, member.id, now=0)).balance


async def test_create_join_and_start(double: DiscordDouble, bot: OFCBot, alice: Member,
                                     bob: Member) -> None:
    created = await alice.slash("ofc create", variant="pineapple", seats=2, buy_in=300,
                                point_value=2, scoring="2-4", turn_seconds=90)
    answer = await double.resolved(created)
    assert answer.ephemeral and "sat down with 300 chips" in answer.content
    lobby = await lobby_message(double)
    assert lobby.embed is not None and lobby.embed["title"] == "OFC table: waiting for players"
    assert "Buy-in 300 chips, 2 chips per point, scoring 2-4" in lobby.embed["description"]
    assert "Time: 450 s for the whole hand" in lobby.embed["description"]  # 5 streets of 90
    assert list(buttons(lobby)) == ["Join", "Leave", "Start", "Cancel", "Add computer (easy)",
                                    "Add computer (strong)", "Remove computer"]
    assert not enabled(lobby, "Remove computer")  # no computer yet
    assert not enabled(lobby, "Start")  # one player (R7: two or more)

    joined = await double.resolved(await bob.slash("ofc join"))
    assert joined.ephemeral and joined.content == "You sat down with 300 chips from your wallet."
    await double.wait_until(lambda: bob.mention in str(lobby.embed), what="bob seated")
    assert not enabled(lobby, "Join") and enabled(lobby, "Start")  # full, startable
    assert await wallet(bot, double, alice) == await wallet(bot, double, bob) == STARTING - 300

    await bob.click(lobby, "Start")  # only the host (or Manage Server) starts
    answer = await bob.wait_for_ephemeral(lambda m: m.embed is not None)
    assert "host" in answer.embed["description"]
    assert lobby.embed["title"] == "OFC table: waiting for players"

    await alice.click(lobby, "Start")
    table = await table_message(double)
    assert list(buttons(table)) == ["My hand"]
    assert table.embed is not None and table.embed["title"] == "Hand 1 of 2: street 1 of 5"
    assert table.embed_image()  # the public table image is attached and shown
    await double.wait_until(lambda: lobby.embed["title"] == "OFC table: playing")
    assert buttons(lobby) == {}
    for member in (alice, bob):  # each gets their cards privately: 5 cards, 3 rows each
        dm = await member.wait_for_dm()
        assert dm.embed is not None and dm.embed["title"] == "Hand 1 of 2 · street 1 of 5"
        assert len(placements(dm)) == 5 * 3 and "Confirm" in buttons(dm) and dm.embed_image()


async def test_leave_refunds_and_computers_fill_seats(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        bob: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=3))
    lobby = await lobby_message(double)
    await bob.click(lobby, "Join")
    await double.wait_until(lambda: bob.mention in str(lobby.embed))
    assert await wallet(bot, double, bob) == STARTING - 200
    await bob.click(lobby, "Leave")
    await double.wait_until(lambda: bob.mention not in str(lobby.embed))
    assert await wallet(bot, double, bob) == STARTING

    await bob.click(lobby, "Add computer (easy)")  # the host's call
    await bob.wait_for_ephemeral(lambda m: m.embed is not None and "host" in str(m.embed))
    # ... and the house's: a computer plays with its chips (R12), so the host needs Manage
    # Server too at a table with chips at stake, and is pointed to /ofc practice.
    await alice.click(lobby, "Add computer (strong)")
    await alice.wait_for_ephemeral(lambda m: m.embed is not None
                                   and "house's chips" in str(m.embed)
                                   and "/ofc practice" in str(m.embed))
    assert "Computer" not in str(lobby.embed)
    assert await wallet(bot, double, alice) == STARTING - 200
    await croupier.click(lobby, "Add computer (strong)")
    await double.wait_until(lambda: "Computer 1 (strong): " in str(lobby.embed))
    assert enabled(lobby, "Start")
    assert "(computer" not in str(lobby.embed)  # named once (short lines on a phone)

    # A button takes the computer away again (the host's call too).
    await croupier.click(lobby, "Add computer (easy)")
    await double.wait_until(lambda: "Computer 2 (easy): " in str(lobby.embed))
    await alice.click(lobby, "Remove computer")
    await double.wait_until(lambda: "Computer 2" not in str(lobby.embed))
    assert "Computer 1 (strong): " in str(lobby.embed)
    await alice.click(lobby, "Remove computer")
    await double.wait_until(lambda: "Computer" not in str(lobby.embed))
    assert not enabled(lobby, "Remove computer") and not enabled(lobby, "Start")


async def test_a_double_click_on_remove_computer_removes_one_and_says_so(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both clicks arrive before either is applied (the table busy with a redraw, a slow
    database): each names the computer seated last; the second is told it was already
    removed, and the other computer stays."""
    await double.resolved(await alice.slash("ofc create", seats=3))
    lobby = await lobby_message(double)
    await croupier.click(lobby, "Add computer (easy)")
    await double.wait_until(lambda: "Computer 1 (easy): " in str(lobby.embed))
    await croupier.click(lobby, "Add computer (strong)")
    await double.wait_until(lambda: "Computer 2 (strong): " in str(lobby.embed))
    table = bot.tables.table_for_channel(double.channel.id)
    assert table is not None
    release, waiting = asyncio.Event(), []
    remove = bot.tables.remove_computer

    async def held(*args: Any, **kwargs: Any) -> LobbyView:
        waiting.append(args)
        await release.wait()
        return await remove(*args, **kwargs)

    monkeypatch.setattr(bot.tables, "remove_computer", held)
    before = alice.last_ephemeral()
    await alice.click(lobby, "Remove computer")
    await alice.click(lobby, "Remove computer")
    await double.wait_until(lambda: len(waiting) == 2, what="both clicks on their way")
    release.set()
    answer = await alice.wait_for_ephemeral(after=before)
    assert answer.embed is not None
    assert answer.embed["description"] == "That computer player was already removed."
    await double.wait_until(lambda: "Computer 2" not in str(lobby.embed))
    assert "Computer 1 (easy): " in str(lobby.embed)
    assert [s.ai_level for s in bot.tables.lobby(table).seats] == [None, "easy"]


async def test_cancel_refunds_every_stack_and_closes(double: DiscordDouble, bot: OFCBot,
                                                     alice: Member, bob: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=2))
    await double.resolved(await bob.slash("ofc join"))
    lobby = await lobby_message(double)
    await alice.click(lobby, "Cancel")
    notice = await double.wait_for_message(
        lambda m: m.content.startswith("The table was cancelled"))
    assert alice.mention in notice.content and bob.mention in notice.content
    await double.wait_until(lambda: lobby.embed["title"] == "OFC table: closed")
    assert buttons(lobby) == {}
    assert await wallet(bot, double, alice) == await wallet(bot, double, bob) == STARTING
    again = await double.resolved(await alice.slash("ofc join"))
    assert "There is no table in this channel" in again.embed["description"]


async def test_one_table_per_channel_and_bad_options_are_named(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    bad = await double.resolved(await alice.slash("ofc create", variant="pineapple", seats=4))
    assert bad.ephemeral and "pineapple seats at most 3" in bad.embed["description"]
    assert double.messages() == []  # nothing was opened
    await double.resolved(await alice.slash("ofc create"))
    await lobby_message(double)
    second = await double.resolved(await bob.slash("ofc create"))
    assert second.ephemeral and "already has a table" in second.embed["description"]
    assert await wallet(bot, double, bob) == STARTING
