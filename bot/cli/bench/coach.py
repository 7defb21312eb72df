"""The coach's figure: milliseconds to review one finished hand (/ofc review), the
mean and the slowest over seeded three-handed hands (the most boards to play out), each
player's choices those of the easy player, so that most streets differ from the strong
player's and are scored on the shared futures."""

import time

from bot.ai.players import Settings, decide
from bot.ai.review import review_hand
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules

SEED = 20261118
HANDS = 5


def _history(seed: int) -> dict[str, object]:
    match = Match.new(TableRules(seats=3), [PlayerSpec(i + 1, f"p{i}", 200) for i in range(3)],
                      seed=seed)
    match.start_hand(0.0)
    while match.phase == "playing":
        seat = match.pending()[0]
        match.place(seat, decide(match.view_for(seat), Settings(level="easy")), 0.0)
    history = match.history()
    assert history is not None
    return history


def run(keys: set[str]) -> dict[str, float]:
    times = []
    for number in range(HANDS):
        history = _history(SEED + number)
        start = time.perf_counter()
        review_hand(history, 1, seed=SEED)
        times.append((time.perf_counter() - start) * 1000)
    out = {"review_hand_ms": round(sum(times) / len(times)),
           "review_hand_max_ms": round(max(times))}
    return {k: v for k, v in out.items() if k in keys}
