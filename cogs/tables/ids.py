"""The custom_ids of every persistent component (DESIGN.md "Discord experience").

A component's whole meaning is in its custom_id, so a button still works after a restart:
`ofc:<kind>:<table>:...`. Placement ids carry hand, street and seat, so a stale or someone
else's click is recognised before anything changes. Cards are written as `INDEX[card]`
(0..53), rows by name. Every id is at most 100 characters (Discord's limit).

The component templates (cogs/components.py) match any `ofc:<kind>:` id; the strict parsing
is here, so a forged or mangled id is refused with a message instead of being ignored.
"""

from dataclasses import dataclass

from bot.engine.cards import INDEX, Card
from bot.tables import card_from_index
from cogs.common.answers import BadId

MAX_LENGTH = 100
PLACE_ROWS = ("top", "middle", "bottom", "discard")
FANTASY_ROWS = ("top", "middle", "bottom")
LOBBY_ACTIONS = ("join", "leave", "easy", "strong", "start", "cancel")  # easy, strong: computers
STEP_ACTIONS = ("reset", "confirm", "best")
TABLE_BUTTONS = ("hand", "back")



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
class StepId:
    turn: Turn
    action: str  # reset | confirm | best

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
    """A button naming only its table: "My hand" (`hand`) and "I'm back" (`back`, R10)."""

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


def kind_of(custom_id: str) -> str:
    """`place` of `ofc:place:...`; empty for an id that is not the bot's."""
    parts = custom_id.split(":", 2)
    return parts[1] if len(parts) == 3 and parts[0] == "ofc" else ""


def _fields(custom_id: str, kind: str, count: int) -> list[str]:
    parts = custom_id.split(":")
    if parts[:2] != ["ofc", kind] or len(parts) != count + 2:
        raise BadId(custom_id)
    return parts[2:]


def _number(text: str) -> int:
    # Digits only, no sign, no leading zeros: exactly what _join writes.
    if not text.isdigit() or not text.isascii() or (len(text) > 1 and text[0] == "0"):
        raise BadId(text)
    return int(text)


def _choice(text: str, allowed: tuple[str, ...]) -> str:
    if text not in allowed:
        raise BadId(text)
    return text


def _turn(fields: list[str]) -> Turn:
    table, hand, street, seat = map(_number, fields)
    return Turn(table, hand, street, seat)


def parse_card(text: str) -> Card:
    """A card as ids and menu values carry it: its INDEX."""
    try:
        return card_from_index(_number(text))
    except ValueError:
        raise BadId(text) from None


def parse_place(custom_id: str) -> PlaceId:
    fields = _fields(custom_id, "place", 6)
    return PlaceId(_turn(fields[:4]), parse_card(fields[4]), _choice(fields[5], PLACE_ROWS))


def parse_step(custom_id: str) -> StepId:
    action = _choice(kind_of(custom_id), STEP_ACTIONS)
    fields = _fields(custom_id, action, 4)
    return StepId(_turn(fields), action)


def parse_fantasy_row(custom_id: str) -> FantasyRowId:
    fields = _fields(custom_id, "fl", 5)
    return FantasyRowId(_turn(fields[:4]), _choice(fields[4], FANTASY_ROWS))


def parse_lobby(custom_id: str) -> LobbyId:
    table, action = _fields(custom_id, "lobby", 2)
    return LobbyId(_number(table), _choice(action, LOBBY_ACTIONS))


def parse_table_button(custom_id: str) -> TableButtonId:
    kind = _choice(kind_of(custom_id), TABLE_BUTTONS)
    (table,) = _fields(custom_id, kind, 1)
    return TableButtonId(kind, _number(table))
