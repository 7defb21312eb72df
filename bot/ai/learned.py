"""A learned evaluation of a partial board: what it is worth in points, fitted on self-play.

The playout policy (policy.py) scores a board by hand-set weights, and the search starts every
candidate's estimate from that score. The learned value is a linear model over features of the
board as the policy sees it (its rows' worths, its foul chance, what the rows hold, their free
places), one weight vector per number of streets still to come, fitted by least squares to the
points the board's seat ended with (R5 against the other seat, plus the Fantasyland earned at
its measured worth) in heads-up self-play of the `strong` player itself: it judges a board by
how the search's own play ends it, not the policy's. `bot/ai/training/` makes the data and fits
the weights; `learned_value.json` beside this module is the shipped fit (its command, seed and
data size are in it and in docs/computer-players.md).

It is fitted under the default rules only (`applies`): other tables keep the policy's score.
Plain Python: a board's value is about twenty table lookups and one dot product.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.ai.policy import Keys, Policy
from bot.ai.rowkey import SUITS
from bot.engine.cards import SUIT_MASK
from bot.engine.evaluation import PAIR, TRIPS
from bot.engine.rules import TableRules

SHIPPED = Path(__file__).with_name("learned_value.json")
QUEEN = 10
FEATURES = (
    "bias",
    "top worth", "middle worth", "bottom worth",  # the policy's row worths
    "foul chance",  # the policy's
    "foul chance x worth",
    "top earns Fantasyland", "top earns Fantasyland x no foul",
    "top pair", "top trips", "top queen or better, unpaired, with room",
    "middle category", "bottom category",  # 0 high card ... 8 straight flush, over 8
    "top free", "middle free", "bottom free",  # places, over the row's size
)
_DEFAULT = TableRules()


def applies(rules: TableRules) -> bool:
    """Whether the learned value was fitted for these rules (the default variant, royalties,
    scoring and Fantasyland: what a board is worth depends on all four)."""
    return (rules.variant, rules.royalties, rules.scoring, rules.fantasy, rules.jokers) == (
        _DEFAULT.variant, _DEFAULT.royalties, _DEFAULT.scoring, _DEFAULT.fantasy,
        _DEFAULT.jokers)


def features(policy: Policy, keys: Keys, left: int) -> list[float]:
    """The board's features (FEATURES, in order) as the policy sees it, `left` streets to
    come."""
    top, middle, bottom = policy.rows_of(keys, left)
    worth = top[1] + middle[1] + bottom[1]
    foul = policy.foul(top, middle, bottom, left)
    earns = float(policy.earns_fantasy(keys[0]))
    top_category = top[0] >> 4
    free_top = 3 - SUITS[keys[0] & SUIT_MASK][0]
    queen_up = float(top_category < PAIR and free_top > 0 and (top[0] & 15) >= QUEEN
                     and SUITS[keys[0] & SUIT_MASK][0] > 0)
    return [
        1.0,
        top[1], middle[1], bottom[1],
        foul,
        foul * worth,
        earns, earns * (1.0 - foul),
        float(top_category == PAIR), float(top_category == TRIPS), queen_up,
        (middle[0] >> 4) / 8, (bottom[0] >> 4) / 8,
        free_top / 3, (5 - SUITS[keys[1] & SUIT_MASK][0]) / 5,
        (5 - SUITS[keys[2] & SUIT_MASK][0]) / 5,
    ]


@dataclass(frozen=True, slots=True)
class LearnedValue:
    """One weight vector per number of streets still to come (index: streets left)."""

    weights: tuple[tuple[float, ...], ...]

    def value(self, policy: Policy, keys: Keys, left: int) -> float:
        """The board's worth in points against one opponent."""
        w = self.weights[min(left, len(self.weights) - 1)]
        return sum(a * b for a, b in zip(w, features(policy, keys, left), strict=True))

    @staticmethod
    def from_json(data: dict[str, Any]) -> "LearnedValue":
        """From the weight file's object; ValueError when it does not fit FEATURES."""
        if list(data.get("features", ())) != list(FEATURES):
            raise ValueError("the weight file's features are not this module's")
        rows: Sequence[Sequence[float]] = data["weights"]
        if not rows or any(len(r) != len(FEATURES) for r in rows):
            raise ValueError("the weight file needs one weight per feature per street")
        return LearnedValue(tuple(tuple(float(x) for x in r) for r in rows))


@lru_cache(maxsize=4)
def load(path: Path = SHIPPED) -> LearnedValue:
    return LearnedValue.from_json(json.loads(path.read_text(encoding="utf-8")))
