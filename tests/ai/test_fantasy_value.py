"""What a Fantasyland hand is worth (R8): the derivation of the calibrated value."""

import math
import random

import pytest

from bot.ai.fantasy_value import (
    MEASURED,
    fantasy_worth,
    measure,
    opponent_result,
    repeat_cards,
    worth_from,
)
from bot.ai.policy import Policy
from bot.ai.search import Scorer
from bot.ai.solver import solve
from bot.engine.cards import full_deck
from bot.engine.rules import TableRules
from bot.engine.scoring import score_pair


def test_the_value_of_a_hand_that_can_stay_counts_every_hand_it_stays() -> None:
    """V = E + p V, worked by hand: E 10, staying one time in five: V = 10 / 0.8 = 12.5; a
    15-card hand that stays three times in ten (into 14 cards) is worth 12 + 0.3 * 12.5."""
    stats = {14: (10.0, 0.2), 15: (12.0, 0.3), 13: (9.0, 0.0)}
    values = worth_from(stats, {14: 14, 15: 14, 13: 14})
    assert values[14] == pytest.approx(12.5)
    assert values[15] == pytest.approx(15.75)
    assert values[13] == pytest.approx(9.0)
    # a mode without staying (tournament) is worth its one hand; ultimate repeats its size
    assert worth_from({16: (20.0, 0.5)}, {16: 0}) == {16: 20.0}
    assert worth_from({16: (20.0, 0.5)}, {16: 16}) == {16: 40.0}


def test_the_hand_a_stay_earns_follows_r8() -> None:
    assert repeat_cards(TableRules(), 14) == 14
    assert repeat_cards(TableRules(fantasy="progressive"), 16) == 14
    assert repeat_cards(TableRules(fantasy="ultimate"), 16) == 16
    assert repeat_cards(TableRules(fantasy="tournament"), 15) == 0


def test_measure_is_the_mean_of_solved_hands_against_the_opponent() -> None:
    """Each deal's points are the solver's board (with the stay value the measurement settled
    on) scored against the opponent's normal hand from the same deck (R5), and V comes from
    their mean and stay rate by worth_from."""
    rules = TableRules()
    hands, seed, playouts = 6, 3, 8
    (size,) = measure(rules, hands, seed, sizes=(14,), playouts=playouts)
    rng = random.Random(seed * 100 + 14)  # the decks measure deals (fantasy_value.deals)
    worth = fantasy_worth(rules, None)
    policy, scorer = Policy(rules, worth), Scorer(rules, worth)
    points, stays = [], 0
    for i in range(hands):
        deck = full_deck()
        rng.shuffle(deck)
        solution = solve(deck[:14], rules, size.value)
        other = opponent_result(deck, 14, rules, policy, scorer, playouts, seed + i)
        assert not set(other.board.cards) & set(deck[:14])  # dealt from the rest
        points.append(score_pair(solution.result, other, rules.scoring).points)
        stays += solution.stays
    assert size.points == pytest.approx(sum(points) / hands)
    assert size.stay_rate == pytest.approx(stays / hands)
    assert size.value == pytest.approx(
        worth_from({14: (size.points, size.stay_rate)}, {14: 14})[14], abs=0.06)


def test_the_measured_table_scales_to_a_given_value() -> None:
    assert fantasy_worth(TableRules(), None).by_cards == MEASURED
    scaled = fantasy_worth(TableRules(), 2 * MEASURED[14])
    assert all(math.isclose(scaled.of(c), 2 * v) for c, v in MEASURED.items())
    assert fantasy_worth(TableRules(fantasy="off"), None).of(14) == 0.0
