"""Scoring a hand (R5): every pair of players head to head, in settlement order (R6)."""

from collections.abc import Sequence
from typing import NamedTuple

from bot.engine.board import BoardResult
from bot.engine.rules import Scoring


class PairScore(NamedTuple):
    """Player a against player b, from a's side (b's is the negation)."""

    a: int  # index into the players as given
    b: int
    lines: tuple[int, int, int]  # top, middle, bottom: +1 a wins, -1 b wins, 0 tie
    line_points: int
    bonus: int  # 1-6 scoop (+-3) or 2-4 bonus (+-1)
    royalties: int  # royalties(a) - royalties(b)

    @property
    def points(self) -> int:
        return self.line_points + self.bonus + self.royalties


def _bonus(lines: tuple[int, int, int], scoring: Scoring) -> int:
    wins, losses = lines.count(1), lines.count(-1)
    if scoring == "1-6":
        # R5: the scoop is winning all three lines: 3 more (6 in all).
        return 3 if wins == 3 else -3 if losses == 3 else 0
    # R5 2-4: one more for winning two or three lines.
    return 1 if wins >= 2 else -1 if losses >= 2 else 0


def score_pair(a: BoardResult, b: BoardResult, scoring: Scoring, ia: int = 0,
               ib: int = 1) -> PairScore:
    """R5 for one pair. A fouled board loses every line to a non-fouled one (R3)."""
    if a.fouled and b.fouled:
        lines = (0, 0, 0)
    elif a.fouled:
        lines = (-1, -1, -1)
    elif b.fouled:
        lines = (1, 1, 1)
    else:
        (ta, ma, ba), (tb, mb, bb) = a.lines, b.lines
        lines = ((ta > tb) - (ta < tb), (ma > mb) - (ma < mb), (ba > bb) - (ba < bb))
    return PairScore(ia, ib, lines, sum(lines), _bonus(lines, scoring),
                     sum(a.royalties) - sum(b.royalties))


def settlement_order(count: int, button: int) -> list[int]:
    """R6: seats from the one left of the button clockwise to the button (s1..sn)."""
    return [(button + 1 + k) % count for k in range(count)]


def score_hand(results: Sequence[BoardResult], scoring: Scoring,
               button: int) -> tuple[list[int], list[PairScore]]:
    """Points per player (in the given order) and the pairs in R6 settlement order.

    `results` are in seat order (clockwise); `button` indexes them."""
    order = settlement_order(len(results), button)
    pairs = [
        score_pair(results[i], results[j], scoring, i, j)
        for k, i in enumerate(order)
        for j in order[k + 1:]
    ]
    points = [0] * len(results)
    for pair in pairs:
        points[pair.a] += pair.points
        points[pair.b] -= pair.points
    return points, pairs
