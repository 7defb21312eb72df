"""The defaults of the options the seeds differ on (RULES.md R8, R10), per table: each follows
the seed its table follows, read from the seeds' text (quoted in docs/RULES.md)."""

import pytest

from bot.engine import codec
from bot.engine.match import MatchJson
from bot.engine.rules import TableRules

# variant, format -> fantasy_deal, clock, time_bank_refill_seconds. Seed 000 (a match): FL
# first ("Other players ... wait till the player in Fantasy Land finishes"), one clock for the
# hand. Seed 001 (hands): FL "först av alla" (first of all), time called on an action. Seed
# 002 (turbo, lowball): FL set "without being able to see the cards of his opponents". Seed
# 003 (cash, joker): FL after the others, a clock "in every street", a bank that "resets
# after a certain period" (none named: an hour at a cash table).
EXPECTED = [
    ("pineapple", "match", "first", "per_hand", 0),
    ("pineapple", "hands", "first", "per_street", 0),
    ("pineapple", "cash", "last", "per_street", 3600),
    ("turbo", "match", "first", "per_hand", 0),
    ("turbo", "hands", "first", "per_street", 0),
    ("turbo", "cash", "first", "per_street", 3600),
    ("lowball", "match", "first", "per_hand", 0),
    ("lowball", "cash", "first", "per_street", 3600),
    ("joker", "match", "last", "per_street", 0),
    ("joker", "hands", "last", "per_street", 0),
    ("joker", "cash", "last", "per_street", 3600),
]


@pytest.mark.parametrize(("variant", "table_format", "deal", "clock", "refill"), EXPECTED)
def test_defaults_follow_the_seed_of_the_table(variant: str, table_format: str, deal: str,
                                               clock: str, refill: int) -> None:
    rules = TableRules.from_mapping({"variant": variant, "format": table_format})
    assert (rules.fantasy_deal, rules.clock, rules.time_bank_refill_seconds) == (
        deal, clock, refill)


def test_a_chosen_value_beats_the_tables_default() -> None:
    rules = TableRules.from_mapping({"format": "cash", "fantasy_deal": "first",
                                     "clock": "per_hand", "time_bank_refill_seconds": 0})
    assert (rules.fantasy_deal, rules.clock, rules.time_bank_refill_seconds) == (
        "first", "per_hand", 0)
    assert TableRules().clock == TableRules.from_mapping({}).clock == "per_hand"


def test_a_rule_set_stored_before_these_options_keeps_its_behaviour() -> None:
    # A table saved before these options existed played a clock a street and one bank, and
    # keeps doing so (its Fantasyland is dealt first, as it was).
    stored = codec.dump(MatchJson(1, TableRules.from_mapping({"format": "cash"}), None, [], 0,
                                  0, "waiting", 0, None, None, None))
    for name in ("fantasy_deal", "clock", "time_bank_refill_seconds"):
        del stored["rules"][name]
    rules = codec.load(MatchJson, stored).rules
    assert (rules.format, rules.fantasy_deal, rules.clock, rules.time_bank_refill_seconds) == (
        "cash", "first", "per_street", 0)
