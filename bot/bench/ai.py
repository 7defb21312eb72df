"""Fantasyland solver and computer player figures (issue 9): milliseconds, mean and max."""

import random
import time

from bot.ai.solver import solve
from bot.engine.cards import DECK
from bot.engine.rules import TableRules

SEED = 20261121
SOLVE_HANDS = 100  # seeded hands per solve figure


def _solve_times(count: int) -> list[float]:
    rng = random.Random(SEED + count)
    rules = TableRules()
    solve(DECK[:count], rules)  # first use builds the per-rules tables
    times = []
    for _ in range(SOLVE_HANDS):
        hand = rng.sample(DECK, count)
        start = time.perf_counter()
        solve(hand, rules)
        times.append((time.perf_counter() - start) * 1000)
    return times


def run(keys: set[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for count in (14, 17):
        names = (f"solve{count}_mean_ms", f"solve{count}_max_ms")
        if keys & set(names):
            times = _solve_times(count)
            out[names[0]] = round(sum(times) / len(times), 1)
            out[names[1]] = round(max(times), 1)
    return {k: v for k, v in out.items() if k in keys}
