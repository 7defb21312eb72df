"""/ofc review's verdict per street: a difference inside two standard errors of the sampled
deals is called too close, so a player who followed Suggest is not told the other was better
on noise alone."""

import pytest

from bot.ai.review import StreetReview
from bot.engine.board import Board
from bot.engine.cards import parse_cards
from cogs.economy.embeds import _gain_line

AH, KD = parse_cards("Ah Kd")


def verdict(gain: float, error: float) -> str:
    street = StreetReview(street=2, board=Board(), dealt=(AH, KD), played={AH: "top"},
                          auto=False, best={AH: "middle"}, gain=gain, error=error)
    return _gain_line("en-US", street)


@pytest.mark.parametrize(("gain", "error", "said"), [
    (-0.1, 0.5, "Its choice: **-0.1 points** (±0.5): too close to call."),
    (0.9, 0.5, "Its choice: **+0.9 points** (±0.5): too close to call."),
    (1.1, 0.5, "Its choice: **+1.1 points** (±0.5) over yours."),
    (-1.2, 0.5, "Its choice: **-1.2 points** (±0.5): yours looks better."),
    (-0.4, 0.0, "Its choice: **-0.4 points**: yours looks better."),  # exact: no noise
])
def test_a_verdict_says_too_close_within_two_standard_errors(gain: float, error: float,
                                                             said: str) -> None:
    assert verdict(gain, error) == said
