"""`ofc simulate --ai strong@N,strong@Xs`: two budgets of one level at one table, each seat
deciding within its own entry's budget, the rows labelled by the entries as written."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bot.ai.players
from bot.ai.players import Settings
from bot.cli import main
from bot.cli.ai_entries import Entry, parse_entries, parse_entry
from bot.engine.cards import Card
from bot.engine.errors import RuleError
from bot.engine.views import PrivateView


@pytest.mark.parametrize("spec,entry", [
    ("strong@200", Entry("strong@200", "strong", playouts=200)),
    ("strong-v2@1s", Entry("strong-v2@1s", "strong-v2", seconds=1.0)),
    ("strong-v1@0.25s", Entry("strong-v1@0.25s", "strong-v1", seconds=0.25)),
    ("strong@.5s", Entry("strong@.5s", "strong", seconds=0.5)),
    ("strong", Entry("strong", "strong", playouts=30)),  # the run's budget
    ("easy", Entry("easy", "easy")),  # a rule of thumb: no budget
])
def test_an_entry_is_a_level_and_its_budget(spec: str, entry: Entry) -> None:
    assert parse_entry(spec, playouts=30, seconds=None) == entry


def test_a_plain_level_takes_the_runs_time_budget_and_one_entry_fills_every_seat() -> None:
    assert parse_entries("strong", 3, playouts=None, seconds=2.0) == [
        Entry("strong", "strong", seconds=2.0)] * 3
    assert parse_entries("strong@5, easy", 2, playouts=None, seconds=2.0) == [
        Entry("strong@5", "strong", playouts=5), Entry("easy", "easy")]


def test_an_entrys_players_decide_within_its_budget() -> None:
    players = Entry("strong@0.5s", "strong", seconds=0.5).players(fantasy_value=7.0)
    assert players.settings("strong", 1) == Settings(level="strong", seed=1, seconds=0.5,
                                                     playouts=None, fantasy_value=7.0)
    players = Entry("strong-v1@9", "strong-v1", playouts=9).players(fantasy_value=None)
    assert players.settings("strong-v1", None) == Settings(level="strong-v1", seconds=None,
                                                           playouts=9)


@pytest.mark.parametrize("spec,message", [
    ("genius@5", "'genius' is not a computer level"),
    ("easy@200", "'easy@200': easy decides by a rule of thumb and takes no budget"),
    ("strong@0", "'strong@0': a budget is at least 1 playout"),
    ("strong@-3", "'strong@-3': a budget is at least 1 playout"),
    ("strong@0s", "'strong@0s': a budget is more than 0 seconds"),
    ("strong@-1.5s", "'strong@-1.5s': a budget is more than 0 seconds"),
    ("strong@", "'strong@' is not level@N (N playouts per decision) or level@Xs"),
    ("strong@1.5", "'strong@1.5' is not level@N"),
    ("strong@2m", "'strong@2m' is not level@N"),
    ("strong@1s@2", "'strong@1s@2' is not level@N"),
    ("strong@infs", "'strong@infs' is not level@N"),
])
def test_a_bad_entry_is_one_line_exit_2_and_plays_nothing(
        spec: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuleError, match="^" + re.escape(message)):
        parse_entry(spec, playouts=200, seconds=None)
    database = tmp_path / "played.sqlite3"
    assert main(["simulate", "--hands", "1", "--ai", f"strong@5,{spec}",
                 "--database", str(database)]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line.startswith(f"ofc simulate: {message}")
    assert captured.out == ""
    assert not database.exists()  # nothing was played


def test_a_tournament_refuses_an_entry_with_a_budget(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--tournament", "--players", "2", "--ai", "strong@5"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "ofc simulate: --tournament seats levels without a budget of their own: give "
        "--playouts or --seconds."]


def _budget_as_playouts(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    """Make every decision report the playout budget it was given as the playouts it made,
    so a row's playouts per decision is the budget its decisions ran on; the settings of every
    decision, in the order made."""
    seen: list[Settings] = []
    real = bot.ai.players.decide_counted

    def counted(view: PrivateView, settings: Settings | None = None) -> tuple[
            dict[Card, str], int]:
        assert settings is not None
        seen.append(settings)
        return real(view, settings)[0], settings.playouts or 0

    monkeypatch.setattr(bot.ai.players, "decide_counted", counted)
    return seen


def test_two_budgets_of_one_level_are_two_rows_each_deciding_within_its_own(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen = _budget_as_playouts(monkeypatch)
    assert main(["simulate", "--hands", "3", "--seed", "5", "--ai", "strong@5,strong@10",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {p["ai"]: p for p in report["players"]}
    assert list(rows) == ["strong@5", "strong@10"]
    for label, budget in (("strong@5", 5), ("strong@10", 10)):
        row = rows[label]
        assert (row["level"], row["playouts"], row["seconds"]) == ("strong", budget, None)
        assert row["playouts_per_decision"] == budget  # every decision of the row had it
        # 3 deals in each of the 2 seatings (seats swapped), plus the Fantasyland hands earned
        assert row["hands"] >= 6
    assert report["last_hand"]["seating"] == 2
    # Zero-sum heads-up: what one entry won the other lost.
    assert rows["strong@5"]["points_per_hand"] == -rows["strong@10"]["points_per_hand"]
    assert {(s.level, s.playouts, s.seconds) for s in seen} == {("strong", 5, None),
                                                                ("strong", 10, None)}
    assert len(seen) == sum(p["decisions"] for p in report["players"])
    assert sorted(s["ai"] for s in report["last_hand"]["seats"]) == ["strong@10", "strong@5"]


def test_the_table_labels_its_rows_by_the_entries(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    seen = _budget_as_playouts(monkeypatch)
    assert main(["simulate", "--hands", "1", "--seed", "2", "--ai",
                 "strong-v2@0.01s,strong@3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split()[0] == "strong-v2@0.01s"
    assert lines[3].split()[0] == "strong@3"
    assert {(s.level, s.playouts, s.seconds) for s in seen} == {("strong-v2", None, 0.01),
                                                                ("strong", 3, None)}


def test_playout_budgets_give_the_same_tallies_with_workers() -> None:
    args = [sys.executable, "-m", "bot.cli", "simulate", "--hands", "12", "--seed", "4",
            "--ai", "strong@3,strong@6", "--json"]

    def players(extra: list[str]) -> list[dict[str, object]]:
        done = subprocess.run(args + extra, capture_output=True, text=True, env=os.environ,
                              check=False)
        assert done.returncode == 0, done.stderr
        return [{k: v for k, v in p.items() if not k.startswith("decision_")}
                for p in json.loads(done.stdout)["players"]]

    alone = players([])
    assert [p["ai"] for p in alone] == ["strong@3", "strong@6"]
    assert players(["--workers", "2"]) == alone


def test_one_match_a_seating_has_no_interval_rather_than_a_zero_width_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A turbo match is the 10 hands asked for, so each seating plays one match: one sample.
    argv = ["simulate", "--hands", "10", "--seed", "1", "--rules", "variant=turbo",
            "--ai", "easy"]
    assert main([*argv, "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["matches"] for p in players] == [1, 1]
    assert all(p["ci95"] == [p["points_per_hand"]] * 2 for p in players)  # the contract's shape
    assert main(argv) == 0
    rows = capsys.readouterr().out.splitlines()[2:4]
    assert all("needs 2 matches" in row for row in rows), rows
