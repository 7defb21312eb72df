"""Each table option is declared once (bot/engine/options.py): the engine's checks, and what a
snapshot holds, come from that declaration."""

from dataclasses import dataclass
from typing import Literal

import pytest

from bot.engine.errors import RuleError
from bot.engine.options import declared, option, written
from bot.engine.rules import OPTIONS, TableRules
from bot.engine.text import Text

BOUNDED = [o for o in OPTIONS.values() if o.bounds is not None]


@pytest.mark.parametrize("declared_as", BOUNDED, ids=lambda o: o.name)
def test_a_whole_number_option_takes_its_declared_bounds_and_nothing_past_them(
        declared_as: object) -> None:
    from bot.engine.options import Option
    assert isinstance(declared_as, Option) and declared_as.bounds is not None
    low, high = declared_as.bounds
    base = {"variant": "turbo"}  # seats up to 4
    for inside in (low, high):
        assert getattr(TableRules.from_mapping({**base, declared_as.name: inside}),
                       declared_as.name) == inside
    for outside in (low - 1, high + 1):
        with pytest.raises(RuleError) as refused:
            TableRules.from_mapping({**base, declared_as.name: outside})
        assert str(refused.value.text) == f"{declared_as.name} must be from {low} to {high}."


def test_the_bounds_are_the_rules_ones() -> None:
    # RULES.md R7: 2-3 seats, turbo 2-4; the time limits of R10 and R11's hands.
    assert OPTIONS["seats"].bounds == (2, 4)
    assert OPTIONS["turn_seconds"].bounds == (10, 3600)
    assert OPTIONS["hands"].bounds == (1, 1000)


def test_a_choice_option_takes_only_its_declared_choices() -> None:
    assert OPTIONS["royalties"].choices == ("american", "russian", "off")
    assert TableRules.from_mapping({"royalties": "OFF"}).royalties == "off"
    with pytest.raises(RuleError):
        TableRules.from_mapping({"royalties": "european"})


def test_every_option_says_its_rules_section_and_what_it_changes() -> None:
    assert list(OPTIONS) == [f for f in TableRules.__dataclass_fields__]
    for o in OPTIONS.values():
        assert 1 <= int(o.section[1:]) <= 13 and o.doc, o.name
        assert (o.place == "fixed") == (not o.help), o.name


def test_a_declaration_that_cannot_work_fails_naming_the_option() -> None:
    @dataclass(frozen=True)
    class Wrong:
        speed: int = option(5, "R10", help="speed", doc="speed", bounds=(10, 20))

    with pytest.raises(TypeError, match="speed: the default is within the bounds"):
        declared(Wrong)


def test_a_sparse_option_is_written_only_when_it_is_not_what_its_absence_means() -> None:
    @dataclass(frozen=True)
    class Later:
        mode: Literal["old", "new"] = option(
            "new", "R10", help="mode", doc="mode", stored="old", sparse=True,
            words={"new": Text("new")})
        kept: bool = option(False, "R8", help="kept", doc="kept")

    options = declared(Later)
    assert options["mode"].choices == ("old", "new") and options["mode"].kind is str
    assert written({"mode": "old", "kept": False}, options) == {"kept": False}
    assert written({"mode": "new", "kept": False}, options) == {"mode": "new", "kept": False}
    # An option that is not sparse is written always, as every stored snapshot holds it.
    always = written(TableRules().to_dict(), OPTIONS)
    assert {name for name, o in OPTIONS.items() if not o.sparse} <= set(always)
    assert OPTIONS["fantasy_deal"].has_stored and "fantasy_deal" in always
