"""A refusal quotes at most a short prefix of what a member typed: the whole input could be
thousands of characters, past what Discord shows in an answer."""

import pytest

from bot.engine.cards import parse_cards
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules
from bot.engine.text import EXCERPT, excerpt
from bot.engine.tournament import parse_payouts

LONG = "Q" * 5000


def test_an_excerpt_is_the_text_itself_or_its_first_characters_and_an_ellipsis() -> None:
    assert excerpt("Zz") == "Zz"
    assert excerpt("a" * EXCERPT) == "a" * EXCERPT
    assert excerpt("a" * (EXCERPT + 1)) == "a" * (EXCERPT - 1) + "…"


@pytest.mark.parametrize("refuse", [
    lambda: parse_cards(f"Ah {LONG}"),
    lambda: parse_payouts(f"65/{LONG}"),
    lambda: TableRules.from_mapping({"variant": LONG}),
    lambda: TableRules.from_mapping({"hints": LONG}),
    lambda: TableRules.from_mapping({"seats": LONG}),
    lambda: TableRules.from_mapping({LONG: 1}),
])
def test_a_refusal_of_a_long_input_quotes_only_its_start(refuse: object) -> None:
    with pytest.raises(RuleError) as refused:
        refuse()  # type: ignore[operator]
    said = str(refused.value)
    assert "Q" * EXCERPT not in said and "Q…" in said
    assert len(said) < 120
