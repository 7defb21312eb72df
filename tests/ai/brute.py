"""An independent, exhaustive Fantasyland optimiser for the solver's tests.

Every legal arrangement of every 13 of the cards is scored straight from RULES.md: the foul test
(R3; R9 lowball), royalties from the engine's per-row lists (R4), and the stay rule written out
here from R8/R9 rather than taken from the engine. Jokers (R9) take, per row, the strongest
option that does not foul: `test_greedy_joker_resolution_is_the_engines` checks that reading
against `evaluate_board`.
"""

from collections.abc import Sequence
from itertools import combinations

from bot.engine.cards import DECK, Card, is_joker
from bot.engine.evaluation import (
    FULL_HOUSE,
    QUADS,
    TRIPS,
    category_of,
    eval3,
    eval5,
    is_low,
)
from bot.engine.royalties import row_royalty
from bot.engine.rules import TableRules


def stays(rules: TableRules, top: int, middle: int, bottom: int) -> bool:
    """R8 and R9: does a non-fouled Fantasyland board keep Fantasyland?"""
    if rules.fantasy == "off":
        return False
    trips_top = category_of(top) == TRIPS
    quads_bottom = category_of(bottom) >= QUADS
    full_middle = category_of(middle) >= FULL_HOUSE
    if rules.variant == "turbo":
        return trips_top or full_middle or quads_bottom
    if rules.variant == "lowball":
        return trips_top or quads_bottom
    if rules.fantasy == "tournament":
        return False
    return trips_top or quads_bottom or (rules.fantasy_stay_full_house_middle and full_middle)


def options(cards: Sequence[Card]) -> list[int]:
    """Every value a row may take (R9: a joker is any card not already in its row)."""
    fixed = [c for c in cards if not is_joker(c)]
    wild = len(cards) - len(fixed)
    evaluate = eval3 if len(cards) == 3 else eval5
    pool = [c for c in DECK if c not in fixed]
    return sorted({evaluate((*fixed, *extra)) for extra in combinations(pool, wild)})


def greedy(opts: list[int], limit: int) -> int | None:
    """A row's strongest option not above `limit` (not fouling the row above it), if any."""
    if opts[-1] <= limit:
        return opts[-1]
    fitting = [v for v in opts if v <= limit]
    return fitting[-1] if fitting else None


def best(cards: Sequence[Card], rules: TableRules, stay_value: float
         ) -> tuple[float, tuple[int, int, int]] | None:
    """(value, (bottom, middle, top) lines) of the best legal arrangement; None when every
    arrangement fouls (a lowball hand without a 2-7 middle)."""
    lowball = rules.variant == "lowball"
    table = rules.royalties
    n = len(cards)
    five = {s: options([cards[i] for i in s]) for s in combinations(range(n), 5)}
    three = {s: options([cards[i] for i in s]) for s in combinations(range(n), 3)}
    top_royalty = {v: row_royalty(table, "top", v) for opts in three.values() for v in opts}
    found: tuple[float, tuple[int, int, int]] | None = None
    for b_idx, b_opts in five.items():
        vb = b_opts[-1]
        rest = [i for i in range(n) if i not in b_idx]
        for m_idx in combinations(rest, 5):
            m_opts = five[m_idx]
            if lowball:
                vm = m_opts[-1]
                if not is_low(vm):
                    continue
            else:
                vm = greedy(m_opts, vb)
                if vm is None:
                    continue
            # Only the top still varies: the best top here, over every legal one.
            limit = vb if lowball else vm
            tops = [vt for t_idx in combinations([i for i in rest if i not in m_idx], 3)
                    if (vt := greedy(three[t_idx], limit)) is not None]
            if not tops:
                continue
            base = row_royalty(table, "middle", vm, lowball) + row_royalty(table, "bottom", vb)
            line_m = -vm if lowball else vm
            for vt in set(tops):
                value = base + top_royalty[vt]
                if stays(rules, vt, vm, vb):
                    value += stay_value
                key = (value, (vb, line_m, vt))
                if found is None or key > found:
                    found = key
    return found
