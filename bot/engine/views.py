"""What one seat or a spectator may see (R7, R8): the only input of images and messages.

A view holds no card its viewer may not see, so nothing built from it can leak one."""

from dataclasses import dataclass, field
from typing import Annotated, Literal

from bot.engine.board import Board
from bot.engine.cards import Card, full_deck
from bot.engine.deal import BOARD
from bot.engine.rules import TableRules
from bot.engine.scoring import PairScore
from bot.engine.settlement import Transfer

Phase = Literal["waiting", "playing", "showdown", "over"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everyone sees it."""

    seat: int
    player_id: int  # Discord user id; negative for a computer player
    name: str
    stack: int
    board: Board  # placed cards everyone may see (empty rows for a hidden Fantasyland board)
    hidden_cards: int = 0  # face-down cards to draw instead (a set Fantasyland board: 13)
    new_cards: tuple[Card, ...] = ()  # the seat's latest placement everyone has seen
    in_fantasy: bool = False
    fantasy_size: int = 0  # cards dealt to this seat's Fantasyland hand, 0 when not in FL
    away: bool = False  # R10
    sitting_out: bool = False  # not dealt in this hand (away, busted, or waiting to join)
    out: bool = False  # busted or got up: out of the match, its stack gone (R6, R10, R11)
    acted: bool = False  # confirmed the current street (or the whole FL arrangement)
    is_ai: bool = False
    ai_level: str | None = None
    deadline: float | None = None  # when this seat's pending action times out (R10)
    time_bank: float = 0.0  # seconds of time bank left


@dataclass(frozen=True, slots=True)
class ShowdownSeat:
    """One seat's result in a hand's showdown (R3-R8)."""

    seat: int
    board: Annotated[Board, BOARD]  # as placed (jokers as jokers)
    resolved: Annotated[Board, BOARD]  # jokers replaced by what they stand for
    fouled: bool
    names: tuple[str, str, str]  # top, middle, bottom
    royalties: tuple[int, int, int]
    points: int  # points this hand, summed over opponents (R5)
    chips: int  # net chips moved by settlement (R6)
    stack_after: int
    fantasy_next: int  # cards of the Fantasyland hand earned, 0 for none (R8)


@dataclass(frozen=True, slots=True)
class ShowdownView:
    seats: tuple[ShowdownSeat, ...]
    pairs: tuple[PairScore, ...]  # R6 settlement order; a and b are seat numbers
    transfers: tuple[Transfer, ...]  # payer and payee are seat numbers
    button: int | None = None  # the hand's dealer; None: saved before it was kept


@dataclass(frozen=True, slots=True)
class TableView:
    """The public view: what a spectator in the channel may see."""

    rules: TableRules
    hand_no: int  # 1-based; 0 before the first hand
    phase: Phase
    street: int  # 1-based street of the normal players; 0 before the deal
    streets: int  # streets in this variant (pineapple 5, turbo 3)
    button: int
    seats: tuple[SeatView, ...]
    to_act: tuple[int, ...] = ()  # seats whose action is awaited now
    fantasy_hand: bool = False  # this hand is a Fantasyland hand for someone (R11)
    showdown: ShowdownView | None = None  # last showdown, once the hand is shown down
    hands_total: int = 0  # hands the match will have so far (R11, FL hands added); 0 for cash


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What one seat's player may see: the public view plus its own hidden cards."""

    table: TableView
    seat: int
    board: Board  # own board, including an unrevealed Fantasyland arrangement
    dealt: tuple[Card, ...] = ()  # cards to place now (empty when nothing is pending)
    discard_count: int = 0  # how many of `dealt` must be discarded
    discards: tuple[Card, ...] = field(default=())  # own discards this hand

    def unseen(self) -> tuple[Card, ...]:
        """Every card of the deck this seat has not seen (computer players' playouts draw the
        rest of the hand from these): not on a visible board, not its own."""
        seen = set(self.board.cards) | set(self.dealt) | set(self.discards)
        for seat in self.table.seats:
            seen.update(seat.board.cards)
        return tuple(c for c in full_deck(self.table.rules.jokers) if c not in seen)
