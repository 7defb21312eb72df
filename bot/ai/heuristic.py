"""The rule of thumb: a quick score of a partly built board (R2-R4, R8, R9).

The `easy` player places each street where this score is highest; the `strong` player uses the
same choice to play out the rest of a hand in its Monte Carlo playouts. Each row is scored
alone (cached: rows repeat across candidates and playouts), then the two foul checks of R3
compare what the rows have made so far.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from bot.engine.cards import DECK, Card, is_joker, rank_of, suit_of
from bot.engine.evaluation import (
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    TRIPS,
    TWO_PAIR,
    category_of,
    eval3,
    eval5,
    is_low,
    ranks_of,
)
from bot.engine.placement import row_patterns
from bot.engine.royalties import ROYALTY, middle_royalties
from bot.engine.rules import TableRules

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_RANK = {c: rank_of(c) for c in DECK}
_SUIT = {c: suit_of(c) for c in DECK}
TEN, QUEEN = 8, 10
DEAD = -1000.0  # a certain foul
FOUL_COST = 6.0  # a foul loses every line and the scoop (R3, R5), and the royalties at stake
# What a made hand on a partial five-card row is worth, by the category of `_made`:
# roughly its royalty to come and its chance to hold up, per row.
_PARTIAL = {
    "bottom": (0.0, 0.4, 1.2, 2.2, 0.0, 0.0, 6.0, 10.0),
    "middle": (0.0, 0.6, 1.6, 3.0, 0.0, 0.0, 12.0, 20.0),
}
_FLUSH_DRAW = {2: 0.3, 3: 0.9, 4: 2.0}  # suited cards on an open five-card row
_CACHE_LIMIT = 200_000


def _made(cards: Sequence[Card], size: int) -> int:
    """What the row has made so far, as category * 16 + its main rank (comparable across rows,
    like R2's order): a complete row by its evaluation, a partial one by its pairs (jokers
    join the largest group)."""
    if len(cards) == size and not any(is_joker(c) for c in cards):
        value = eval3(cards) if size == 3 else eval5(cards)
        return category_of(value) * 16 + ranks_of(value)[0]
    counts: dict[int, int] = {}
    jokers = 0
    for c in cards:
        if is_joker(c):
            jokers += 1
        else:
            counts[_RANK[c]] = counts.get(_RANK[c], 0) + 1
    return made_by_counts(counts, jokers)


def made_by_counts(counts: dict[int, int], jokers: int = 0) -> int:
    """What ranks held `counts[rank]` times make, as category * 16 + the main rank (R2's
    order, by pairs alone); jokers join the largest group."""
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True) or [(0, 0)]
    first, rank = groups[0]
    first = min(4, first + jokers)
    second = groups[1][0] if len(groups) > 1 else 0
    if first == 4:
        category = QUADS
    elif first == 3:
        category = FULL_HOUSE if second >= 2 else TRIPS
    elif first == 2:
        category = TWO_PAIR if second >= 2 else PAIR
    else:
        category = HIGH_CARD
    return category * 16 + rank


class Heuristic:
    """The score of boards under one table's rules."""

    def __init__(self, rules: TableRules, fantasy_value: float) -> None:
        self.rules = rules
        self.lowball = rules.variant == "lowball"
        self.fantasy_value = 0.0 if rules.fantasy == "off" else fantasy_value
        self.royalty = ROYALTY[rules.royalties]
        self.low_royalty = middle_royalties(rules.royalties, lowball=True)
        # R8 (R9 lowball: kings): the lowest top pair that earns Fantasyland
        self.fantasy_pair = QUEEN + 1 if self.lowball else QUEEN
        self._rows: dict[tuple[int, tuple[Card, ...]], tuple[int, float]] = {}

    def row(self, index: int, cards: tuple[Card, ...]) -> tuple[int, float]:
        """(made code, worth) of row `index` (0 top, 1 middle, 2 bottom)."""
        key = (index, cards)
        found = self._rows.get(key)
        if found is None:
            if len(self._rows) > _CACHE_LIMIT:
                self._rows.clear()
            found = self._rows[key] = self._score_row(index, cards)
        return found

    def _score_row(self, index: int, cards: tuple[Card, ...]) -> tuple[int, float]:
        size = 3 if index == 0 else 5
        made = _made(cards, size)
        if index == 1 and self.lowball:
            return made, self._low_middle(cards)
        category, rank = made >> 4, made & 15
        if index == 0:
            return made, self._top(category, rank, len(cards))
        row = "middle" if index == 1 else "bottom"
        if len(cards) == 5 and not any(is_joker(c) for c in cards):
            worth = float(self.royalty[row][eval5(cards)])
        else:
            worth = _PARTIAL[row][category] + self._draws(cards, 1.0 if row == "bottom" else 0.4)
        # a stronger bottom and middle win more lines
        return made, worth + made * (0.012 if row == "bottom" else 0.008)

    def _top(self, category: int, rank: int, count: int) -> float:
        if category == TRIPS:  # R4: rank value + 8, and Fantasyland
            return rank + 10 + self.fantasy_value
        if category == PAIR:
            worth = max(0, rank - 3) + 0.02 * rank  # R4: 66 pays 1 .. AA 9
            if rank >= self.fantasy_pair:
                worth += 0.5 * self.fantasy_value
            return worth
        # a high card holds the top line; an empty slot may still pair
        return 0.04 * rank * min(count, 1) + 0.15 * (3 - count)

    def _draws(self, cards: tuple[Card, ...], weight: float) -> float:
        """Flush and straight draws; `weight` less in the middle, whose draw risks the bottom."""
        real = [c for c in cards if not is_joker(c)]
        if len(real) < 2:
            return 0.0
        worth = 0.0
        if len({_SUIT[c] for c in real}) == 1:
            worth += _FLUSH_DRAW.get(len(cards), 0.0) * weight
        ranks = sorted({_RANK[c] for c in real})
        if len(ranks) == len(real) >= 3 and (ranks[-1] - ranks[0] <= 4 or (
                ranks[-1] == 12 and ranks[-2] <= 3)):
            worth += 0.25 * len(cards) * weight
        return worth

    def _low_middle(self, cards: tuple[Card, ...]) -> float:
        """R9 lowball: the middle must end a 2-7 low, ten-high or better."""
        real = [c for c in cards if not is_joker(c)]
        ranks = [_RANK[c] for c in real]
        if len(set(ranks)) < len(ranks) or any(r > TEN for r in ranks):
            return DEAD
        if len(cards) == 5:
            value = eval5(cards)
            return self.low_royalty[value] + 1.0 if is_low(value) else DEAD
        suited = len(real) >= 3 and len({_SUIT[c] for c in real}) == 1
        return 1.0 - 0.1 * max(ranks, default=0) - (1.0 if suited else 0.0)

    def score(self, rows: Rows) -> float:
        """The board's worth: its rows' worth less what a foul would cost, times its chance."""
        return self._combine(self.row(0, rows[0]), self.row(1, rows[1]), self.row(2, rows[2]),
                             5 - len(rows[1]), 5 - len(rows[2]))

    def _combine(self, top: tuple[int, float], middle: tuple[int, float],
                 bottom: tuple[int, float], middle_free: int, bottom_free: int) -> float:
        made_t, worth_t = top
        made_m, worth_m = middle
        made_b, worth_b = bottom
        # a foul loses the lines (FOUL_COST) and whatever the rows above were to earn
        if self.lowball:
            fail = _fail(made_t, made_b, bottom_free)
            at_stake = worth_t
        else:
            fail_top = _fail(made_t, made_m, middle_free)
            fail_middle = _fail(made_m, made_b, bottom_free)
            fail = 1 - (1 - fail_top) * (1 - fail_middle)
            at_stake = worth_t + (worth_m if fail_middle else 0.0)
        if fail == 1.0:
            return DEAD
        return worth_t + worth_m + worth_b - fail * (FOUL_COST + max(0.0, at_stake))

    def best(self, rows: Rows, dealt: Sequence[Card], discards: int) -> tuple[Rows, float]:
        """The placement of `dealt` (less `discards` of them) with the best score. Each row's
        possible additions are scored once, then every placement only combines three."""
        plan = _plan(3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2]), len(dealt), discards)
        added = [{idx: self.row(index, rows[index] + tuple(dealt[i] for i in idx))
                  for idx in plan.additions[index]} for index in range(3)]
        tops, middles, bottoms = added
        lowball = self.lowball
        best_choice, best_score = plan.choices[0], float("-inf")
        for choice in plan.choices:
            top, middle, bottom = tops[choice[0]], middles[choice[1]], bottoms[choice[2]]
            if lowball or top[0] > middle[0] or middle[0] > bottom[0]:
                value = self._combine(top, middle, bottom, choice[3], choice[4])
            else:  # rows in order already: nothing at risk
                value = top[1] + middle[1] + bottom[1]
            if value > best_score:
                best_choice, best_score = choice, value
        return tuple(row + tuple(dealt[i] for i in idx)  # type: ignore[return-value]
                     for row, idx in zip(rows, best_choice[:3], strict=True)), best_score


def _fail(upper: int, lower: int, lower_free: int) -> float:
    """The chance that a row above a weaker one fouls the board (R3): certain when the lower
    row is complete (the upper can only grow), else the chance that none of the lower row's
    free places lifts it: likely against a high card, unlikely against a pair (it needs a
    higher pair or two pair), less likely still above that."""
    if upper <= lower:
        return 0.0
    if not lower_free:
        return 1.0
    category = upper >> 4
    if category == HIGH_CARD:
        stuck = 0.6
    elif category == PAIR:
        stuck = 0.85 + 0.01 * (upper & 15)
    elif category == TWO_PAIR:
        stuck = 0.93
    else:
        stuck = 0.96
    return stuck**lower_free


Placement = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]


@dataclass(frozen=True, slots=True)
class _Plan:
    choices: tuple[Placement, ...]
    additions: tuple[frozenset[tuple[int, ...]], ...]  # per row, the index sets added to it


@lru_cache(maxsize=1024)
def _plan(top: int, middle: int, bottom: int, dealt: int, discards: int) -> _Plan:
    """Every legal placement of a street as (dealt indices to top, to middle, to bottom, free
    places left in the middle, in the bottom): the engine's row patterns (R7) for each choice
    of discards."""
    out: list[Placement] = []
    for thrown in combinations(range(dealt), discards):
        kept = [i for i in range(dealt) if i not in thrown]
        for pattern in row_patterns(top, middle, bottom, len(kept)):
            idx = tuple(tuple(k for k, r in zip(kept, pattern, strict=True) if r == name)
                        for name in ("top", "middle", "bottom"))
            out.append((idx[0], idx[1], idx[2], middle - len(idx[1]), bottom - len(idx[2])))
    return _Plan(tuple(out), (frozenset(c[0] for c in out), frozenset(c[1] for c in out),
                             frozenset(c[2] for c in out)))
