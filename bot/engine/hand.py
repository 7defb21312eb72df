"""One hand (R7, R8): the deal, streets, turns and placements, up to 13 cards on every board.

No players, chips or clock here: the match (match.py) checks whose turn it is, keeps time and
shows the hand down. A hand only records when each pending action began (`since`, R10).
"""

from dataclasses import dataclass, field, replace
from typing import Annotated

from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.deal import BOARD, BOARD_CARDS, DECK_CARDS, Cards, Street, texts
from bot.engine.events import Dealt, Event, NewStreet, Placed, Rows
from bot.engine.placement import Assignment, apply

EMPTY = Board()


@dataclass(slots=True)
class SeatHand:
    """One seat's part of the hand."""

    seat: int
    fantasy: int = 0  # cards of this seat's Fantasyland hand (R8); 0 for a normal hand
    board: Annotated[Board, BOARD] = EMPTY
    dealt: Cards = ()  # dealt and not yet placed
    discards: Cards = ()
    hidden: Cards = ()  # placed this street, shown when the street ends (simultaneous)
    last: Cards = ()  # the latest placement everyone has seen
    acted: bool = False  # placed the current street (a Fantasyland seat: its whole board)
    since: float | None = None  # when its pending action began (R10); None when none is
    used: float = 0.0  # seconds this seat has spent acting in this hand (R10's per_hand clock)


@dataclass(slots=True)
class HandJson:
    """A hand in state JSON: its streets and order come from the match's rules."""

    order: tuple[int, ...]
    seats: tuple[SeatHand, ...]  # in acting order
    deck: Annotated[list[Card], DECK_CARDS]
    next_card: int
    street: int
    turn: int


@dataclass(slots=True)
class Hand:
    """The hand's state. `order` is acting order: left of the button, clockwise (R7)."""

    plan: tuple[Street, ...]
    simultaneous: bool
    fantasy_first: bool  # R8: Fantasyland dealt before the first street, else after the last
    order: tuple[int, ...]
    seats: dict[int, SeatHand]
    deck: list[Card]  # the whole shuffled deck; cards are dealt from the front
    next_card: int = 0
    street: int = 0  # the normal players' street, 1-based; 0 before the deal
    turn: int = 0  # sequential order: index into `normal` of the seat to act
    normal: tuple[int, ...] = field(init=False)  # seats playing streets, in acting order

    def __post_init__(self) -> None:
        self.normal = tuple(s for s in self.order if not self.seats[s].fantasy)

    @staticmethod
    def deal(plan: tuple[Street, ...], simultaneous: bool, fantasy_first: bool,
             order: tuple[int, ...], fantasy: dict[int, int], deck: list[Card], now: float,
             out: list[Event]) -> tuple["Hand", list[int]]:
        """Deal a new hand: Fantasyland seats all their cards (R8), first or once the others
        have played their streets; the others street 1.

        Returns the hand and the seats whose action is now awaited."""
        seats = {s: SeatHand(s, fantasy.get(s, 0)) for s in order}
        hand = Hand(plan, simultaneous, fantasy_first, order, seats, deck)
        started = []
        if fantasy_first or not hand.normal:
            started = hand._deal_fantasy(now, out)
            if started and len(hand.normal) > 1:
                # R8 (seeds 000, 002): the others' streets wait until every Fantasyland board
                # is set, so its player sees none of their cards, in the channel neither. One
                # player left outside Fantasyland lays out face down at once (seed 000).
                return hand, started
        return hand, started + hand._begin_street(now, out)

    def _deal_fantasy(self, now: float, out: list[Event]) -> list[int]:
        """Deal every Fantasyland seat not yet dealt all its cards at once (R8)."""
        started = []
        for s in self.order:
            sh = self.seats[s]
            if sh.fantasy and not sh.acted and not sh.dealt:
                self._give(sh, sh.fantasy, sh.fantasy - BOARD_CARDS, 0, out)
                sh.since = now
                started.append(s)
        return started

    def _give(self, sh: SeatHand, count: int, discards: int, street: int,
              out: list[Event]) -> None:
        start = self.next_card
        self.next_card = start + count
        sh.dealt = tuple(self.deck[start:self.next_card])
        out.append(Dealt(seat=sh.seat, street=street, cards=texts(sh.dealt),
                         discards=discards))

    def _begin_street(self, now: float, out: list[Event]) -> list[int]:
        if not self.normal:
            return []
        self.street += 1
        self.turn = 0
        street = self.plan[self.street - 1]
        if self.street > 1:
            out.append(NewStreet(street=self.street))
        for s in self.normal:
            sh = self.seats[s]
            sh.acted = False
            self._give(sh, street.cards, street.discards, self.street, out)
        started = list(self.normal) if self.simultaneous else [self.normal[0]]
        for s in started:
            self.seats[s].since = now
        return started

    def pending(self) -> tuple[int, ...]:
        """Seats whose action is awaited, in acting order: exactly those whose clock runs."""
        seats = self.seats
        return tuple(s for s in self.order if seats[s].since is not None)

    def discards_due(self, seat: int) -> int:
        sh = self.seats[seat]
        if sh.fantasy:
            return sh.fantasy - BOARD_CARDS
        return self.plan[self.street - 1].discards if sh.dealt else 0

    @property
    def complete(self) -> bool:
        """Every board is set: nobody's action is awaited any more."""
        return all(sh.since is None for sh in self.seats.values())

    def place(self, seat: int, assignment: Assignment, now: float, auto: bool,
              out: list[Event]) -> list[int]:
        """Apply one action of a pending seat (the match checked the turn).

        Returns the seats whose action is awaited because of it (next turn, next street)."""
        sh = self.seats[seat]
        old = sh.board
        board, placed, thrown = apply(old, sh.dealt, self.discards_due(seat), assignment)
        rows = Rows(texts(board.top[len(old.top):]), texts(board.middle[len(old.middle):]),
                    texts(board.bottom[len(old.bottom):]))
        out.append(Placed(seat=seat, street=0 if sh.fantasy else self.street, rows=rows,
                          discards=texts(thrown), auto=auto))
        sh.board, sh.dealt, sh.discards = board, (), sh.discards + thrown
        sh.acted, sh.since = True, None
        if sh.fantasy:
            if self.street == 0 and all(o.acted for o in self.seats.values() if o.fantasy):
                return self._begin_street(now, out)  # the others waited for Fantasyland (R8)
            return []
        if self.simultaneous:
            sh.hidden = placed
            if any(not self.seats[s].acted for s in self.normal):
                return []
            for s in self.normal:
                other = self.seats[s]
                other.last, other.hidden = other.hidden, ()
        else:
            sh.last = placed
            self.turn += 1
            if self.turn < len(self.normal):
                nxt = self.normal[self.turn]
                self.seats[nxt].since = now
                return [nxt]
        if self.street < len(self.plan):
            return self._begin_street(now, out)
        return self._deal_fantasy(now, out)  # seed 003: Fantasyland once the others are done

    def copy(self) -> "Hand":
        seats = {s: replace(sh) for s, sh in self.seats.items()}
        return Hand(self.plan, self.simultaneous, self.fantasy_first, self.order, seats,
                    list(self.deck), self.next_card, self.street, self.turn)

    def json_record(self) -> HandJson:
        return HandJson(self.order, tuple(self.seats[s] for s in self.order), self.deck,
                        self.next_card, self.street, self.turn)

    @staticmethod
    def from_record(j: HandJson, plan: tuple[Street, ...], simultaneous: bool,
                    fantasy_first: bool) -> "Hand":
        return Hand(plan, simultaneous, fantasy_first, j.order, {sh.seat: sh for sh in j.seats},
                    j.deck, j.next_card, j.street, j.turn)
