"""`ofc score` as a subprocess: DESIGN.md's JSON contract and its errors."""

import json
import os
import subprocess
import sys

import pytest

A = {"name": "A", "stack": 100, "top": "Qh Qd 2c", "middle": "5s 5d 9c 9h Kd",
     "bottom": "2h 3h 4h 5h 7h"}
B = {"name": "B", "stack": 3, "top": "Ah Kc 2s", "middle": "Ts Td Jc 3s 3c",
     "bottom": "As Ad Ac 7d 7c"}
C = {"name": "C", "top": "4c 4d 6s", "middle": "8s 8d 8c Js Jd", "bottom": "Ks Kh Qc Qs 6h"}
D = {"name": "D", "top": "2d 3d 6d", "middle": "9s 9d Th Jh 6c", "bottom": "Tc 4s 5c 7s 8h"}


def run(payload: object) -> subprocess.CompletedProcess[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([sys.executable, "-m", "bot.cli", "score", "-"], input=text,
                          capture_output=True, text=True, check=False)


def test_score_contract_by_hand() -> None:
    done = run({"rules": {"point_value": 2}, "button": 1, "players": [A, B]})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    a, b = out["players"]
    assert a == {"name": "A", "fouled": False, "royalties": 11,
                 "row_royalties": {"top": 7, "middle": 0, "bottom": 4},
                 "rows": {"top": "Pair of Queens", "middle": "Two pair, nines and fives",
                          "bottom": "Flush, seven high"},
                 "fantasy_cards": 14, "points": 4, "stack_before": 100, "stack_after": 103}
    assert (b["royalties"], b["points"], b["fantasy_cards"], b["stack_after"]) == (6, -4, 0, 0)
    assert b["rows"]["bottom"] == "Full house, aces full of sevens"
    # Button 1: A (seat 0) is left of it and settles first. 4 points x 2 chips = 8 owed,
    # but B has 3 in front of it (R6).
    assert out["pairs"] == [{"a": "A", "b": "B", "lines": [1, -1, -1], "line_points": -1,
                             "bonus": 0, "royalties": 5, "points": 4}]
    assert out["transfers"] == [{"from": "B", "to": "A", "owed": 8, "paid": 3}]


def test_reads_a_file(tmp_path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"players": [A, B]}))
    done = subprocess.run([sys.executable, "-m", "bot.cli", "score", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout)["players"][0]["points"] == 4


@pytest.mark.parametrize(("payload", "message"), [
    ({"players": [{**A, "top": "Qh Qd 1x"}, B]}, "A: '1x' is not a card."),
    ({"players": [A, {**B, "top": "Qh Kc 2s"}]}, "Qh appears twice."),
    ({"players": [{**A, "top": "Qh Qd"}, B]}, "A: the top row needs 3 cards, not 2."),
    ({"players": [A, B], "rules": {"stakes": 2}}, "unknown option 'stakes'."),
    ({"players": [A, B], "rules": {"scoring": "1-7"}}, "'1-7' is not a valid scoring"),
    # A JSON value is quoted as JSON, as it was written (it read 'None', 'True').
    ({"players": [A, B], "rules": {"royalties": None}}, "'null' is not a valid royalties"),
    ({"players": [A, B], "rules": {"point_value": True}},
     "'true' is not a valid point_value (a whole number)."),
    ({"players": [A]}, "scoring needs 2 to 4 players, not 1"),
    # R7: 17 cards a player, so no pineapple hand had four players (turbo's below has).
    ({"players": [A, B, C, D]}, "pineapple seats at most 3 players."),
    ({"players": [A, B], "button": 2}, "'button' must be a player index from 0 to 1"),
    ({"players": [A, {**B, "top": "X Kc 2s"}]}, "B: 'X' is not a card."),
    ("{not json", "bad JSON"),
    ("[" * 100_000, "bad JSON: nested too deeply"),  # past Python's recursion limit
    # A misspelt field would score the hand as if it were absent (here: not in Fantasyland).
    ({"players": [{**A, "in_fantsy": True}, B]}, "A: unknown key 'in_fantsy'"),
    ({"players": [A, {**B, "Stack": 5}]}, "B: unknown key 'Stack'"),
    # Ultimate repeats the entry count (R8): without it a stay would be scored as no stay.
    ({"rules": {"fantasy": "ultimate"}, "players": [{**A, "in_fantasy": True}, B]},
     "A: under ultimate Fantasyland a player in Fantasyland needs 'fantasy_entry_cards'"),
    # Past Python's 4,300 digits a number cannot be read (it was a ValueError traceback).
    (json.dumps({"players": [A, B]}).replace('"stack": 100', '"stack": 1' + "0" * 5000),
     "bad JSON: a number of more than 4300 digits"),
    # A stack beyond what the bot's books hold: its winnings could not even be printed.
    ({"players": [{**A, "stack": 10**4299}, B]},
     "stacks are from 0 to 1,000,000,000,000 chips"),
    ({"players": [A, {**B, "stack": -1}]}, "stacks are from 0 to 1,000,000,000,000 chips"),
    # A name is quoted in the refusals: one with a line break made them two lines, an empty
    # one read ": '2x' is not a card."
    ({"players": [{**A, "name": "A\nB", "top": "Qh Qd 2x"}, B]},
     "player 1: a name is 1 to 32 printable characters."),
    ({"players": [A, {**B, "name": "", "top": "Ah Kc 2x"}]},
     "player 2: a name is 1 to 32 printable characters."),
    ({"players": [A, {**B, "name": "x" * 33}]},
     "player 2: a name is 1 to 32 printable characters."),
    # A name that is no text was quoted as Python wrote it: "None: 'name' must be text."
    ({"players": [A, {**B, "name": None}]}, "ofc score: player 2: 'name' must be text."),
    ({"players": [{**A, "name": ["A"]}, B]}, "ofc score: player 1: 'name' must be text."),
    ({"players": [A, {k: v for k, v in B.items() if k != "name"}]},
     "ofc score: player 2: 'name' must be text."),
    # A key written twice: JSON readers keep the last one without a word.
    (json.dumps({"rules": {"scoring": "2-4"}, "players": [A, B]}).replace(
        '{"scoring": "2-4"}', '{"scoring": "2-4", "scoring": "1-6"}'),
     "bad JSON: the key 'scoring' is given twice"),
    (json.dumps({"players": [A, B]}).replace('"stack": 3', '"stack": 3, "stack": 300'),
     "bad JSON: the key 'stack' is given twice"),
])
def test_bad_input_exits_2_with_one_line(payload: object, message: str) -> None:
    done = run(payload)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ofc score: ")
    assert message in lines[0]


def test_royalties_off() -> None:
    """R4 option `royalties = off` (seed 000: "Royalties are optional"). By hand: A wins the
    top (QQ over A-high), B the middle (tens up over nines up) and the bottom (full house over
    a flush): A -1 line, no scoop, no royalties either side. A's QQ still earns Fantasyland
    (R8 does not depend on royalties). 1 point x 2 chips, B has 3: A pays 2."""
    done = run({"rules": {"point_value": 2, "royalties": "off"}, "button": 1,
                "players": [A, B]})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    a, b = out["players"]
    assert (a["royalties"], a["row_royalties"], a["points"], a["fantasy_cards"]) == (
        0, {"top": 0, "middle": 0, "bottom": 0}, -1, 14)
    assert (b["royalties"], b["points"], b["stack_after"], a["stack_after"]) == (0, 1, 5, 98)
    assert out["pairs"] == [{"a": "A", "b": "B", "lines": [1, -1, -1], "line_points": -1,
                             "bonus": 0, "royalties": 0, "points": -1}]
    assert out["transfers"] == [{"from": "A", "to": "B", "owed": 2, "paid": 2}]


def test_a_file_is_read_as_utf_8_with_or_without_its_mark(tmp_path) -> None:
    """Another encoding is bad input (one line, exit 2), not a UnicodeDecodeError traceback;
    the byte-order mark some editors write before UTF-8 is no reason to refuse a file."""
    latin = tmp_path / "latin-1.json"
    latin.write_bytes(json.dumps({"players": [{**A, "name": "Zoë"}, B]},
                                 ensure_ascii=False).encode("latin-1"))
    done = subprocess.run([sys.executable, "-m", "bot.cli", "score", str(latin)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("ofc score: bad JSON: not UTF-8 text"), line

    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + json.dumps({"players": [A, B]}).encode())
    done = subprocess.run([sys.executable, "-m", "bot.cli", "score", str(marked)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["points"] == 4


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    """`ofc score hand.json | head -1`: once head has its line the pipe closes, and writing
    the rest raised BrokenPipeError, a traceback under the line the script wanted."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has already gone
    try:
        done = subprocess.run([sys.executable, "-m", "bot.cli", "score", "-"],
                              input=json.dumps({"players": [A, B]}).encode(),
                              stdout=write_end, stderr=subprocess.PIPE, check=False)
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode == 1


@pytest.mark.parametrize("argv", [["score"], ["score", "-"]])
def test_no_standard_input_at_all_is_one_line(argv: list[str]) -> None:
    """Run with standard input closed (`ofc score <&-`, some service managers): Python has no
    sys.stdin, and reading it was an AttributeError traceback."""
    done = subprocess.run([sys.executable, "-m", "bot.cli", *argv], capture_output=True,
                          text=True, preexec_fn=lambda: os.close(0), check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "ofc score: there is no standard input to read: give a JSON file (ofc score "
        "hand.json)."]


def test_turbo_scores_four_players() -> None:
    # R7: turbo seats four. C (bottom two pair under a full house) and D (ten high under a
    # pair of nines) foul; R5 by hand: a fouled board pays 6 and the other's royalties (A 11:
    # queens on top 7, a flush at the bottom 4; B 6: a full house at the bottom), two fouled
    # boards score 0 between them, and A beats B 2-1 with 11 - 6 royalties: 4 for A.
    done = run({"rules": {"variant": "turbo"}, "players": [A, B, C, D]})
    assert done.returncode == 0, done.stderr
    points = {p["name"]: p["points"] for p in json.loads(done.stdout)["players"]}
    assert points == {"A": 17 + 17 + 4, "B": 12 + 12 - 4, "C": -12 - 17, "D": -12 - 17}
