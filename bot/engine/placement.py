"""One action (R7, R8, R10): the dealt cards assigned to rows or the discard, checked or made.

Pure functions of a board and its dealt cards, so the state machines and the computer players'
playouts share them.
"""

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from bot.engine.board import ROW_FULL, Board
from bot.engine.cards import INDEX, Card, card_str
from bot.engine.errors import RuleError
from bot.engine.royalties import ROWS
from bot.engine.text import Text

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


# R7: a row's room, said for each row (the words for a row differ by language).
ROOM_FOR = {
    "top": lambda n: Text("Top row has room for only {n} card.",
                          "Top row has room for only {n} cards.", n=n),
    "middle": lambda n: Text("Middle row has room for only {n} card.",
                             "Middle row has room for only {n} cards.", n=n),
    "bottom": lambda n: Text("Bottom row has room for only {n} card.",
                             "Bottom row has room for only {n} cards.", n=n),
}


def _refuse_cards(dealt: tuple[Card, ...], discards: int, assignment: Assignment) -> None:
    """Name what is wrong with an assignment that does not cover exactly the dealt cards."""
    if not isinstance(assignment, Mapping):
        raise RuleError(Text("Say for each dealt card: top, middle, bottom or discard."))
    for card, target in assignment.items():
        if card not in dealt:
            name = card_str(card) if card in INDEX else repr(card)
            raise RuleError(Text("{card} is not in your hand.", card=name))
        if target not in TARGETS:
            raise RuleError(Text("'{row}' is not a row (top, middle, bottom or discard).",
                                 row=target))
    if not discards:
        raise RuleError(Text("Place the {n} card.", "Place all {n} cards.", n=len(dealt)))
    raise RuleError(Text("Place {n} card and discard {discards}.",
                         "Place {n} cards and discard {discards}.",
                         n=len(dealt) - discards, discards=discards))


def apply(board: Board, dealt: tuple[Card, ...], discards: int,
          assignment: Assignment) -> tuple[Board, tuple[Card, ...], tuple[Card, ...]]:
    """Check `assignment` of exactly the `dealt` cards; return (new board, placed, discarded).

    Placed and discarded cards keep the order dealt. RuleError (changing nothing) otherwise."""
    top: list[Card] = []
    middle: list[Card] = []
    bottom: list[Card] = []
    thrown: list[Card] = []
    rows = {"top": top, "middle": middle, "bottom": bottom, DISCARD: thrown}
    try:
        if len(assignment) != len(dealt):
            raise KeyError
        # As many entries as dealt cards, each dealt card among them: exactly the dealt cards.
        for card in dealt:
            rows[assignment[card]].append(card)
    except (LookupError, TypeError):
        _refuse_cards(dealt, discards, assignment)
    if len(thrown) != discards:
        if not discards:
            raise RuleError(Text("No card is discarded on this street: place them all."))
        raise RuleError(Text("Discard exactly one card.", "Discard exactly {n} cards.", n=discards))
    for row, added, free in (("top", top, 3 - len(board.top)),
                             ("middle", middle, 5 - len(board.middle)),
                             ("bottom", bottom, 5 - len(board.bottom))):
        if len(added) > free:
            if not free:
                raise RuleError(ROW_FULL[row])
            raise RuleError(ROOM_FOR[row](free))

    new = Board(board.top + tuple(top), board.middle + tuple(middle),
                board.bottom + tuple(bottom))
    placed = tuple(c for c in dealt if c not in thrown) if thrown else dealt
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


@lru_cache(maxsize=512)
def row_patterns(top: int, middle: int, bottom: int, count: int) -> tuple[tuple[str, ...], ...]:
    """Every way to send `count` cards (in order) to rows with these free places."""
    free = (top, middle, bottom)
    return tuple(tuple(ROWS[r] for r in rows) for rows in product(range(3), repeat=count)
                 if all(rows.count(i) <= free[i] for i in range(3)))


def _patterns(board: Board, count: int) -> tuple[tuple[str, ...], ...]:
    return row_patterns(3 - len(board.top), 5 - len(board.middle), 5 - len(board.bottom), count)


def random_assignment(board: Board, dealt: tuple[Card, ...], discards: int,
                      rng: random.Random) -> dict[Card, str]:
    """A random legal assignment, uniform over the legal row patterns of a street (playouts,
    tests). Fantasyland hands (13 cards to place) fill the free places in a random order."""
    kept: tuple[Card, ...]
    thrown: tuple[Card, ...]
    rows: Sequence[str]
    if not discards:
        kept, thrown = dealt, ()
    elif discards == 1:
        i = rng.randrange(len(dealt))
        kept, thrown = dealt[:i] + dealt[i + 1:], (dealt[i],)
    else:
        thrown = tuple(rng.sample(dealt, discards))
        kept = tuple(c for c in dealt if c not in thrown)
    if len(kept) <= 5:
        rows = rng.choice(_patterns(board, len(kept)))
    else:
        rows = rng.sample(["top"] * (3 - len(board.top)) + ["middle"] * (5 - len(board.middle))
                          + ["bottom"] * (5 - len(board.bottom)), len(kept))
    out = dict(zip(kept, rows, strict=True))
    for card in thrown:
        out[card] = DISCARD
    return out


def legal_assignments(board: Board, dealt: tuple[Card, ...],
                      discards: int) -> Iterator[dict[Card, str]]:
    """Every legal assignment of a street (at most 3^5 = 243). Not for Fantasyland hands, whose
    arrangements are counted in millions: that is the solver's job."""
    for thrown in combinations(dealt, discards):
        kept = [c for c in dealt if c not in thrown]
        for rows in _patterns(board, len(kept)):
            out = dict(zip(kept, rows, strict=True))
            out.update(dict.fromkeys(thrown, DISCARD))
            yield out
