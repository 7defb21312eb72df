"""What the service tells the Discord layer: typed events, one list per action, in order.

Every event names its table and the channel (or thread) the table lives in. `private_to` set
means only that player may see it (send it by DM); every other event is public.
"""

from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.text import Text
from bot.engine.views import ShowdownView
from bot.tables.status import LobbyView


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent:
    table_id: int
    channel_id: int
    private_to: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyChanged(TableEvent):
    """The lobby message needs a refresh: seats, host or status changed."""

    lobby: LobbyView
    reason: str  # created, joined, left, computer added, computer removed, host changed, started


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(TableEvent):
    hand_no: int
    button: int
    seats: tuple[int, ...]  # seats dealt in, in acting order (R7)
    fantasy: tuple[int, ...]  # seats playing this hand in Fantasyland (R8)


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(TableEvent):
    """Private: cards the seat must place now (street 0: a whole Fantasyland hand)."""

    seat: int
    hand_no: int
    street: int
    cards: tuple[Card, ...]
    discards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Placed(TableEvent):
    """A seat confirmed its action; what everyone may see of it is in `public_view()`."""

    seat: int
    player_id: int
    hand_no: int
    street: int
    auto: bool  # the system placed for it (R10)


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(TableEvent):
    """Whose action is awaited now, and the earliest deadline among them (R10)."""

    seats: tuple[int, ...]
    player_ids: tuple[int, ...]
    hand_no: int
    street: int
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerAway(TableEvent):
    """R10: time ran out and the system placed for the seat; it plays on autopilot."""

    seat: int
    player_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerBack(TableEvent):
    seat: int
    player_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownDone(TableEvent):
    hand_no: int
    view: ShowdownView
    player_ids: dict[int, int]  # seat -> player id
    busted: tuple[int, ...]  # seats whose stack reached 0 (R6)
    fantasy_next: dict[int, int]  # seat -> cards of its Fantasyland hand next (R8)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeft(TableEvent):
    """A player got up during a match and `returned` chips went back to the wallet."""

    seat: int
    player_id: int
    returned: int
    reason: str  # "away" (R10 sat out) or "left" (cash format)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableWaiting(TableEvent):
    """A cash table deals no hand for now (R11: fewer than two can play, or no person can):
    it waits for a player to buy in until `closes_at`, then closes. `busted`: the people
    whose stack the last hand emptied (R6), who may buy in again."""

    closes_at: float
    busted: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    player_id: int
    name: str
    stack: int  # chips at the end (what went back to the wallet over the match)
    net: int  # stack - buy-in


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchOver(TableEvent):
    standings: tuple[Standing, ...]  # best first


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(TableEvent):
    reason: str  # over, cancelled, expired, refunded


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRefunded(TableEvent):
    """Every stack went back to its owner (cancel, expiry, or a table that could not be
    restored after a restart); `reason` is a sentence to show in the channel."""

    reason: Text
    refunds: dict[int, int] = field(default_factory=dict)  # player id -> chips


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRestored(TableEvent):
    """After a restart: re-post or edit the lobby / table message and re-send prompts."""

    lobby: LobbyView
