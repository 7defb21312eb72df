"""One action (R7, R8, R10): the dealt cards assigned to rows or the discard, checked or made.

Pure functions of a board and its dealt cards, so the state machines and the computer players'
playouts share them.
"""

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, product

from bot.engine.board import Board
from bot.engine.cards import INDEX, Card, card_str
from bot.engine.errors import RuleError
from bot.engine.royalties import ROWS

DISCARD = "discard"
TARGETS = (*ROWS, DISCARD)
# R10: the system fills the bottom first, then the middle, then the top.
AUTO_ORDER = ("bottom", "middle", "top")

Assignment = Mapping[Card, str]


@dataclass(frozen=True, slots=True)
class Needs:
    """What the pending action asks for: free places per row, and how many cards to discard."""

    top: int
    middle: int
    bottom: int
    discards: int
    cards: int  # dealt cards to assign

    @property
    def place(self) -> int:
        return self.cards - self.discards

    def free(self, row: str) -> int:
        return {"top": self.top, "middle": self.middle, "bottom": self.bottom}[row]


def needs(board: Board, dealt: tuple[Card, ...], discards: int) -> Needs:
    return Needs(3 - len(board.top), 5 - len(board.middle), 5 - len(board.bottom), discards,
                 len(dealt))


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def apply(board: Board, dealt: tuple[Card, ...], discards: int,
          assignment: Assignment) -> tuple[Board, tuple[Card, ...], tuple[Card, ...]]:
    """Check `assignment` of exactly the `dealt` cards; return (new board, placed, discarded).

    Placed and discarded cards keep the order dealt. RuleError (changing nothing) otherwise."""
    if not isinstance(assignment, Mapping):
        raise RuleError("Say for each dealt card: top, middle, bottom or discard")
    for card, target in assignment.items():
        if card not in dealt:
            name = card_str(card) if card in INDEX else repr(card)
            raise RuleError(f"{name} is not in your hand")
        if target not in TARGETS:
            raise RuleError(f"'{target}' is not a row (top, middle, bottom or discard)")
    if len(assignment) != len(dealt):
        if not discards:
            raise RuleError(f"Place all {len(dealt)} cards")
        raise RuleError(f"Place {_count(len(dealt) - discards, 'card')} and discard {discards}")
    rows: dict[str, list[Card]] = {"top": [], "middle": [], "bottom": [], DISCARD: []}
    for card in dealt:
        rows[assignment[card]].append(card)
    thrown = rows[DISCARD]
    if len(thrown) != discards:
        if not discards:
            raise RuleError("No card is discarded on this street: place them all")
        raise RuleError(f"Discard exactly {'one card' if discards == 1 else f'{discards} cards'}")
    for row in ROWS:
        free = board.free(row)
        if len(rows[row]) > free:
            if not free:
                raise RuleError(f"{row.capitalize()} row is full")
            raise RuleError(f"{row.capitalize()} row has room for only {_count(free, 'card')}")
    new = Board(board.top + tuple(rows["top"]), board.middle + tuple(rows["middle"]),
                board.bottom + tuple(rows["bottom"]))
    placed = tuple(c for c in dealt if assignment[c] != DISCARD)
    return new, placed, tuple(thrown)


def auto_assignment(board: Board, dealt: tuple[Card, ...], discards: int) -> dict[Card, str]:
    """R10: in the order dealt, fill the bottom, then the middle, then the top; discard the rest
    (streets 2-5: the third card; Fantasyland: all past the 13th)."""
    keep = len(dealt) - discards
    free = {row: board.free(row) for row in AUTO_ORDER}
    out: dict[Card, str] = {}
    for card in dealt[:keep]:
        row = next(r for r in AUTO_ORDER if free[r])
        free[row] -= 1
        out[card] = row
    for card in dealt[keep:]:
        out[card] = DISCARD
    return out


def random_assignment(board: Board, dealt: tuple[Card, ...], discards: int,
                      rng: random.Random) -> dict[Card, str]:
    """A uniformly random legal assignment over the free places (for playouts and tests)."""
    cards = list(dealt)
    rng.shuffle(cards)
    slots = (["top"] * board.free("top") + ["middle"] * board.free("middle")
             + ["bottom"] * board.free("bottom"))
    keep = len(cards) - discards
    out = dict(zip(cards[:keep], rng.sample(slots, keep), strict=True))
    for card in cards[keep:]:
        out[card] = DISCARD
    return out


def legal_assignments(board: Board, dealt: tuple[Card, ...],
                      discards: int) -> Iterator[dict[Card, str]]:
    """Every legal assignment of a street (at most 3^5 = 243). Not for Fantasyland hands, whose
    arrangements are counted in millions: that is the solver's job."""
    free = (board.free("top"), board.free("middle"), board.free("bottom"))
    for thrown in combinations(dealt, discards):
        kept = [c for c in dealt if c not in thrown]
        for rows in product(range(3), repeat=len(kept)):
            if all(rows.count(i) <= free[i] for i in range(3)):
                out = {c: ROWS[r] for c, r in zip(kept, rows, strict=True)}
                out.update(dict.fromkeys(thrown, DISCARD))
                yield out
