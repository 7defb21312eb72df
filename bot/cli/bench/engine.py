"""Engine figures: five-card evaluations and whole scored-and-settled hands per second."""

import random
import time
from collections import deque
from collections.abc import Callable

from bot.engine.board import Board, BoardResult, evaluate_board
from bot.engine.cards import DECK
from bot.engine.evaluation import eval5
from bot.engine.rules import TableRules
from bot.engine.scoring import score_hand
from bot.engine.settlement import settle

SEED = 20261121


def _rate(work: Callable[[], int], seconds: float = 1.0) -> float:
    """Units per second of `work` (which returns how many units it did), best of 3 runs."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            done += work()
        best = max(best, done / (time.perf_counter() - start))
    return best


def eval5_per_s() -> float:
    rng = random.Random(SEED)
    hands = [tuple(rng.sample(DECK, 5)) for _ in range(200_000)]

    def work() -> int:
        deque(map(eval5, hands), maxlen=0)
        return len(hands)

    return _rate(work, 3.0)


def score_hand_per_s() -> float:
    """A whole 3-player hand: evaluate three boards, score the pairs, settle (R3-R6)."""
    rng = random.Random(SEED)
    rules = TableRules()
    deals = []
    for _ in range(1000):
        cards = rng.sample(DECK, 39)
        deals.append([Board(tuple(cards[i:i + 3]), tuple(cards[i + 3:i + 8]),
                            tuple(cards[i + 8:i + 13])) for i in (0, 13, 26)])

    def work() -> int:
        for boards in deals:
            results: list[BoardResult] = [evaluate_board(b, rules) for b in boards]
            _, pairs = score_hand(results, rules.scoring, 0)
            settle([100, 100, 100], pairs, rules.point_value)
        return len(deals)

    return _rate(work, 3.0)


_FIGURES = {"eval5_per_s": eval5_per_s, "score_hand_per_s": score_hand_per_s}


def run(keys: set[str]) -> dict[str, float]:
    return {k: round(f(), 1) for k, f in _FIGURES.items() if k in keys}
