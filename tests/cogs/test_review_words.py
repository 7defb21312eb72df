"""/ofc review's verdict per street: a difference inside two standard errors of the sampled
deals is called too close, so a player who followed Suggest is not told the other was better
on noise alone."""

import pytest

from bot.ai.review import HandReview, StreetReview
from bot.engine.board import Board
from bot.engine.cards import parse_cards
from bot.storage.records import PlayedHand
from cogs.economy.embeds import _gain_line, review

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


def test_a_hand_placed_entirely_while_away_does_not_praise_the_player() -> None:
    """R10/R13: a player away all hand (a tournament keeps them seated) had every street
    placed for them; the review has no street of theirs to judge and says so, rather than
    "You played every street as the strong computer would"."""
    board = Board(*(tuple(parse_cards(row)) for row in ("Ah Kd 2c", "3c 4c 5c 6c 7d",
                                                        "9s 9h 9d Ts Tc")))
    hand = HandReview(7, 0, "Ann", (), board, -6, False, skipped=5)
    footer = review("en-US", PlayedHand(1, 7, 0.0, -6, False), hand).footer.text
    assert footer == "Every street was placed for you while you were away: nothing to review."
