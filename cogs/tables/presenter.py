"""Table play: the TablePresenter cog turns the service's events into Discord messages.

- The lobby message and the table message (public image, whose turn, the clock, "My hand")
  are edited in place through a per-table Outbox, coalesced (OFC_TABLE_EDIT_SECONDS).
- Each seated person gets a DM per action with the private image and the controls; if DMs are
  closed (50007) the channel is told once to use "My hand" / `/ofc hand`, which shows the same
  controls ephemerally (cogs/tables/prompts.py); a "My hand" message follows its seat's hand
  while Discord lets the bot edit it (cogs/tables/hands.py).
- Clicks are cogs/tables/controls.py's; the cog orders the clicks on one message (`serial`)
  and routes a component id that is on no message through the same checks.
- A table whose channel is gone (deleted, or hidden from the bot: Discord's CHANNEL_DELETE or
  THREAD_DELETE, or a 404 Unknown Channel / 403 Missing Access on a send or edit there) is
  closed at once as `/ofc cancel` closes it, its players told by DM, and nothing more is sent
  there; so is a table whose channel refuses the bot a permission it needs (403 Missing
  Permissions on a send or edit there), and a table restored into a channel the bot can no
  longer post in (cogs/tables/unpostable.py).
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.views import TableView
from bot.i18n import ENGLISH, Text, series, t
from bot.i18n.names import SeatName
from bot.tables import (
    Dealt,
    LobbyChanged,
    MatchOver,
    NoTable,
    Placed,
    PlayerAway,
    PlayerLeft,
    ShowdownDone,
    Standing,
    TableClosed,
    TableEvent,
    TableRefunded,
    TableRestored,
    TableService,
    TableWaiting,
    Turn,
    is_person,
)
from cogs.common import images
from cogs.common.answers import answer_unlisted, send
from cogs.common.client import Interaction
from cogs.common.dms import dm_channel
from cogs.common.format import MENTION_USERS, shown_seat
from cogs.common.interactions import per_member, table_here
from cogs.common.language import lang, player_locale, server_locale
from cogs.tables.controls import ITEMS as CONTROLS
from cogs.tables.controls import (
    Content,
    hand_view,
    play_of,
    where_of,
)
from cogs.tables.embeds import (
    PRACTICE_CLOSED,
    got_up_note,
    left_notice,
    lobby_embed,
    result_embed,
    showdown_embed,
    standings_embed,
    table_embed,
    waiting_notice,
)
from cogs.tables.hands import Hands
from cogs.tables.lobby import LobbyButton, RematchButton, lobby_view, rematch_view
from cogs.tables.outbox import CHANNEL, Outbox
from cogs.tables.prompts import TABLE_CLOSED, TIME_RAN_OUT, Prompts
from cogs.tables.unpostable import Unpostable, told_after_restart

if TYPE_CHECKING:
    from bot.app import OFCBot

log = logging.getLogger(__name__)

UNKNOWN_MESSAGE = 10008  # Discord's code
DRAIN_SECONDS = 5.0
COMPONENTS = (LobbyButton, RematchButton, *CONTROLS)  # every kind of table component
Draw = Callable[[], Awaitable[Content]]


class TablePresenter(commands.Cog):
    """Presents every table: one Outbox each; its DM prompts through `prompts`, its "My
    hand" messages through `hands`."""

    def __init__(self, bot: "OFCBot") -> None:
        self.bot = bot
        self.tables: TableService = bot.tables
        self.outboxes: dict[int, Outbox] = {}
        self.ended: set[int] = set()  # tables closed, until their last jobs have run
        self.restoring: set[int] = set()  # tables restored, not yet shown in their channel
        self.closing = False
        self._serial: dict[int, tuple[asyncio.Lock, int]] = {}  # message -> (lock, users)
        self.prompts = Prompts(bot, self.serial, self.ended, self._tell_channel)
        self.hands = Hands(bot, self.serial, self.ended, self.prompts)
        self.unpostable = Unpostable(bot, lambda: self.closing, self._channel_of)

    async def cog_load(self) -> None:
        self.tables.add_listener(self.on_events)

    async def cog_unload(self) -> None:
        self.closing = True  # the service outlives the cog by a moment: ignore its last events
        with contextlib.suppress(TimeoutError):  # asyncio.timeout lets a cancel through
            async with asyncio.timeout(DRAIN_SECONDS):
                await self.drain()
        for outbox in self.outboxes.values():
            outbox.cancel()

    @contextlib.asynccontextmanager
    async def serial(self, key: int) -> AsyncIterator[None]:
        """One at a time per `key`, in the order they came (asyncio.Lock is fair)."""
        lock, users = self._serial.get(key, (asyncio.Lock(), 0))
        self._serial[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._serial[key]
            if users == 1:
                del self._serial[key]
            else:
                self._serial[key] = (lock, users - 1)

    async def drain(self) -> None:
        """Wait until every queued message is sent (tests, shutdown)."""
        while any(box.busy for box in self.outboxes.values()):
            for box in list(self.outboxes.values()):
                await box.drain()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        await answer_unlisted(interaction, COMPONENTS)

    # ------------------------------------------------------------ events -> messages
    async def on_events(self, events: Sequence[TableEvent]) -> None:
        """Called by the service under the table's lock: it only queues work."""
        if self.closing:
            return
        # A table closing with a hand in play completes it (R10 places what is owed): those
        # placements are the close's, not a clock's.
        closing = {event.table_id for event in events if isinstance(event, TableClosed)}
        # R10: the clock marks a player away as it places their cards; the placements of a
        # player already away come with no such mark (their time did not run out).
        timed_out = {(event.table_id, event.player_id) for event in events
                     if isinstance(event, PlayerAway)}
        # A restored table announces again the deals it had announced before the stop.
        restored = {event.table_id for event in events if isinstance(event, TableRestored)}
        for event in events:
            self._present(event, closing=event.table_id in closing, timed_out=timed_out,
                          again=event.table_id in restored)

    def _outbox(self, table: int) -> Outbox:
        if table not in self.outboxes:
            self.outboxes[table] = Outbox(self.bot.settings.table_edit_seconds,
                                          self.bot.keeper.held)
        return self.outboxes[table]

    def _present(self, event: TableEvent, *, closing: bool = False,
                 timed_out: Collection[tuple[int, int]] = (), again: bool = False) -> None:
        table = event.table_id
        box = self._outbox(table)
        if table in self.unpostable:  # closing: nothing more goes to its channel
            told = self.unpostable.told[table]
            match event:
                case TableRefunded(refunds=refunds):
                    box.post(lambda: self.unpostable.tell(event.channel_id, refunds, told))
                case MatchOver(standings=standings):  # the hand completed was the last
                    stacks = {s.player_id: s.stack for s in standings}
                    box.post(lambda: self.unpostable.tell(event.channel_id, stacks, told))
                case TableClosed():
                    self.ended.add(table)
                    if self._known(table):  # its DM prompts lose their controls
                        for player, sent in self.tables.messages(table).dm.items():
                            box.post(partial(self.prompts.end_prompt, table, player, sent))
                    self.hands.end(table, box)
                    box.post(lambda: self._forget(table))
            return
        if isinstance(event, TableRestored):
            self.restoring.add(table)
            box.post(partial(self.prompts.told_before_stop, table, event.lobby.seats))

        def refresh_table() -> None:
            box.refresh("table", lambda: self._refresh_table(table))

        def to_channel(job: Callable[[], Awaitable[object]]) -> None:
            box.post(lambda: self.unpostable.to_channel(table, job), CHANNEL)

        match event:
            case LobbyChanged(lobby=lobby) | TableRestored(lobby=lobby):
                box.refresh("lobby", lambda: self._refresh_lobby(table))
                if lobby.status == "playing":
                    refresh_table()
            case Dealt(private_to=int(player), hand_no=hand, street=street) if is_person(player):
                box.post(partial(self.prompts.send_prompt, table, player, hand, street, again))
                self.hands.follow(table, player, box)
            case Turn(player_ids=players):
                refresh_table()
                for player in filter(is_person, players):
                    box.post(partial(self.prompts.edit_prompt, table, player, turn=True))
                    self.hands.follow(table, player, box)
            case Placed(player_id=player, auto=True, hand_no=hand, street=street) \
                    if is_person(player):
                self.hands.auto_placed.setdefault(table, set()).add((player, hand, street))
                refresh_table()
                note = TABLE_CLOSED if closing else \
                    TIME_RAN_OUT if (table, player) in timed_out else None
                box.post(partial(self.prompts.edit_prompt, table, player, note))
                if not closing:  # (the close ends every "My hand" itself: Hands.end)
                    self.hands.placed(table, (player, hand, street), note, box)
            case PlayerAway(player_id=player) if is_person(player):
                refresh_table()
                box.post(partial(self.prompts.edit_prompt, table, player, close=False))
            case ShowdownDone():
                # The view as the showdown left it (the next deal comes in a later batch).
                shown = self.tables.public_view(table)
                to_channel(lambda: self._post_showdown(event, shown))
                refresh_table()
                # The match's last showdown: its end (and ratings) committed with it.
                last = self.tables.lobby(table).match_id \
                    if shown is not None and shown.phase == "over" else None
                for seat, player in event.player_ids.items():
                    if is_person(player):
                        box.post(partial(self._send_result, event, seat, player, shown, last))
            case PlayerLeft(seat=seat, player_id=player, returned=chips, reason=reason):
                who = f"<@{player}>" if is_person(player) else \
                    SeatName(self._names(table).get(seat, ""))
                lobby = self.tables.lobby(table)
                left = left_notice(who, chips, away=reason == "away", practice=lobby.practice)
                to_channel(lambda: self._notice(event.channel_id, left, table))
                if is_person(player):
                    note = got_up_note(chips, away=reason == "away", practice=lobby.practice,
                                       cash=lobby.rules.format == "cash")
                    box.post(partial(self.prompts.got_up, table, player, note))
            case TableWaiting(busted=busted, closes_at=closes_at):
                waits = waiting_notice(busted, closes_at)
                to_channel(lambda: self._notice(event.channel_id, waits, table))
            case MatchOver(standings=standings):
                lobby = self.tables.lobby(table)  # play or lent chips: no rematch
                to_channel(lambda: self._send_standings(event.channel_id, table, standings,
                                                        lobby.practice, lobby.lent,
                                                        lobby.match_id))
            case TableRefunded(reason=reason, refunds=refunds):
                back = series([f"<@{p}> {c}" for p, c in refunds.items() if is_person(p)])
                if self._known(table) and self.tables.lobby(table).practice:
                    refunded = PRACTICE_CLOSED  # (a table not even restored is not known)
                elif back:
                    refunded = Text("{reason} Chips back to wallets: {back}.", reason=reason,
                                    back=back)
                else:
                    refunded = Text("{reason} Chips back to wallets: none.", reason=reason)
                to_channel(lambda: self._notice(event.channel_id, refunded, table))
            case TableClosed():
                self.ended.add(table)
                if self._known(table):  # not a table that could not even be restored
                    box.refresh("lobby", lambda: self._refresh_lobby(table))
                    refresh_table()
                    for player, sent in self.tables.messages(table).dm.items():
                        box.post(partial(self.prompts.end_prompt, table, player, sent))
                self.hands.end(table, box)
                box.post(lambda: self._forget(table))
            case _:  # hand started, placed, player back: the table message shows it
                refresh_table()

    async def _forget(self, table: int) -> None:
        # Its channel posts still to run check what is forgotten here (`unpostable`).
        box = self._outbox(table)
        await box.settled(CHANNEL)
        # The outbox itself goes once its last edits are sent (this job is one of them).
        box.when_idle(partial(self._drop_outbox, table, box))
        self.restoring.discard(table)
        self.unpostable.forget(table)
        self.prompts.forget(table)
        self.ended.discard(table)
        self.hands.forget(table)

    def _drop_outbox(self, table: int, box: Outbox) -> None:
        if self.outboxes.get(table) is box:
            del self.outboxes[table]

    def _known(self, table: int) -> bool:
        try:
            self.tables.lobby(table)
        except NoTable:
            return False
        return True

    def _names(self, table: int) -> dict[int, str]:
        view = self.tables.public_view(table)
        return {s.seat: s.name for s in view.seats} if view is not None else {}

    async def _locale(self, table: int, channel_id: int | None = None) -> str:
        """The language of the table's public messages: its server's (a table already gone
        is found by its channel)."""
        try:
            guild_id: int | None = self.tables.lobby(table).guild_id
        except NoTable:
            guild = getattr(self.bot.get_channel(channel_id or 0), "guild", None)
            guild_id = guild.id if guild is not None else None
        return ENGLISH if guild_id is None else await server_locale(self.bot, guild_id)

    def _channel_of(self, table: int) -> int:
        lobby = self.tables.lobby(table)
        return lobby.thread_id or lobby.channel_id

    async def _send(self, channel_id: int, content: Content) -> discord.Message:
        return await self.bot.get_partial_messageable(channel_id).send(**content.to_send())

    async def _notice(self, channel_id: int, text: Text, table: int) -> None:
        """A line in the table's channel, in its server's language."""
        await self.bot.get_partial_messageable(channel_id).send(
            t(await self._locale(table, channel_id), text), allowed_mentions=MENTION_USERS)

    async def _tell_channel(self, table: int, text: Text) -> None:
        """`_notice` in the table's channel as it is now, through `Unpostable.to_channel`."""
        await self.unpostable.to_channel(
            table, lambda: self._notice(self._channel_of(table), text, table))

    async def _send_standings(self, channel_id: int, table: int, standings: Sequence[Standing],
                              practice: bool, tournament: bool, match_id: int | None) -> None:
        """The match's end in its server's language, with each person's rating change (the
        match's end was committed before its events are shown); a practice deals again with
        /ofc practice, a tournament's table counts in its standings, a table of one's own
        chips offers a rematch."""
        loc = await self._locale(table, channel_id)
        ratings = self.bot.storage.ratings
        changes = [] if match_id is None else await ratings.rating_changes(match_id)
        rated = {c.user_id: (c.before.shown, c.after.shown) for c in changes if c.level is None}
        embed = standings_embed(loc, standings, practice=practice, tournament=tournament,
                                ratings=rated)
        await self._send(channel_id, Content(
            embed, discord.ui.View() if practice or tournament else rematch_view(loc, table)))

    async def _show(self, channel_id: int, message_id: int | None, draw: Draw) -> int | None:
        """Edit the message in place; when there is none yet, or it was deleted, send it.
        Returns the id of a message sent, None when edited."""
        if message_id is not None:
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            try:
                await message.edit(**(await draw()).to_edit())
                return None
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise  # the channel itself is gone
                log.info("message %s was deleted: sending it again", message_id)
        return (await self._send(channel_id, await draw())).id

    async def _show_in_channel(self, table: int, message_id: int | None, draw: Draw, *,
                               main: bool) -> int | None:
        """`_show` in the table's channel, through `Unpostable.to_channel`. When a table
        restored after a restart cannot be shown there (Forbidden: the bot lost a permission
        it needs), it is closed as `/ofc cancel` closes it (a hand in play is completed and
        settled, every stack refunded) and the players are told by DM. `main`: the message of
        the table's current stage, whose showing ends the check."""
        shown: list[int | None] = []

        async def show() -> None:
            try:
                shown.append(await self._show(self._channel_of(table), message_id, draw))
            except discord.Forbidden as error:
                if table not in self.restoring:
                    raise
                self.restoring.discard(table)
                log.warning("table %s cannot post in channel %s after a restart (%s %s): "
                            "closing it and refunding every stack", table,
                            self._channel_of(table), error.code, error.text)
                await self.unpostable.close(table, told_after_restart)

        await self.unpostable.to_channel(table, show)
        if main and shown:
            self.restoring.discard(table)
        return shown[0] if shown else None

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.unpostable.end_tables_of(channel.id, "deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.unpostable.end_tables_of(payload.thread_id, "deleted")

    async def _refresh_lobby(self, table: int) -> None:
        if table in self.unpostable:
            return
        lobby = self.tables.lobby(table)
        sent = self.tables.messages(table).lobby_message_id
        if sent is None and lobby.status != "lobby":
            return  # restored or closed before its lobby was ever shown: nothing to update

        loc = await self._locale(table)

        async def draw() -> Content:
            return Content(lobby_embed(loc, lobby), lobby_view(loc, lobby))

        new = await self._show_in_channel(table, sent, draw, main=lobby.status == "lobby")
        if new is not None:
            await self.tables.set_messages(table, lobby_message_id=new)

    async def _refresh_table(self, table: int) -> None:
        if table in self.unpostable:
            return
        view = self.tables.public_view(table)
        if view is None:
            return
        shown = [(view, self.tables.lobby(table))]
        loc = await self._locale(table)
        sent = self.tables.messages(table).table_message_id

        def newest() -> TableView:
            """The table as it is when a worker is free to draw it (the image waits behind
            people's prompts): every change so far is in it, so the refresh they queued is
            not needed."""
            latest = self.tables.public_view(table) if self._known(table) else None
            if latest is None:
                return view
            shown.append((latest, self.tables.lobby(table)))
            box = self.outboxes.get(table)
            if box is not None and self.tables.messages(table).table_message_id == sent:
                box.caught_up("table")  # (a repost meanwhile still gets its new message)
            return latest

        async def draw() -> Content:
            file = await images.newest_table_file(loc, newest)
            drawn, lobby = shown[-1]
            playing = lobby.status == "playing"
            return Content(table_embed(loc, drawn, lobby.practice, lobby.lent,
                                       closed=not playing),
                           hand_view(loc, table) if playing else discord.ui.View(), file)

        new = await self._show_in_channel(table, sent, draw, main=True)
        if new is not None:
            await self.tables.set_messages(table, table_message_id=new)

    async def repost(self, table: int) -> None:
        """`/ofc table`: the lobby or table message again, at the bottom of the channel."""
        key = "table" if self.tables.lobby(table).status == "playing" else "lobby"
        await self.tables.set_messages(table, **{f"{key}_message_id": None})
        refresh = self._refresh_table if key == "table" else self._refresh_lobby
        self._outbox(table).refresh(key, lambda: refresh(table))

    async def _post_showdown(self, event: ShowdownDone, view: TableView | None) -> None:
        assert view is not None  # a showdown happens in a started match
        loc = await self._locale(event.table_id)
        names = {s.seat: shown_seat(loc, s.name, s.is_ai) for s in view.seats}
        embed = showdown_embed(loc, event.hand_no, event.view, names, view.rules.point_value,
                               view.rules.variant == "lowball",
                               self.tables.lobby(event.table_id).practice)
        file = await images.showdown_file(loc, view)
        await self._send(event.channel_id, Content(embed, discord.ui.View(), file))

    async def _send_result(self, event: ShowdownDone, seat: int, player: int,
                           view: TableView | None, match_over: int | None = None) -> None:
        """A player's own result of a showdown, by DM, linking to the table; after the
        match's last one (`match_over`: its id), with the player's new rating."""
        if view is None or (event.table_id, player, event.hand_no) in self.prompts.no_dm:
            return
        loc = await player_locale(self.bot, player)
        names = {s.seat: shown_seat(loc, s.name, s.is_ai) for s in view.seats}
        embed = result_embed(loc, event.hand_no, event.view, seat, names,
                             where_of(self.bot, self.tables, event.table_id),
                             view.rules.variant == "lowball",
                             self.tables.lobby(event.table_id).practice)
        if embed is None:
            return
        changes = [] if match_over is None else \
            await self.bot.storage.ratings.rating_changes(match_over)
        for change in (c for c in changes if c.user_id == player):
            embed.add_field(name=t(loc, "Your rating"), value=t(
                loc, "{rating:,} ({change:+,}) after this match", rating=change.after.shown,
                change=change.after.shown - change.before.shown), inline=False)
        dm = await dm_channel(self.bot, player)
        with contextlib.suppress(discord.Forbidden):  # DMs closed: the channel shows it all
            await dm.send(embed=embed)

    def follow(self, table: int, player: int) -> None:
        """The seat's action changed through "My hand": its DM prompt follows (the draft
        shown, or closed once placed), in turn with the table's other DM edits."""
        self._outbox(table).post(lambda: self.prompts.edit_prompt(table, player))



@per_member(2, 30)
@app_commands.command(name="table",
                      description="Post this channel's table message again, at the bottom")
async def table(interaction: Interaction) -> None:
    table_id = table_here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await play_of(interaction).repost(table_id)
    await send(interaction, ephemeral=True,
               content=t(lang(interaction), "The table message is posted below."))
