"""Custom ids (cogs/tables/ids.py): their exact format, the 100-character limit, strict
parsing, and the DynamicItem templates that route them, one per kind (cogs/tables/controls.py,
cogs/tables/lobby.py)."""

import re

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.cards import INDEX, JOKERS, parse_card
from cogs.tables.controls import FantasyRowSelect, PlaceButton
from cogs.tables.ids import (
    FANTASY_ROWS,
    LOBBY_ACTIONS,
    PLACE_ROWS,
    STEP_ACTIONS,
    TABLE_BUTTONS,
    BadId,
    FantasyRowId,
    LobbyId,
    PlaceId,
    StepId,
    TableButtonId,
    Turn,
    parse_fantasy_row,
    parse_lobby,
    parse_place,
    parse_step,
    parse_table_button,
)
from cogs.tables.presenter import COMPONENTS

# Storage table ids are SQLite rowids: up to 2**63 - 1.
tables = st.integers(1, 2**63 - 1)
turns = st.builds(Turn, tables, st.integers(1, 100_000), st.integers(0, 5), st.integers(0, 3))
cards = st.sampled_from(sorted(INDEX))


def test_place_id_format_carries_table_hand_street_seat_card_index_and_row() -> None:
    ace_hearts = parse_card("Ah")  # DECK is rank-major, suits s h d c: A is rank 12 -> 48 + 1
    assert str(PlaceId(Turn(12, 3, 2, 1), ace_hearts, "top")) == "ofc:place:12:3:2:1:49:top"
    assert str(PlaceId(Turn(5, 1, 1, 0), JOKERS[1], "discard")) == "ofc:place:5:1:1:0:53:discard"
    assert str(StepId(Turn(12, 3, 2, 1), "confirm")) == "ofc:confirm:12:3:2:1"
    assert str(FantasyRowId(Turn(12, 4, 0, 2), "middle")) == "ofc:fl:12:4:0:2:middle"
    assert str(LobbyId(7, "join")) == "ofc:lobby:7:join"
    assert str(TableButtonId("hand", 7)) == "ofc:hand:7"


@given(turns, cards, st.sampled_from(PLACE_ROWS))
def test_place_ids_round_trip_within_100_characters(turn: Turn, card: int, row: str) -> None:
    key = PlaceId(turn, card, row)
    assert len(str(key)) <= 100
    assert parse_place(str(key)) == key


@given(turns, st.sampled_from(STEP_ACTIONS), st.sampled_from(FANTASY_ROWS),
       tables, st.sampled_from(LOBBY_ACTIONS), st.sampled_from(TABLE_BUTTONS))
def test_other_ids_round_trip(turn: Turn, action: str, row: str, table: int, lobby: str,
                              button: str) -> None:
    assert parse_step(str(StepId(turn, action))) == StepId(turn, action)
    fantasy = Turn(turn.table, turn.hand, 0, turn.seat)  # a Fantasyland hand is street 0
    assert parse_fantasy_row(str(FantasyRowId(fantasy, row))) == FantasyRowId(fantasy, row)
    assert parse_lobby(str(LobbyId(table, lobby))) == LobbyId(table, lobby)
    assert parse_table_button(str(TableButtonId(button, table))) == TableButtonId(button, table)


@pytest.mark.parametrize("custom_id", [
    "ofc:place:1:1:1:0:54:top",  # no card has index 54
    "ofc:place:1:1:1:0:5:side",  # not a row
    "ofc:fl:1:1:1:0:top",  # a Fantasyland menu on a normal street (a forged id)
    "ofc:place:01:1:1:0:5:top",  # a leading zero is never written
    "ofc:place:-1:1:1:0:5:top",
    "ofc:place:1:1:1:0:5",  # a field short
    "ofc:place:1:1:1:0:5:top:x",  # a field long
    "ofc:place:1:1:1:0:٣:top",  # a non-ASCII digit
    "ofc:confirm:1:1:1",
    "ofc:undo:1:1:1:0",
    "ofc:fl:1:1:0:0:discard",  # Fantasyland menus are for the three rows
])
def test_forged_or_mangled_ids_are_refused(custom_id: str) -> None:
    parsers = {"place": parse_place, "confirm": parse_step, "undo": parse_step,
               "fl": parse_fantasy_row}
    with pytest.raises(BadId):
        parsers[custom_id.split(":")[1]](custom_id)


def test_lobby_and_table_buttons_refuse_unknown_actions() -> None:
    with pytest.raises(BadId):
        parse_lobby("ofc:lobby:3:dance")
    with pytest.raises(BadId):
        parse_table_button("ofc:hand:x")


def _template(item: type) -> re.Pattern[str]:
    return item.__discord_ui_compiled_template__  # type: ignore[attr-defined,no-any-return]


@given(turns, cards, st.sampled_from(PLACE_ROWS), st.sampled_from(STEP_ACTIONS),
       st.sampled_from(FANTASY_ROWS))
def test_each_id_matches_exactly_one_template(turn: Turn, card: int, row: str, action: str,
                                              fl_row: str) -> None:
    # discord.py runs every DynamicItem whose template matches: exactly one must.
    expected = {
        str(PlaceId(turn, card, row)): "PlaceButton",
        str(StepId(turn, action)): "StepButton",
        str(LobbyId(turn.table, "start")): "LobbyButton",
        str(TableButtonId("hand", turn.table)): "HandButton",
        str(TableButtonId("back", turn.table)): "BackButton",
        str(FantasyRowId(turn, fl_row)): "FantasyRowSelect",
    }
    for custom_id, kind in expected.items():
        assert [k.__name__ for k in COMPONENTS if _template(k).fullmatch(custom_id)] == [kind]


def test_templates_leave_other_cogs_ids_alone() -> None:
    for other in ("ofc:hist:123", "ofc:histhand:123:4", "tiny:count:1"):
        assert not any(_template(kind).fullmatch(other) for kind in COMPONENTS)


def test_templates_name_the_fields_of_their_kind() -> None:
    custom_id = str(FantasyRowId(Turn(12, 4, 0, 2), "middle"))
    match = _template(FantasyRowSelect).fullmatch(custom_id)
    assert match is not None
    assert match.groupdict() == {"table": "12", "hand": "4", "street": "0", "seat": "2",
                                 "row": "middle"}


async def test_dynamic_item_round_trip_keeps_the_component() -> None:
    custom_id = str(PlaceId(Turn(9, 2, 3, 1), parse_card("Td"), "discard"))
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label="T♦ → Discard", custom_id=custom_id, row=2)
    match = _template(PlaceButton).fullmatch(custom_id)
    assert match is not None
    item = await PlaceButton.from_custom_id(None, button, match)  # type: ignore[arg-type]
    assert isinstance(item, PlaceButton)
    assert item.custom_id == custom_id and item.item.label == "T♦ → Discard"
    assert item.to_component_dict() == button.to_component_dict()
