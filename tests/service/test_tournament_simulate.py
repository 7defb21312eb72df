"""`ofc simulate --tournament`: a whole tournament of computers through the services."""

import json

import pytest

from bot.cli import main


def test_a_seeded_tournament_prints_levels_tables_and_payouts(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--tournament", "--players", "5", "--seed", "4", "--hands", "1",
            "--ai", "easy", "--payouts", "65/35", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pool"] == 500 and report["players"] == 5
    sizes = sorted(len(t["players"]) for t in report["levels"][0]["tables"])
    assert sizes == [2, 3]
    assert report["levels"][-1]["final"] and len(report["levels"][-1]["tables"]) == 1
    assert [p["prize"] for p in report["payouts"][:2]] == [325, 175]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == report  # the seed replays it exactly


def test_bad_tournament_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--tournament", "--players", "1"]) == 2
    assert main(["simulate", "--tournament", "--players", "4", "--payouts", "50/20"]) == 2
    assert "payout" in capsys.readouterr().err
    for extra in (["--workers", "2"], ["--images", "."]):
        assert main(["simulate", "--tournament", "--players", "4", *extra]) == 2
        assert capsys.readouterr().err == ("ofc simulate: --tournament plays in one process and "
                                           "saves no images: leave out --workers and --images\n")
