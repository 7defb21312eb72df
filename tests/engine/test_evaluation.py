"""R2: hand strength. Counts are checked against the known totals of poker combinatorics."""

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import pytest

from bot.engine.cards import DECK, make_card, parse_cards
from bot.engine.evaluation import (
    FIVE_CARD_CLASS_COUNT,
    all_five_card_values,
    category_of,
    eval3,
    eval5,
    hand_name,
    is_royal,
)

# The table: hands of each category among all 2,598,960.
EXPECTED_FIVE = {
    "straight flush": 40, "four of a kind": 624, "full house": 3744, "flush": 5108,
    "straight": 10200, "three of a kind": 54912, "two pair": 123552, "pair": 1098240,
    "high card": 1302540,
}
CATEGORY = ["high card", "pair", "two pair", "three of a kind", "straight", "flush",
            "full house", "four of a kind", "straight flush"]


def v(text: str) -> int:
    cards = parse_cards(text)
    return eval3(cards) if len(cards) == 3 else eval5(cards)


def _rank_multisets() -> list[tuple[int, ...]]:
    return [r for r in combinations_with_replacement(range(13), 5) if max(Counter(r).values()) <= 4]


def test_class_counts_from_one_hand_per_rank_pattern() -> None:
    """Fast form of the full check: one representative per rank multiset and suitedness,
    weighted by how many of the 2,598,960 hands share it."""
    counts: Counter[str] = Counter()
    values: set[int] = set()
    royals = 0
    for ranks in _rank_multisets():
        multiplicity = Counter(ranks)
        ways = prod(comb(4, m) for m in multiplicity.values())
        seen: Counter[int] = Counter()
        offsuit = []
        for r in ranks:  # suits 0,1,2,3 in turn per rank; a five-distinct hand gets 0,1,.. offsuit
            offsuit.append(make_card(r, seen[r] if len(multiplicity) < 5 else len(offsuit) % 2))
            seen[r] += 1
        value = eval5(offsuit)
        values.add(value)
        if len(multiplicity) == 5:
            ways -= 4  # the four flushes of these ranks
            flush = eval5([make_card(r, 2) for r in ranks])
            values.add(flush)
            counts[CATEGORY[category_of(flush)]] += 4
            royals += 4 * is_royal(flush)
        counts[CATEGORY[category_of(value)]] += ways
    assert dict(counts) == EXPECTED_FIVE
    assert sum(counts.values()) == comb(52, 5) == 2_598_960
    assert len(values) == FIVE_CARD_CLASS_COUNT == 7462
    assert royals == 4


@pytest.mark.slow
def test_all_2598960_hands_enumerated() -> None:
    values = all_five_card_values()
    counts = Counter(CATEGORY[category_of(x)] for x in values)
    assert dict(counts) == EXPECTED_FIVE
    assert len(set(values)) == 7462
    assert sum(is_royal(x) for x in values) == 4


def test_all_22100_three_card_hands() -> None:
    counts = Counter(CATEGORY[category_of(eval3(h))] for h in combinations(DECK, 3))
    assert dict(counts) == {"three of a kind": 52, "pair": 3744, "high card": 18304}
    assert sum(counts.values()) == 22100


def test_rule_2_top_against_middle_examples() -> None:
    middle = v("Qs Qc 4h 3d 2s")
    assert v("Qh Qd 5c") > middle  # 5 > 4: the top is stronger
    assert not v("Qh Qd 4c") > middle  # every rank of the top equals the middle's: equal


def test_top_trips_equal_any_middle_of_the_same_trips() -> None:
    assert not v("7h 7d 7c") > v("7s 7d 7c Ah Kh")
    assert not v("7h 7d 7c") > v("7s 7d 7c 3h 2h")
    assert v("7h 7d 7c") > v("6s 6h 6d Ac Kc")
    assert not v("Ah Kd Qc") > v("As Kh Qd 3c 2s")
    assert v("Ah Kd Qc") > v("As Kh Jd Tc 8s")


@pytest.mark.parametrize(("low", "high"), [
    ("As 2d 3c 4h 5s", "2s 3d 4c 5h 6s"),  # the wheel is the lowest straight
    ("9s Td Jc Qh Ks", "Ts Jd Qc Kh As"),  # broadway the highest
    ("Ts Jd Qc Kh As", "2h 3h 4h 5h 7h"),  # straight < flush
    ("Ah Kh Qh Jh 9h", "2s 2d 2c 3h 3s"),  # flush < full house
    ("Ks Kd Kc Ah As", "As Ad Ac 2h 2s"),  # full house: trips first
    ("Ks Kd 5c 5h As", "Ks Kd 6c 6h 2s"),  # two pair: high pair, then low pair
    ("Ks Kd 5c 5h Qs", "Kh Kc 5d 5s As"),  # then the kicker
    ("9s 9d Ac Qh Js", "9h 9c Ad Kh 2s"),  # pair: kickers high to low
    ("Ah Kh Qh Jh 8h", "As Ks Qs Js 9s"),  # flushes card by card
    ("Ac Ad Ah As 2c", "2s 3s 4s 5s 6s"),  # quads < straight flush
    ("9s Ts Js Qs Ks", "Ts Js Qs Ks As"),  # straight flush < royal
    ("Kh Qd 9c", "2h 2d 3c"),  # top: high card < pair
    ("Ah Ad Kc", "2h 2d 2c"),  # top: pair < trips
])
def test_order(low: str, high: str) -> None:
    assert v(low) < v(high)


def test_suits_never_break_ties() -> None:
    assert v("Ah Kh Qh Jh 9h") == v("As Ks Qs Js 9s")
    assert v("Ah Kd 7c 5s 3s") == v("Ac Ks 7h 5d 3d")
    assert v("Qh Qd 5c") == v("Qs Qc 5h")


@pytest.mark.parametrize(("text", "name"), [
    ("Qh Qd 2c", "Pair of Queens"),
    ("Ah Kh 9h 4h 2h", "Flush, ace high"),
    ("Kh Kd Kc 5s 5h", "Full house, kings full of fives"),
    ("Ts Js Qs Ks As", "Royal flush"),
    ("5s 6s 7s 8s 9s", "Straight flush, nine high"),
    ("As 2d 3c 4h 5s", "Straight, five high"),
    ("Ks Kd 5c 5h Qs", "Two pair, kings and fives"),
    ("7h 7d 7c", "Three of a kind, sevens"),
    ("9s 9d 9c 9h 2s", "Four of a kind, nines"),
    ("Ah Kd 7c", "Ace high"),
])
def test_names(text: str, name: str) -> None:
    assert hand_name(v(text)) == name
