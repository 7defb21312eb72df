"""R1: parsing and printing cards."""

import pytest

from bot.engine.cards import (
    DECK,
    JOKERS,
    card_str,
    cards_str,
    full_deck,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from bot.engine.errors import RuleError


def test_deck_has_52_distinct_cards_and_54_with_jokers() -> None:
    assert len(set(DECK)) == 52
    assert len(set(full_deck(jokers=True))) == 54


def test_every_card_prints_and_parses_back() -> None:
    texts = [card_str(c) for c in DECK]
    assert texts[:4] == ["2s", "2h", "2d", "2c"]
    assert texts[-1] == "Ac"
    assert parse_cards(" ".join(texts)) == list(DECK)


@pytest.mark.parametrize(("text", "canonical"), [
    ("10d", "Td"), ("TD", "Td"), ("td", "Td"), ("aH", "Ah"), ("10C", "Tc"), ("x", "X"),
])
def test_ten_and_either_case_are_accepted(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


def test_rank_and_suit() -> None:
    queen_of_hearts = parse_card("Qh")
    assert rank_of(queen_of_hearts) == 10
    assert suit_of(queen_of_hearts) == 1


def test_commas_and_spaces_separate_cards() -> None:
    assert cards_str(parse_cards("Ah,Kd  Qs")) == "Ah Kd Qs"


@pytest.mark.parametrize(("text", "message"), [
    ("1x Ah", "'1x' is not a card."),
    ("Ah 11h", "'11h' is not a card."),
    ("Ah Zz", "'Zz' is not a card."),
    ("Ah Kd ah", "Ah appears twice."),
    ("10s Ts", "Ts appears twice."),
    ("X X X", "there are only two jokers."),
])
def test_errors_name_the_bad_token(text: str, message: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_cards(text)
    assert str(error.value) == message


def test_jokers_are_two_distinct_cards_and_refused_when_not_allowed() -> None:
    assert parse_cards("X X") == list(JOKERS)
    with pytest.raises(RuleError, match="'X' is not a card"):
        parse_cards("X", allow_jokers=False)
