"""Tables whose channel is gone (deleted, or hidden from the bot: Discord's CHANNEL_DELETE or
THREAD_DELETE, or a 404 Unknown Channel / 403 Missing Access on a send or edit there) or
refuses the bot a permission it needs (403 Missing Permissions on a send or edit there), and
tables restored into a channel the bot can no longer post in: each is closed at once as `/ofc
cancel` closes it, nothing more is sent to its channel, and its players are told by DM.
"""

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import Text, t
from bot.tables import NoTable, TableError, is_person
from cogs.common.dms import dm_channel
from cogs.common.format import chip_count
from cogs.common.language import player_locale

if TYPE_CHECKING:
    from bot.app import OFCBot

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL, MISSING_ACCESS = 10003, 50001  # Discord's codes
MISSING_PERMISSIONS = 50013


def told_after_restart(channel: int, chips: int) -> Text:
    """What the players of a table restored into a channel that refuses the bot are told."""
    return Text("Your table in <#{channel}> was closed after the bot restarted: the bot can no "
                "longer post there (it needs View Channel, Send Messages, Embed Links, Attach "
                "Files and Read Message History in that channel). Any hand in play was "
                "completed and settled; your {chips} went back to your wallet.",
                channel=channel, chips=chip_count(chips))


def told_channel_gone(channel: int, chips: int) -> Text:
    """What the players of a table whose channel is gone are told."""
    return Text("Your table in <#{channel}> was closed: its channel was deleted, or the bot "
                "can no longer see it. Any hand in play was completed and settled; your "
                "{chips} went back to your wallet.", channel=channel, chips=chip_count(chips))


def told_no_stake_gone(channel: int, chips: int) -> Text:
    """`told_channel_gone` at a table of play or lent chips (a practice, a tournament's)."""
    return Text("Your table in <#{channel}> was closed: its channel was deleted, or the bot "
                "can no longer see it. Any hand in play was completed and settled.",
                channel=channel)


def told_refused(channel: int, chips: int) -> Text:
    """What the players are told when the bot lost a permission it needs in the table's
    channel mid-game (Discord answered a post or edit there 403 Missing Permissions)."""
    return Text("Your table in <#{channel}> was closed: the bot can no longer post there (it "
                "needs View Channel, Send Messages, Embed Links, Attach Files and Read Message "
                "History in that channel). Any hand in play was completed and settled; your "
                "{chips} went back to your wallet.", channel=channel, chips=chip_count(chips))


def told_no_stake_refused(channel: int, chips: int) -> Text:
    """`told_refused` at a table of play or lent chips (a practice, a tournament's)."""
    return Text("Your table in <#{channel}> was closed: the bot can no longer post there (it "
                "needs View Channel, Send Messages, Embed Links, Attach Files and Read Message "
                "History in that channel). Any hand in play was completed and settled.",
                channel=channel)


Told = Callable[[int, int], Text]  # (channel, chips) -> a player's DM


class Unpostable:
    """The tables closing because their channel is gone or refuses the bot; given whether the
    presenter is shutting down (`closing`) and a table's channel (`channel_of`)."""

    def __init__(self, bot: "OFCBot", closing: Callable[[], bool],
                 channel_of: Callable[[int], int]) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.closing = closing
        self.channel_of = channel_of
        # table -> what its players are told by DM (told_after_restart, told_channel_gone)
        self.told: dict[int, Told] = {}

    def __contains__(self, table: int) -> bool:
        """Is the table closing because of its channel? Nothing more goes there."""
        return table in self.told

    def forget(self, table: int) -> None:
        """The table is closed and its last jobs have run."""
        self.told.pop(table, None)

    async def to_channel(self, table: int, job: Callable[[], Awaitable[object]]) -> None:
        """A send or edit in the table's channel, unless that channel is known to be gone. When
        Discord answers that it is (404 Unknown Channel, 403 Missing Access), every table of
        that channel is closed at once."""
        if table in self.told:
            return
        try:
            await job()
        except discord.HTTPException as error:
            refused = (error.status, error.code) == (403, MISSING_PERMISSIONS)
            if not (_gone(error) or refused):
                raise
            try:
                channel = self.channel_of(table)
            except NoTable:
                return  # no longer the service's: nothing left to close
            await self.end_tables_of(channel, f"{error.status} {error.code} {error.text}",
                                     refused=refused)

    async def end_tables_of(self, channel_id: int, why: str, *, refused: bool = False) -> None:
        """Close every table of a channel (or of a thread in it) that is gone, or that
        `refused` the bot a permission it needs there (a table the bot cannot show would
        hold its players' buy-ins unseen), refunding every stack as `/ofc cancel` does; one
        log line each."""
        if self.closing():
            return  # shutting down: the tables are saved, and restored with their channel
        for table in self.tables.live_tables():
            lobby = self.tables.lobby(table)
            if channel_id in (lobby.channel_id, lobby.thread_id) \
                    and table not in self.told:
                log.warning("table %s: channel %s %s (%s): closing it and refunding every "
                            "stack", table, channel_id,
                            "refuses the bot" if refused else "is gone", why)
                no_stake = lobby.practice or lobby.lent
                told = (told_no_stake_refused if no_stake else told_refused) if refused else \
                    (told_no_stake_gone if no_stake else told_channel_gone)
                await self.close(table, told)

    async def close(self, table: int, told: Told) -> None:
        """Close the table now: nothing more is sent to its channel, its players are told
        `told` by DM."""
        if table in self.told:
            return
        self.told[table] = told
        with contextlib.suppress(TableError):  # closed meanwhile: its refunds are done
            await self.tables.cancel(table, 0, is_admin=True)

    async def tell(self, channel_id: int, refunds: dict[int, int], told: Told) -> None:
        """The players of a table closed because its channel is gone or refuses the bot, by
        DM (the channel is the one place it cannot say so); a member with closed DMs is
        skipped."""
        for player, chips in refunds.items():
            if not is_person(player):
                continue
            with contextlib.suppress(discord.HTTPException):
                dm = await dm_channel(self.bot, player)
                await dm.send(t(await player_locale(self.bot, player),
                                told(channel_id, chips)))


def _gone(error: discord.HTTPException) -> bool:
    """Does Discord say the channel addressed is gone (deleted, or hidden from the bot)?"""
    return (error.status, error.code) in ((404, UNKNOWN_CHANNEL), (403, MISSING_ACCESS))
