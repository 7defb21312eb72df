"""Dealing (R1, R7, R9): the deck, its shuffle, streets per variant, seat limits."""

from collections import Counter

from bot.engine.cards import DECK, JOKERS
from bot.engine.deal import decode, encode, shuffled_deck, streets
from bot.engine.rules import TableRules


def test_shuffles_are_permutations_reproducible_only_with_a_seed() -> None:
    rules = TableRules()
    assert shuffled_deck(rules, 5, 1) == shuffled_deck(rules, 5, 1)
    assert shuffled_deck(rules, 5, 1) != shuffled_deck(rules, 5, 2)
    unseeded = shuffled_deck(rules, None, 1)
    assert sorted(unseeded) == sorted(DECK)
    assert unseeded != shuffled_deck(rules, None, 1)  # odds of a repeat: 1 in 52!
    jokers = shuffled_deck(TableRules(variant="joker"), None, 1)
    assert sorted(jokers) == sorted(DECK + JOKERS)


def test_every_card_lands_everywhere_about_equally() -> None:
    # 5,200 seeded shuffles: each card is first about 100 times; a biased shuffle (say, one
    # that never moves a card more than a few places) would leave some at 0.
    rules = TableRules()
    firsts = Counter(shuffled_deck(rules, 7, h)[0] for h in range(5200))
    assert len(firsts) == 52 and min(firsts.values()) > 50 and max(firsts.values()) < 160


def test_streets_per_variant_and_state_text_of_jokers() -> None:
    assert [(s.cards, s.discards) for s in streets(TableRules())] == [(5, 0)] + [(3, 1)] * 4
    assert [(s.cards, s.discards) for s in streets(TableRules(variant="turbo"))] == [
        (5, 0), (4, 0), (4, 0)]
    assert encode([JOKERS[1], JOKERS[0], DECK[0]]) == ["X2", "X1", "2s"]
    assert decode(["X2", "X1", "2s"]) == (JOKERS[1], JOKERS[0], DECK[0])
