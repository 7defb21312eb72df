"""R8 and R9: Fantasyland entry, stay and card counts under every mode and variant."""

import pytest

from bot.engine.board import Board, evaluate_board
from bot.engine.fantasy import fantasy_cards
from bot.engine.rules import TableRules

# Middle and bottom that hold any top (straight flushes in clubs); no quads, no full house.
UNDER = ("2c 3c 4c 5c 6c", "9c Tc Jc Qc Kc")


def result(top: str, middle: str = UNDER[0], bottom: str = UNDER[1], **options: str):
    rules = TableRules.from_mapping(options)
    return evaluate_board(Board.parse(top, middle, bottom), rules), rules


TOPS = {"JJ": "Js Jh 2s", "QQ": "Qs Qh 2s", "KK": "Ks Kh 2s", "AA": "As Ah 2s",
        "trips": "7s 7h 7d"}


@pytest.mark.parametrize(("mode", "counts"), [
    ("standard", {"JJ": 0, "QQ": 14, "KK": 14, "AA": 14, "trips": 14}),
    ("progressive", {"JJ": 0, "QQ": 14, "KK": 15, "AA": 16, "trips": 17}),
    ("ultimate", {"JJ": 0, "QQ": 14, "KK": 15, "AA": 16, "trips": 17}),
    ("tournament", {"JJ": 0, "QQ": 13, "KK": 14, "AA": 15, "trips": 16}),
    ("off", {"JJ": 0, "QQ": 0, "KK": 0, "AA": 0, "trips": 0}),
])
def test_entry_cards_by_mode(mode: str, counts: dict[str, int]) -> None:
    for top, cards in counts.items():
        board, rules = result(TOPS[top], fantasy=mode)
        assert fantasy_cards(board, rules, in_fantasy=False) == cards, top


def test_fouled_board_never_enters() -> None:
    board, rules = result("As Ah 2s", "Ks Kh 3d 4d 5h", "9c Tc Jc Qc Kc")
    assert board.fouled
    assert fantasy_cards(board, rules, in_fantasy=False) == 0


QUADS_BOTTOM = ("2c 3c 4c 5c 7h", "9s 9h 9d 9c Kc")


@pytest.mark.parametrize(("mode", "entry", "repeat"), [
    ("standard", 14, 14), ("progressive", 17, 14), ("ultimate", 17, 17), ("ultimate", 15, 15),
    ("tournament", 16, 0),
])
def test_stay_with_trips_on_top(mode: str, entry: int, repeat: int) -> None:
    board, rules = result("7s 7h 7d", fantasy=mode)
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=entry) == repeat


def test_stay_with_quads_on_the_bottom_but_not_with_queens_on_top() -> None:
    board, rules = result("2s 3h 4d", *QUADS_BOTTOM)
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=14) == 14
    # R8: QQ+ on top from a FL hand without a stay condition leaves FL.
    board, rules = result("As Ah Kd", "Ks Kh Kc 2d 3d", "4h 6h 8h Th Qh")
    assert not board.fouled
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=14) == 0


def test_full_house_middle_stays_only_with_the_option() -> None:
    board, rules = result("2s 3h 4d", "8s 8h 8d 3s 3d", "Ts Th Td Tc 2c")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=14) == 14  # quads bottom
    board, rules = result("2s 4h 5d", "8s 8h 8d 3s 3d", "As Kh Ah Ad Ks")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=14) == 0
    board, rules = result("2s 4h 5d", "8s 8h 8d 3s 3d", "As Kh Ah Ad Ks",
                          fantasy_stay_full_house_middle="on")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=14) == 14


def test_turbo_fantasyland_is_13_cards_and_full_house_middle_stays() -> None:
    board, rules = result("As Ah 2s", variant="turbo", fantasy="progressive")
    assert fantasy_cards(board, rules, in_fantasy=False) == 13
    board, rules = result("2s 4h 5d", "8s 8h 8d 3s 3d", "As Kh Ah Ad Ks", variant="turbo")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=13) == 13
    board, rules = result("Js Jh 2s", variant="turbo")
    assert fantasy_cards(board, rules, in_fantasy=False) == 0
    board, rules = result("As Ah 2s", variant="turbo", fantasy="off")
    assert fantasy_cards(board, rules, in_fantasy=False) == 0


LOW = "7s 5h 4d 3c 2s"
LOW_BOTTOM = "9c 9h 9d Qc Kc"


def test_lowball_entry_kings_or_the_best_low() -> None:
    cases = [("Qs Qh 8h", "7h 6h 4s 3d 2d", 0), ("Ks Kh 8h", "7h 6h 4s 3d 2d", 14),
             ("Qs Qh 8h", LOW, 14), ("Ks Kh 8h", LOW, 15)]
    for top, middle, cards in cases:
        board, rules = result(top, middle, LOW_BOTTOM.replace("9c 9h 9d", "Ac Ah Ad"),
                              variant="lowball")
        assert not board.fouled
        assert fantasy_cards(board, rules, in_fantasy=False) == cards, (top, middle)


def test_lowball_stay_needs_trips_top_or_quads_bottom() -> None:
    board, rules = result("6s 6h 6d", LOW, "9c 9h 9d 9s Kc", variant="lowball")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=15) == 14
    board, rules = result("As Ah 8h", LOW, "Kc Kh Kd Qc Qh", variant="lowball")
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=15) == 0


@pytest.mark.parametrize("mode", ["progressive", "ultimate", "tournament"])
def test_turbo_and_lowball_play_their_own_fantasyland_whatever_the_mode(mode: str) -> None:
    # R9: the modes do not apply. Turbo: trips on top enter with 13 (not progressive's 17 nor
    # tournament's 16), and a full house in the middle keeps it (tournament keeps nobody).
    # Lowball: kings and 75432 enter with 15; trips on top keep it with 14 (ultimate would
    # repeat the entry's 15).
    board, rules = result("7s 7h 7d", variant="turbo", fantasy=mode)
    assert fantasy_cards(board, rules, in_fantasy=False) == 13
    board, rules = result("2s 4h 5d", "8s 8h 8d 3s 3d", "As Kh Ah Ad Ks", variant="turbo",
                          fantasy=mode)
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=13) == 13
    board, rules = result("Ks Kh 8h", LOW, "Ac Ah Ad Qc Kc", variant="lowball", fantasy=mode)
    assert fantasy_cards(board, rules, in_fantasy=False) == 15
    board, rules = result("6s 6h 6d", LOW, "9c 9h 9d 9s Kc", variant="lowball", fantasy=mode)
    assert fantasy_cards(board, rules, in_fantasy=True, entry_cards=15) == 14


def test_a_joker_makes_queens_for_fantasyland_with_royalties_off() -> None:
    # R4: with royalties off Fantasyland is unchanged, and a joker takes the strongest
    # bottom, middle, top (R9). On top `X Qs 4d`, under a middle of trips, the strongest top
    # is QQ4 (the joker a queen; one joker makes no aces, AQ4 is no pair), which enters
    # progressive Fantasyland with 14 cards.
    rules = TableRules.from_mapping({"variant": "joker", "royalties": "off",
                                     "fantasy": "progressive"})
    board = evaluate_board(Board.parse("X Qs 4d", "7s 7h 7d 2c 3c", "9c Tc Jc Qc Kc",
                                       jokers=True), rules)
    assert not board.fouled and board.royalties == (0, 0, 0)
    assert fantasy_cards(board, rules, in_fantasy=False) == 14
