"""State-machine figure: whole 3-player hands played through `Match` per second."""

import random

from bot.cli.bench.engine import SEED, _rate
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules

HANDS_PER_RUN = 50


def hand_playout_per_s() -> float:
    """Deal, 5 streets of random legal placements for 3 players (every action validated, events
    and history recorded), showdown, score and settle (R3-R7)."""
    rng = random.Random(SEED)
    rules = TableRules(format="cash", fantasy="off")
    players = [PlayerSpec(i + 1, f"P{i + 1}", 10_000) for i in range(3)]

    def work() -> int:
        match = Match.new(rules, players, seed=rng.randrange(1 << 30))
        for _ in range(HANDS_PER_RUN):
            match.start_hand(0.0)
            while match.phase == "playing":
                seat = match.pending()[0]
                match.place(seat, match.random_assignment(seat, rng), 1.0)
        return HANDS_PER_RUN

    return _rate(work, 3.0)


def run(keys: set[str]) -> dict[str, float]:
    if "hand_playout_per_s" not in keys:
        return {}
    return {"hand_playout_per_s": round(hand_playout_per_s(), 1)}
