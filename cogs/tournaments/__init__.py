"""The `cogs.tournaments` extension: `/ofc tournament ...` (commands.py, embeds.py) over
bot.tournaments' TournamentService. Each table of a level plays in a thread of its own the
bot opens in the tournament's channel; the tables themselves are cogs.tables' (lobby, table
message, DMs). The service's tournaments are restored here, before the table service's
tables (bot.app restores those after loading the extensions)."""

import logging
from typing import TYPE_CHECKING

import discord

from bot.engine.tournament import Tournament, TournamentTable
from bot.tournaments import TableOpener, TournamentChanged, TournamentError, TournamentService
from cogs.common.answers import install_error_handler
from cogs.common.group import install, ofc
from cogs.tournaments import commands, embeds

if TYPE_CHECKING:
    from bot.app import OFCBot

log = logging.getLogger(__name__)
ANNOUNCED = {"closed": "Registration is closed. The director starts the tournament with "
                       "/ofc tournament start.",
             "started": "Seated by lot.", "table over": "A table is over.",
             "table closed early": "A table was closed before its last hand: the hands it "
                                   "played decide who goes on (RULES.md R13).",
             "finished": "The final is over: prizes paid.",
             "cancelled": "Cancelled: every player still in was refunded."}


def opener_for(bot: "OFCBot") -> TableOpener:
    async def open_thread(t: Tournament, table: TournamentTable) -> int:
        channel = bot.get_channel(bot.tournaments.channel_of(t.tournament_id))
        if not isinstance(channel, discord.TextChannel):
            raise TournamentError("The tournament's channel is gone: its tables cannot open.")
        try:
            thread = await channel.create_thread(
                name=f"Tournament {t.tournament_id} level {table.level} table {table.index + 1}",
                type=discord.ChannelType.public_thread)
        except discord.Forbidden:
            raise TournamentError(commands.NO_THREADS) from None
        return thread.id

    return open_thread


async def setup(bot: "OFCBot") -> None:
    service = TournamentService(bot.storage, bot.tables, bot.clock, opener_for(bot))
    bot.tournaments = service

    async def announce(changed: TournamentChanged) -> None:
        note = changed.detail if changed.reason == "blocked" else ANNOUNCED.get(changed.reason)
        channel = bot.get_channel(changed.channel_id)
        if note is None or not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.send(embed=embeds.standings(changed.tournament, note))
        except discord.HTTPException:
            log.warning("could not post tournament %s standings", changed.tournament.tournament_id)

    service.add_listener(announce)
    await service.restore()
    install_error_handler(bot.tree)
    ofc.add_command(commands.tournament, override=True)
    install(bot.tree)


async def teardown(bot: "OFCBot") -> None:
    await bot.tournaments.close()
    if ofc.get_command(commands.tournament.name) is commands.tournament:
        ofc.remove_command(commands.tournament.name)
