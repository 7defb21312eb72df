"""Fantasyland solver and computer player figures (issue 9): milliseconds, mean and max."""

import random
import time

from bot.ai.players import Settings, decide
from bot.ai.solver import solve
from bot.engine.cards import DECK
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView

SEED = 20261121
SOLVE_HANDS = 100  # seeded hands per solve figure
EASY_HANDS = 40  # seeded heads-up hands whose street decisions are timed
STRONG_DECISIONS = 10  # street decisions timed at the default budget (about 1 s each)


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


def _street_views(hands: int) -> list[PrivateView]:
    """Every street decision (not Fantasyland) of seeded heads-up hands played at random, so
    that no board met here is already in the players' caches."""
    rules = TableRules(format="hands", hands=hands, seats=2)
    match = Match.new(rules, [PlayerSpec(-1, "a", 10**9, "easy"),
                              PlayerSpec(-2, "b", 10**9, "easy")], seed=SEED)
    views = []
    rng = random.Random(SEED)
    while match.phase != "over":
        match.start_hand(0.0)
        while match.pending():
            seat = match.pending()[0]
            view = match.view_for(seat)
            if len(view.dealt) < 13:
                views.append(view)
            match.place(seat, match.random_assignment(seat, rng), 0.0)
    return views


def _decision_ms(views: list[PrivateView], settings: Settings) -> float:
    start = time.perf_counter()
    for view in views:
        decide(view, settings)
    return round((time.perf_counter() - start) * 1000 / len(views), 2)


def run(keys: set[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    if "ai_easy_decision_ms" in keys:
        out["ai_easy_decision_ms"] = _decision_ms(_street_views(EASY_HANDS),
                                                  Settings(level="easy"))
    if "ai_strong_decision_ms" in keys:
        views = random.Random(SEED).sample(_street_views(4), STRONG_DECISIONS)
        out["ai_strong_decision_ms"] = _decision_ms(views, Settings(level="strong", seed=SEED))
    for count in (14, 17):
        names = (f"solve{count}_mean_ms", f"solve{count}_max_ms")
        if keys & set(names):
            times = _solve_times(count)
            out[names[0]] = round(sum(times) / len(times), 1)
            out[names[1]] = round(max(times), 1)
    return {k: v for k, v in out.items() if k in keys}
