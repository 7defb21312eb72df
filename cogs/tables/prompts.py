"""A seat's prompt by DM: sent once per action, redrawn with that action only, closed into its
record once the action is over; and, when no DM reaches a player (closed, or `/ofc
preferences`), the channel told once to use "My hand".

A DM prompt is recorded with the action it was sent for (DmPrompt) and is only ever redrawn
with that action; once the action is over it becomes its record, with no controls. Every edit
of a prompt takes that message's turn (`serial`), as clicks do, and reads the table when it
runs: a late job can close an old prompt but never draw a later action on it, and the next
action always comes as a new message with its controls.
"""

import dataclasses
from collections.abc import Awaitable, Callable, Sequence, Set
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

import discord

from bot.i18n import Slash, Text
from bot.tables import DmPrompt, LobbySeat, SeatState, TableError, is_person
from cogs.common.dms import dm_channel
from cogs.common.language import player_locale
from cogs.tables.controls import Content, controls_view, image_key, prompt, where_of
from cogs.tables.elsewhere import Elsewhere
from cogs.tables.embeds import Where, placed_embed, without_way_back

if TYPE_CHECKING:
    from bot.app import OFCBot

DMS_CLOSED = 50007  # Discord: "Cannot send messages to this user"
TIME_RAN_OUT = Text("Time ran out: your cards were placed for you.")
TABLE_CLOSED = Text("Table closed: your cards were placed for you.")

Serial = Callable[[int], AbstractAsyncContextManager[None]]  # one at a time per message


class Prompts:
    """Every table's DM prompts, and which went out; given the presenter's `serial` (one
    edit or click at a time per message), the tables closed until their last jobs have run
    (`ended`), and its way to tell a table's channel a line (`tell_channel`)."""

    def __init__(self, bot: "OFCBot", serial: Serial, ended: Set[int],
                 tell_channel: Callable[[int, Text], Awaitable[None]]) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.serial = serial
        self.ended = ended
        self.tell_channel = tell_channel
        # (table, DM prompt message) -> whether it shows "your turn"
        self.turn_shown: dict[tuple[int, int], bool] = {}
        self.closed: set[tuple[int, int]] = set()  # DM prompts now the record of their action
        self.no_dm: set[tuple[int, int, int]] = set()  # (table, player, hand): DM refused
        self.told: set[tuple[int, int]] = set()  # (table, player) told to use My hand
        # prompt message -> what its image shows (controls.image_key): uploaded again only
        # when that changes
        self.shown: dict[int, tuple[object, ...]] = {}
        self.elsewhere = Elsewhere(bot.tables, bot.storage.tables, bot.shard_plan)

    def forget(self, table: int) -> None:
        """The table is closed and its last jobs have run."""
        self.turn_shown = {k: v for k, v in self.turn_shown.items() if k[0] != table}
        self.closed = {k for k in self.closed if k[0] != table}
        self.no_dm = {k for k in self.no_dm if k[0] != table}
        self.told = {k for k in self.told if k[0] != table}

    def _where(self, table: int) -> Where:
        return where_of(self.bot, self.tables, table)

    async def dm_where(self, table: int, state: SeatState) -> Where:
        """The table a DM prompt is for: a player seated at another table too reads which in
        its title (cogs/tables/elsewhere.py)."""
        return dataclasses.replace(self._where(table),
                                   named=await self.elsewhere.seated(table, state))

    async def content(self, table: int, message_id: int | None, state: SeatState,
                      note: Text | None = None, *, loc: str | None = None) -> Content:
        """A prompt's content, its image only when what it shows changed: a DM prompt's in
        its player's language; with `loc`, a "My hand" message's (its interaction's)."""
        dm = loc is None
        if loc is None:
            loc = await player_locale(self.bot, state.player_id)
        key = image_key(loc, state)
        fresh = message_id is None or self.shown.get(message_id) != key
        four_colour = fresh and (
            await self.bot.storage.preferences.preferences(state.player_id)).four_colour
        return await prompt(loc, state, note=note, image=fresh, four_colour=four_colour,
                            where=await self.dm_where(table, state) if dm
                            else self._where(table))

    async def send_prompt(self, table: int, player: int, hand: int, street: int,
                           again: bool = False) -> None:
        """The seat's controls for this action by DM, once: when the action's prompt is
        already out (a restart announces every deal again: `again`) it is redrawn in place."""
        try:
            state = self.tables.private_view(table, player)
        except TableError:
            return  # the player got up (or the table closed) before this job ran
        sent = self.tables.messages(table).dm.get(player)
        if not _asks(state, hand, street):
            # Placed (or timed out) meanwhile: nothing to ask. When the DMs fell behind the
            # play, the prompt on record may be of an action over since: it closes now, not
            # when the next action's prompt comes (the next hand's, if this was the last).
            if sent is not None and not _asks(state, sent.hand_no, sent.street):
                await self._redraw_prompt(table, player, sent)
            return
        if sent is not None and (sent.hand_no, sent.street) == (hand, street):
            await self._redraw_prompt(table, player, sent)
            return
        if (table, player, hand) in self.no_dm:
            return
        # A deal announced again after a restart, to a player with no DM on record who was
        # dealt an earlier street of this hand (or earned this Fantasyland here): a DM was
        # tried then, found no way, and the channel was told (once a table).
        told = again and sent is None and street != 1
        if (await self.bot.storage.preferences.preferences(player)).controls == "channel":
            await self._in_channel(table, player, hand, told)  # /ofc preferences: no DMs
            return
        if sent is not None:
            await self._close_prompt(table, player, sent)
        try:
            dm = await dm_channel(self.bot, player)
            message = await dm.send(**(await self.content(table, None, state)).to_send())
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                raise
            await self._dms_closed(table, player, hand, told)
            return
        shown = DmPrompt(message.channel.id, message.id, hand, street)
        if table not in self.ended:
            self.turn_shown[table, message.id] = state.to_act
            self.shown[message.id] = image_key(await player_locale(self.bot, player), state)
            await self.tables.set_dm_message(table, player, shown)
        if sent is not None and state.away:
            # One way back per table, on the newest prompt: the record before it had it.
            async with self.serial(sent.message_id):
                await self._drop_way_back(table, player, sent)
        # The table closed while this prompt was on its way, or before it was recorded (the
        # record waits for the table, which the close held): the close did not see it, so it
        # ends here as the close ends the prompts it saw.
        if table in self.ended:
            await self.end_prompt(table, player, shown)

    async def told_before_stop(self, table: int, seats: Sequence[LobbySeat]) -> None:
        """A restored table's player with no DM on record and cards on their board was told
        before the stop, at their first street, that no DM reaches them: with nothing dealt
        to them now (they placed their street and wait for the others), no deal announced
        again says so, and the next hand's deal must not tell the channel a second time."""
        dms = self.tables.messages(table).dm
        for seat in seats:
            if not is_person(seat.player_id) or seat.player_id in dms:
                continue
            try:
                state = self.tables.private_view(table, seat.player_id)
            except TableError:
                continue
            if state.view.board.cards:
                self.told.add((table, seat.player_id))

    async def _in_channel(self, table: int, player: int, hand: int, told: bool) -> None:
        """A player who chose My hand over DMs (`/ofc preferences`) is told so once a table."""
        await self._no_dm(table, player, hand, told, Text(
            "{who}, as you prefer, your cards are not sent by DM: press **My hand** on the "
            "table message (or use `{cmd}`) to place them.", who=f"<@{player}>",
            cmd=Slash("ofc hand")))

    async def _dms_closed(self, table: int, player: int, hand: int, told: bool) -> None:
        await self._no_dm(table, player, hand, told, Text(
            "{who}, I cannot send you direct messages. Press **My hand** on the table message "
            "(or use `{cmd}`) to see your cards and place them.", who=f"<@{player}>",
            cmd=Slash("ofc hand")))

    async def _no_dm(self, table: int, player: int, hand: int, told: bool,
                     notice: Text) -> None:
        """No DMs to the player this hand (tried again next hand: DMs may open meanwhile);
        the channel is told why once a table (`told`: before a restart)."""
        self.no_dm.add((table, player, hand))
        if (table, player) in self.told:
            return
        self.told.add((table, player))
        if told:
            return
        await self.tell_channel(table, notice)

    async def edit_prompt(self, table: int, player: int, note: Text | None = None, *,
                           turn: bool = False, close: bool = True) -> None:
        """Update the player's DM prompt: its turn came (`turn`: only if that changes it), it
        is away (`close=False`: the prompt of an action already over is left to the note that
        says how it ended), or `note` says why its action is over."""
        sent = self.tables.messages(table).dm.get(player)
        if sent is not None:
            await self._redraw_prompt(table, player, sent, note, turn=turn, close=close)

    async def _redraw_prompt(self, table: int, player: int, sent: DmPrompt,
                             note: Text | None = None, *, turn: bool = False,
                             close: bool = True) -> None:
        async with self.serial(sent.message_id):
            try:
                state = self.tables.private_view(table, player)
            except TableError:
                return  # the player has left
            if turn and (not state.to_act or self.turn_shown.get((table, sent.message_id), True)):
                return  # shown as its turn already, or closed: a confirm's record stays
            message = self._dm_message(sent)
            if state.away and not state.view.dealt:
                # R10: nothing to place while away; the prompt offers the way back, and the
                # action it shows from now on is the seat's current one.
                await message.edit(**(await self.content(table, sent.message_id, state,
                                                         note)).to_edit())
                self.shown[sent.message_id] = image_key(
                    await player_locale(self.bot, player), state)
                self.turn_shown[table, sent.message_id] = state.to_act
                self.closed.discard((table, sent.message_id))
                await self.tables.set_dm_message(
                    table, player, sent._replace(hand_no=state.hand_no, street=state.street))
            elif _asks(state, sent.hand_no, sent.street):
                await message.edit(**(await self.content(table, sent.message_id, state,
                                                         note)).to_edit())
                self.shown[sent.message_id] = image_key(
                    await player_locale(self.bot, player), state)
                self.turn_shown[table, sent.message_id] = state.to_act
            elif close:
                await self._close_locked(table, sent, state, note)

    async def _close_prompt(self, table: int, player: int, sent: DmPrompt) -> None:
        """The prompt's action is over: it becomes its record, without controls."""
        async with self.serial(sent.message_id):
            try:
                state = self.tables.private_view(table, player)
            except TableError:
                return
            await self._close_locked(table, sent, state)

    async def _close_locked(self, table: int, sent: DmPrompt, state: SeatState,
                            note: Text | None = None) -> None:
        if (table, sent.message_id) in self.closed:
            return
        self.closed.add((table, sent.message_id))
        self.turn_shown[table, sent.message_id] = True
        self.shown.pop(sent.message_id, None)  # a record keeps its image
        # No attachments given: the image of the action as it was shown stays. An away seat
        # keeps its way back, which belongs to no action.
        loc = await player_locale(self.bot, state.player_id)
        await self._dm_message(sent).edit(
            embed=placed_embed(loc, sent.hand_no, sent.street, state, note,
                               where=self._where(table)),
            view=controls_view(loc, state) if state.away else discord.ui.View())

    async def got_up(self, table: int, player: int, note: Text) -> None:
        """The player got up, or sat out while away (R10, R11): the prompt on record keeps
        no control ("I'm back" there could only be refused: a cash table's /ofc join buys in
        again) and says so (`note`); the hand was over, so its action was placed."""
        try:
            sent = self.tables.messages(table).dm.get(player)
        except TableError:  # no longer the service's: its close ended the prompts
            return
        if sent is not None:
            async with self.serial(sent.message_id):
                self.closed.add((table, sent.message_id))
                await self._drop_way_back(table, player, sent, note)

    async def _drop_way_back(self, table: int, player: int, sent: DmPrompt,
                             note: Text | None = None) -> None:
        """The prompt loses its controls and the away line that offered them (its text is
        read back: the board it recorded may be gone from the table by now)."""
        message = await self._dm_message(sent).fetch()
        loc = await player_locale(self.bot, player)
        shown = message.embeds[0] if message.embeds else discord.Embed()
        await message.edit(embed=without_way_back(loc, shown, sent.hand_no, sent.street, note,
                                                  where=self._where(table)),
                           view=discord.ui.View())

    async def end_prompt(self, table: int, player: int, sent: DmPrompt) -> None:
        """The table closed with the prompt's action open: closing completed the hand in play
        (R10 placed its cards), so the prompt becomes its record and says so, rather than
        keeping "Your turn" and a countdown to a moment that never comes. Away or not, the
        player has no way back to a closed table."""
        async with self.serial(sent.message_id):
            try:
                state = self.tables.private_view(table, player)
            except TableError:  # no longer the service's: only the controls go
                if (table, sent.message_id) not in self.closed:
                    self.closed.add((table, sent.message_id))
                    await self._dm_message(sent).edit(view=discord.ui.View())
                return
            await self._close_locked(table, sent, dataclasses.replace(state, away=False),
                                     TABLE_CLOSED)

    def _dm_message(self, sent: DmPrompt) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(
            sent.channel_id, type=discord.ChannelType.private).get_partial_message(sent.message_id)

    def confirmed(self, table: int, message: discord.Message | None) -> None:
        """A DM prompt's Confirm turned it into its record (the click's own edit)."""
        if message is not None:
            self.closed.add((table, message.id))
            self.turn_shown[table, message.id] = True
            self.shown.pop(message.id, None)  # a record keeps its image

    async def came_back(self, table: int, player: int, message: discord.Message | None,
                        state: SeatState) -> None:
        """"Back" redrew a DM prompt with the seat's current action: it is that action's
        prompt now."""
        if message is None:
            return
        self.closed.discard((table, message.id))
        self.turn_shown[table, message.id] = state.to_act
        await self.tables.set_dm_message(
            table, player, DmPrompt(message.channel.id, message.id, state.hand_no, state.street))


def _asks(state: SeatState, hand: int, street: int) -> bool:
    """Whether the seat's action now is that of `hand` and `street`, with cards to place."""
    return (state.hand_no, state.street) == (hand, street) and bool(state.view.dealt)
