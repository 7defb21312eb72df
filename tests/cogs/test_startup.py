"""Start-up against the local Discord: commands are synced only when asked (discord.py's
advice), globally with --sync or to the development server; default intents only."""

import asyncio
from dataclasses import replace
from pathlib import Path

import discord

from bot.app import OFCBot
from bot.tables import FakeClock
from cogs.common.options import AT_A_TABLE
from tests.cogs.conftest import EXTENSIONS, settings_for
from tests.e2e.discord_double import PATIENCE, DiscordDouble
from tests.loop_clock import held_loop_clock

SYNC = ("PUT", "/applications/{application_id}/commands")
GUILD_SYNC = ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


async def start(double: DiscordDouble, tmp_path: Path, **options: object) -> OFCBot:
    sync_global = bool(options.pop("sync_global", False))
    settings = replace(settings_for(double, tmp_path / "ofc.sqlite3"), **options)  # type: ignore[arg-type]
    bot = OFCBot(settings, sync_global=sync_global, clock=FakeClock(), extensions=EXTENSIONS)
    await double.start_client(bot)
    return bot


def synced(double: DiscordDouble) -> list[tuple[str, str]]:
    return [(r.method, r.route) for r in double.requests if (r.method, r.route) in
            (SYNC, GUILD_SYNC)]


async def test_no_sync_unless_asked(double: DiscordDouble, tmp_path: Path) -> None:
    bot = await start(double, tmp_path, dev_guild=None)
    try:
        assert synced(double) == []
        assert bot.intents == discord.Intents(guilds=True)  # no privileged intent
        assert not bot.intents.message_content and not bot.intents.members
        assert not bot.intents.guild_messages and not bot.intents.dm_messages
    finally:
        await double.stop_client(bot)


async def test_sync_flag_publishes_the_ofc_group_globally(double: DiscordDouble,
                                                          tmp_path: Path) -> None:
    bot = await start(double, tmp_path, dev_guild=None, sync_global=True)
    try:
        assert synced(double) == [SYNC]
        (group,) = double.state.commands[None]
        assert group["name"] == "ofc"
        names = {o["name"] for o in group["options"]}
        assert {"create", "join", "leave", "start", "cancel", "table", "hand"} <= names
        create = next(o for o in group["options"] if o["name"] == "create")
        options = {o["name"]: o for o in create["options"]}
        # Every table option a host sets, as declared; the server's own are not there.
        assert set(options) == set(AT_A_TABLE) and "variant" in options
        assert not set(options) & {"fantasy_deal", "clock", "time_bank_refill_seconds"}
        assert [c["value"] for c in options["hints"]["choices"]] == ["off", "on"]
        assert [c["value"] for c in options["variant"]["choices"]] == [
            "pineapple", "turbo", "lowball", "joker"]
        assert (options["seats"]["min_value"], options["seats"]["max_value"]) == (2, 4)
        assert not any(o.get("required") for o in options.values())  # all have defaults
    finally:
        await double.stop_client(bot)


async def test_dev_guild_gets_the_commands_at_every_start(double: DiscordDouble,
                                                          tmp_path: Path) -> None:
    bot = await start(double, tmp_path, dev_guild=double.guild.id)
    try:
        assert synced(double) == [GUILD_SYNC]
        assert [c["name"] for c in double.state.commands[double.guild.id]] == ["ofc"]
    finally:
        await double.stop_client(bot)


async def test_a_stop_while_discord_py_waits_for_the_guilds_ends_without_an_error(
        double: DiscordDouble, tmp_path: Path) -> None:
    """After READY discord.py waits for the guilds (`guild_ready_timeout`, 2 s on Discord),
    then dispatches `ready`. A stop (SIGTERM) in that wait: discord.py's close leaves the wait
    running, and its `ready` after the stop found no loop to run on (AttributeError: a
    traceback in the log of a clean stop). Here the wait is long and the loop's clock is moved
    past it only once the bot has closed."""
    bot = OFCBot(settings_for(double, tmp_path / "ofc.sqlite3"), clock=FakeClock(),
                 extensions=EXTENSIONS, guild_ready_timeout=PATIENCE)
    task = asyncio.create_task(bot.start(double.token))  # not start_client: it waits for ready
    await double.wait_until(lambda: bot.get_guild(double.guild.id) is not None,
                            what="the guild, with ready still to come")
    waiting = bot._connection._ready_task
    assert waiting is not None and not bot.is_ready()
    await bot.close()
    await task
    with held_loop_clock() as clock:
        clock.advance(PATIENCE)
        await asyncio.wait({waiting})
    assert waiting.cancelled() or waiting.exception() is None
