"""The custom_ids of the table components (docs/players/tables.md), written and parsed
here and nowhere else.

A component's whole meaning is in its custom_id, so a button still works after a restart:
`ofc:<kind>:<table>:...`. Placement ids carry hand, street and seat, so a stale or someone
else's click is recognised before anything changes. Cards are written as `INDEX[card]`
(0..53), rows by name. Every id is at most 100 characters (Discord's limit).

Each kind has one template, a regular expression naming its fields: the DynamicItem of that
kind (cogs/tables/controls.py, cogs/tables/lobby.py) is registered with it, and the parser of
that kind reads the fields through it, then checks them strictly (no leading zeros, a card
that exists), so a forged or mangled id is refused with a reason (BadId) instead of ignored.
"""

import re
from dataclasses import dataclass

from bot.engine.cards import INDEX, Card
from bot.tables import card_from_index
from cogs.common.answers import BadId

MAX_LENGTH = 100
PLACE_ROWS = ("top", "middle", "bottom", "discard")
FANTASY_ROWS = ("top", "middle", "bottom")
# easy, strong: add a computer of that level; remove: the computer seated last
LOBBY_ACTIONS = ("join", "leave", "easy", "strong", "remove", "start", "cancel")
# anyway: confirm a board that fouls; suggest: the strong computer's choice (hints on)
STEP_ACTIONS = ("reset", "confirm", "anyway", "best", "suggest")
TABLE_BUTTONS = ("hand", "back", "rematch")

_NUMBER = "[0-9]{1,20}"  # ASCII digits only: the parsers refuse leading zeros
_TURN = (rf"(?P<table>{_NUMBER}):(?P<hand>{_NUMBER}):(?P<street>{_NUMBER}):"
         rf"(?P<seat>{_NUMBER})")


def _one_of(names: tuple[str, ...]) -> str:
    return "|".join(names)


# The templates, one per kind of component.
PLACE = re.compile(rf"ofc:place:{_TURN}:(?P<card>{_NUMBER}):(?P<row>{_one_of(PLACE_ROWS)})")
STEP = re.compile(rf"ofc:(?P<action>{_one_of(STEP_ACTIONS)}):{_TURN}")
FANTASY_ROW = re.compile(rf"ofc:fl:{_TURN}:(?P<row>{_one_of(FANTASY_ROWS)})")
LOBBY = re.compile(rf"ofc:lobby:(?P<table>{_NUMBER}):(?P<action>{_one_of(LOBBY_ACTIONS)})")
HAND = re.compile(rf"ofc:(?P<kind>hand):(?P<table>{_NUMBER})")
BACK = re.compile(rf"ofc:(?P<kind>back):(?P<table>{_NUMBER})")
REMATCH = re.compile(rf"ofc:(?P<kind>rematch):(?P<table>{_NUMBER})")
ROW_NAME = re.compile(rf"ofc:row:(?P<row>{_one_of(PLACE_ROWS)}|card{_NUMBER})")


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose action, and which one, a placement component belongs to."""

    table: int
    hand: int
    street: int  # 0: a Fantasyland arrangement
    seat: int


@dataclass(frozen=True, slots=True)
class PlaceId:
    turn: Turn
    card: Card
    row: str  # top | middle | bottom | discard

    def __str__(self) -> str:
        return _join("place", *_turn_fields(self.turn), INDEX[self.card], self.row)


@dataclass(frozen=True, slots=True)
class RowNameId:
    """The greyed button naming a row of the placement grid, or the card of a line of row
    buttons (card_key): it does nothing."""

    row: str  # top | middle | bottom | discard | card<index>

    def __str__(self) -> str:
        return _join("row", self.row)


def card_key(card: Card) -> str:
    """A RowNameId's name of a card."""
    return f"card{INDEX[card]}"


@dataclass(frozen=True, slots=True)
class StepId:
    turn: Turn
    action: str  # reset | confirm | anyway | best | suggest

    def __str__(self) -> str:
        return _join(self.action, *_turn_fields(self.turn))


@dataclass(frozen=True, slots=True)
class FantasyRowId:
    """A Fantasyland select menu choosing the cards of one row."""

    turn: Turn
    row: str  # top | middle | bottom

    def __str__(self) -> str:
        return _join("fl", *_turn_fields(self.turn), self.row)


@dataclass(frozen=True, slots=True)
class LobbyId:
    table: int
    action: str

    def __str__(self) -> str:
        return _join("lobby", self.table, self.action)


@dataclass(frozen=True, slots=True)
class TableButtonId:
    """A button naming only its table: "My hand" (`hand`), "I'm back" (`back`, R10) and
    "Rematch" (`rematch`: the match over at that table)."""

    kind: str
    table: int

    def __str__(self) -> str:
        return _join(self.kind, self.table)


def _turn_fields(turn: Turn) -> tuple[int, int, int, int]:
    return turn.table, turn.hand, turn.street, turn.seat


def _join(kind: str, *fields: object) -> str:
    text = ":".join(("ofc", kind, *map(str, fields)))
    if len(text) > MAX_LENGTH:
        raise ValueError(f"custom_id longer than {MAX_LENGTH}: {text}")
    return text


def _fields(template: re.Pattern[str], custom_id: str) -> re.Match[str]:
    match = template.fullmatch(custom_id)
    if match is None:
        raise BadId(custom_id)
    return match


def _number(text: str) -> int:
    # No leading zeros: exactly what _join writes.
    if len(text) > 1 and text[0] == "0":
        raise BadId(text)
    return int(text)


def _turn(match: re.Match[str]) -> Turn:
    table, hand, street, seat = (_number(match[name])
                                 for name in ("table", "hand", "street", "seat"))
    return Turn(table, hand, street, seat)


def parse_card(text: str) -> Card:
    """A card as ids and menu values carry it: its INDEX."""
    if not text.isdigit() or not text.isascii():
        raise BadId(text)
    try:
        return card_from_index(_number(text))
    except ValueError:
        raise BadId(text) from None


def parse_place(custom_id: str) -> PlaceId:
    match = _fields(PLACE, custom_id)
    return PlaceId(_turn(match), parse_card(match["card"]), match["row"])


def parse_step(custom_id: str) -> StepId:
    match = _fields(STEP, custom_id)
    return StepId(_turn(match), match["action"])


def parse_fantasy_row(custom_id: str) -> FantasyRowId:
    match = _fields(FANTASY_ROW, custom_id)
    turn = _turn(match)
    if turn.street != 0:  # a Fantasyland menu on a normal street: never drawn, so forged
        raise BadId(custom_id)
    return FantasyRowId(turn, match["row"])


def parse_lobby(custom_id: str) -> LobbyId:
    match = _fields(LOBBY, custom_id)
    return LobbyId(_number(match["table"]), match["action"])


def parse_table_button(custom_id: str) -> TableButtonId:
    match = HAND.fullmatch(custom_id) or REMATCH.fullmatch(custom_id) or _fields(BACK, custom_id)
    return TableButtonId(match["kind"], _number(match["table"]))


_TABLE_TEMPLATES = (PLACE, STEP, FANTASY_ROW, LOBBY, HAND, BACK, REMATCH)


def table_of(custom_id: str) -> int | None:
    """The table a component id of any kind here names (None: not a table's component). The
    sharded bot routes a click in a DM by it (bot/cluster/relay.py)."""
    for template in _TABLE_TEMPLATES:
        match = template.fullmatch(custom_id)
        if match is not None:
            return int(match["table"])
    return None
