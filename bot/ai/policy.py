"""The playout policy: the `strong` player's quick choice of a street, on row keys (rowkey.py).

Like the rule of thumb (heuristic.py) it scores each placement of a street and keeps the best,
but it plays for Fantasyland (R8) and knows how much of the hand is left:
- a pair of queens or better on top is worth the Fantasyland hand it earns (measured, by the
  cards it earns: fantasy_value.py), a lone queen or better on top with room to pair it a share
  of that times its chance to pair from the cards still to come;
- the chance that a row above a weaker one fouls the board (R3) is counted from the outs that
  lift the weaker row past it and the cards still to come, the middle's need passed on to the
  bottom (the bottom must end above whatever the middle has to reach);
- flush and straight draws are worth their chance to come in, which shrinks as streets pass.

A row's worth depends on its key and the streets left only, so it is computed once and then read
from a dictionary; what a partial row's ranks make is computed once per rank multiset, and a
complete row's worth is a list lookup by its value. A placement's score adds three worths and,
when the rows are not in order yet, the foul chance (also remembered).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from math import comb

from bot.ai.heuristic import made_by_counts
from bot.ai.rowkey import MADE, SUITS, multisets
from bot.engine.board import Board, BoardResult
from bot.engine.cards import RANK_KEYS, RANK_SHIFT, SUIT_MASK, make_card
from bot.engine.deal import streets
from bot.engine.evaluation import (
    CATEGORY,
    FLUSH,
    FLUSH5,
    HIGH_CARD,
    PAIR,
    PLAIN5,
    STRAIGHT,
    TOP3,
    TRIPS,
    TUPLES,
    TWO_PAIR,
    eval3,
    is_low,
)
from bot.engine.fantasy import fantasy_cards
from bot.engine.placement import row_patterns
from bot.engine.royalties import ROYALTY, middle_royalties
from bot.engine.rules import TableRules

TEN, QUEEN, KING = 8, 10, 11
DEAD = -1000.0  # a certain foul
FOUL_COST = 6.0  # per opponent: every line and the scoop (R3, R5)
UNSEEN = 42  # about how many cards a player has not seen mid-hand (outs are out of these)
# The share of the cards to come a row can really use (the other rows need them too, and a
# street keeps two of its three). 0.4 made the foul chance the policy counts match how often
# its own boards end fouled (0.75 counted about half of it); with the weights below, 0.5 made
# the strong player score more (docs/computer-players.md, "The measured constants").
LOOKS = 0.5
TWO_HITS = 1.0  # how much of the chance of two hits a row gets (it needs two free places)
# The share of a Fantasyland draw's worth counted (the board must carry it): of 0, 0.3 and
# 0.6, 0.3 made the strong player score most (docs/computer-players.md).
FL_DRAW = 0.3
# What a made hand on a partial five-card row is worth: roughly its royalty to come and its
# chance to hold up, per row (the rule of thumb's table).
_PARTIAL = {
    1: (0.0, 0.6, 1.6, 3.0, 0.0, 0.0, 12.0, 20.0),
    2: (0.0, 0.4, 1.2, 2.2, 0.0, 0.0, 6.0, 10.0),
}
# A stronger middle and bottom win more lines, and a strong bottom keeps the rows above it
# safe; a middle's draw risks the bottom. Screened in the strong player: a bottom's strength
# at 0.04 instead of 0.012, a middle's draws at 0.3 instead of 0.6 and a bottom's at 1.3
# instead of 1.0 scored more (docs/computer-players.md, "The measured constants").
_STRENGTH = {1: 0.008, 2: 0.04}
_DRAW_WEIGHT = {1: 0.3, 2: 1.3}
_WINDOWS = (frozenset((12, 0, 1, 2, 3)),
            *(frozenset(range(high - 4, high + 1)) for high in range(4, 13)))


@dataclass(frozen=True, slots=True)
class FantasyWorth:
    """Points a Fantasyland hand of each size is worth, against one opponent (R8)."""

    by_cards: dict[int, float]

    def of(self, cards: int) -> float:
        return self.by_cards.get(cards, 0.0) if cards else 0.0


@dataclass(frozen=True, slots=True)
class Partial:
    """What the ranks of a partial row make and can still make."""

    made: int  # category * 16 + main rank, by its pairs (as MADE for complete rows)
    singles: tuple[int, ...]  # ranks held once
    paired: tuple[int, ...]  # ranks held twice or more
    distinct: bool  # no rank twice: flushes and straights are still open
    high: int  # the highest rank, -1 for none
    windows: tuple[int, ...]  # per straight these ranks fit in (five-card rows), ranks missing


@lru_cache(maxsize=16384)
def ranks_info(count: int, rank_part: int, size: int) -> Partial:
    ranks = multisets()[(count, rank_part)]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    distinct = len(counts) == len(ranks)
    windows = tuple(5 - len(ranks) for w in _WINDOWS
                    if distinct and size == 5 and len(ranks) >= 3 and w.issuperset(ranks))
    return Partial(made_by_counts(counts), tuple(r for r, n in counts.items() if n == 1),
                   tuple(r for r, n in counts.items() if n >= 2), distinct,
                   max(ranks, default=-1), windows)


def at_least(hits: int, outs: int, looks: float) -> float:
    """The chance of `hits` or more of `outs` cards among `looks` cards drawn from UNSEEN
    (hypergeometric; a fractional look interpolates)."""
    if hits <= 0:
        return 1.0
    low = min(int(looks), UNSEEN)
    outs = min(outs, UNSEEN)
    p = _tail(hits, outs, low)
    frac = looks - low
    if frac > 0 and low < UNSEEN:
        p += frac * (_tail(hits, outs, low + 1) - p)
    return p


@lru_cache(maxsize=8192)
def _tail(hits: int, outs: int, looks: int) -> float:
    return sum(comb(outs, k) * comb(UNSEEN - outs, looks - k)
               for k in range(hits, min(outs, looks) + 1)) / comb(UNSEEN, looks)


Row = tuple[int, float, int, int]  # a row's made code, worth, shape, and floor: the weakest
# value (evaluation.py's scale) it can end with, its value once complete


def shape5(key: int) -> int:
    """What a five-card row's worth depends on: its ranks, its count, and whether it is of one
    suit (not which suits it holds)."""
    return (key >> RANK_SHIFT) * 16 + _SHAPE5[key & SUIT_MASK]


def shape3(key: int) -> int:
    """What a top's worth depends on: its ranks and its count (suits do not count on top)."""
    return (key >> RANK_SHIFT) * 16 + _SHAPE3[key & SUIT_MASK]


_SHAPE5 = [count * 2 + one for count, one in SUITS]
_SHAPE3 = [count * 2 for count, _ in SUITS]


class _Table(dict[int, Row]):
    """Row shape -> Row, filled on first use."""

    def __init__(self, score: Callable[[int, int, bool], tuple[int, float]], size: int) -> None:
        super().__init__()
        self.score = score
        self.size = size

    def __missing__(self, shape: int) -> Row:
        part, count, one_suit = shape >> 4, (shape & 15) >> 1, bool(shape & 1)
        made_code, worth = self.score(part, count, one_suit)
        found = self[shape] = (made_code, worth, shape, floor(part, count, one_suit, self.size))
        return found


@lru_cache(maxsize=65536)
def floor(part: int, count: int, one_suit: bool, size: int) -> int:
    """The weakest value a row of these ranks can end with: its free places filled with the
    lowest ranks it does not hold (skipping one that would make a straight)."""
    held = multisets()[(count, part)]
    if count == size:
        if size == 3:
            return TOP3[part]
        return (FLUSH5 if one_suit else PLAIN5)[part]
    ranks = list(held)
    for r in range(13):
        if len(ranks) == size:
            break
        if r in ranks:
            continue
        trial = [*ranks, r]
        if size == 5 and len(trial) == 5 and CATEGORY[PLAIN5[_part(trial)]] == STRAIGHT:
            continue
        ranks = trial
    value = TOP3[_part(ranks)] if size == 3 else PLAIN5[_part(ranks)]
    return value


def _part(ranks: Sequence[int]) -> int:
    return sum(RANK_KEYS[r] for r in ranks)


Choice = tuple[int, int, int, int, int]  # dealt-index masks to top, middle, bottom; free places
# left in the middle and in the bottom


@dataclass(frozen=True, slots=True)
class Plan:
    choices: tuple[Choice, ...]
    masks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # per row, masks it takes
    # per choice: where its masks stand in `masks` (top, middle, bottom), and the choice
    indexed: tuple[tuple[int, int, int, Choice], ...]


@lru_cache(maxsize=1024)
def plan(top: int, middle: int, bottom: int, dealt: int, discards: int) -> Plan:
    """Every legal placement of a street (R7): the engine's row patterns for each choice of
    discards, as bit masks of the dealt cards each row takes."""
    out = []
    for thrown in combinations(range(dealt), discards):
        kept = [i for i in range(dealt) if i not in thrown]
        for pattern in row_patterns(top, middle, bottom, len(kept)):
            masks = [0, 0, 0]
            for i, row in zip(kept, pattern, strict=True):
                masks[("top", "middle", "bottom").index(row)] |= 1 << i
            out.append((masks[0], masks[1], masks[2],
                        middle - masks[1].bit_count(), bottom - masks[2].bit_count()))
    used = tuple(tuple(sorted({c[row] for c in out})) for row in range(3))
    indexed = tuple((used[0].index(c[0]), used[1].index(c[1]), used[2].index(c[2]), c)
                    for c in out)
    return Plan(tuple(out), (used[0], used[1], used[2]), indexed)


def subset_sums(cards: Sequence[int]) -> list[int]:
    """sums[mask]: the sum of the cards whose bits are in mask."""
    if len(cards) == 3:  # every pineapple street after the first, spelled out
        a, b, c = cards
        return [0, a, b, a + b, c, a + c, b + c, a + b + c]
    sums = [0]
    for c in cards:
        sums += [s + c for s in sums]
    return sums


Keys = tuple[int, int, int]
Free = tuple[int, int, int]


class Policy:
    """Scores and chooses placements under one table's rules."""

    def __init__(self, rules: TableRules, fantasy: FantasyWorth) -> None:
        self.rules = rules
        self.lowball = rules.variant == "lowball"
        self.per_street = streets(rules)[-1].cards  # cards a later street deals (looks)
        self.fantasy_pair = KING if self.lowball else QUEEN  # R8, R9
        self.looks_share, self.two_hits, self.fl_draw = LOOKS, TWO_HITS, FL_DRAW
        royalty = ROYALTY[rules.royalties]
        self.top_royalty = royalty["top"]
        # what a pair of each rank, and trips, on top earn in Fantasyland points
        self.pair_fantasy = [self._top_fantasy(fantasy, rules, PAIR, r) for r in range(13)]
        self.trips_fantasy = [self._top_fantasy(fantasy, rules, TRIPS, r) for r in range(13)]
        # the least a flush and a straight pay (R4), per five-card row
        self.pays = {1: (_least(royalty["middle"], FLUSH), _least(royalty["middle"], STRAIGHT)),
                     2: (_least(royalty["bottom"], FLUSH), _least(royalty["bottom"], STRAIGHT))}
        # a complete five-card row's worth by value: royalty and strength
        low = middle_royalties(rules.royalties, lowball=True)
        self.complete = {
            1: [(low[v] + 1.0 if is_low(v) else DEAD) if self.lowball
                else royalty["middle"][v] + MADE[v] * _STRENGTH[1] for v in range(len(MADE))],
            2: [royalty["bottom"][v] + MADE[v] * _STRENGTH[2] for v in range(len(MADE))],
        }
        self.tables: list[tuple[_Table, _Table, _Table]] = []
        self.fails: list[dict[int, float]] = []  # per streets left: shape * 256 + upper

    def reset(self) -> None:
        """Forget the remembered worths (they only grow; a long-lived player trims them)."""
        self.tables.clear()
        self.fails.clear()

    def size(self) -> int:
        return sum(map(len, self.fails)) + sum(len(t) for row in self.tables for t in row)

    @staticmethod
    def _top_fantasy(fantasy: FantasyWorth, rules: TableRules, category: int,
                     rank: int) -> float:
        """The Fantasyland a top of this category and rank earns, in points: the engine's
        fantasy_cards on a probe board, not fouled, whose other rows earn nothing."""
        third = rank if category == TRIPS else (0 if rank else 1)
        top = eval3((make_card(rank, 0), make_card(rank, 1), make_card(third, 2)))
        probe = BoardResult(Board(), Board(), False, (top, 1, 1), (top, 1, 1), (0, 0, 0),
                            rules.variant == "lowball")
        return fantasy.of(fantasy_cards(probe, rules, in_fantasy=False))

    def rows(self, left: int) -> tuple[_Table, _Table, _Table]:
        """The worth tables of the three rows with `left` streets still to come."""
        while len(self.tables) <= left:
            n = len(self.tables)
            self.tables.append((_Table(partial(self._top3, left=n), 3),
                                _Table(partial(self._five, 1, left=n), 5),
                                _Table(partial(self._five, 2, left=n), 5)))
            self.fails.append({})
        return self.tables[left]

    def earns_fantasy(self, top: int) -> bool:
        """Whether a top of this key already holds what earns Fantasyland (R8, R9), should the
        board not foul."""
        code = self.rows(0)[0][shape3(top)][0]
        category, rank = code >> 4, code & 15
        earned = {PAIR: self.pair_fantasy, TRIPS: self.trips_fantasy}.get(category)
        return earned is not None and earned[rank] > 0

    def looks(self, left: int) -> float:
        return self.looks_share * self.per_street * left

    # -- rows ------------------------------------------------------------------------------

    def _top3(self, part: int, count: int, _: bool, left: int) -> tuple[int, float]:
        if count == 3:
            code = MADE[TOP3[part]]
            row = None
        else:
            row = ranks_info(count, part, 3)
            code = row.made
        category, rank = code >> 4, code & 15
        if category == TRIPS:  # R4: rank value + 8
            return code, rank + 10 + self.trips_fantasy[rank]
        if category == PAIR:
            return code, max(0, rank - 3) + 0.02 * rank + self.pair_fantasy[rank]
        free = 3 - count
        worth = 0.04 * rank * min(count, 1) + 0.15 * free
        if row is not None and left and self.fl_draw:
            # a lone queen or better may pair: its outs are its rank's three other cards
            draws = [r for r in row.singles if r >= self.fantasy_pair]
            if draws:
                best = max(draws)
                worth += self.fl_draw * at_least(1, 3 * len(draws), self.looks(left)) * (
                    best - 3 + self.pair_fantasy[best])
        return code, worth

    def _five(self, index: int, part: int, count: int, one_suit: bool,
              left: int) -> tuple[int, float]:
        if count == 5:
            value = (FLUSH5 if one_suit else PLAIN5)[part]
            return MADE[value], self.complete[index][value]
        row = ranks_info(count, part, 5)
        if index == 1 and self.lowball:  # R9: the middle must end a 2-7 low, ten-high or better
            if not row.distinct or row.high > TEN:
                return row.made, DEAD
            return row.made, 1.0 - 0.1 * max(row.high, 0) - (
                1.0 if one_suit and count >= 3 else 0.0)
        worth = _PARTIAL[index][row.made >> 4] + row.made * _STRENGTH[index]
        if count >= 2 and left and row.distinct:
            looks = self.looks(left)
            flush, straight = self.pays[index]
            draws = 0.0
            if one_suit:
                draws += at_least(5 - count, 13 - count, looks) * (flush + 1.0)
            if row.windows:
                draws += min(0.9, sum(at_least(1, 4, looks) ** missing
                                      for missing in row.windows)) * (straight + 1.0)
            worth += draws * _DRAW_WEIGHT[index]
        return row.made, worth

    # -- boards ----------------------------------------------------------------------------

    def fail(self, upper: Row, lower: Row, left: int) -> float:
        """The chance that the `upper` row ends above the `lower` one: a foul (R3). Certain
        when the lower row is complete and below the weakest the upper can end with."""
        if upper[3] <= lower[3]:
            return 0.0
        fails = self.fails[left]
        memo = lower[2] * 256 + upper[0]
        found = fails.get(memo)
        if found is None:
            shape = lower[2]
            count = (shape & 15) >> 1
            if count == 5:
                found = 1.0
            else:
                row = ranks_info(count, shape >> 4, 5)
                one, two, fresh = _outs(upper[0], row, bool(shape & 1) and count >= 3, count)
                looks = self.looks(left)
                lift = at_least(1, one, looks)
                if count <= 3:  # two hits need two free places
                    if two:
                        lift += (1 - lift) * self.two_hits * at_least(2, two, looks)
                    if fresh:  # a new pair, two of one of `fresh` ranks
                        lift += (1 - lift) * self.two_hits * (
                            1 - (1 - at_least(2, 4, looks)) ** fresh)
                found = max(0.0, 1.0 - lift)
            fails[memo] = found
        return found

    def combine(self, top: Row, middle: Row, bottom: Row, left: int) -> float:
        """A board's worth: its rows' worth less the foul cost times the foul chance."""
        worth = top[1] + middle[1] + bottom[1]
        fail = self.foul(top, middle, bottom, left)
        if fail >= 1.0:
            return DEAD
        at_stake = top[1] if self.lowball else worth
        return worth - fail * (FOUL_COST + max(0.0, at_stake))

    def foul(self, top: Row, middle: Row, bottom: Row, left: int) -> float:
        """The chance that the board ends fouled (R3; R9 lowball: the top above the bottom)."""
        if self.lowball:  # R9: the middle must end a 2-7 low, and the bottom above the top
            return 1.0 if middle[1] <= DEAD else self.fail(top, bottom, left)
        # the middle must end above the top: the bottom above both
        if top[3] > middle[3]:
            if middle[2] & 14 == 8 and bottom[2] & 15 >= 10 and _squeezed(top, middle, bottom):
                return 1.0
            fail_top, upper = self.fail(top, middle, left), _lifted(top, middle)
        else:
            fail_top, upper = 0.0, middle
        fail_middle = self.fail(upper, bottom, left) if upper[3] > bottom[3] else 0.0
        return 1 - (1 - fail_top) * (1 - fail_middle)

    def best(self, keys: Keys, free: Free, dealt: Sequence[int], discards: int,
             left: int) -> tuple[Choice, float]:
        """The placement of `dealt` (cards; `discards` of them thrown) with the best score,
        `left` streets to come after it."""
        return self._best(keys, free, subset_sums(dealt), len(dealt), discards, left)

    def place(self, keys: Keys, free: Free, dealt: Sequence[int], discards: int,
              left: int) -> tuple[Keys, Free]:
        """The board (keys and free places) after the best placement of `dealt`."""
        sums = subset_sums(dealt)
        choice, _ = self._best(keys, free, sums, len(dealt), discards, left)
        return ((keys[0] + sums[choice[0]], keys[1] + sums[choice[1]],
                 keys[2] + sums[choice[2]]),
                (free[0] - choice[0].bit_count(), choice[3], choice[4]))

    def _best(self, keys: Keys, free: Free, sums: list[int], dealt: int, discards: int,
              left: int) -> tuple[Choice, float]:
        street = plan(free[0], free[1], free[2], dealt, discards)
        top_table, middle_table, bottom_table = self.rows(left)
        kt, km, kb = keys
        masks_t, masks_m, masks_b = street.masks
        # the shape functions, inline: these lookups are the policy's hot path
        tops = [top_table[((x := kt + sums[m]) >> RANK_SHIFT) * 16 + _SHAPE3[x & SUIT_MASK]]
                for m in masks_t]
        middles = [middle_table[((x := km + sums[m]) >> RANK_SHIFT) * 16
                                + _SHAPE5[x & SUIT_MASK]] for m in masks_m]
        bottoms = [bottom_table[((x := kb + sums[m]) >> RANK_SHIFT) * 16
                                + _SHAPE5[x & SUIT_MASK]] for m in masks_b]
        lowball = self.lowball
        best_choice = street.choices[0]
        best_score = float("-inf")
        for t, m, b, choice in street.indexed:
            top, middle, bottom = tops[t], middles[m], bottoms[b]
            value = top[1] + middle[1] + bottom[1]
            if value <= best_score:  # a foul's cost only takes away: it cannot win
                continue
            if lowball or top[3] > middle[3] or middle[3] > bottom[3]:
                value = self.combine(top, middle, bottom, left)
                if value <= best_score:
                    continue
            best_choice, best_score = choice, value
        return best_choice, best_score

    def score(self, keys: Keys, left: int) -> float:
        """The worth of a board as it stands, `left` streets to come."""
        return self.combine(*self.rows_of(keys, left), left)

    def foul_chance(self, keys: Keys, left: int) -> float:
        """The chance the policy counts that a board as it stands ends fouled."""
        return self.foul(*self.rows_of(keys, left), left)

    def rows_of(self, keys: Keys, left: int) -> tuple[Row, Row, Row]:
        """What the policy knows of the board's three rows, `left` streets to come."""
        tops, middles, bottoms = self.rows(left)
        return tops[shape3(keys[0])], middles[shape5(keys[1])], bottoms[shape5(keys[2])]


# the weakest five-card value of each made code (category * 16 + main rank)
_LOWEST5: dict[int, int] = {}
for _value in range(1, len(MADE)):
    if TUPLES[_value][-1] != -1:  # five-card classes (a top's are padded with -1)
        _LOWEST5.setdefault(MADE[_value], _value)


def _lifted(top: Row, middle: Row) -> Row:
    """What the middle must at least end with to beat the top (the bottom must then beat it
    too, R3): the top itself, but over a lower pair in the middle, two pair (the middle can
    only pass a higher pair by a second pair or more)."""
    if top[0] >> 4 == PAIR and middle[0] >> 4 == PAIR:
        code = TWO_PAIR * 16 + max(middle[0] & 15, 1)  # two pair: threes and twos at least
        return (code, 0.0, 0, _LOWEST5[code])
    return top


@lru_cache(maxsize=65536)
def _squeeze(top_floor: int, middle_shape: int, bottom_floor: int) -> bool:
    """A middle with one free place, below the top, under a complete bottom: no last card
    lifts it above the top without lifting it above the bottom too (R3, a certain foul)."""
    ranks = multisets()[(4, middle_shape >> 4)]
    for r in range(13):
        if ranks.count(r) == 4:
            continue
        part = _part([*ranks, r])
        for value in (PLAIN5[part], FLUSH5[part] if middle_shape & 1 else 0):
            if top_floor < value <= bottom_floor:
                return False
    return True


def _squeezed(top: Row, middle: Row, bottom: Row) -> bool:
    return _squeeze(top[3], middle[2], bottom[3])


def _least(table: list[int], category: int) -> float:
    """The least royalty a row of `category` pays (the table is per evaluation value)."""
    return float(min(r for v, r in enumerate(table) if v and CATEGORY[v] == category))


def _outs(upper: int, row: Partial, suited: bool, count: int) -> tuple[int, int, int]:
    """Cards that lift a lower row (`row`, `count` cards, `suited`: three or more of one suit)
    to at least `upper`: (outs that do it alone, outs of which two do it, ranks the row does not
    hold of which two make a pair good enough)."""
    cu, ru = upper >> 4, upper & 15
    cl = row.made >> 4
    singles, paired = row.singles, row.paired
    one = two = 0
    held = set(singles) | set(paired)
    fresh = sum(1 for r in range(ru + 1, 13) if r not in held) if cu == PAIR else 0
    if suited and cu < FLUSH:  # a flush beats anything a top or a middle below it has
        if count == 4:
            one += 9
        else:
            two += 10
    if cu == HIGH_CARD:
        one += 3 * count + 4 * (12 - ru)
    elif cu == PAIR:
        if cl == HIGH_CARD:  # a pair above the top's (an equal one rests on kickers)
            one += 3 * sum(1 for r in singles if r > ru)
            two += 3 * len(singles)
        else:  # a lower pair: two pair or trips
            one += 3 * len(singles) + 2 * len(paired)
    elif cu == TWO_PAIR:
        if cl == PAIR:
            one += 2 * len(paired) + 3 * sum(1 for r in singles if r > ru)
            two += 3 * len(singles)
        elif cl == TWO_PAIR:
            one += 2 * len(paired)
        else:
            two += 3 * len(singles)
    elif cu == TRIPS:
        if cl == PAIR:
            one += 2 * sum(1 for r in paired if r > ru)
            two += 2 * len(paired) + 3 * len(singles)
        elif cl in (TWO_PAIR, TRIPS):
            one += 4 if cl == TWO_PAIR else 3 * len(singles) + 1
        else:
            two += 3 * len(singles)
    else:  # a full house or better above: only more of the same
        one += 1 if cl >= TRIPS else 0
    return one, two, fresh

