"""Fewer taps: on streets 2-5 the third card is discarded without a tap once two are
placed, another card can still be picked to go, and a draft is complete only when every card
to keep has a row (R7)."""

from bot.engine.cards import parse_cards
from bot.engine.placement import Needs
from bot.tables.drafting import complete_discards, is_complete, redraft

A, B, C = parse_cards("Ah Kd 7c")
STREET = Needs(top=3, middle=5, bottom=5, discards=1, cards=3)  # streets 2-5: 2 kept, 1 gone
FIRST = Needs(top=3, middle=5, bottom=5, discards=0, cards=5)


def test_two_cards_placed_discard_the_third_without_a_tap() -> None:
    rows = redraft({}, (A, B, C), STREET, A, "top")
    assert rows == {A: "top"} and not is_complete(rows, STREET)
    rows = redraft(rows, (A, B, C), STREET, B, "bottom")
    assert rows == {A: "top", B: "bottom", C: "discard"} and is_complete(rows, STREET)


def test_discarding_another_card_swaps_it_with_the_one_discarded() -> None:
    rows = {A: "top", B: "bottom", C: "discard"}
    rows = redraft(rows, (A, B, C), STREET, A, "discard")  # one tap: A goes, C takes its row
    assert rows == {A: "discard", B: "bottom", C: "top"} and is_complete(rows, STREET)


def test_a_card_taken_back_or_a_third_placed_leaves_the_street_incomplete() -> None:
    rows = {A: "top", B: "bottom", C: "discard"}
    assert redraft(rows, (A, B, C), STREET, B, None) == {A: "top", C: "discard"}
    three = redraft(rows, (A, B, C), STREET, C, "middle")
    assert three == {A: "top", B: "bottom", C: "middle"} and not is_complete(three, STREET)


def test_street_one_discards_nothing_and_is_complete_with_five_placed() -> None:
    cards = parse_cards("2s 3s 4s 5s 6s")
    rows = dict.fromkeys(cards[:4], "bottom")
    assert complete_discards(rows, cards, FIRST) == rows and not is_complete(rows, FIRST)
    rows[cards[4]] = "top"
    assert is_complete(rows, FIRST)
