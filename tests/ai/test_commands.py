"""`ofc solve`, `ofc simulate` and `ofc fantasy-value` as subprocesses: DESIGN.md's contract and
its errors."""

import json
import subprocess
import sys

import pytest

ROYAL = "As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"


def ofc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, check=False)


def test_solve_json_contract() -> None:
    # test_solver's royal-flush hand plus a 3c to discard: 25 + 4 + 10 = 39, stays (R4, R8).
    done = ofc("solve", ROYAL, "--json", "--stay-value", "10")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out["top"].split()) == {"2h", "2d", "2c"}
    assert set(out["middle"].split()) == {"5h", "6d", "7c", "8h", "9d"}
    assert set(out["bottom"].split()) == {"As", "Ks", "Qs", "Js", "Ts"}
    assert out["discard"] == "3c"
    assert (out["royalties"], out["stays"], out["value"]) == (39, True, 49.0)


def test_solve_text_and_rules() -> None:
    done = ofc("solve", *ROYAL.split(), "--rules", "royalties=russian")
    assert done.returncode == 0, done.stderr
    # R4 russian: royal 15, straight middle 4, trips 222 on top 10
    assert "royalties 29, stays in Fantasyland" in done.stdout
    assert "Royal flush" in done.stdout


@pytest.mark.parametrize("args,message", [
    (["As Ks"], "13 to 17 cards"),
    ([ROYAL.replace("3c", "1x")], "'1x' is not a card."),
    ([ROYAL.replace("3c", "2c")], "2c appears twice."),
    ([ROYAL.replace("3c", "X")], "jokers are only in the joker variant."),
    ([ROYAL, "--rules", "varant=joker"], "unknown option 'varant'."),
    ([ROYAL, "--rules", "variant"], "'variant' is not an option"),
    ([ROYAL, "--stay-value", "-1"], "cannot be negative"),
])
def test_solve_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = ofc("solve", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_simulate_json_contract() -> None:
    done = ofc("simulate", "--players", "2", "--hands", "3", "--seed", "4", "--ai",
               "strong,easy", "--playouts", "8", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["hands"] == 3
    strong, easy = out["players"]
    assert (strong["ai"], easy["ai"]) == ("strong", "easy")
    for player in (strong, easy):
        assert {"points_per_hand", "ci95", "foul_rate", "fantasy_entry_rate",
                "fantasy_stay_rate", "avg_royalties", "decision_ms"} <= set(player)
        low, high = player["ci95"]
        assert low <= player["points_per_hand"] <= high
        assert player["hands"] >= 6  # three deals in each of the two seatings
    # heads-up points are zero-sum (R5)
    assert strong["points_per_hand"] == pytest.approx(-easy["points_per_hand"], abs=1e-6)
    assert "matches" in done.stderr  # the progress bar


def test_simulate_is_reproducible() -> None:
    args = ("simulate", "--hands", "2", "--seed", "9", "--ai", "easy", "--json")
    assert json.loads(ofc(*args).stdout)["players"][0]["points_per_hand"] == json.loads(
        ofc(*args).stdout)["players"][0]["points_per_hand"]


def _without_times(report: dict) -> list[dict]:
    return [{k: v for k, v in p.items() if not k.startswith("decision")}
            for p in report["players"]]


def test_simulate_strong_v1_and_workers_give_the_same_tallies() -> None:
    """Today's strong player is still a level (for comparisons), and matches shared among worker
    processes are tallied as in one process (every match has its own seed)."""
    args = ("simulate", "--hands", "12", "--seed", "6", "--ai", "strong-v1,strong",
            "--playouts", "6", "--json")
    alone = json.loads(ofc(*args).stdout)
    shared = ofc(*args, "--workers", "2")
    assert shared.returncode == 0, shared.stderr
    assert [p["ai"] for p in alone["players"]] == ["strong-v1", "strong"]
    assert _without_times(json.loads(shared.stdout)) == _without_times(alone)


def test_fantasy_value_reports_each_size() -> None:
    done = ofc("fantasy-value", "--hands", "4", "--sizes", "14", "--playouts", "4", "--json")
    assert done.returncode == 0, done.stderr
    (size,) = json.loads(done.stdout)["sizes"]
    assert (size["cards"], size["hands"], size["repeat"]) == (14, 4, 14)
    low, high = size["ci95"]
    assert low <= size["points"] <= high
    # V = E / (1 - p) for a hand that repeats its own size (fantasy_value.py)
    assert size["value"] == pytest.approx(size["points"] / (1 - size["stay_rate"]), abs=0.1)


@pytest.mark.parametrize("command,args,message", [
    ("fantasy-value", ["--sizes", "12"], "sizes are 13 to 17 cards"),
    ("fantasy-value", ["--sizes", "x"], "--sizes takes card counts"),
    ("fantasy-value", ["--hands", "1"], "--hands is 2 to 100,000"),
    ("fantasy-value", ["--rules", "fantasy=off"], "measured for rules with Fantasyland"),
    ("simulate", ["--ai", "strong,easy,easy"], "--ai names 3 players but --players is 2"),
    ("simulate", ["--ai", "genius"], "'genius' is not a computer level"),
    ("simulate", ["--players", "5"], "seats 2 to 3 players"),
    ("simulate", ["--hands", "0"], "--hands is 1 to 100,000"),
    ("simulate", ["--rules", "variant=poker"], "'poker' is not a valid variant"),
    ("simulate", ["--workers", "0"], "--workers is 1 to"),
    ("simulate", ["--workers", "2", "--database", "x.sqlite3"], "leave --workers at 1"),
])
def test_bad_input_is_one_line_and_exit_2(command: str, args: list[str], message: str) -> None:
    done = ofc(command, *args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_simulate_saves_showdown_images(tmp_path) -> None:
    done = ofc("simulate", "--hands", "1", "--seed", "3", "--ai", "easy", "--images",
               str(tmp_path))
    assert done.returncode == 0, done.stderr
    images = sorted(tmp_path.glob("*.png"))
    assert images  # one per showdown: at least the one deal
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in images)


def test_simulate_images_needs_a_folder(tmp_path) -> None:
    done = ofc("simulate", "--hands", "1", "--images", str(tmp_path / "missing"))
    assert done.returncode == 2
    assert "is not a folder" in done.stderr
