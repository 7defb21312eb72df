"""What a board is making, for the player placing it (pure, no I/O).

For a seat's board plus its draft (cards given rows but not yet confirmed):
- `row_text`: each row's hand, or for a row not yet full what it holds so far ("Pair of
  Sevens", "Flush draw", "King high");
- `foul_unavoidable`: no way to fill the free places avoids a foul (R3; R9 lowball: a 2-7 low
  middle and bottom >= top), whatever cards still come;
- `outlook`: both, and once the board is full the royalties it earns (R4) and the Fantasyland
  it reaches (R8, R9).
"""

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, groupby
from math import comb
from operator import itemgetter

from bot.engine.board import Board, evaluate_board, row_options
from bot.engine.board import row_text as board_row_text
from bot.engine.cards import (
    DECK,
    RANK_KEYS,
    RANKS,
    Card,
    is_joker,
    rank_of,
    suit_of,
)
from bot.engine.evaluation import FLUSH5, PLAIN5, TEN, TOP3, eval3, eval5, is_low
from bot.engine.fantasy import fantasy_cards
from bot.engine.royalties import ROW_SIZES, ROWS, Row
from bot.engine.rules import TableRules
from bot.engine.text import Rank, Text
from bot.engine.views import PrivateView

ACE = 12
# Up to this many ways to fill the free places, every way is tried (exact, card by card).
EXACT_LIMIT = 5_000


# -- (a) what a row holds ---------------------------------------------------------------------

def _rank_text(rank: int) -> str:
    return "10" if RANKS[rank] == "T" else RANKS[rank]


def _straight_draw(ranks: set[int]) -> bool:
    """Three or more different ranks that fit in one straight (the ace high or low)."""
    low = {-1 if r == ACE else r for r in ranks}
    return any(max(s) - min(s) <= 4 for s in (ranks, low))


def row_text(row: Row, cards: Sequence[Card], lowball: bool = False) -> Text | None:
    """A full row's hand (its jokers as the row's strongest choice, R9), or what a row not yet
    full holds so far: its groups (jokers join the largest), else a draw, else its high card;
    None for an empty row."""
    if not cards:
        return None
    if len(cards) == ROW_SIZES[row]:
        return board_row_text(row, max(row_options(row, tuple(cards))), lowball)
    natural = [c for c in cards if not is_joker(c)]
    counts = Counter(rank_of(c) for c in natural)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True) or [ACE]
    sizes = [counts[r] for r in groups]
    sizes[0] += len(cards) - len(natural)  # a joker makes the largest group larger
    first = Rank(groups[0])
    text: Text
    if sizes[0] >= 4:
        text = Text("Four of a kind, {rank:plural}", rank=first)
    elif sizes[0] == 3:
        text = Text("Three of a kind, {rank:plural}", rank=first)
    elif sizes[0] == 2 and len(sizes) > 1 and sizes[1] == 2:
        text = Text("Two pair, {high:plural} and {low:plural}", high=first, low=Rank(groups[1]))
    elif sizes[0] == 2:
        text = Text("Pair of {rank:Plural}", rank=first)
    elif lowball and row == "middle":
        if groups[0] > TEN:
            return Text("{rank:Name} high (not a 2-7 low)", rank=first)
        if len(groups) == 1:
            return Text("{high} low draw", high=_rank_text(groups[0]))
        return Text("{high}-{next} low draw", high=_rank_text(groups[0]),
                    next=_rank_text(groups[1]))

    elif row != "top" and len(natural) >= 3 and len({suit_of(c) for c in natural}) == 1:
        return Text("Flush draw")
    elif row != "top" and len(natural) >= 3 and _straight_draw(set(counts)):
        return Text("Straight draw")
    else:
        return Text("{rank:Name} high", rank=first)
    if lowball and row == "middle":
        return Text("{hand} (not a 2-7 low)", hand=text)
    return text


# -- (b) can a foul still be avoided ----------------------------------------------------------

def _pool_shape(pool: Iterable[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Cards available per rank, and a bit mask of their suits per rank. Jokers are left out:
    a row they may still reach counts every card as available instead (see _Row)."""
    counts, masks = [0] * 13, [0] * 13
    for c in pool:
        if is_joker(c):
            continue
        r = rank_of(c)
        counts[r] += 1
        masks[r] |= 1 << suit_of(c)
    return tuple(counts), tuple(masks)


ANY, UNSUITED, SUITED = 0, 1, 2  # what a filling needs of the suits (see _reachable)
Filling = tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], int]


@cache
def _multisets(free: int) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...], int], ...]:
    """Every multiset of `free` ranks: the ranks, (rank, how many) pairs, their key sum."""
    out = []
    for extra in combinations_with_replacement(range(13), free):  # each sorted
        need = tuple((r, len(list(group))) for r, group in groupby(extra))
        out.append((extra, need, sum(RANK_KEYS[r] for r in extra)))
    return tuple(out)


# A row's content is its key: 1,024 of them (about 5 MB) hold the rows in play at 100 tables.
@lru_cache(maxsize=1024)
def _fillings(size: int, ranks: tuple[int, ...], free: int) -> tuple[Filling, ...]:
    """Every way to fill a row holding `ranks` with `free` more ranks, weakest first: (value,
    (rank, how many) needed, the ranks added, ANY / UNSUITED / SUITED). It does not depend on
    which cards can still come, so it is built once per row content."""
    out: list[Filling] = []
    base = sum(RANK_KEYS[r] for r in ranks)
    held = Counter(ranks)
    distinct = len(held) == len(ranks)
    for extra, need, key in _multisets(free):
        # Five of a rank, never (R9: a joker never makes five of a kind): with at most five
        # cards in a row, only when the free places all take the one rank every held card has.
        if len(need) == 1 and held[need[0][0]] + free > 4:
            continue
        key += base
        if size == 3:
            out.append((TOP3[key], need, extra, ANY))
        elif not distinct or len(need) < free or not held.keys().isdisjoint(extra):
            out.append((PLAIN5[key], need, extra, ANY))
        else:
            out.append((PLAIN5[key], need, extra, UNSUITED))
            out.append((FLUSH5[key], need, extra, SUITED))
    out.sort(key=itemgetter(0))
    return tuple(out)


# Built once at import (a tenth of a second), not in the middle of the first hand: an empty
# row is the commonest row to reason about, and its table the largest.
_fillings(3, (), 3)
_fillings(5, (), 5)
_multisets(4)


class _Row:
    """The hands one row can still end with, given the cards that can still come."""

    def __init__(self, row: Row, cards: Sequence[Card], pool: Sequence[Card]) -> None:
        natural = tuple(c for c in cards if not is_joker(c))
        free = ROW_SIZES[row] - len(natural)
        # A joker is a free place any card may fill but one already in its row (R9); so is a
        # free place while a joker may still come.
        if len(natural) < len(cards) or (free and any(is_joker(c) for c in pool)):
            pool = [c for c in DECK if c not in natural]
        self.counts, self.masks = _pool_shape(pool)
        self.suits = 0
        for c in natural:
            self.suits |= 1 << suit_of(c)
        self.fillings = _fillings(ROW_SIZES[row], tuple(sorted(rank_of(c) for c in natural)),
                                  free)

    def reachable(self, filling: Filling) -> bool:
        _, need, extra, suited = filling
        counts = self.counts
        for r, n in need:
            if counts[r] < n:
                return False
        if suited == ANY:
            return True
        one_suit = self.suits & (self.suits - 1) == 0  # no card yet, or all of one suit
        if suited == SUITED:
            if not one_suit:
                return False
            common = self.suits or 15
            for r in extra:
                common &= self.masks[r]
            return common != 0
        union = self.suits
        for r in extra:
            union |= self.masks[r]
        return not one_suit or union & (union - 1) != 0

    def weakest(self) -> int | None:
        return next((f[0] for f in self.fillings if self.reachable(f)), None)

    def strongest(self) -> int | None:
        return next((f[0] for f in reversed(self.fillings) if self.reachable(f)), None)

    def any_between(self, low: int, high: int) -> bool:
        start = bisect_left(self.fillings, low, key=itemgetter(0))
        for f in self.fillings[start:]:
            if f[0] > high:
                return False
            if self.reachable(f):
                return True
        return False

    def any_low(self) -> bool:
        return any(is_low(f[0]) and self.reachable(f) for f in self.fillings)


def _fouls(top: int, middle: int, bottom: int, lowball: bool) -> bool:
    if lowball:
        return not is_low(middle) or top > bottom
    return top > middle or middle > bottom


def _exact(board: Board, pool: Sequence[Card], lowball: bool) -> bool:
    """Whether some way to fill the free places with different cards of `pool` does not foul:
    every way is tried."""
    free = [board.free(r) for r in ROWS]
    for top_extra in combinations(pool, free[0]):
        top = eval3(board.top + top_extra)
        rest = [c for c in pool if c not in top_extra]
        for middle_extra in combinations(rest, free[1]):
            middle = eval5(board.middle + middle_extra)
            if not lowball and top > middle:
                continue
            if lowball and not is_low(middle):
                continue
            last = [c for c in rest if c not in middle_extra]
            for bottom_extra in combinations(last, free[2]):
                if not _fouls(top, middle, eval5(board.bottom + bottom_extra), lowball):
                    return True
    return False


def foul_unavoidable(board: Board, pool: Sequence[Card] | None = None,
                     lowball: bool = False) -> bool:
    """True when no way to fill the board's free places avoids a foul (R3; lowball R9).

    `pool`: the cards that may still fill them (default: every card not on the board). A
    joker may stand for any card (R9).

    Exact (every way to fill the free places with different cards is tried) when no joker is
    on the board or in the pool and there are at most EXACT_LIMIT ways: a full board, the last
    street, a Fantasyland hand nearly set. Otherwise each row's reachable hands are found on
    its own, and a foul is unavoidable when no middle the middle can reach lies between the
    weakest top and the strongest bottom (lowball: no reachable 2-7 low middle, or the weakest
    top beats the strongest bottom). Then True is always right; False can only miss a foul
    that the rows force by each needing the same scarce cards at once.
    """
    if pool is None:
        on_board = set(board.cards)
        pool = [c for c in DECK if c not in on_board]
    free = [board.free(r) for r in ROWS]
    if sum(free) > len(pool):
        return False  # the board cannot be filled from these cards: nothing to judge yet
    if not board.cards:
        # Any 13 cards can be set without a foul: the best five at the bottom, the best five
        # of the rest in the middle (at least any five holding the top's three), the rest on top.
        return False
    ways = comb(len(pool), free[0]) * comb(len(pool) - free[0], free[1]) * comb(
        len(pool) - free[0] - free[1], free[2])
    if not any(is_joker(c) for c in (*board.cards, *pool)) and ways <= EXACT_LIMIT:
        return not _exact(board, pool, lowball)
    top, middle, bottom = (_Row(r, board.row(r), pool) for r in ROWS)
    weakest_top, strongest_bottom = top.weakest(), bottom.strongest()
    if weakest_top is None or strongest_bottom is None:
        return False  # a row cannot be filled from these cards: nothing to judge yet
    if lowball:
        return weakest_top > strongest_bottom or not middle.any_low()
    return not middle.any_between(weakest_top, strongest_bottom)


# -- (c) the whole picture --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Outlook:
    rows: tuple[Text | None, Text | None, Text | None]  # row_text of top, middle, bottom
    foul_unavoidable: bool
    complete: bool
    fouled: bool = False  # a full board that fouls (R3)
    royalties: tuple[int, int, int] = (0, 0, 0)  # a full board's, per row (R4)
    fantasy: int = 0  # a full board: cards of the Fantasyland hand it earns, 0 for none (R8)

    @property
    def total_royalties(self) -> int:
        return sum(self.royalties)


@lru_cache(maxsize=1024)
def outlook(board: Board, rules: TableRules, pool: tuple[Card, ...] | None = None,
            in_fantasy: bool = False, entry_cards: int = 0) -> Outlook:
    """What `board` makes: see the module's summary. `in_fantasy` and `entry_cards` describe the
    hand being played (Fantasyland stay rules, R8).

    Kept for the latest boards: a click's prompt text, its image and its foul check each ask
    about the same draft, and it is worked out once, when the draft changes."""
    lowball = rules.variant == "lowball"
    texts = tuple(row_text(r, board.row(r), lowball) for r in ROWS)
    rows = (texts[0], texts[1], texts[2])
    if not board.complete:
        return Outlook(rows, foul_unavoidable(board, pool, lowball), False)
    result = evaluate_board(board, rules)
    return Outlook(result.texts, result.fouled, True, result.fouled, result.royalties,
                   fantasy_cards(result, rules, in_fantasy, entry_cards))


def with_draft(board: Board, dealt: Sequence[Card], draft: Mapping[Card, str]) -> Board:
    """`board` with the draft's cards added to their rows (in the order dealt); a draft beyond
    a row's room is left out."""
    rows = {}
    for name in ROWS:
        going = [c for c in dealt if draft.get(c) == name][:board.free(name)]
        rows[name] = board.row(name) + tuple(going)
    return Board(**rows)


def draft_outlook(view: PrivateView, draft: Mapping[Card, str] | None = None) -> Outlook:
    """The outlook of a seat's own board with its draft. The cards that may still come: the
    dealt cards not yet given a row, and unless this is the seat's last action (the last
    street, or a Fantasyland hand), every card it has not seen."""
    draft = draft or {}
    table = view.table
    seat = next((s for s in table.seats if s.seat == view.seat), None)
    in_fantasy = seat is not None and seat.in_fantasy
    board = with_draft(view.board, view.dealt, draft)
    pool = [c for c in view.dealt if draft.get(c) not in ROWS]
    last = in_fantasy or table.street >= table.streets
    if not last:
        pool += view.unseen()
    return outlook(board, table.rules, tuple(pool), in_fantasy,
                   seat.fantasy_size if seat is not None and in_fantasy else 0)
