"""Rows shown in the order of the hand they make (R2): every expected order written by hand."""

import pytest

from bot.engine.cards import cards_str, parse_cards
from bot.engine.ordering import joker_choices, order_cards, sort_row


def shown(row: str, placed: str, resolved: str | None = None) -> str:
    cards = parse_cards(placed)
    return cards_str(sort_row(row, cards, parse_cards(resolved) if resolved else None))


@pytest.mark.parametrize(("row", "placed", "expected"), [
    # high card and flush: high to low
    ("bottom", "4d 9c As 2h Jd", "As Jd 9c 4d 2h"),
    ("bottom", "3h Th 7h Kh 5h", "Kh Th 7h 5h 3h"),
    # pair: the pair first, then the kickers high to low
    ("middle", "3c Kd 7s 7h Ad", "7s 7h Ad Kd 3c"),
    # two pair: the higher pair, the lower pair, the kicker
    ("middle", "5c Qd 5h Ks Qs", "Qs Qd 5h 5c Ks"),
    # trips, then the kickers
    ("bottom", "2c 9d 9s Ah 9h", "9s 9h 9d Ah 2c"),
    # straight high to low, whatever the order placed
    ("bottom", "8c Ts 7d 9h 6s", "Ts 9h 8c 7d 6s"),
    ("middle", "Kd Ts Ah Qc Js", "Ah Kd Qc Js Ts"),
    # the wheel: the ace is low
    ("bottom", "3d As 5c 2h 4s", "5c 4s 3d 2h As"),
    ("middle", "Ah 2h 3h 4h 5h", "5h 4h 3h 2h Ah"),
    # full house: the trips first, then the pair
    ("bottom", "4s Kh 4d Kc 4h", "4s 4h 4d Kh Kc"),
    ("bottom", "Ac Ad 2s 2h 2c", "2s 2h 2c Ad Ac"),
    # quads, then the kicker
    ("bottom", "6d As 6s 6c 6h", "6s 6h 6d 6c As"),
    ("bottom", "2c Kd Ks Kh Kc", "Ks Kh Kd Kc 2c"),
    # straight flush and royal flush
    ("bottom", "5s 8s 6s 9s 7s", "9s 8s 7s 6s 5s"),
    ("bottom", "Jh Ah Th Kh Qh", "Ah Kh Qh Jh Th"),
    # 3-card top rows: high card, pair (pair first), trips
    ("top", "5d Kc 9h", "Kc 9h 5d"),
    ("top", "Ac 6d 6s", "6s 6d Ac"),
    ("top", "Qd 2c Qh", "Qh Qd 2c"),
    ("top", "8h 8c 8s", "8s 8h 8c"),
    # three cards of a straight in the top are no straight (R2): high to low
    ("top", "Ah 2d 3c", "Ah 3c 2d"),
])
def test_full_rows(row: str, placed: str, expected: str) -> None:
    assert shown(row, placed) == expected


@pytest.mark.parametrize(("row", "placed", "expected"), [
    ("middle", "", ""),
    ("bottom", "7c", "7c"),
    ("middle", "3s Qh", "Qh 3s"),
    ("middle", "3s Qh 3d", "3s 3d Qh"),
    ("bottom", "9c 2d 9h 2s", "9h 9c 2s 2d"),
    ("bottom", "Jd 4s 4c 4h", "4s 4h 4c Jd"),
    # four cards to a wheel are not yet a straight: the ace stays high
    ("bottom", "2d As 4c 3h", "As 4c 3h 2d"),
    ("top", "Kd 5s", "Kd 5s"),
    ("top", "5s 5c", "5s 5c"),
])
def test_rows_not_yet_full(row: str, placed: str, expected: str) -> None:
    assert shown(row, placed) == expected


def test_jokers_stand_where_their_card_would() -> None:
    # Showdown: the board chose Qh for the joker, so it sits with the queens.
    assert shown("top", "2c X Qs", "Qs 2c Qh") == "Qs X 2c"
    # The joker completes the wheel as the 3: it stands between the 4 and the 2.
    assert shown("bottom", "As X 2h 4d 5c", "As 3c 2h 4d 5c") == "5c 4d X 2h As"
    # Two jokers making a full house of nines over fives: as 9s and 5c (s, h, d, c order).
    assert shown("bottom", "X 5d X 9c 9h", "9c 5d 9h 9s 5c") == "X 9h 9c 5d X"


def test_a_full_row_before_showdown_takes_its_strongest_choice() -> None:
    # Kh Qh Jh Th + joker: the strongest choice is Ah, a royal flush; the joker shows first.
    assert shown("bottom", "Th X Qh Jh Kh") == "X Kh Qh Jh Th"
    # Top 7d 4c + joker: the strongest choice pairs the sevens (as 7s, shown first).
    assert cards_str(sort_row("top", parse_cards("7d 4c X"))) == "X 7d 4c"


def test_a_joker_in_a_row_not_yet_full_goes_first() -> None:
    assert shown("middle", "8c X 3d") == "X 8c 3d"
    assert cards_str(order_cards(parse_cards("2c X X"))) == "X X 2c"


def test_joker_choices_give_the_higher_card_to_the_first_joker() -> None:
    placed = parse_cards("X 5d X 9c 9h")
    choices = joker_choices(placed, parse_cards("9c 5d 9h 9s 5c"))
    assert {cards_str([j]) + str(j): cards_str([c]) for j, c in choices.items()} == {
        "X-1": "9s", "X-2": "5c"}
