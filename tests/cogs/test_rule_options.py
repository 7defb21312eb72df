"""The table options offered by the commands, and the words that say them, come from the
options' declarations (bot.engine.rules, `OPTIONS`): every option is a slash option of the
commands that set it, the bot refuses a value past its declared bounds as the engine does,
and the rules paragraph and `/ofc rules` say each option whatever its value."""

from typing import Any

import pytest

from bot.engine.errors import RuleError
from bot.engine.options import Option
from bot.engine.rules import OPTIONS, TableRules
from cogs.common.bounds import OptionRefused, check_value
from cogs.common.format import rules_line, rules_paragraph
from cogs.common.options import CHOICE
from cogs.tables.lobby import create
from cogs.tools.rules_words import describe
from cogs.tools.server_settings import settings

BOUNDED = [o for o in OPTIONS.values() if o.bounds is not None]


def test_royalties_can_be_turned_off_from_ofc_create() -> None:
    # R4: seed 000 "Royalties are optional".
    assert [c.value for c in CHOICE["royalties"]] == ["american", "russian", "off"]


def test_every_declared_option_is_a_slash_option_of_the_commands_that_set_it() -> None:
    at_a_table = {p.display_name for p in create.parameters}
    by_the_server = {p.display_name for p in settings.parameters}
    for o in OPTIONS.values():
        assert (o.name in at_a_table) == (o.place == "table"), o.name
        assert (o.name in by_the_server) == (o.place in ("table", "server")), o.name
    # R10, R13: only tournament tables turn sitting out off; no command sets it.
    assert OPTIONS["sit_out_when_away"].place == "fixed"


@pytest.mark.parametrize("declared_as", BOUNDED, ids=lambda o: o.name)
def test_the_bot_and_the_engine_refuse_a_value_past_the_declared_bounds(
        declared_as: Option) -> None:
    assert declared_as.bounds is not None
    low, high = declared_as.bounds
    parameter = next(p for p in settings.parameters if p.display_name == declared_as.name)
    for inside in (low, high):
        check_value(parameter, inside)
    for outside in (low - 1, high + 1):
        with pytest.raises(OptionRefused):
            check_value(parameter, outside)
        with pytest.raises(RuleError):
            TableRules.from_mapping({"variant": "turbo", declared_as.name: outside})


def other_values(o: Option, now: Any) -> list[Any]:
    """Every value of `o` but `now` (a whole number: its least or most)."""
    if o.bounds is not None:
        return [o.bounds[0] if now != o.bounds[0] else o.bounds[1]]
    if o.kind is bool:
        return [not now]
    return [v for v in o.choices if v != now]


# A `hands` table, so that the number of hands is said too (R11).
BASE = TableRules.from_mapping({"format": "hands"})
CHANGES = [(o.name, value) for o in OPTIONS.values()
           for value in other_values(o, getattr(BASE, o.name))]


@pytest.mark.parametrize(("name", "value"), CHANGES, ids=[f"{n}={v}" for n, v in CHANGES])
def test_the_rules_paragraph_and_ofc_rules_say_every_option(name: str, value: Any) -> None:
    changed = BASE.with_options({name: value})
    assert getattr(changed, name) == value
    assert rules_paragraph("en-US", changed) != rules_paragraph("en-US", BASE), name
    assert describe("en-US", changed) != describe("en-US", BASE), name


@pytest.mark.parametrize("variant", ["turbo", "lowball"])
@pytest.mark.parametrize("mode", ["progressive", "ultimate", "tournament"])
def test_a_variant_with_its_own_fantasyland_names_no_mode_it_does_not_play(
        variant: str, mode: str) -> None:
    # R9: turbo and lowball deal, count and keep their own Fantasyland whatever the mode
    # (bot.engine.fantasy); the lobby and the rules line say so, not a mode's name.
    played = TableRules.from_mapping({"variant": variant})
    chosen = played.with_options({"fantasy": mode})
    for words in (rules_paragraph, rules_line):
        assert words("en-US", chosen) == words("en-US", played)
        assert mode not in words("en-US", chosen) and "standard" not in words("en-US", chosen)
    assert describe("en-US", chosen) == describe("en-US", played)


def test_a_full_house_is_not_said_to_keep_a_fantasyland_nobody_keeps() -> None:
    # R8: tournament Fantasyland is never kept, so the option that also keeps it with a full
    # house in the middle (on at every tournament table, R13) changes nothing there.
    never = TableRules.from_mapping({"fantasy": "tournament"})
    with_it = never.with_options({"fantasy_stay_full_house_middle": True})
    assert "full house" not in rules_paragraph("en-US", with_it)
    assert rules_paragraph("en-US", with_it) == rules_paragraph("en-US", never)


@pytest.mark.parametrize("table", [{"format": "cash"}, {"format": "match"},
                                   {"format": "hands", "hands": 6}])
def test_a_table_without_fantasyland_says_nothing_of_dealing_it(table: dict[str, Any]) -> None:
    # R8: with Fantasyland off nobody is owed a Fantasyland hand, nor plays one after a hand.
    rules = TableRules.from_mapping({**table, "fantasy": "off"})
    [(_, words)] = [(title, text) for title, text in describe("en-US", rules) if title == "Table"]
    assert "Fantasyland" not in words, words
    with_it = rules.with_options({"fantasy": "standard"})
    assert "Fantasyland" in dict(describe("en-US", with_it))["Table"]
