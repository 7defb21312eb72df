"""A moderator deletes the channel of running tables, through the real bot and the Discord
double on a fake clock: each table is closed at once as `/ofc cancel` closes it (every chip
back, the audit clean), with one log line each, its players told by DM, and no request
reaches the channel afterwards, whether the bot heard CHANNEL_DELETE or found out from a 404
Unknown Channel (or, for a channel hidden from it, a 403 Missing Access)."""

import contextlib
import logging
import re
import sqlite3
from pathlib import Path

import pytest

from bot.app import OFCBot
from bot.tables import FakeClock, NoTable
from tests.cogs.test_play import auto, play_hand
from tests.e2e.discord_double import Channel, DiscordDouble, Member
from tests.e2e.discord_double.model import ATTACH_FILES, SEND_MESSAGES, VIEW_CHANNEL
from tests.e2e.flows import STARTING, open_table
from tests.storage.audit import audit

GONE = "was closed: its channel was deleted, or the bot can no longer see it."


async def settled(bot: OFCBot) -> None:
    """Every table's background work and queued message done."""
    presenter = bot.get_cog("TablePresenter")
    assert presenter is not None
    await bot.tables.idle()
    await presenter.drain()  # type: ignore[attr-defined]


def to_channels(double: DiscordDouble, since: int, *channels: Channel) -> list[str]:
    """The requests made since the `since`-th that address one of `channels`."""
    paths = tuple(f"/channels/{channel.id}/" for channel in channels)
    return [f"{r.method} {r.path}" for r in double.requests[since:]
            if any(path in r.path + "/" for path in paths)]


def wallets(database: Path) -> dict[int, int]:
    conn = sqlite3.connect(database)
    try:
        return dict(conn.execute("SELECT user_id, balance FROM wallets").fetchall())
    finally:
        conn.close()


def closing_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and r.name.startswith(("bot", "cogs"))]


async def practice_thread(double: DiscordDouble, member: Member) -> Channel:
    answer = await double.resolved(await member.slash("ofc practice", level="easy", hands=1))
    found = re.search(r"<#(\d+)>", str(answer.content))
    assert found is not None
    return double.state.channels[int(found[1])]


async def test_deleting_the_channel_of_running_tables_ends_them_at_once(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        clock: FakeClock, database: Path, caplog: pytest.LogCaptureFixture) -> None:
    channel = double.channel
    await open_table(double, alice, bob, seats=2)  # a hand in play, for real chips
    thread = await practice_thread(double, carol)  # a table in a thread of that channel
    await settled(bot)
    assert len(bot.tables.live_tables()) == 2
    since = len(double.requests)
    caplog.clear()

    await double.delete_channel(channel)  # the thread goes with it
    await double.wait_until(lambda: not bot.tables.live_tables(), what="both tables closed")
    await settled(bot)
    await clock.advance(3600)  # every timer the tables had would have fired by now
    await settled(bot)

    assert to_channels(double, since, channel, thread) == []
    lines = closing_lines(caplog)
    assert len(lines) == 2 and all(  # (discord.py tells of the thread's deletion too)
        re.search(rf"channel ({channel.id}|{thread.id}) is gone \(deleted\)", line)
        for line in lines), lines
    held = wallets(database)
    assert held[alice.id] + held[bob.id] == 2 * STARTING  # every stack back, the hand settled
    assert held.get(carol.id, STARTING) == STARTING  # a practice is played for play chips
    for member in (alice, bob, carol):
        told = await member.wait_for_dm(lambda m: GONE in str(m.content))
        assert f"<#{channel.id}>" in str(told.content) or f"<#{thread.id}>" in str(told.content)
        assert not [m for m in member.dms() if m.components]  # the prompts lost their buttons
    assert audit(database) == [] and (await bot.storage.audit()).problems == ()  # `ofc audit`


@pytest.mark.parametrize("gone", ["deleted", "hidden"])
async def test_a_channel_gone_unannounced_ends_its_table_at_its_first_404_or_403(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        database: Path, caplog: pytest.LogCaptureFixture, gone: str) -> None:
    lounge = double.add_text_channel("lounge")
    await open_table(double, alice, bob, channel=lounge, seats=2)
    await settled(bot)
    since = len(double.requests)
    caplog.clear()

    if gone == "deleted":
        await double.delete_channel(lounge, announce=False)  # an event the bot missed
    else:  # the bot no longer sees the channel: Discord answers 403 Missing Access
        await double.set_permissions(lounge, None, deny=VIEW_CHANNEL)
    await clock.advance(5 * 60 + 120 + 1)  # the hand's clock (a match: 5 streets of 60 s)
    # and the time bank run out: R10 places
    await double.wait_until(lambda: not bot.tables.live_tables(), what="the table closed")
    await settled(bot)
    found = to_channels(double, since, lounge)
    assert 1 <= len(found) <= 3, found  # what was on its way when the first 404 came back
    await clock.advance(3600)
    await settled(bot)
    assert to_channels(double, since, lounge) == found  # nothing more

    lines = closing_lines(caplog)
    answer = "404 10003" if gone == "deleted" else "403 50001"
    assert len(lines) == 1 and f"channel {lounge.id} is gone ({answer}" in lines[0], lines
    held = wallets(database)
    assert held[alice.id] + held[bob.id] == 2 * STARTING
    for member in (alice, bob):
        await member.wait_for_dm(lambda m: GONE in str(m.content))
    assert audit(database) == [] and (await bot.storage.audit()).problems == ()  # `ofc audit`


REFUSED = "was closed: the bot can no longer post there (it needs View Channel, Send Messages"


@pytest.mark.parametrize("lost", [SEND_MESSAGES, ATTACH_FILES])
async def test_a_permission_lost_mid_game_ends_its_table_and_tells_the_players(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        database: Path, caplog: pytest.LogCaptureFixture, lost: int) -> None:
    """A moderator takes Send Messages (or Attach Files: the table image) from the bot in the
    table's channel mid-game: Discord answers its next post there (the showdown), or its next
    edit with an image, 403 Missing Permissions. The table closes as /ofc cancel closes it,
    every chip back, its players told by DM what the bot needs; one warning line, and nothing
    more is sent there."""
    lounge = double.add_text_channel("lounge")
    await open_table(double, alice, bob, channel=lounge, seats=2)
    await settled(bot)
    caplog.clear()
    await double.set_permissions(lounge, None, deny=lost)
    (table,) = bot.tables.live_tables()
    with contextlib.suppress(NoTable):  # closed mid-hand when its image was refused
        await play_hand(bot, table, (alice, bob), auto)  # else at the showdown's post
    await double.wait_until(lambda: not bot.tables.live_tables(), what="the table closed")
    await settled(bot)
    await settled(bot)
    since = len(double.requests)
    await clock.advance(3600)
    await settled(bot)
    assert to_channels(double, since, lounge) == []  # nothing more

    lines = closing_lines(caplog)
    assert len(lines) == 1 and f"channel {lounge.id} refuses the bot (403 50013" in lines[0], \
        lines
    held = wallets(database)
    assert held[alice.id] + held[bob.id] == 2 * STARTING
    for member in (alice, bob):
        await member.wait_for_dm(lambda m: REFUSED in str(m.content))
    assert audit(database) == [] and (await bot.storage.audit()).problems == ()
