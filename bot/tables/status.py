"""What the service hands the Discord layer besides events: lobby, seat and message records."""

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from bot.engine.cards import DECK, JOKERS, Card
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView

Status = Literal["lobby", "playing", "closed"]


@dataclass(frozen=True, slots=True)
class LobbySeat:
    player_id: int  # Discord user id; negative for a computer player
    name: str
    ai_level: str | None  # "easy" | "strong" for a computer
    stack: int  # chips in front of the player (the buy-in until the match starts)


@dataclass(frozen=True, slots=True)
class LobbyView:
    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_id: int
    rules: TableRules
    seats: tuple[LobbySeat, ...]
    status: Status
    created_at: float
    expires_at: float | None  # when an idle lobby is cancelled; None once playing
    hand_no: int = 0
    practice: bool = False  # /ofc practice: play chips, nothing at stake
    lent: bool = False  # a tournament's table: the house lent the stacks (R13)
    match_id: int | None = None  # the history's match, once started (its ratings: storage)
    leaving: tuple[int, ...] = ()  # cash: who gets up once the hand (or its FL hand) is over

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= min(self.rules.seats, self.rules.max_seats)

    def seated(self, player_id: int) -> bool:
        return any(s.player_id == player_id for s in self.seats)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's controls: the private view plus the draft of the action in progress."""

    table_id: int
    player_id: int
    seat: int
    view: PrivateView
    hand_no: int
    street: int  # the action the controls are for: 1.. a street, 0 a Fantasyland hand
    draft: dict[Card, str]  # dealt card -> row ("top", "middle", "bottom", "discard")
    to_act: bool  # it is this seat's turn: Confirm may be pressed
    deadline: float | None  # when the system places for the seat (R10)
    free: dict[str, int]  # places left per row after the draft, and discards still due
    away: bool
    complete: bool = False  # every card to keep has a row: Confirm may be pressed


class DmPrompt(NamedTuple):
    """The DM message holding a player's controls, and the action it was sent for: a message
    is only ever redrawn with that action, so a late redraw cannot show a later one."""

    channel_id: int
    message_id: int
    hand_no: int
    street: int  # 1.. a street, 0 a Fantasyland hand


@dataclass(frozen=True, slots=True)
class TableMessages:
    thread_id: int | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    dm: dict[int, DmPrompt] = field(default_factory=dict)  # player -> their latest DM prompt


def card_from_index(index: int) -> Card:
    """The card of `bot.engine.cards.INDEX` (0-51 the deck, 52 and 53 the jokers), as custom
    ids carry it; ValueError for anything else (a forged id)."""
    if isinstance(index, int) and 0 <= index < len(DECK):
        return DECK[index]
    if isinstance(index, int) and 0 <= index - len(DECK) < len(JOKERS):
        return JOKERS[index - len(DECK)]
    raise ValueError(f"no card has index {index!r}")
