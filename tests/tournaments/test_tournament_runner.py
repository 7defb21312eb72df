"""`ofc simulate --tournament`: a whole tournament of computers through the services."""

import json

import pytest

from bot.cli import main


def test_a_seeded_tournament_prints_levels_tables_and_final_standings(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--tournament", "--players", "5", "--seed", "4", "--hands", "1",
            "--ai", "easy", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"] == 5 and "pool" not in report  # computers play for no chips
    sizes = sorted(len(t["players"]) for t in report["levels"][0]["tables"])
    assert sizes == [2, 3]
    assert report["levels"][-1]["final"] and len(report["levels"][-1]["tables"]) == 1
    final = report["levels"][-1]["tables"][0]
    assert report["placings"][0] == {"place": 1, "name": final["winner"]}
    assert sorted(p["place"] for p in report["placings"]) == [1, 2, 3, 4, 5]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == report  # the seed replays it exactly


def test_bad_tournament_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--tournament", "--players", "1"]) == 2
    assert main(["simulate", "--tournament", "--players", "4", "--seats", "4"]) == 2
    assert "--seats is 2 or 3" in capsys.readouterr().err
    for extra in (["--workers", "2"], ["--images", "."]):
        assert main(["simulate", "--tournament", "--players", "4", *extra]) == 2
        assert capsys.readouterr().err == ("ofc simulate: --tournament plays in one process and "
                                           "saves no images: leave out --workers and --images.\n")


@pytest.mark.parametrize(("hands", "says"), [(1, "1 hand a table"), (2, "2 hands a table")])
def test_the_printed_report_counts_the_hands_in_the_singular_and_plural(
        capsys: pytest.CaptureFixture[str], hands: int, says: str) -> None:
    assert main(["simulate", "--tournament", "--players", "2", "--seed", "4", "--hands",
                 str(hands), "--ai", "easy"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"2 players, seed 4, tables of at most 3, {says}"


def test_the_report_says_two_seat_tables_seat_three_when_the_number_is_odd(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--tournament", "--players", "5", "--seats", "2", "--seed", "1",
                 "--hands", "1", "--ai", "easy"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("5 players, seed 1, tables of 2 (one of 3 when the number is odd), "
                      "1 hand a table")
    assert out[2].count("(easy)") == 4  # the three players at level 1's first table, and its winner
