"""A seat's controls: the placement prompt (DM or ephemeral), its persistent components, and
what each click does.

One `DynamicItem` per kind of component (docs/players/tables.md), each registered with
the template of its kind (cogs/tables/ids.py), so a button keeps working after a restart.
A click is deferred at once (rendering and the service may take a moment) and, while that
defer travels, makes one table-service call and draws the prompt, then redraws the clicked
message once the defer is through; a refused click gets an ephemeral reason (the one
error path, cogs/common/answers.py).
"""

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands

from bot.engine.cards import INDEX, Card
from bot.engine.ordering import order_cards
from bot.engine.outlook import draft_outlook
from bot.engine.royalties import ROW_SIZES
from bot.i18n import Text, t
from bot.tables import SeatState, TableService
from cogs.common import images
from cogs.common.answers import (
    PersistentItem,
    Refusal,
    acknowledge,
    acknowledged,
    send,
)
from cogs.common.client import Interaction
from cogs.common.format import card_button, card_label, row_word
from cogs.common.interactions import per_member, storage_of, table_here, tables_of
from cogs.common.language import lang
from cogs.tables import ids
from cogs.tables.embeds import Where, placed_embed, prompt_embed
from cogs.tables.ids import (
    FANTASY_ROWS,
    FantasyRowId,
    PlaceId,
    RowNameId,
    StepId,
    TableButtonId,
    Turn,
    card_key,
)

if TYPE_CHECKING:
    from cogs.tables.presenter import TablePresenter

NOT_PUBLIC = Text("Your controls work in your DM or in your own \"My hand\" message, not "
                  "here.")
Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
B = TypeVar("B", bound=discord.ui.DynamicItem[Button])
# A phone fits 4 buttons to a line (tests/phone.py): a name and 3 cards, or a card and 3 rows.
GRID_CARDS = 4
MAX_ROWS = 5  # Discord's action rows in a message
# Per member: Suggest is about a second of the strong computer's thinking, Solve (the best
# arrangement) a solve of up to 17 cards. The first press for each action is not counted
# (Limit.take's `once`): a practice against computers can play ten streets in a minute.
SUGGEST = per_member(6, 60)
BEST = per_member(3, 60)


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


async def prompt(loc: str, state: SeatState, *, note: Text | None = None,
                 controls: bool = True, where: Where | None = None, image: bool = True,
                 asking: bool = False, four_colour: bool = False) -> Content:
    """One seat's current action in `loc`: its controls and the private image (without the
    draft, which the buttons show: `image=False` leaves the image the message already has)."""
    return Content(prompt_embed(loc, state, note, where=where, asking=asking),
                   controls_view(loc, state, asking=asking) if controls else discord.ui.View(),
                   await images.private_file(loc, state.view, {}, four_colour) if image
                   else None)


def image_key(loc: str, state: SeatState) -> tuple[object, ...]:
    """What the private image shows (the draft aside), in which language: a prompt uploads
    it again only when this changes (a phone's data)."""
    view = state.view
    table = view.table
    return (loc, state.hand_no, state.street, view.board, view.dealt, view.discards,
            table.button,
            tuple((s.seat, s.board, s.hidden_cards, s.stack, s.away, s.sitting_out)
                  for s in table.seats))


def where_of(client: discord.Client, service: TableService, table: int) -> Where:
    """The server and channel of a table by name, and a link to its table message."""
    lobby = service.lobby(table)
    channel_id = lobby.thread_id or lobby.channel_id
    guild = client.get_guild(lobby.guild_id)
    channel = client.get_channel(channel_id)
    message = service.messages(table).table_message_id
    url = f"https://discord.com/channels/{lobby.guild_id}/{channel_id}" + \
        (f"/{message}" if message else "")
    return Where(guild.name if guild else None, getattr(channel, "name", None), url,
                 lobby.practice)


def play_of(interaction: Interaction) -> "TablePresenter":
    """The presenter cog (cogs/tables/presenter.py), which orders the clicks on one message."""
    cog = interaction.client.get_cog("TablePresenter")
    assert cog is not None
    return cast("TablePresenter", cog)


async def show_hand(interaction: Interaction, table: int) -> None:
    """The seat's controls as an ephemeral message ("My hand", `/ofc hand`)."""
    began = interaction.client.clock.now()  # the interaction's token lasts from about then
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = tables_of(interaction)
    state = service.own_hand(table, interaction.user.id)
    prefs = await storage_of(interaction).preferences.preferences(interaction.user.id)
    content = await prompt(lang(interaction), state,
                           where=where_of(interaction.client, service, table),
                           four_colour=prefs.four_colour)
    shown = await send(interaction, ephemeral=True, **content.to_send())
    if shown is not None:
        play_of(interaction).hands.hand_shown(table, shown.id, interaction, state, began)


@contextlib.asynccontextmanager
async def clicked(interaction: Interaction) -> AsyncIterator[TableService]:
    """Answer the click at once (deferred), then take the clicked message's turn: clicks on
    one prompt are applied and redrawn in the order they came, so a slow redraw never
    overwrites a newer one (a "Solve" draft landing after "Confirm").

    These controls redraw the seat's private prompt on the clicked message, so they
    are refused on a public message (a forged id on the table message): only a DM or the
    seat's own ephemeral message may show its cards."""
    message = interaction.message
    if interaction.guild_id is not None and (message is None or not message.flags.ephemeral):
        raise Refusal(NOT_PUBLIC)
    acknowledge(interaction)  # while the service acts and the prompt is drawn
    async with play_of(interaction).serial(message.id if message else interaction.id):
        yield tables_of(interaction)


async def redraw(interaction: Interaction, state: SeatState, *, asking: bool = False) -> None:
    """The clicked prompt (DM or ephemeral) shows the seat's action as it is now, its image
    uploaded again only when what it shows changed; a click on "My hand" shows it in the
    seat's DM prompt too."""
    play = play_of(interaction)
    began = interaction.client.clock.now()
    loc = lang(interaction)
    key = image_key(loc, state)
    message = interaction.message
    fresh = message is None or play.prompts.shown.get(message.id) != key
    where = (await play.prompts.dm_where(state.table_id, state) if interaction.guild_id is None
             else where_of(interaction.client, tables_of(interaction), state.table_id))
    four_colour = fresh and (await storage_of(interaction).preferences.preferences(
        interaction.user.id)).four_colour
    content = await prompt(loc, state, where=where, image=fresh, asking=asking,
                           four_colour=four_colour)
    await acknowledged(interaction)
    await interaction.edit_original_response(**content.to_edit())
    if message is not None:
        play.prompts.shown[message.id] = key
    if interaction.guild_id is not None:
        play.follow(state.table_id, state.player_id)
        if message is not None:  # this click's token reaches the "My hand" message longest
            play.hands.hand_shown(state.table_id, message.id, interaction, state, began)


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
                await play_of(interaction).prompts.came_back(table, interaction.user.id,
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
    """Reset, Confirm (a board that fouls asks again: "Confirm anyway"), Fantasyland's
    Solve (the solver's best arrangement), and Suggest at a table with hints on (the strong
    computer's choice, R10). The click is deferred first: a suggestion takes about a
    second of the computer's thinking."""

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_step(self.custom_id)
        turn = key.turn
        limit = {"suggest": SUGGEST, "best": BEST}.get(key.action)
        if limit is not None:
            limit.take(interaction, once=turn)
        async with clicked(interaction) as service:
            if key.action == "confirm":
                state = service.private_view(turn.table, interaction.user.id)
                if state.hand_no == turn.hand and state.street == turn.street and fouls(state):
                    await redraw(interaction, state, asking=True)
                    return
            action = {"reset": service.reset_draft, "confirm": service.confirm,
                      "anyway": service.confirm, "best": service.best_arrangement,
                      "suggest": service.suggest}[key.action]
            state = await action(turn.table, interaction.user.id, hand_no=turn.hand,
                                 street=turn.street, seat=turn.seat)
            if key.action in ("confirm", "anyway") and interaction.guild_id is None:
                # A DM prompt becomes the record of what was placed; the next action comes as
                # a new DM. An ephemeral prompt (DMs closed) goes straight on to the next one.
                where = where_of(interaction.client, service, turn.table)
                await acknowledged(interaction)
                await interaction.edit_original_response(
                    embed=placed_embed(lang(interaction), turn.hand, turn.street, state,
                                       where=where),
                    view=discord.ui.View())
                play_of(interaction).prompts.confirmed(turn.table, interaction.message)
            else:
                await redraw(interaction, state)


def fouls(state: SeatState) -> bool:
    """The draft is complete and makes the board foul (R3): it cannot avoid a foul with it,
    though it could before (a board already doomed is not asked about again each street)."""
    if not state.complete or not state.view.dealt:
        return False
    outlook = draft_outlook(state.view, state.draft)
    return (outlook.fouled or outlook.foul_unavoidable) \
        and not draft_outlook(state.view).foul_unavoidable


class RowName(PersistentItem, discord.ui.DynamicItem[Button], template=ids.ROW_NAME):
    """The greyed name of a row of the placement grid, or of a card beside its rows: never
    enabled, so only a modified client clicks it."""

    async def clicked(self, interaction: Interaction) -> None:
        if ids.ROW_NAME.fullmatch(self.custom_id)["row"].startswith("card"):  # type: ignore[index]
            raise Refusal(Text("That button names the card: press a row beside it."))
        raise Refusal(Text("That button names the row: press a card in it."))


class FantasyRowSelect(PersistentItem, discord.ui.DynamicItem[Select],
                       template=ids.FANTASY_ROW):
    """R8: the cards chosen for one row of a Fantasyland hand; cards the menu no longer lists
    leave that row."""

    async def clicked(self, interaction: Interaction) -> None:
        key = ids.parse_fantasy_row(self.custom_id)
        turn = key.turn
        data: Any = interaction.data or {}
        chosen = [ids.parse_card(str(v)) for v in data.get("values", [])]
        async with clicked(interaction) as service:
            state = await service.set_row(turn.table, interaction.user.id, hand_no=turn.hand,
                                          street=turn.street, row=key.row, cards=chosen,
                                          seat=turn.seat)
            await redraw(interaction, state)


ITEMS = (HandButton, BackButton, PlaceButton, StepButton, RowName, FantasyRowSelect)


def hand_view(loc: str, table_id: int) -> discord.ui.View:
    """The table message's one button: the seat's controls, ephemerally."""
    view = discord.ui.View(timeout=None)
    view.add_item(_button(HandButton, TableButtonId("hand", table_id), t(loc, "My hand"),
                          discord.ButtonStyle.primary))
    return view


def _turn(state: SeatState) -> Turn:
    return Turn(state.table_id, state.hand_no, state.street, state.seat)


def controls_view(loc: str, state: SeatState, *, asking: bool = False) -> discord.ui.View:
    """The placement controls (docs/players/tables.md): a street's buttons or
    Fantasyland's menus; for an away seat the button to come back. `asking`: Confirm was
    pressed on a board that fouls, and "Confirm anyway" takes its place."""
    view = discord.ui.View(timeout=None)
    if state.away:  # R10: the system places for an away seat at once, until it is back
        view.add_item(_button(BackButton, TableButtonId("back", state.table_id),
                              t(loc, "I'm back"), discord.ButtonStyle.primary))
    elif state.view.dealt and state.street == 0:
        _fantasy_controls(loc, view, state, asking)
    elif state.view.dealt:
        _street_controls(loc, view, state, asking)
    return view


def _street_controls(loc: str, view: discord.ui.View, state: SeatState, asking: bool) -> None:
    """A street's buttons, at most 4 to a line so that no line wraps on a phone (tests/phone.py):
    - up to 3 cards (streets 2-5 of pineapple): one action row per target (Top, Middle,
      Bottom, Discard when one is due), named by a greyed button, then a button per card;
      Reset and Confirm (and Suggest with hints on) on the last row;
    - 4 or 5 cards (street 1, turbo's later streets), never a discard: one action row per card,
      named by a greyed button with the card, then Top, Middle and Bottom. Turbo's 4 rows
      leave the fifth for Suggest, Reset and Confirm; street 1's 5 rows take Suggest and
      Confirm as their fifth buttons, and no Reset (a card moves to another row by one tap,
      and a sixth line would not fit the screen).
    A target row that is full is disabled, except for the cards drafted into it."""
    turn = _turn(state)
    targets = ("top", "middle", "bottom") + (("discard",) if state.view.discard_count else ())
    dealt = state.view.dealt

    def place(card: Card, target: str, label: str, row: int) -> None:
        chosen = state.draft.get(card) == target
        style = discord.ButtonStyle.success if chosen else discord.ButtonStyle.secondary
        view.add_item(_button(PlaceButton, PlaceId(turn, card, target), label, style, row=row,
                              disabled=not chosen and state.free.get(target, 0) <= 0
                              and target != "discard"))

    def name(key: str, label: str, row: int) -> None:
        view.add_item(_button(RowName, RowNameId(key), label, discord.ButtonStyle.secondary,
                              row=row, disabled=True))

    def suggest(row: int) -> None:
        if state.view.table.rules.hints == "on" and not asking:
            view.add_item(_button(StepButton, StepId(turn, "suggest"), t(loc, "Suggest"),
                                  discord.ButtonStyle.primary, row=row))

    if len(dealt) < GRID_CARDS:
        for row, target in enumerate(targets):
            name(target, row_word(loc, target), row)
            for card in dealt:
                place(card, target, card_button(loc, card), row)
        last = len(targets)
    else:
        for row, card in enumerate(dealt):
            name(card_key(card), card_button(loc, card), row)
            for target in targets:
                place(card, target, row_word(loc, target), row)
        last = min(len(dealt), MAX_ROWS - 1)
    full = len(dealt) == MAX_ROWS  # street 1: every action row holds a card
    suggest(0 if full else last)
    _finish_buttons(loc, view, turn, state, row=last, best=False, asking=asking,
                    reset=not full)


def _fantasy_controls(loc: str, view: discord.ui.View, state: SeatState, asking: bool) -> None:
    """R8: three menus (top 3, middle 5, bottom 5) over all the dealt cards; the rest are
    discarded. Solve asks the solver for the best arrangement."""
    turn = _turn(state)
    for row, name in enumerate(FANTASY_ROWS):
        size = ROW_SIZES[name]
        options = [discord.SelectOption(label=card_label(loc, card), value=str(INDEX[card]),
                                        default=state.draft.get(card) == name)
                   for card in order_cards(state.view.dealt)]
        view.add_item(FantasyRowSelect(discord.ui.Select(
            custom_id=str(FantasyRowId(turn, name)), placeholder=f"{row_word(loc, name)} ({size})",
            min_values=0, max_values=size, options=options, row=row)))
    _finish_buttons(loc, view, turn, state, row=3, best=True, asking=asking)


def _finish_buttons(loc: str, view: discord.ui.View, turn: Turn, state: SeatState, *,
                    row: int, best: bool, asking: bool, reset: bool = True) -> None:
    """Reset, and Confirm only once the draft is complete and it is the seat's turn (in
    sequential play a waiting seat drafts ahead and confirms on its turn: its prompt is
    redrawn then); "Confirm anyway" (red) when Confirm was pressed on a board that fouls, with
    Reset only (the line fits a phone: the question is to confirm or to change the draft)."""
    if best and not asking:
        view.add_item(_button(StepButton, StepId(turn, "best"), t(loc, "Solve"),
                              discord.ButtonStyle.primary, row=row))
    if reset:
        view.add_item(_button(StepButton, StepId(turn, "reset"), t(loc, "Reset"),
                              discord.ButtonStyle.secondary, row=row, disabled=not state.draft))
    if asking:
        view.add_item(_button(StepButton, StepId(turn, "anyway"), t(loc, "Confirm anyway"),
                              discord.ButtonStyle.danger, row=row))
    else:
        view.add_item(_button(StepButton, StepId(turn, "confirm"), t(loc, "Confirm"),
                              discord.ButtonStyle.success, row=row,
                              disabled=not (state.complete and state.to_act)))


@app_commands.command(name="hand",
                      description="Your cards and placement controls (only you see them)")
async def hand(interaction: Interaction) -> None:
    await show_hand(interaction, table_here(interaction))
