"""Fit the learned evaluation (learned.py) to self-play records: `python -m bot.ai.training.fit`.

Least squares with a small ridge (RIDGE, so that a feature that never varies at some street,
such as the free places of a complete board, leaves the system solvable), one weight vector per
number of streets still to come, solved in plain Python (sixteen unknowns). Deals are split at
random (seeded) into a fitting set and a held-out fifth; the report compares, on the held-out
deals, the learned value's squared error with that of the policy's own score (scaled by its own
least-squares fit), street by street. The split is by deal number: the hands of one number in
every file given go to the same side. Deterministic: the same records and seed give the same
file, byte for byte.
"""

import argparse
import json
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.ai.fantasy_value import fantasy_worth
from bot.ai.learned import FEATURES, features
from bot.ai.policy import Policy
from bot.engine.rules import TableRules

RIDGE = 1.0
HELD_OUT = 0.2
SCORE_FLOOR = -20.0  # the policy's certain foul (-1000) as a baseline's input
STREETS = 5  # streets left after a placement: 4 (the first street) down to 0


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector (Gaussian elimination, partial pivoting); the matrix is
    symmetric positive definite here (a ridge normal system)."""
    n = len(vector)
    a = [[*row, b] for row, b in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float],
                  ridge: float = RIDGE) -> list[float]:
    n = len(rows[0])
    gram = [[0.0] * n for _ in range(n)]
    moment = [0.0] * n
    for row, y in zip(rows, targets, strict=True):
        for i, xi in enumerate(row):
            moment[i] += xi * y
            line = gram[i]
            for j in range(i, n):
                line[j] += xi * row[j]
    for i in range(n):
        gram[i][i] += ridge
        for j in range(i):
            gram[i][j] = gram[j][i]
    return solve(gram, moment)


def _mse(weights: Sequence[float], rows: Sequence[Sequence[float]],
         targets: Sequence[float]) -> float:
    return sum((sum(w * x for w, x in zip(weights, row, strict=True)) - y) ** 2
               for row, y in zip(rows, targets, strict=True)) / max(1, len(targets))


def fit(records: Iterable[dict[str, Any]], seed: int) -> dict[str, Any]:
    """The weight file's object for these records (see the module docstring)."""
    rules = TableRules()
    policy = Policy(rules, fantasy_worth(rules, None))
    data = list(records)
    deals = sorted({r["deal"] for r in data})
    random.Random(seed).shuffle(deals)
    held = set(deals[:round(HELD_OUT * len(deals))])
    weights = []
    report = []
    for left in range(STREETS):
        # per held-out or not: features, the policy's score (with a bias), points
        sets: dict[bool, tuple[list[list[float]], list[list[float]], list[float]]] = {
            part: ([], [], []) for part in (False, True)}
        for r in data:
            if r["left"] == left:
                keys = (r["keys"][0], r["keys"][1], r["keys"][2])
                rows, scores, targets = sets[r["deal"] in held]
                rows.append(features(policy, keys, left))
                scores.append([1.0, max(policy.score(keys, left), SCORE_FLOOR)])
                targets.append(float(r["value"]))
        rows, scores, targets = sets[False]
        if not rows:
            raise ValueError(f"no records with {left} streets to come")
        learned, baseline = least_squares(rows, targets), least_squares(scores, targets)
        weights.append([round(x, 6) for x in learned])
        test_rows, test_scores, test_targets = sets[True]
        report.append({"left": left, "fitted": len(targets), "held_out": len(test_targets),
                       "mse_learned": round(_mse(learned, test_rows, test_targets), 3),
                       "mse_policy_score": round(_mse(baseline, test_scores, test_targets), 3)})
    return {"features": list(FEATURES), "weights": weights, "seed": seed,
            "deals": len({(r.get("file", 0), r["deal"]) for r in data}), "records": len(data),
            "held_out_deal_numbers": len(held),
            "report": report}


def read(paths: Iterable[Path]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for number, path in enumerate(paths):
        with path.open(encoding="utf-8") as lines:
            out.extend({**json.loads(line), "file": number} for line in lines if line.strip())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.training.fit",
                                     description="fit the learned evaluation's weights")
    parser.add_argument("data", nargs="+", help="self-play files (bot.ai.training.selfplay)")
    parser.add_argument("--seed", type=int, default=1, help="the held-out deals' draw")
    parser.add_argument("--command", default="", help="the commands that made the data, kept "
                                                       "in the weight file")
    parser.add_argument("--out", required=True, help="the weight file to write")
    args = parser.parse_args(argv)
    try:
        model = fit(read(Path(p) for p in args.data), args.seed)
    except (OSError, ValueError, KeyError, IndexError) as error:
        print(f"fit: {error}", file=sys.stderr)
        return 2
    model["command"] = args.command
    Path(args.out).write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    for line in model["report"]:
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
