"""Self-play data for the learned evaluation: `python -m bot.ai.training.selfplay`.

Heads-up hands under the default rules, both seats played by one computer level (`strong`, or
`strong-learned` to fit the learned value again on its own play) at a playout budget, each hand
seeded from (seed, deal) so a run replays exactly. After every placement of either seat the
board it made is recorded, as row keys with the streets still to come, and when the hand ends
each record gets the points its seat ended with: R5 against the other seat plus the Fantasyland
its board earned at its measured worth (what the search maximises, search.py's
Scorer). One JSON object a line: {"deal", "seat", "left", "keys", "value"}.
"""

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.ai.fantasy_value import fantasy_worth
from bot.ai.players import Settings, decide
from bot.ai.policy import Keys
from bot.ai.search import Scorer
from bot.ai.turn import future_streets, rows_after
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules

LEVEL = "strong"


def deal_records(deal: int, seed: int, playouts: int,
                 level: str = LEVEL) -> list[dict[str, Any]]:
    """One hand's records (see the module docstring), seeded from (seed, deal)."""
    rules = TableRules(format="hands", hands=1, seats=2)
    hand_seed = seed * 1_000_003 + deal
    match = Match.new(rules, [PlayerSpec(-1, "a", 100, level), PlayerSpec(-2, "b", 100, level)],
                      seed=hand_seed)
    match.start_hand(0.0)
    settings = Settings(level=level, seed=hand_seed, seconds=None, playouts=playouts)
    boards: dict[int, Keys] = {}
    records: list[tuple[int, int, Keys]] = []
    while match.pending():
        seat = match.pending()[0]
        view = match.view_for(seat)
        choice = decide(view, settings)
        rows = rows_after(view.board.rows, view.dealt, choice)
        keys = (sum(rows[0]), sum(rows[1]), sum(rows[2]))
        boards[seat] = keys
        placed = len(rows[0]) + len(rows[1]) + len(rows[2])
        records.append((seat, len(future_streets(rules, placed)), keys))
        match.place(seat, choice, 0.0)
    scorer = Scorer(rules, fantasy_worth(rules, None))
    final = {seat: scorer.final(keys) for seat, keys in boards.items()}
    value = {}
    for seat, mine in final.items():
        theirs = [f for s, f in final.items() if s != seat]
        value[seat] = mine.fantasy + sum(scorer.pair(mine, t) for t in theirs)
    return [{"deal": deal, "seat": seat, "left": left, "keys": list(keys), "value": value[seat]}
            for seat, left, keys in records]


def records(deals: int, seed: int, playouts: int, start: int = 0,
            level: str = LEVEL) -> Iterator[dict[str, Any]]:
    for deal in range(start, start + deals):
        yield from deal_records(deal, seed, playouts, level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.training.selfplay",
                                     description="self-play records for the learned evaluation")
    parser.add_argument("--deals", type=int, required=True, help="heads-up hands to play")
    parser.add_argument("--seed", type=int, default=1, help="makes the run reproducible")
    parser.add_argument("--playouts", type=int, default=200, help="the players' budget")
    parser.add_argument("--start", type=int, default=0,
                        help="first deal number (to split a run among processes)")
    parser.add_argument("--level", choices=("strong", "strong-learned"), default=LEVEL,
                        help="the level that plays both seats")
    parser.add_argument("--out", required=True, help="JSON-lines file to write")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.playouts < 1 or args.start < 0:
        print("selfplay: --deals and --playouts must be positive, --start not negative",
              file=sys.stderr)
        return 2
    with Path(args.out).open("w", encoding="utf-8") as out:
        for record in records(args.deals, args.seed, args.playouts, args.start, args.level):
            out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
