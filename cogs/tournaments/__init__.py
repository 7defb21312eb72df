"""The `cogs.tournaments` extension: `/ofc tournament ...` (commands.py, embeds.py) over
bot.tournaments' TournamentDirector. Each table of a level plays in a thread of its own the
bot opens in the tournament's channel; the tables themselves are cogs.tables' (lobby, table
message, DMs). The service's tournaments are restored here, before the table service's
tables (bot.app restores those after loading the extensions). A tournament whose channel is
deleted is cancelled (TournamentChannels)."""

import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext.commands import Cog

from bot.engine.tournament import Tournament, TournamentTable
from bot.i18n import Slash, Text, t
from bot.tournaments import TableOpener, TournamentChanged, TournamentDirector, TournamentError
from cogs.common.answers import install_error_handler
from cogs.common.format import MENTION_USERS
from cogs.common.group import install, ofc
from cogs.common.language import server_locale
from cogs.common.translator import install as install_translator
from cogs.tournaments import commands, embeds

if TYPE_CHECKING:
    from bot.app import OFCBot

log = logging.getLogger(__name__)
UNKNOWN_CHANNEL = 10003  # Discord's code: no such channel (deleted)
ANNOUNCED = {"created": Text("Registration is open: {cmd}", cmd=Slash("ofc tournament join")),
             "closed": Text("Registration is closed. The director starts the tournament with "
                             "{cmd}.", cmd=Slash("ofc tournament start")),
             "started": Text("Seated by lot."), "table over": Text("A table is over."),
             "table closed early": Text("A table was closed before its last hand: the hands it "
                                        "played decide who goes on (RULES.md R13)."),
             "finished": Text("The final is over: prizes paid."),
             "cancelled": Text("Cancelled: everyone but the excluded got the buy-in back.")}


def opener_for(bot: "OFCBot") -> TableOpener:
    async def open_thread(tm: Tournament, table: TournamentTable) -> int:
        channel = bot.get_channel(bot.tournaments.channel_of(tm.tournament_id))
        if not isinstance(channel, discord.TextChannel):
            raise TournamentError(Text("The tournament's channel is gone: its tables cannot "
                                       "open."))
        loc = await server_locale(bot, channel.guild.id)
        try:
            thread = await channel.create_thread(
                name=t(loc, "Tournament {n} level {level} table {table}", n=tm.tournament_id,
                       level=table.level, table=table.index + 1),
                type=discord.ChannelType.public_thread)
        except discord.Forbidden:
            raise TournamentError(commands.NO_THREADS) from None
        return thread.id

    return open_thread


class TournamentChannels(Cog):
    """A tournament whose channel is deleted is cancelled, every buy-in back (but the
    excluded's): no command can reach it any more, nor can its next level open there. A
    deletion while the bot was off sends no event: when a server becomes available (at
    start, after its channels are known), the channel of each of its tournaments that is
    not among them is asked of Discord, and only a 404 Unknown Channel counts as deleted
    (a 403 or a failed request leaves the tournament as it is)."""

    def __init__(self, bot: "OFCBot", service: TournamentDirector) -> None:
        self.bot = bot
        self.service = service

    @Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._cancel_in(channel.id)

    @Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        for tm in self.service.live():
            channel_id = self.service.channel_of(tm.tournament_id)
            if tm.guild_id != guild.id or guild.get_channel(channel_id) is not None:
                continue
            try:
                await self.bot.fetch_channel(channel_id)
            except discord.NotFound as error:
                if error.code == UNKNOWN_CHANNEL:
                    await self._cancel_in(channel_id)
            except discord.HTTPException as error:
                log.warning("tournament %s: cannot tell whether channel %s is still there "
                            "(%s %s): leaving it", tm.tournament_id, channel_id,
                            error.status, error.code)

    async def _cancel_in(self, channel_id: int) -> None:
        for tm in self.service.live():
            if self.service.channel_of(tm.tournament_id) == channel_id:
                log.warning("tournament %s: channel %s was deleted: cancelling it",
                            tm.tournament_id, channel_id)
                with contextlib.suppress(TournamentError):  # over meanwhile
                    await self.service.cancel(tm.tournament_id, tm.director_id,
                                              is_admin=True)


async def setup(bot: "OFCBot") -> None:
    service = TournamentDirector(bot.storage, bot.tables, bot.clock, opener_for(bot))
    bot.tournaments = service

    async def announce(changed: TournamentChanged) -> None:
        """The channel's one post of each change, in the server's language."""
        channel = bot.get_channel(changed.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            loc = await server_locale(bot, changed.tournament.guild_id)
            post = embeds.announcement(loc, changed, ANNOUNCED.get(changed.reason))
            if post is not None:
                await channel.send(**post, allowed_mentions=MENTION_USERS)
        except discord.HTTPException:
            log.warning("could not post tournament %s standings", changed.tournament.tournament_id)

    service.add_listener(announce)
    await bot.add_cog(TournamentChannels(bot, service))
    await service.restore()
    install_error_handler(bot.tree)
    await install_translator(bot.tree)
    ofc.add_command(commands.tournament, override=True)
    install(bot.tree)


async def teardown(bot: "OFCBot") -> None:
    await bot.tournaments.close()
    if ofc.get_command(commands.tournament.name) is commands.tournament:
        ofc.remove_command(commands.tournament.name)
