"""Fantasyland solver and computer player figures: milliseconds, mean and max;
the strong player's playouts a second against `strong-v1`'s, measured in the same run."""

import random
import time

from bot.ai.players import Settings, decide, decide_counted
from bot.ai.solver import solve
from bot.engine.cards import DECK, JOKERS, Card, parse_cards
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView

SEED = 20261121
SOLVE_HANDS = 100  # seeded hands per solve figure
EASY_HANDS = 40  # seeded heads-up hands whose street decisions are timed
STRONG_DECISIONS = 10  # street decisions timed at the default budget (about 1 s each)
PLAYOUT_DECISIONS = 120  # street decisions timed per player for the playout rate
PLAYOUTS = 200  # the playout budget of each decision (ofc simulate's default)
JOKER_HANDS = 10  # seeded joker hands per size (13-17 cards) and joker count (1, 2)
# The slowest joker Fantasyland hands (R9) found: by a search for slow hands (cards changed
# one or two at a time, kept when the solve took longer) and in a sweep of random ones.
JOKER_WORST = (
    "4s 4d 9c 3s 7d 3c 7c 2d 2h Qh 8s 6h 9d Kh 8c X X",
    "9c 9s Jh 3c 2h X 8d Ah Ad Td X 8s 4d Ts 6c 3s",
    "Ac 4s 6h X Ts 3d Kh X Jc Td 9d 3s 8s Th",
)


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


def _joker_solve_times() -> list[float]:
    """Seeded joker hands of every Fantasyland size at a joker table, then the slowest found."""
    rng = random.Random(SEED)
    rules = TableRules(variant="joker")
    hands: list[list[Card]] = [
        rng.sample(DECK, count - jokers) + list(JOKERS[:jokers])
        for count in range(13, 18) for jokers in (1, 2) for _ in range(JOKER_HANDS)]
    hands += [parse_cards(h) for h in JOKER_WORST]
    times = []
    for hand in hands:
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


def _playout_rates() -> tuple[float, float]:
    """Playouts a second of `strong` and of `strong-v1` (one core, this process), over the same
    street decisions at 200 playouts each, taken in turns (a change in the machine's load hits
    both), after as many others to fill their caches (a live worker process keeps them)."""
    views = _street_views(2 * PLAYOUT_DECISIONS // 10 + 2)  # about 10 a hand
    random.Random(SEED).shuffle(views)
    warm, timed = views[:PLAYOUT_DECISIONS], views[PLAYOUT_DECISIONS:2 * PLAYOUT_DECISIONS]
    levels = ("strong", "strong-v1")
    played = dict.fromkeys(levels, 0)
    seconds = dict.fromkeys(levels, 0.0)
    settings = {level: Settings(level=level, seed=SEED, seconds=None, playouts=PLAYOUTS)
                for level in levels}
    for level in levels:
        for view in warm:
            decide_counted(view, settings[level])
    for view in timed:
        for level in levels:
            start = time.perf_counter()
            played[level] += decide_counted(view, settings[level])[1]
            seconds[level] += time.perf_counter() - start
    return played["strong"] / seconds["strong"], played["strong-v1"] / seconds["strong-v1"]


def run(keys: set[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    if "ai_easy_decision_ms" in keys:
        out["ai_easy_decision_ms"] = _decision_ms(_street_views(EASY_HANDS),
                                                  Settings(level="easy"))
    if keys & {"ai_strong_decision_ms", "ai_strong_decision_max_ms"}:
        views = random.Random(SEED).sample(_street_views(4), STRONG_DECISIONS)
        times = []
        for view in views:  # the live budget: 1 s of wall time
            start = time.perf_counter()
            decide(view, Settings(level="strong", seed=SEED))
            times.append((time.perf_counter() - start) * 1000)
        out["ai_strong_decision_ms"] = round(sum(times) / len(times), 1)
        out["ai_strong_decision_max_ms"] = round(max(times), 1)
    if keys & {"ai_playouts_per_s", "ai_v1_playouts_per_s", "ai_playouts_speedup"}:
        new, old = _playout_rates()
        out["ai_playouts_per_s"] = round(new)
        out["ai_v1_playouts_per_s"] = round(old)
        out["ai_playouts_speedup"] = round(new / old, 2)
    for count in (14, 17):
        names = (f"solve{count}_mean_ms", f"solve{count}_max_ms")
        if keys & set(names):
            times = _solve_times(count)
            out[names[0]] = round(sum(times) / len(times), 1)
            out[names[1]] = round(max(times), 1)
    if keys & {"solve_joker_mean_ms", "solve_joker_max_ms"}:
        times = _joker_solve_times()
        out["solve_joker_mean_ms"] = round(sum(times) / len(times), 1)
        out["solve_joker_max_ms"] = round(max(times), 1)
    return {k: v for k, v in out.items() if k in keys}
