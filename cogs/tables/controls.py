"""A seat's controls: the placement prompt (DM or ephemeral), its persistent components, and
what each click does.

One `DynamicItem` per kind of component (README.md "What players see"), each registered with
the template of its kind (cogs/tables/ids.py), so a button keeps working after a restart.
A click defers at once (rendering and the service may take a moment), makes one table-service
call, then redraws the clicked message; a refused click gets an ephemeral reason (the one
error path, cogs/common/answers.py).
"""

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands

from bot.engine.cards import INDEX
from bot.engine.royalties import ROW_SIZES
from bot.tables import SeatState, TableService
from cogs.common import images
from cogs.common.answers import PersistentItem, Refusal, send
from cogs.common.client import Interaction
from cogs.common.format import ROW_LABELS, card_label
from cogs.common.interactions import table_here, tables_of
from cogs.tables import ids
from cogs.tables.embeds import placed_embed, prompt_embed
from cogs.tables.ids import FANTASY_ROWS, FantasyRowId, PlaceId, StepId, TableButtonId, Turn

if TYPE_CHECKING:
    from cogs.tables.play import Play

NOT_PUBLIC = "Your controls work in your DM or in your own \"My hand\" message, not here."
Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
B = TypeVar("B", bound=discord.ui.DynamicItem[Button])


@dataclass(frozen=True)
class Content:
    """A message's embed, controls and image, for sending or for editing in place."""

    embed: discord.Embed
    view: discord.ui.View
    file: discord.File | None = None

    def to_send(self) -> dict[str, Any]:
        return {"embed": self.embed, "view": self.view} | ({"file": self.file} if self.file else {})

    def to_edit(self) -> dict[str, Any]:
        return {"embed": self.embed, "view": self.view} | \
            ({"attachments": [self.file]} if self.file else {})


async def prompt(state: SeatState, *, note: str = "", controls: bool = True) -> Content:
    """One seat's current action: the private image with the draft, and its controls."""
    return Content(prompt_embed(state, note),
                   controls_view(state) if controls else discord.ui.View(),
                   await images.hand_file(state))


def play_of(interaction: Interaction) -> "Play":
    """The presenter cog (cogs/tables/play.py), which orders the clicks on one message."""
    cog = interaction.client.get_cog("Play")
    assert cog is not None
    return cast("Play", cog)


async def show_hand(interaction: Interaction, table: int) -> None:
    """The seat's controls as an ephemeral message ("My hand", `/ofc hand`)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    state = tables_of(interaction).private_view(table, interaction.user.id)
    await send(interaction, ephemeral=True, **(await prompt(state)).to_send())


@contextlib.asynccontextmanager
async def clicked(interaction: Interaction) -> AsyncIterator[TableService]:
    """Answer the click at once (deferred), then take the clicked message's turn: clicks on
    one prompt are applied and redrawn in the order they came, so a slow redraw never
    overwrites a newer one (a "Best arrangement" image landing after "Confirm").

    Issue 21: these controls redraw the seat's private prompt on the clicked message, so they
    are refused on a public message (a forged id on the table message): only a DM or the
    seat's own ephemeral message may show its cards."""
    message = interaction.message
    if interaction.guild_id is not None and (message is None or not message.flags.ephemeral):
        raise Refusal(NOT_PUBLIC)
    await interaction.response.defer()
    async with play_of(interaction).serial(message.id if message else interaction.id):
        yield tables_of(interaction)


async def redraw(interaction: Interaction, state: SeatState) -> None:
    """The clicked prompt (DM or ephemeral) shows the seat's action as it is now; a click on
    "My hand" shows it in the seat's DM prompt too."""
    await interaction.edit_original_response(**(await prompt(state)).to_edit())
    if interaction.guild_id is not None:
        play_of(interaction).follow(state.table_id, state.player_id)


def _button(kind: type[B], custom_id: object, label: str, style: discord.ButtonStyle, *,
            row: int | None = None, disabled: bool = False) -> B:
    """A button of one of the kinds below, its meaning in `custom_id`."""
    return kind(discord.ui.Button(label=label, style=style, custom_id=str(custom_id), row=row,
                                  disabled=disabled))


class HandButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.HAND):
    """The table message's "My hand": the seat's controls, ephemerally."""

    async def clicked(self, interaction: Interaction) -> None:
        await show_hand(interaction, ids.parse_table_button(self.custom_id).table)


class BackButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.BACK):
    """R10: "I'm back" on an away seat's prompt."""

    async def clicked(self, interaction: Interaction) -> None:
        table = ids.parse_table_button(self.custom_id).table
        async with clicked(interaction) as service:
            await service.back(table, interaction.user.id)
            state = service.private_view(table, interaction.user.id)
            await redraw(interaction, state)
            if interaction.guild_id is None:
                await play_of(interaction).came_back(table, interaction.user.id,
                                                     interaction.message, state)


class PlaceButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.PLACE):
    """A dealt card to a row (or the discard): drafted, not final until Confirm (R7)."""

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_place(self.custom_id)
        turn = key.turn
        async with clicked(interaction) as service:
            state = await service.set_draft(
                turn.table, interaction.user.id, hand_no=turn.hand, street=turn.street,
                card=key.card, row=key.row, seat=turn.seat)
            await redraw(interaction, state)


class StepButton(PersistentItem, discord.ui.DynamicItem[Button], template=ids.STEP):
    """Reset, Confirm, and Fantasyland's Best arrangement (the solver)."""

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_step(self.custom_id)
        turn = key.turn
        async with clicked(interaction) as service:
            action = {"reset": service.reset_draft, "confirm": service.confirm,
                      "best": service.best_arrangement}[key.action]
            state = await action(turn.table, interaction.user.id, hand_no=turn.hand,
                                 street=turn.street, seat=turn.seat)
            if key.action == "confirm" and interaction.guild_id is None:
                # A DM prompt becomes the record of what was placed; the next action comes as
                # a new DM. An ephemeral prompt (DMs closed) goes straight on to the next one.
                await interaction.edit_original_response(
                    embed=placed_embed(turn.hand, turn.street, state), view=discord.ui.View())
                play_of(interaction).confirmed(turn.table, interaction.message)
            else:
                await redraw(interaction, state)


class FantasyRowSelect(PersistentItem, discord.ui.DynamicItem[Select],
                       template=ids.FANTASY_ROW):
    """R8: the cards chosen for one row of a Fantasyland hand; cards the menu no longer lists
    leave that row."""

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_fantasy_row(self.custom_id)
        turn = key.turn
        data: Any = interaction.data or {}
        chosen = [ids.parse_card(str(v)) for v in data.get("values", [])]
        common = {"hand_no": turn.hand, "street": turn.street, "seat": turn.seat}
        async with clicked(interaction) as service:
            state = service.private_view(turn.table, interaction.user.id)
            for card, row in state.draft.items():
                if row == key.row and card not in chosen:
                    state = await service.set_draft(turn.table, interaction.user.id, card=card,
                                                    row=None, **common)
            for card in chosen:
                state = await service.set_draft(turn.table, interaction.user.id, card=card,
                                                row=key.row, **common)
            await redraw(interaction, state)


ITEMS = (HandButton, BackButton, PlaceButton, StepButton, FantasyRowSelect)


def hand_view(table_id: int) -> discord.ui.View:
    """The table message's one button: the seat's controls, ephemerally."""
    view = discord.ui.View(timeout=None)
    view.add_item(_button(HandButton, TableButtonId("hand", table_id), "My hand",
                          discord.ButtonStyle.primary))
    return view


def _turn(state: SeatState) -> Turn:
    return Turn(state.table_id, state.hand_no, state.street, state.seat)


def controls_view(state: SeatState) -> discord.ui.View:
    """The placement controls (README.md "What players see"): a street's buttons or
    Fantasyland's menus; for an away seat the button to come back."""
    view = discord.ui.View(timeout=None)
    if state.away:  # R10: the system places for an away seat at once, until it is back
        view.add_item(_button(BackButton, TableButtonId("back", state.table_id), "I'm back",
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
                PlaceButton, PlaceId(turn, card, target),
                f"{card_label(card)} → {ROW_LABELS[target]}", style, row=row,
                disabled=not chosen and state.free.get(target, 0) <= 0))
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
        view.add_item(FantasyRowSelect(discord.ui.Select(
            custom_id=str(FantasyRowId(turn, name)), placeholder=f"{ROW_LABELS[name]} ({size})",
            min_values=0, max_values=size, options=options, row=row)))
    _finish_buttons(view, turn, state, row=3, best=True)


def _finish_buttons(view: discord.ui.View, turn: Turn, state: SeatState, *, row: int,
                    best: bool) -> None:
    if best:
        view.add_item(_button(StepButton, StepId(turn, "best"), "Best arrangement",
                              discord.ButtonStyle.primary, row=row))
    view.add_item(_button(StepButton, StepId(turn, "reset"), "Reset",
                          discord.ButtonStyle.secondary, row=row, disabled=not state.draft))
    view.add_item(_button(StepButton, StepId(turn, "confirm"), "Confirm",
                          discord.ButtonStyle.success, row=row))


@app_commands.command(name="hand",
                      description="Your cards and placement controls (only you see them)")
async def hand(interaction: Interaction) -> None:
    await show_hand(interaction, table_here(interaction))
