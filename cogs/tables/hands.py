"""The "My hand" messages (ephemeral) that follow their seat's hand as its DM prompt would:
each is remembered with the latest interaction that drew it, whose token alone can edit it,
for as long as Discord lets that token edit it (HAND_EDITABLE_SECONDS); a deal or a turn
redraws the newest, a placement by the clock (R10) makes it the record of its action, and the
table's close takes its controls.
"""

import dataclasses
from collections.abc import Set
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.i18n import Text, t
from bot.tables import SeatState, TableError
from cogs.common.client import Interaction
from cogs.common.language import lang
from cogs.tables.controls import image_key, where_of
from cogs.tables.embeds import CLOSED, placed_embed
from cogs.tables.outbox import Outbox
from cogs.tables.prompts import TABLE_CLOSED, Prompts, Serial

if TYPE_CHECKING:
    from bot.app import OFCBot

# Discord lets an interaction's token edit its messages for 15 minutes; a minute is left for
# the edit's own way there.
HAND_EDITABLE_SECONDS = 14 * 60


@dataclasses.dataclass(frozen=True, slots=True)
class HandShown:
    """A "My hand" message (ephemeral: only an interaction's token can edit it), the latest
    interaction that drew it, when, and the action it showed."""

    interaction: Interaction
    at: float
    player: int
    hand_no: int
    street: int


class Hands:
    """Every table's "My hand" messages in reach; given the presenter's `serial` (one edit or
    click at a time per message), the tables closed until their last jobs have run (`ended`),
    and the DM prompts (`prompts`), whose content and images these messages share."""

    def __init__(self, bot: "OFCBot", serial: Serial, ended: Set[int], prompts: Prompts) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.serial = serial
        self.ended = ended
        self.prompts = prompts
        self.messages: dict[int, dict[int, HandShown]] = {}  # table -> "My hand" message -> it
        # "My hand" messages whose follow is queued and has not read the table yet: a deal
        # and the turn it gives come together, and one redraw shows both
        self.following: set[int] = set()
        # table -> (player, hand, street) whose cards the system placed (R10, or the close)
        self.auto_placed: dict[int, set[tuple[int, int, int]]] = {}

    def forget(self, table: int) -> None:
        """The table is closed and its last jobs have run."""
        self.messages.pop(table, None)
        self.auto_placed.pop(table, None)

    def _in_reach(self, shown: HandShown) -> bool:
        """Whether Discord still lets the message's token edit it."""
        return self.bot.clock.now() - shown.at < HAND_EDITABLE_SECONDS

    def hand_shown(self, table: int, message_id: int, interaction: Interaction,
                   state: SeatState, at: float) -> None:
        """A "My hand" message was drawn by `interaction`, received `at`: the table's close
        edits it through that interaction's token while Discord allows
        (HAND_EDITABLE_SECONDS)."""
        if table in self.ended:
            return
        shown = {m: h for m, h in self.messages.get(table, {}).items()
                 if self._in_reach(h)}  # the others are out of reach
        shown[message_id] = HandShown(interaction, at, state.player_id, state.hand_no,
                                      state.street)
        self.messages[table] = shown

    def follow(self, table: int, player: int, box: Outbox) -> None:
        """The player's turn came, or their next action was dealt: their newest "My hand"
        message in reach shows it, as their DM prompt would, rather than "Waiting for" a
        player who has acted, or nothing to place, until they press My hand again."""
        mine = [(shown.at, message_id) for message_id, shown in self.messages.get(table, {}).items()
                if shown.player == player and self._in_reach(shown)]
        if mine and (newest := max(mine)[1]) not in self.following:
            self.following.add(newest)
            box.post(partial(self._follow_hand, table, newest))

    async def _follow_hand(self, table: int, message_id: int) -> None:
        async with self.serial(message_id):
            self.following.discard(message_id)  # what is asked from here on, it reads anew
            shown = self.messages.get(table, {}).get(message_id)
            if shown is None:  # the record of its action now, or the table closed
                return
            try:
                state = self.tables.private_view(table, shown.player)
            except TableError:  # the player has left, or the table is gone
                return
            if not state.view.dealt:
                return  # nothing to place: the message shows its last action as it ended
            loc = lang(shown.interaction)
            content = await self.prompts.content(table, message_id, state, loc=loc)
            try:
                await shown.interaction.edit_original_response(**content.to_edit())
            except discord.HTTPException as error:
                # An expired token (401) or a message the member dismissed (404): a press
                # of My hand shows the action again.
                if error.status not in (401, 404):
                    raise
                return
            self.prompts.shown[message_id] = image_key(loc, state)
            hands = self.messages.get(table)
            if hands is not None and message_id in hands:  # its action now, for the clock
                hands[message_id] = dataclasses.replace(shown, hand_no=state.hand_no,
                                                        street=state.street)

    def end(self, table: int, box: Outbox) -> None:
        """The table closed: each "My hand" message still in reach loses its controls (an
        older one keeps them; a click there says the table is closed)."""
        placed = self.auto_placed.pop(table, set())
        for message_id, shown in self.messages.pop(table, {}).items():
            if self._in_reach(shown):
                completed = (shown.player, shown.hand_no, shown.street) in placed
                box.post(partial(self._end_hand, table, message_id, shown, completed))

    def placed(self, table: int, action: tuple[int, int, int], note: Text | None,
               box: Outbox) -> None:
        """R10 placed the player's action (`action`: player, hand, street): each "My hand"
        message showing it becomes its record, as the DM prompt does, rather than keeping
        "Your turn" and controls whose click could only be refused."""
        hands = self.messages.get(table, {})
        for message_id, shown in list(hands.items()):
            if (shown.player, shown.hand_no, shown.street) == action:
                del hands[message_id]  # a record now: the close leaves it as it is
                if self._in_reach(shown):
                    box.post(partial(self._record_hand, table, message_id, shown, note))

    async def _record_hand(self, table: int, message_id: int, shown: HandShown,
                           note: Text | None) -> None:
        async with self.serial(message_id):
            try:
                state = self.tables.private_view(table, shown.player)
            except TableError:  # the player has left, or the table is gone
                return
            await self._edit_hand(table, shown, state, note)

    async def _end_hand(self, table: int, message_id: int, shown: HandShown,
                        completed: bool) -> None:
        """As `Prompts.end_prompt`: a message showing an action whose cards were placed for its
        player (`completed`: by the close, or by the clock since, which the message never
        showed) becomes its record; any other (a street its player placed there, a match
        played out) just says the table closed. Either way its controls go."""
        async with self.serial(message_id):
            try:
                state = self.tables.private_view(table, shown.player) if completed else None
            except TableError:  # no longer the service's
                state = None
            await self._edit_hand(table, shown, state, TABLE_CLOSED)

    async def _edit_hand(self, table: int, shown: HandShown, state: SeatState | None,
                         note: Text | None) -> None:
        """A "My hand" message without controls: the record of its action as `state` shows
        it, headed by `note`; with no `state`, that the table is closed."""
        loc = lang(shown.interaction)
        edit = shown.interaction.edit_original_response
        try:
            if state is not None:
                await edit(embed=placed_embed(
                    loc, shown.hand_no, shown.street, dataclasses.replace(state, away=False),
                    note, where=where_of(self.bot, self.tables, table)), view=discord.ui.View())
            else:
                await edit(content=t(loc, CLOSED), view=discord.ui.View())
        except discord.HTTPException as error:
            # Discord refuses an expired token (401) or a message the member dismissed
            # (404): it stays as it was, and a click there is answered.
            if error.status not in (401, 404):
                raise
