"""R5 scoring and R6 settlement, with the worked examples of RULES.md and seed 002."""

import pytest

from bot.engine.board import Board, evaluate_board
from bot.engine.rules import TableRules
from bot.engine.scoring import PairScore, score_hand, score_pair, settlement_order
from bot.engine.settlement import settle
from tests.engine.boards import A, B, F, G, H, W, X, Y

RULES = TableRules()


def pair(a: Board, b: Board, scoring: str = "1-6") -> PairScore:
    return score_pair(evaluate_board(a, RULES), evaluate_board(b, RULES), scoring)  # type: ignore[arg-type]


def test_two_one_with_royalties() -> None:
    # Top QQ beats ace-high; middle TT beats 99; full house beats flush: 1 - 2 = -1 line.
    # Royalties 11 - 6 = 5 for A.
    p = pair(A, B)
    assert p.lines == (1, -1, -1)
    assert (p.line_points, p.bonus, p.royalties, p.points) == (-1, 0, 5, 4)
    # 2-4: B won two lines, so A gives one more: -2 + 5.
    assert pair(A, B, "2-4").points == 3


def test_scoop_is_six_under_1_6_and_four_under_2_4() -> None:
    assert pair(X, Y).lines == (1, 1, 1)
    assert pair(X, Y).points == 6
    assert pair(Y, X).points == -6
    assert pair(X, Y, "2-4").points == 4


def test_two_wins_and_a_tie_give_2_under_1_6_and_3_under_2_4() -> None:
    assert pair(X, W).lines == (0, 1, 1)
    assert pair(X, W).points == 2
    assert pair(X, W, "2-4").points == 3


def test_fouled_board_pays_6_or_4_plus_the_other_royalties() -> None:
    assert pair(X, F).lines == (1, 1, 1)
    assert pair(X, F).points == 6
    assert pair(X, F, "2-4").points == 4
    assert pair(A, G).points == 6 + 11  # G's KK and full house pay nothing: fouled
    assert pair(A, G, "2-4").points == 4 + 11


def test_two_fouled_boards_score_zero() -> None:
    p = pair(G, H)
    assert (p.lines, p.points) == ((0, 0, 0), 0)


def test_three_players_points_sum_and_order() -> None:
    results = [evaluate_board(b, RULES) for b in (X, Y, F)]
    points, pairs = score_hand(results, "1-6", button=2)
    # Button 2: settlement order is seats 0, 1, 2: pairs (0,1), (0,2), (1,2).
    assert [(p.a, p.b) for p in pairs] == [(0, 1), (0, 2), (1, 2)]
    # X scoops Y (6) and F (6); Y beats fouled F (6).
    assert points == [12, 0, -12]


def test_settlement_order_starts_left_of_the_button() -> None:
    assert settlement_order(3, 0) == [1, 2, 0]
    assert settlement_order(4, 3) == [0, 1, 2, 3]


def test_seed_002_table_stakes_example() -> None:
    """A has 2, wins 10 from B and receives 2; then has 4 and can win up to 4 from C."""
    a_beats_b = PairScore(0, 1, (1, 1, 1), 3, 3, 4)  # 10 points
    a_beats_c = PairScore(0, 2, (1, 1, 1), 3, 3, 4)
    b_vs_c = PairScore(1, 2, (0, 0, 0), 0, 0, 0)
    after, transfers = settle([2, 100, 100], [a_beats_b, a_beats_c, b_vs_c], point_value=1)
    assert [(t.payer, t.payee, t.owed, t.paid) for t in transfers] == [(1, 0, 10, 2),
                                                                       (2, 0, 10, 4)]
    assert after == [8, 98, 96]
    assert all(t.capped for t in transfers)


def test_loser_pays_at_most_what_it_has_and_point_value_scales() -> None:
    after, transfers = settle([50, 7], [PairScore(0, 1, (1, 1, 1), 3, 3, 0)], point_value=5)
    assert (transfers[0].owed, transfers[0].paid) == (30, 7)
    assert after == [57, 0]


@pytest.mark.parametrize("scoring", ["1-6", "2-4"])
def test_equal_royalties_cancel(scoring: str) -> None:
    assert pair(A, A.__class__(*A.rows), scoring).points == 0
