"""`ofc score` against scores worked out by hand from docs/RULES.md: fouls, every row's
royalties on both tables, ties at every level of the comparison (kickers included), Fantasyland
entry and stay under each mode and option, the scoring systems, table stakes, and the lowball
and joker variants. Each expected figure is computed in the comment above it, never copied from
the program's output."""

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main


def player(name: str, top: str, middle: str, bottom: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "top": top, "middle": middle, "bottom": bottom, **more}


def score(hand: dict[str, Any], tmp_path: Path,
          capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`ofc score hand.json` as a person runs it: its JSON output."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def points(out: dict[str, Any]) -> list[int]:
    return [p["points"] for p in out["players"]]


def fantasy(out: dict[str, Any]) -> list[int]:
    return [p["fantasy_cards"] for p in out["players"]]


# Queens on top over jacks in the middle: fouled (R3), though its rows would pay 7 (QQ) and
# 6 (a full house).
FOULED = player("A", "Qh Qd 2c", "Js Jd 3c 4d 5h", "Ac Ad Ah Kc Kd", stack=100)
# Sevens on top (2), a pair of eights, a queen-high flush at the bottom (4): 6 in royalties.
CLEAN = player("B", "7h 7d 4s", "8s 8c 9d Td 2h", "2s 3s 6s 9s Qs", stack=100)
# Kings on top over tens in the middle: fouled.
FOULED_TOO = player("C", "Kh Ks 6c", "Tc Th 5c 6d 7c", "9c 9h 4c 4h 3h", stack=100)


@pytest.mark.parametrize(("scoring", "expected"), [
    # 1-6 (R5): B wins all three lines (R3: a fouled board loses them all) = 3, the scoop 3
    # more, and B's royalties 6 against A's 0 (a fouled board scores none, R4): 12.
    ("1-6", 12),
    # 2-4: three lines 3, one more for winning two or three = 4 ("a fouled board pays 4"),
    # royalties 6: 10.
    ("2-4", 10),
])
def test_a_fouled_board_pays_every_line_the_bonus_and_the_royalties(
        scoring: str, expected: int, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": {"scoring": scoring}, "players": [FOULED, CLEAN]}, tmp_path, capsys)
    a, b = out["players"]
    assert (a["fouled"], a["royalties"], a["row_royalties"], a["fantasy_cards"]) == (
        True, 0, {"top": 0, "middle": 0, "bottom": 0}, 0)
    assert (b["fouled"], b["royalties"], b["row_royalties"]) == (
        False, 6, {"top": 2, "middle": 0, "bottom": 4})
    assert points(out) == [-expected, expected]
    # Button 0 (A): B, left of it, settles first: the pair is B against A, from B's side.
    assert out["pairs"] == [{"a": "B", "b": "A", "lines": [1, 1, 1], "line_points": 3,
                             "bonus": 3 if scoring == "1-6" else 1, "royalties": 6,
                             "points": expected}]
    assert out["transfers"] == [{"from": "A", "to": "B", "owed": expected, "paid": expected}]


def test_two_fouled_boards_score_nothing_and_table_stakes_cap_the_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three players, button C: the order is A, B, C and the pairs (A,B), (A,C), (B,C) (R6).
    A against B: -12 (as above). A against C: both fouled, 0 (R3). C against B: C loses three
    lines, the scoop, and B's 6 royalties: -12. Points A -12, B +24, C -12.
    Chips (R6, stacks as they stand): A pays B min(12, 100, 2) = 2, B now 4; A and C owe
    nothing (no transfer); C pays B min(12, 100, 4) = 4. A 98, B 8, C 96: 202 before and
    after."""
    hand = {"button": 2, "players": [FOULED, {**CLEAN, "stack": 2}, FOULED_TOO]}
    out = score(hand, tmp_path, capsys)
    assert points(out) == [-12, 24, -12]
    assert [(p["a"], p["b"], p["lines"], p["points"]) for p in out["pairs"]] == [
        ("A", "B", [-1, -1, -1], -12), ("A", "C", [0, 0, 0], 0), ("B", "C", [1, 1, 1], 12)]
    assert out["transfers"] == [{"from": "A", "to": "B", "owed": 12, "paid": 2},
                                {"from": "C", "to": "B", "owed": 12, "paid": 4}]
    assert [p["stack_after"] for p in out["players"]] == [98, 8, 96]


# Kickers (R2): A-K-7 ties A-K-7 (suits never break ties); the wheel is the lowest straight,
# under six-high; two queen-high flushes are decided by their last card, 4 over 3.
TIE_A = player("A", "Ah Kd 7c", "As 2d 3c 4h 5s", "Qs Js 9s 6s 4s")
TIE_B = player("B", "Ac Kc 7d", "2h 3d 4c 5h 6d", "Qh Jh 9h 6h 3h")


@pytest.mark.parametrize("scoring", ["1-6", "2-4"])
def test_a_tie_a_wheel_and_a_flush_decided_by_its_last_card(
        scoring: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Lines: top 0, middle -1 (the wheel loses), bottom +1 (4 over 3): 0, one line each, so
    no scoop nor 2-4 bonus. Royalties: a straight in the middle (4) and a flush at the bottom
    (4) each: 8 - 8 = 0. A scores 0: nothing moves."""
    out = score({"rules": {"scoring": scoring}, "players": [TIE_A, TIE_B]}, tmp_path, capsys)
    assert out["pairs"][0]["lines"] == [0, 1, -1]  # B (left of the button A) against A
    assert [p["royalties"] for p in out["players"]] == [8, 8]
    assert points(out) == [0, 0]
    assert out["transfers"] == []


# Each row decided at a different level (R2): top pairs of nines by the kicker (4 over 3);
# middle two pairs by the high pair (kings over queens, though B's second pair, jacks, and
# kicker, an ace, are higher); bottom full houses by the trips (eights over sevens, though
# A's pair, aces, is higher).
KICK_A = player("A", "9h 9d 4c", "Kh Kd 2c 2s 5h", "7s 7d 7c As Ad")
KICK_B = player("B", "9s 9c 3d", "Qh Qd Jc Js Ah", "8h 8d 8c 2h 2d")


@pytest.mark.parametrize(("scoring", "expected"), [
    # Lines +1 +1 -1 = 1, no scoop; royalties 4 (99) + 6 (full house) each: 0. A +1.
    ("1-6", 1),
    # 2-4: 1, plus 1 for winning two lines: 2.
    ("2-4", 2),
])
def test_kickers_high_pairs_and_trips_decide_rows(scoring: str, expected: int,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": {"scoring": scoring}, "button": 1, "players": [KICK_A, KICK_B]},
                tmp_path, capsys)
    assert out["pairs"][0]["lines"] == [1, 1, -1]
    assert [p["royalties"] for p in out["players"]] == [10, 10]
    assert points(out) == [expected, -expected]


# Two wins and a tie: tens over nines on top, two pair jacks and fours decided by the kicker
# (5 over 3), the same nine-high straight at the bottom.
TWO_AND_TIE_A = player("A", "Th Td 2c", "Jh Jd 4c 4d 5c", "5s 6d 7c 8h 9h")
TWO_AND_TIE_B = player("B", "9c 9d Kc", "Js Jc 4h 4s 3d", "5h 6s 7d 8c 9s")


@pytest.mark.parametrize(("scoring", "expected"), [
    # Royalties: A TT 5 + straight 2 = 7, B 99 4 + straight 2 = 6: +1.
    # 1-6: lines 2, no scoop (R5: "two wins and a tie give 2"): 2 + 1 = 3.
    ("1-6", 3),
    # 2-4: lines 2, one more for winning two ("two wins and a tie give 3"): 3 + 1 = 4.
    ("2-4", 4),
])
def test_two_wins_and_a_tie(scoring: str, expected: int, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": {"scoring": scoring}, "button": 1,
                 "players": [TWO_AND_TIE_A, TWO_AND_TIE_B]}, tmp_path, capsys)
    assert out["pairs"][0]["lines"] == [1, 1, 0]
    assert points(out) == [expected, -expected]


def test_royalties_on_every_row_american_and_russian(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A: trips 222 on top (2 + 8 = 10), a royal flush in the middle (american 50, russian
    30) and at the bottom (25, 15): the bottom equals the middle, allowed (R3). B: six high,
    jack high, king high: no royalty. A wins every line: 3 + 3 (scoop).
    american: 6 + 85 = 91; russian: 6 + 55 = 61."""
    a = player("A", "2h 2d 2c", "As Ks Qs Js Ts", "Ah Kh Qh Jh Th")
    b = player("B", "3h 4d 6c", "5h 7d 8c 9s Jd", "5s 6h 7h 8d Kc")
    for table, royalties, row_royalties in (("american", 85, (10, 50, 25)),
                                            ("russian", 55, (10, 30, 15))):
        out = score({"rules": {"royalties": table}, "players": [a, b]}, tmp_path, capsys)
        first = out["players"][0]
        assert first["royalties"] == royalties
        assert tuple(first["row_royalties"].values()) == row_royalties
        assert first["rows"] == {"top": "Three of a kind, twos", "middle": "Royal flush",
                                 "bottom": "Royal flush"}
        assert points(out) == [6 + royalties, -6 - royalties]


def test_the_smallest_royalties_of_each_row(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A: 66 on top (6 - 5 = 1), trips in the middle (2), a straight at the bottom (2): 5.
    B: 55 on top (below 66: 0), a straight in the middle (4), a flush at the bottom (4): 8.
    Lines: 66 over 55 +1, trips under a straight -1, a straight under a flush -1: -1.
    1-6: -1 + (5 - 8) = -4. 2-4: B won two lines, so -1 - 1 - 3 = -5."""
    a = player("A", "6h 6c 2d", "9s 9d 9c 3h 4h", "Ts Jd Qd Kc Ac")
    b = player("B", "5h 5d 3c", "2s 3s 4d 5s 6d", "2h 7h 8h Jh Kh")
    out = score({"players": [a, b]}, tmp_path, capsys)
    assert [p["row_royalties"] for p in out["players"]] == [
        {"top": 1, "middle": 2, "bottom": 2}, {"top": 0, "middle": 4, "bottom": 4}]
    assert points(out) == [-4, 4]
    out = score({"rules": {"scoring": "2-4"}, "players": [a, b]}, tmp_path, capsys)
    assert points(out) == [-5, 5]


# A: kings on top (13 - 5 = 8), queens full in the middle (12), four sevens at the bottom
# (american 10, russian 8). B: aces on top (9), a flush in the middle (8), a queen-high
# straight flush at the bottom (american 15, russian 10).
QUADS_A = player("A", "Kh Kd 4c", "Qh Qd Qc 3s 3d", "7s 7h 7d 7c 2s")
QUADS_B = player("B", "Ah Ad 3h", "2c 5c 8c 9c Jc", "8s 9s Ts Js Qs")


@pytest.mark.parametrize(("table", "expected"), [
    # Lines: KK under AA -1, full house over flush +1, quads under a straight flush -1: -1.
    # american: A 8 + 12 + 10 = 30, B 9 + 8 + 15 = 32: -1 - 2 = -3.
    ("american", -3),
    # russian: A 8 + 12 + 8 = 28, B 9 + 8 + 10 = 27: -1 + 1 = 0.
    ("russian", 0),
])
def test_quads_and_straight_flushes_on_both_tables(table: str, expected: int, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": {"royalties": table}, "players": [QUADS_A, QUADS_B]}, tmp_path,
                capsys)
    assert points(out) == [expected, -expected]


@pytest.mark.parametrize(("mode", "cards"), [
    # R8 entry: KK and AA on top. standard 14 for both; progressive KK 15, AA 16;
    # tournament KK 14, AA 15; off: none.
    ("standard", [14, 14]), ("progressive", [15, 16]), ("ultimate", [15, 16]),
    ("tournament", [14, 15]), ("off", [0, 0]),
])
def test_fantasyland_entry_by_mode(mode: str, cards: list[int], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": {"fantasy": mode}, "players": [QUADS_A, QUADS_B]}, tmp_path, capsys)
    assert fantasy(out) == cards


# B here: jack high, two pair, four kings at the bottom (10).
PLAIN_B = player("B", "Jh Tc 8c", "7h 7d 6c 6d 2h", "Kh Ks Kd Kc 3s")


def test_top_against_middle_by_the_kicker(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """R2's example. Top Qh Qd 5c beats the middle Qs Qc 4h 3d 2s (5 over 4): fouled, and A
    pays 3 lines, the scoop and B's 10: -16. Top Qh Qd 4c equals that middle: not fouled.
    Then A: QQ 7 + aces full 6 = 13 against B's 10; lines: QQ over jack high +1, a pair of
    queens under two pair -1, a full house under quads -1: -1 + 3 = +2, and Fantasyland
    (14, standard)."""
    fouls = player("A", "Qh Qd 5c", "Qs Qc 4h 3d 2s", "Ah Ad Ac 9h 9d")
    out = score({"players": [fouls, PLAIN_B]}, tmp_path, capsys)
    assert (out["players"][0]["fouled"], points(out), fantasy(out)) == (True, [-16, 16], [0, 0])
    equal = {**fouls, "top": "Qh Qd 4c"}
    out = score({"players": [equal, PLAIN_B]}, tmp_path, capsys)
    assert (out["players"][0]["fouled"], points(out), fantasy(out)) == (False, [2, -2], [14, 0])


# In Fantasyland: the royal board above (trips on top), and a board whose only claim to stay
# is a full house in the middle: kings on top, queens full in the middle, aces full at the
# bottom. B: jack high, two pair, nines full.
ROYAL = player("A", "2h 2d 2c", "As Ks Qs Js Ts", "Ah Kh Qh Jh Th", in_fantasy=True,
               fantasy_entry_cards=16)
ROYAL_B = player("B", "3h 4d 6c", "5h 7d 8c 9s Jd", "5s 6h 7h 8d Kc")
FULL_MIDDLE = player("A", "Kh Kd 4c", "Qh Qd Qc 3s 3d", "Ad Ac As 5d 5s", in_fantasy=True,
                     fantasy_entry_cards=15)
FULL_MIDDLE_B = player("B", "Jh Tc 8c", "7h 7d 6c 6d 2h", "Kc Ks 9d 9h 9s")


@pytest.mark.parametrize(("board", "opponent", "rules", "cards"), [
    # Trips on top stay (R8): standard and progressive repeat 14, ultimate the 16 it entered
    # with; tournament never stays.
    (ROYAL, ROYAL_B, {"fantasy": "standard"}, 14),
    (ROYAL, ROYAL_B, {"fantasy": "progressive"}, 14),
    (ROYAL, ROYAL_B, {"fantasy": "ultimate"}, 16),
    (ROYAL, ROYAL_B, {"fantasy": "tournament"}, 0),
    # KK on top does not stay (entry is only from a normal hand); a full house in the middle
    # stays only with fantasy_stay_full_house_middle on.
    (FULL_MIDDLE, FULL_MIDDLE_B, {}, 0),
    (FULL_MIDDLE, FULL_MIDDLE_B, {"fantasy_stay_full_house_middle": "on"}, 14),
    (FULL_MIDDLE, FULL_MIDDLE_B, {"fantasy_stay_full_house_middle": "on",
                                  "fantasy": "ultimate"}, 15),
    # Turbo (R9): 13 cards, and a full house in the middle stays whatever the option says.
    (FULL_MIDDLE, FULL_MIDDLE_B, {"variant": "turbo"}, 13),
    (FULL_MIDDLE, FULL_MIDDLE_B, {"variant": "turbo", "fantasy": "progressive"}, 13),
])
def test_staying_in_fantasyland(board: dict[str, Any], opponent: dict[str, Any],
                                rules: dict[str, str], cards: int, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = score({"rules": rules, "players": [board, opponent]}, tmp_path, capsys)
    assert fantasy(out) == [cards, 0]


def test_a_full_house_in_the_middle_scores(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A: KK 8, queens full in the middle 12, aces full at the bottom 6: 26. B: nines full
    at the bottom 6. A wins every line (KK over jack high, a full house over two pair, aces
    full over nines full): 6, and 26 - 6 = 20: +26. Out of Fantasyland, KK enters (14)."""
    a = {**FULL_MIDDLE, "in_fantasy": False}
    out = score({"players": [a, FULL_MIDDLE_B]}, tmp_path, capsys)
    assert points(out) == [26, -26]
    assert fantasy(out) == [14, 0]


def test_lowball(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R9 lowball. A: KK on top (8), 75432 in the middle (8), aces full at the bottom (6): 22;
    both entry conditions: 15 cards. B: QQ on top (7), nine high in the middle (1), an
    ace-high straight at the bottom (2): 10; QQ does not enter in lowball. Lines: KK over QQ,
    seven low under nine low (the lower wins), a full house over a straight: A scoops, 6, and
    22 - 10 = 12: +18."""
    a = player("A", "Kh Kd 9c", "7h 5d 4c 3s 2h", "As Ac Ad 6s 6d")
    b = player("B", "Qh Qs 2c", "9h 8d 6c 4s 3d", "Ts Js Qd Kc Ah")
    out = score({"rules": {"variant": "lowball"}, "players": [a, b]}, tmp_path, capsys)
    assert [p["royalties"] for p in out["players"]] == [22, 10]
    assert points(out) == [18, -18]
    assert fantasy(out) == [15, 0]


def test_a_joker_takes_the_card_that_pays_most(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """R9 joker: top X Kh 3c with Ks Kd Kc on the bottom is a pair of kings (8; the joker
    may stand for a king on another row). A: KK 8, a pair of aces, kings full 6: 14.
    B: queen high, a pair of tens, fives full 6. A wins every line: 6 + 14 - 6 = +14; KK
    enters Fantasyland, 14 cards."""
    a = player("A", "X Kh 3c", "Ah Ad 5s 6s 7s", "Ks Kd Kc 4h 4d")
    b = player("B", "Qs Jd 2c", "Tc Th 9s 8s 2d", "5c 5h 5d Js Jh")
    out = score({"rules": {"variant": "joker"}, "players": [a, b]}, tmp_path, capsys)
    first = out["players"][0]
    assert (first["rows"]["top"], first["royalties"]) == ("Pair of Kings", 14)
    assert points(out) == [14, -14]
    assert fantasy(out) == [14, 0]


def test_point_value_multiplies_the_chips_not_the_points(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The quads hand at point_value 5 (R5): A scores -3 points, owes 3 x 5 = 15 chips;
    both have 100, so all 15 move: A 85, B 115."""
    hand = {"rules": {"point_value": 5},
            "players": [{**QUADS_A, "stack": 100}, {**QUADS_B, "stack": 100}]}
    out = score(hand, tmp_path, capsys)
    assert points(out) == [-3, 3]
    assert out["transfers"] == [{"from": "A", "to": "B", "owed": 15, "paid": 15}]
    assert [p["stack_after"] for p in out["players"]] == [85, 115]
