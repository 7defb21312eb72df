"""Buttons and menus: the persistent components and the views they are laid out in.

Two `DynamicItem` classes cover every component (buttons, and the Fantasyland menus): their
templates match any `ofc:` id of their kind, so a button keeps working after a restart, and
all clicks go to one `dispatch` that parses the id strictly (cogs/ids.py) and hands it to the
handler registered for its kind. A forged id that is on no message never reaches a DynamicItem
(discord.py looks the id up on the message first); `on_unlisted_component` sends those
through the same checks.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.engine.cards import INDEX
from bot.engine.royalties import ROW_SIZES
from bot.tables import LobbyView, SeatState
from cogs.common.answers import BadId, answer_error
from cogs.common.format import ROW_LABELS, card_label
from cogs.tables.ids import (
    FANTASY_ROWS,
    FantasyRowId,
    LobbyId,
    PlaceId,
    StepId,
    TableButtonId,
    Turn,
    kind_of,
)

log = logging.getLogger(__name__)

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
# Only this bot's kinds: issue 7's `ofc:hist...` menus have their own DynamicItems, and
# discord.py runs every DynamicItem whose template matches.
BUTTON_KINDS = ("lobby", "hand", "back", "place", "reset", "confirm", "best")
SELECT_KINDS = ("fl",)

Handler = Callable[[discord.Interaction[Any], str, list[str]], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    """Register the handler of these custom_id kinds (cogs/lobby.py, cogs/play.py)."""
    def register(handler: Handler) -> Handler:
        for kind in kinds:
            _HANDLERS[kind] = handler
        return handler
    return register


async def dispatch(interaction: discord.Interaction[Any], custom_id: str,
                   values: list[str]) -> None:
    """Run the handler of the id's kind; a refused action (RuleError) or an id no button of
    this bot carries (BadId) gets a short ephemeral answer and changes nothing. A failure is
    logged and the member told, instead of Discord's bare "interaction failed"."""
    try:
        handler = _HANDLERS.get(kind_of(custom_id))
        if handler is None:
            raise BadId(custom_id)
        await handler(interaction, custom_id, values)
    except Exception as error:
        await answer_error(interaction, error)


class OfcButton(discord.ui.DynamicItem[Button],
                template=rf"ofc:(?:{'|'.join(BUTTON_KINDS)}):[!-~]{{1,90}}"):
    """Every button of the bot; what it does is in its custom_id."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Button,
                             match: Any) -> "OfcButton":
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.custom_id, [])


class OfcSelect(discord.ui.DynamicItem[Select],
                template=rf"ofc:(?:{'|'.join(SELECT_KINDS)}):[!-~]{{1,90}}"):
    """The Fantasyland row menus."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Select,
                             match: Any) -> "OfcSelect":
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.custom_id, list(self.item.values))


def _listed(message: discord.Message | None, custom_id: str) -> bool:
    """Is `custom_id` one of the message's components?"""
    if message is None:
        return False
    return any(getattr(child, "custom_id", None) == custom_id
               for row in message.components for child in getattr(row, "children", ()))


async def on_unlisted_component(interaction: discord.Interaction[Any]) -> None:
    """Route an `ofc:` component id that is on no message (only a modified client sends one)
    through the same checks as a real click, so it is refused with a reason, never ignored."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith("ofc:") or _listed(interaction.message, custom_id):
        return
    await dispatch(interaction, custom_id, [str(v) for v in data.get("values", [])])


def _button(custom_id: object, label: str, style: discord.ButtonStyle, *, row: int | None = None,
            disabled: bool = False) -> OfcButton:
    return OfcButton(discord.ui.Button(label=label, style=style, custom_id=str(custom_id),
                                       row=row, disabled=disabled))


def lobby_view(lobby: LobbyView) -> discord.ui.View:
    """Join / Leave / Start / Cancel, and computers of both levels; nothing once it started."""
    view = discord.ui.View(timeout=None)
    if lobby.status != "lobby":
        return view
    full = lobby.is_full
    table = lobby.table_id
    grey, green = discord.ButtonStyle.secondary, discord.ButtonStyle.success
    view.add_item(_button(LobbyId(table, "join"), "Join", green, row=0, disabled=full))
    view.add_item(_button(LobbyId(table, "leave"), "Leave", grey, row=0))
    view.add_item(_button(LobbyId(table, "start"), "Start", discord.ButtonStyle.primary, row=0,
                          disabled=len(lobby.seats) < 2))
    view.add_item(_button(LobbyId(table, "cancel"), "Cancel", discord.ButtonStyle.danger, row=0))
    for level in ("easy", "strong"):
        view.add_item(_button(LobbyId(table, level), f"Add computer ({level})", grey, row=1,
                              disabled=full))
    return view


def hand_view(table_id: int) -> discord.ui.View:
    """The table message's one button: the seat's controls, ephemerally."""
    view = discord.ui.View(timeout=None)
    view.add_item(_button(TableButtonId("hand", table_id), "My hand",
                          discord.ButtonStyle.primary))
    return view


def _turn(state: SeatState) -> Turn:
    return Turn(state.table_id, state.hand_no, state.street, state.seat)


def controls_view(state: SeatState) -> discord.ui.View:
    """The placement controls of DESIGN.md: a street's buttons or Fantasyland's menus; for an
    away seat the button to come back."""
    view = discord.ui.View(timeout=None)
    if state.away:  # R10: the system places for an away seat at once, until it is back
        view.add_item(_button(TableButtonId("back", state.table_id), "I'm back",
                              discord.ButtonStyle.primary))
    elif state.view.dealt and state.street == 0:
        _fantasy_controls(view, state)
    elif state.view.dealt:
        _street_controls(view, state)
    return view


def _street_controls(view: discord.ui.View, state: SeatState) -> None:
    """One action row per dealt card (Top / Middle / Bottom, Discard when one is due), full
    rows disabled; Reset and Confirm share the last row when it has room (5 cards on street 1:
    rows 1-4 one card each, row 5 the last card + Reset + Confirm)."""
    turn = _turn(state)
    targets = ("top", "middle", "bottom") + (("discard",) if state.view.discard_count else ())
    dealt = state.view.dealt
    for row, card in enumerate(dealt):
        for target in targets:
            chosen = state.draft.get(card) == target
            style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
            view.add_item(_button(
                PlaceId(turn, card, target), f"{card_label(card)} → {ROW_LABELS[target]}", style,
                row=row, disabled=not chosen and state.free.get(target, 0) <= 0))
    # Discord allows 5 rows of 5: a 5-card street (never with a discard, R7) shares its last row.
    last = len(dealt) - 1 if len(dealt) == 5 else len(dealt)
    _finish_buttons(view, turn, state, row=last, best=False)


def _fantasy_controls(view: discord.ui.View, state: SeatState) -> None:
    """R8: three menus (top 3, middle 5, bottom 5) over all the dealt cards; the rest are
    discarded. Best arrangement asks the solver."""
    turn = _turn(state)
    for row, name in enumerate(FANTASY_ROWS):
        size = ROW_SIZES[name]
        options = [discord.SelectOption(label=card_label(card), value=str(INDEX[card]),
                                        default=state.draft.get(card) == name)
                   for card in state.view.dealt]
        view.add_item(OfcSelect(discord.ui.Select(
            custom_id=str(FantasyRowId(turn, name)), placeholder=f"{ROW_LABELS[name]} ({size})",
            min_values=0, max_values=size, options=options, row=row)))
    _finish_buttons(view, turn, state, row=3, best=True)


def _finish_buttons(view: discord.ui.View, turn: Turn, state: SeatState, *, row: int,
                    best: bool) -> None:
    if best:
        view.add_item(_button(StepId(turn, "best"), "Best arrangement",
                              discord.ButtonStyle.primary, row=row))
    view.add_item(_button(StepId(turn, "reset"), "Reset", discord.ButtonStyle.secondary, row=row,
                          disabled=not state.draft))
    view.add_item(_button(StepId(turn, "confirm"), "Confirm", discord.ButtonStyle.success,
                          row=row))

