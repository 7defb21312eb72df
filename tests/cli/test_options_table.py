"""The tables of docs/players/options.md are the ones the options' declarations write
(`python -m bot.cli.options_table`): a declaration changed without them fails here."""

from dataclasses import replace

import pytest

from bot.cli import options_table
from bot.engine.rules import OPTIONS


def test_the_committed_tables_are_current() -> None:
    page = options_table.PAGE.read_text(encoding="utf-8")
    assert options_table.render(page) == page, "run: python -m bot.cli.options_table"
    assert options_table.main(["--check"]) == 0
    for o in OPTIONS.values():  # every option is in one of the page's tables
        assert f"| `{o.name}` | {options_table.values(o)} | {o.section} |" in page, o.name


def test_a_changed_declaration_makes_the_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    page = options_table.PAGE.read_text(encoding="utf-8")
    hands = replace(OPTIONS["hands"], bounds=(1, 500))
    monkeypatch.setitem(OPTIONS, "hands", hands)
    assert "| `hands` | `20`; 1 to 500 | R11 |" in options_table.render(page)
    assert options_table.main(["--check"]) == 1


def test_values_are_listed_default_first() -> None:
    assert options_table.values(OPTIONS["hints"]) == "`off`, `on`"
    assert options_table.values(OPTIONS["sit_out_when_away"]) == "on, off"
    assert options_table.values(OPTIONS["buy_in"]) == "`200`; 1 to 1,000,000,000"
    assert options_table.values(OPTIONS["clock"]).startswith("`per_street`, `per_hand` (")
