"""What a finished board is worth to its owner in points against boards it cannot see (R3-R5,
R8), and the Fantasyland it earns: the `strong` player's playouts end here.

Royalties count against every opponent; each line is won with a probability read off the row's
strength (a fixed, rough table of how often such a row holds up at showdown); a foul loses
every line and the bonus; earning Fantasyland is worth a Fantasyland hand.
"""

from bot.engine.board import BoardResult
from bot.engine.evaluation import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TUPLES,
    TWO_PAIR,
    is_low,
)
from bot.engine.fantasy import fantasy_cards
from bot.engine.rules import TableRules

# (chance at the category's lowest main rank, at its highest) of winning the row's line
_BOTTOM = {HIGH_CARD: (0.0, 0.03), PAIR: (0.04, 0.22), TWO_PAIR: (0.25, 0.45),
           TRIPS: (0.45, 0.6), STRAIGHT: (0.6, 0.7), FLUSH: (0.7, 0.82),
           FULL_HOUSE: (0.82, 0.95), QUADS: (0.95, 0.99), STRAIGHT_FLUSH: (0.99, 1.0)}
_MIDDLE = {HIGH_CARD: (0.0, 0.08), PAIR: (0.1, 0.55), TWO_PAIR: (0.55, 0.75),
           TRIPS: (0.75, 0.85), STRAIGHT: (0.85, 0.9), FLUSH: (0.9, 0.95),
           FULL_HOUSE: (0.95, 0.98), QUADS: (0.98, 1.0), STRAIGHT_FLUSH: (0.99, 1.0)}
_TOP = {HIGH_CARD: (0.0, 0.35), PAIR: (0.35, 0.95), TRIPS: (0.95, 1.0)}
_LOW = {5: 0.9, 6: 0.8, 7: 0.6, 8: 0.4}  # lowball middle by its highest card (7-high .. 10)


def _chances(table: dict[int, tuple[float, float]]) -> list[float]:
    out = [0.0]
    for t in TUPLES[1:]:
        low, high = table.get(t[0], (0.0, 0.0))
        out.append(low + (high - low) * t[1] / 12)
    return out


_CHANCE = (_chances(_TOP), _chances(_MIDDLE), _chances(_BOTTOM))
_LOW_CHANCE = [(_LOW.get(t[1], 0.0) if is_low(v) else 0.0) if v else 0.0
               for v, t in enumerate(TUPLES)]


class Outcome:
    """Worth of finished boards under one table's rules, against `opponents` unseen boards.
    `fantasy_cards`: the board is played in a Fantasyland hand of that many cards (it can only
    stay, R8), 0 for a normal hand (it can enter)."""

    def __init__(self, rules: TableRules, opponents: int, fantasy_value: float,
                 fantasy_cards: int = 0) -> None:
        self.rules = rules
        self.opponents = opponents
        self.fantasy_value = fantasy_value
        self.fantasy_cards = fantasy_cards
        self.lowball = rules.variant == "lowball"
        # R5: a foul loses the three lines and the scoop (1-6) or the bonus (2-4)
        self.bonus = 3 if rules.scoring == "1-6" else 1

    def of_result(self, result: BoardResult) -> float:
        """Fantasyland earned, and the expected points against `opponents` unseen boards."""
        earned = fantasy_cards(result, self.rules, self.fantasy_cards > 0, self.fantasy_cards)
        fantasy = self.fantasy_value if earned > 0 else 0.0
        if not self.opponents:
            return fantasy
        if result.fouled:
            return -(3 + self.bonus) * self.opponents
        top, middle, bottom = result.hands
        chances = [_CHANCE[0][top],
                   _LOW_CHANCE[middle] if self.lowball else _CHANCE[1][middle],
                   _CHANCE[2][bottom]]
        losses = [1 - p for p in chances]
        lines = sum(chances) - sum(losses)
        if self.bonus == 3:  # the scoop: all three lines
            bonus = 3 * (_all(chances) - _all(losses))
        else:  # 2-4: two lines or more
            bonus = _two_or_more(chances) - _two_or_more(losses)
        return (sum(result.royalties) + lines + bonus) * self.opponents + fantasy


def _all(p: list[float]) -> float:
    return p[0] * p[1] * p[2]


def _two_or_more(p: list[float]) -> float:
    return p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2 * _all(p)
