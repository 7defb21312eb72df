"""What the state machines report: every state change comes out as a list of events.

One dataclass per kind, its fields typed. The table service turns events into messages,
prompts and storage writes; chip movements it must mirror (showdown transfers, stacks going
back to wallets) are carried in their fields. Cards are their display text (`Ah`, `X`): events
are for people to read (a hand's history keeps them, history.py).

In JSON (a hand's history) an event is `{"kind", "seat", "private", "data"}`, `data` holding
its other fields in order (bot/engine/codec.py); `Event.from_json` reads any kind back.
"""

from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.engine import codec

# Event kinds, in the order they usually occur.
HAND_STARTED = "hand_started"  # public: hand_no, button, seats dealt in, fantasy sizes
DEALT = "dealt"  # private: street (0 for a Fantasyland deal), cards, discards to make
TURN = "turn"  # public: an action of `seat` is awaited: street, fantasy, deadline
PLACED = "placed"  # private (it names the discards): street, rows, discards, auto
STREET = "street"  # public: a new street begins (in simultaneous order: the last one revealed)
TIMEOUT = "timeout"  # public: the seat's time ran out (R10) and the system placed for it
AWAY = "away"  # public: the seat is marked away (R10)
BACK = "back"  # public: the seat is back (acted again)
SHOWDOWN = "showdown"  # public: results, pairs, transfers, stacks after (R5, R6, R8)
BUSTED = "busted"  # public: the seat's stack reached 0: out of the match (R6)
SAT_OUT = "sat_out"  # public: an away player sits out; `stack` goes back to its wallet (R10)
HAND_OVER = "hand_over"  # public: hand_no, Fantasyland owed next hand, next button
JOINED = "joined"  # public (cash): a player sat down with `stack` from its wallet
LEAVING = "leaving"  # public (cash): the player leaves after the hand / its Fantasyland hand
STAYING = "staying"  # public (cash): the leaving player stays after all
LEFT = "left"  # public (cash): the player got up; `stack` goes back to its wallet
MATCH_OVER = "match_over"  # public: standings; `returned` chips go back to wallets (R11)


@dataclass(slots=True, kw_only=True)
class Event:
    """One thing that happened to `seat` (None: to the table). Slotted and not frozen: a
    hand makes dozens, simulations millions."""

    kind: ClassVar[str]
    private: ClassVar[bool] = False  # True: only that seat's player may see it
    seat: int | None = None
    # Its JSON (and JSON text) once written: a hand's history is saved with every action,
    # and its events, never changed once made, are most of that snapshot (HandLog.text).
    written: dict[str, Any] | None = field(default=None, init=False, repr=False,
                                           compare=False, metadata=codec.SKIP)
    written_text: str | None = field(default=None, init=False, repr=False, compare=False,
                                     metadata=codec.SKIP)

    @property
    def data(self) -> dict[str, Any]:
        """The fields other than `seat`, as JSON."""
        data: dict[str, Any] = codec.dump(self)
        del data["seat"]
        return data

    def to_json(self) -> dict[str, Any]:
        """The event as JSON (the same object each time: read it, never change it)."""
        if self.written is None:
            self.written = {"kind": self.kind, "seat": self.seat, "private": self.private,
                            "data": self.data}
        return self.written

    def text(self) -> str:
        """`to_json()` as compact JSON text (the same text each time)."""
        if self.written_text is None:
            self.written_text = codec.compact(self.to_json())
        return self.written_text

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Event":
        return codec.load(KINDS[data["kind"]], {"seat": data["seat"], **data["data"]})


# ----------------------------------------------------------------- parts of events
@dataclass(slots=True)
class FantasySeat:
    seat: int
    cards: int  # the Fantasyland hand's size (R8)


@dataclass(slots=True)
class Rows:
    """Cards as text, per row."""

    top: tuple[str, ...]
    middle: tuple[str, ...]
    bottom: tuple[str, ...]


@dataclass(slots=True)
class SeatResult:
    seat: int
    player_id: int
    fouled: bool
    rows: Rows
    names: tuple[str, ...]  # each row's hand in words
    royalties: tuple[int, ...]  # per row
    points: int
    chips: int
    stack_after: int
    fantasy_next: int


@dataclass(slots=True)
class Payment:
    payer: int
    payer_id: int
    payee: int
    payee_id: int
    owed: int
    paid: int


@dataclass(slots=True)
class Standing:
    seat: int
    player_id: int
    name: str
    stack: int
    net: int
    returned: int  # chips going back to the wallet now (R11)


# ----------------------------------------------------------------- the events
@dataclass(slots=True, kw_only=True)
class HandStarted(Event):
    kind = HAND_STARTED
    hand_no: int
    button: int
    seats: tuple[int, ...]  # dealt in, in acting order
    fantasy: tuple[FantasySeat, ...]


@dataclass(slots=True, kw_only=True)
class Dealt(Event):
    kind = DEALT
    private = True
    street: int
    cards: tuple[str, ...]
    discards: int


@dataclass(slots=True, kw_only=True)
class Turn(Event):
    kind = TURN
    street: int
    deadline: float


@dataclass(slots=True, kw_only=True)
class Placed(Event):
    kind = PLACED
    private = True
    street: int
    rows: Rows  # the cards placed now
    discards: tuple[str, ...]
    auto: bool  # the system placed (R10)


@dataclass(slots=True, kw_only=True)
class NewStreet(Event):
    kind = STREET
    street: int


@dataclass(slots=True, kw_only=True)
class Timeout(Event):
    kind = TIMEOUT
    player_id: int
    street: int


@dataclass(slots=True, kw_only=True)
class Away(Event):
    kind = AWAY
    player_id: int


@dataclass(slots=True, kw_only=True)
class Back(Event):
    kind = BACK
    player_id: int


@dataclass(slots=True, kw_only=True)
class Showdown(Event):
    kind = SHOWDOWN
    hand_no: int
    seats: tuple[SeatResult, ...]
    transfers: tuple[Payment, ...]


@dataclass(slots=True, kw_only=True)
class Busted(Event):
    kind = BUSTED
    player_id: int


@dataclass(slots=True, kw_only=True)
class SatOut(Event):
    kind = SAT_OUT
    player_id: int
    stack: int  # back to the wallet


@dataclass(slots=True, kw_only=True)
class HandOver(Event):
    kind = HAND_OVER
    hand_no: int
    button: int  # the next hand's
    hands_total: int
    fantasy: tuple[FantasySeat, ...]  # owed next hand


@dataclass(slots=True, kw_only=True)
class Joined(Event):
    kind = JOINED
    player_id: int
    name: str
    stack: int
    ai_level: str | None


@dataclass(slots=True, kw_only=True)
class Leaving(Event):
    kind = LEAVING
    player_id: int


@dataclass(slots=True, kw_only=True)
class Staying(Event):
    kind = STAYING
    player_id: int


@dataclass(slots=True, kw_only=True)
class Left(Event):
    kind = LEFT
    player_id: int
    stack: int  # back to the wallet


@dataclass(slots=True, kw_only=True)
class MatchOver(Event):
    kind = MATCH_OVER
    standings: tuple[Standing, ...]


KINDS: dict[str, type[Event]] = {c.kind: c for c in (
    HandStarted, Dealt, Turn, Placed, NewStreet, Timeout, Away, Back, Showdown, Busted, SatOut,
    HandOver, Joined, Leaving, Staying, Left, MatchOver)}
# A list of events of any kinds as a field of state JSON (a hand's history).
EVENTS = codec.Custom(lambda events: [e.to_json() for e in events],
                      lambda data: [Event.from_json(e) for e in data])
