"""The rule of thumb: a quick score of a partly built board (R2-R4, R8, R9).

The `easy` player places each street where this score is highest; the `strong` player uses the
same choice to play out the rest of a hand in its Monte Carlo playouts. Each row is scored
alone (cached: rows repeat across candidates and playouts), then the two foul checks of R3
compare what the rows have made so far.
"""

from collections.abc import Sequence
from itertools import combinations

from bot.engine.cards import DECK, Card, is_joker, rank_of, suit_of
from bot.engine.evaluation import category_of, eval3, eval5, is_low, ranks_of
from bot.engine.placement import row_patterns
from bot.engine.royalties import ROYALTY
from bot.engine.rules import TableRules

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

_RANK = {c: rank_of(c) for c in DECK}
_SUIT = {c: suit_of(c) for c in DECK}
TEN, QUEEN = 8, 10
DEAD = -1000.0  # a certain foul
FOUL_COST = 12.0  # a foul's price in points: the lines and scoop, and the royalties lost (R3)
# chance that one more card leaves a row still below the one above it, by how many categories
# it lags (0: same category, lower rank)
_STUCK = (0.8, 0.97, 0.99)
TRIPS_CODE, QUADS_CODE = 3, 7
_FULL_HOUSE_CODE, _TWO_PAIR_CODE, _PAIR_CODE = 6, 2, 1
# What a made hand on a partial five-card row is worth, by the category code of `_made`:
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
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True) or [(0, 0)]
    first, rank = groups[0]
    first = min(4, first + jokers)
    second = groups[1][0] if len(groups) > 1 else 0
    if first == 4:
        code = QUADS_CODE
    elif first == 3:
        code = _FULL_HOUSE_CODE if second >= 2 else TRIPS_CODE
    elif first == 2:
        code = _TWO_PAIR_CODE if second >= 2 else _PAIR_CODE
    else:
        code = 0
    return code * 16 + rank


class Heuristic:
    """The score of boards under one table's rules."""

    def __init__(self, rules: TableRules, fantasy_value: float) -> None:
        self.rules = rules
        self.lowball = rules.variant == "lowball"
        self.fantasy_value = 0.0 if rules.fantasy == "off" else fantasy_value
        self.royalty = ROYALTY[rules.royalties]
        self.low_royalty = ROYALTY["lowball"]["middle"]
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
        if category == 3:  # trips: R4 rank value + 8, and Fantasyland
            return rank + 10 + self.fantasy_value
        if category == 1:
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
        """The board's worth: its rows' worth less the foul risk between them (R3)."""
        top, middle, bottom = rows
        made_t, worth_t = self.row(0, top)
        made_m, worth_m = self.row(1, middle)
        made_b, worth_b = self.row(2, bottom)
        total = worth_t + worth_m + worth_b
        total -= _risk(made_t, made_b if self.lowball else made_m,
                       5 - len(bottom) if self.lowball else 5 - len(middle))
        if not self.lowball:
            total -= _risk(made_m, made_b, 5 - len(bottom))
        return total

    def best(self, rows: Rows, dealt: Sequence[Card], discards: int) -> tuple[Rows, float]:
        """The placement of `dealt` (less `discards` of them) with the best score."""
        free = (3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2]))
        best_rows, best_score = rows, float("-inf")
        for thrown in combinations(range(len(dealt)), discards):
            kept = [c for i, c in enumerate(dealt) if i not in thrown]
            for pattern in _index_patterns(*free, len(kept)):
                new = (rows[0] + tuple(kept[i] for i in pattern[0]),
                       rows[1] + tuple(kept[i] for i in pattern[1]),
                       rows[2] + tuple(kept[i] for i in pattern[2]))
                value = self.score(new)
                if value > best_score:
                    best_rows, best_score = new, value
        return best_rows, best_score


def _risk(upper: int, lower: int, lower_free: int) -> float:
    """What a row above a weaker one costs (R3): a certain foul when the lower row is complete
    (the upper can only grow), else the foul's price times the chance that the lower row's
    free places never lift it: the higher the category it must reach, the likelier."""
    if upper <= lower:
        return 0.0
    if not lower_free:
        return -DEAD
    gap = min(2, (upper >> 4) - (lower >> 4))
    return FOUL_COST * _STUCK[gap] ** lower_free


_PATTERNS: dict[tuple[int, int, int, int], tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _index_patterns(top: int, middle: int, bottom: int,
                    count: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The engine's row patterns as (indices to top, to middle, to bottom) per pattern."""
    key = (top, middle, bottom, count)
    if key not in _PATTERNS:
        names = ("top", "middle", "bottom")
        _PATTERNS[key] = tuple(
            tuple(tuple(i for i, r in enumerate(p) if r == name) for name in names)
            for p in row_patterns(top, middle, bottom, count)
        )
    return _PATTERNS[key]
