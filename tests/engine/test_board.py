"""R3 fouls, R4 royalties, R9 lowball middle and jokers, each checked by hand."""

import pytest

from bot.engine.board import Board, evaluate_board
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules

AMERICAN, RUSSIAN = TableRules(), TableRules(royalties="russian")
LOWBALL, JOKER = TableRules(variant="lowball"), TableRules(variant="joker")


def score(top: str, middle: str, bottom: str, rules: TableRules = AMERICAN):
    return evaluate_board(Board.parse(top, middle, bottom, jokers=rules.jokers), rules)


def test_a_correct_board_is_not_fouled_and_equal_rows_are_allowed() -> None:
    result = score("Qh Qd 4c", "Qs Qc 4h 3d 2s", "Ah Ad Kh Kd 7h")
    assert not result.fouled
    assert result.royalties == (7, 0, 0)  # QQ on top: 12 - 5


def test_top_stronger_than_middle_fouls_and_pays_nothing() -> None:
    result = score("Qh Qd 5c", "Qs Qc 4h 3d 2s", "Ah Ad Kh Kd 7h")
    assert result.fouled
    assert result.royalties == (0, 0, 0)


def test_middle_stronger_than_bottom_fouls_despite_royalties() -> None:
    result = score("2c 3d 4h", "Ah Kh Qh Jh 9h", "Ts Jd Qc Kd As")  # flush over a straight
    assert result.fouled
    assert result.total_royalties == 0


# R4, by hand from the table: (case, middle, bottom, american, russian). The top "2c 3c 4c" is
# the weakest top there is (three cards make no straight or flush, R2) and pays nothing.
ROYALTY_CASES = [
    ("bottom straight", "Ah Ad 7c 8s 9d", "Ts Jd Qc Kd As", 2, 2),
    ("bottom flush", "Ah Ad 7c 8s 9d", "2h 4h 6h 8h Th", 4, 4),
    ("bottom full house", "Ah Ad 7c 8s 9d", "Ks Kd Kc 4s 4d", 6, 6),
    ("bottom quads", "Ah Ad 7c 8s 9d", "Ks Kd Kc Kh 4d", 10, 8),
    ("bottom straight flush", "Ah Ad 7c 8d 9d", "5s 6s 7s 8s 9s", 15, 10),
    ("bottom royal", "Ah Ad 7c 8s 9d", "Ts Js Qs Ks As", 25, 15),
    ("middle trips + bottom straight flush", "7h 7d 7c As Kd", "9s Ts Js Qs Ks", 2 + 15, 2 + 10),
    ("middle straight + bottom quads", "6h 7d 8c 9s Td", "Ks Kd Kc Kh 4d", 4 + 10, 4 + 8),
    ("middle flush + bottom quads", "2h 4h 6h 8h Th", "Ks Kd Kc Kh 4d", 8 + 10, 8 + 8),
    ("middle full house + bottom quads", "Qs Qd Qc 4s 4d", "Ks Kd Kc Kh 5c", 12 + 10, 12 + 8),
    ("middle quads + bottom straight flush", "Qs Qd Qc Qh 4d", "5s 6s 7s 8s 9s", 20 + 15, 16 + 10),
    ("middle straight flush + bottom", "4h 5h 6h 7h 8h", "9s Ts Js Qs Ks", 30 + 15, 20 + 10),
    ("middle royal + bottom royal", "Th Jh Qh Kh Ah", "Ts Js Qs Ks As", 50 + 25, 30 + 15),
]


@pytest.mark.parametrize(("middle", "bottom", "american", "russian"),
                         [c[1:] for c in ROYALTY_CASES], ids=[c[0] for c in ROYALTY_CASES])
def test_royalties_of_both_tables(middle: str, bottom: str, american: int, russian: int) -> None:
    assert not score("2c 3c 4c", middle, bottom).fouled
    assert score("2c 3c 4c", middle, bottom).total_royalties == american
    assert score("2c 3c 4c", middle, bottom, RUSSIAN).total_royalties == russian


RANKS = "23456789TJQKA"
# R4: top pairs 22-55 pay 0, 66 pays 1 ... AA 9; trips 222 pay 10 ... AAA 22.
TOP_PAIR = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
TOP_TRIPS = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]
# Clubs only below, spades/hearts/diamonds on top: no card can repeat. Both rows beat any top.
MIDDLE, BOTTOM = "2c 3c 4c 5c 6c", "Tc Jc Qc Kc Ac"


@pytest.mark.parametrize("rank", range(13))
def test_top_royalties_of_every_pair_and_trips(rank: int) -> None:
    r, kicker = RANKS[rank], RANKS[rank - 1]
    pair = score(f"{r}s {r}h {kicker}s", MIDDLE, BOTTOM)
    trips = score(f"{r}s {r}h {r}d", MIDDLE, BOTTOM)
    assert not pair.fouled and not trips.fouled
    assert pair.royalties == (TOP_PAIR[rank], 30, 25)
    assert trips.royalties == (TOP_TRIPS[rank], 30, 25)


def test_incomplete_board_is_refused() -> None:
    with pytest.raises(RuleError, match="the top row needs 3 cards, not 2"):
        Board.parse("Ah Kd", "2s 3s 4s 5s 7h", "8s 8d 8c 2d 2c")
    with pytest.raises(RuleError, match="Ah appears twice"):
        Board.parse("Ah Kd Qc", "2s 3s 4s 5s Ah", "8s 8d 8c 2d 2c")


# R9 lowball: the middle is a 2-7 low.
@pytest.mark.parametrize(("middle", "fouled", "royalty", "name"), [
    ("7s 5h 4d 3c 2s", False, 8, "7-5 low"),
    ("7s 6h 4d 3c 2s", False, 4, "7-6 low"),
    ("8s 6h 4d 3c 2d", False, 2, "8-6 low"),
    ("9s 6h 4d 3c 2d", False, 1, "9-6 low"),
    ("Ts 6h 4d 3c 2d", False, 0, "10-6 low"),
    ("Js 6h 4d 3c 2d", True, 0, None),  # above ten-high
    ("As 6h 4d 3c 2d", True, 0, None),  # the ace is high
    ("6s 6h 4d 3c 2d", True, 0, None),  # a pair
    ("6s 5h 4d 3c 2d", True, 0, None),  # a straight
    ("7d 5d 4d 3d 2d", True, 0, None),  # a flush
])
def test_lowball_middle(middle: str, fouled: bool, royalty: int, name: str | None) -> None:
    result = score("Qh Qd 9c", middle, "Ks Kd Kc 8h 8c", LOWBALL)
    assert result.fouled is fouled
    assert result.royalties[1] == royalty
    if name:
        assert result.names[1] == name
        assert result.royalties[0] == 7  # the top still pays (R4)


def test_lowball_bottom_must_still_beat_top_and_lower_middle_wins() -> None:
    assert score("Ah Ad 9c", "7s 5h 4d 3c 2s", "Ks Kd 8c 8h Qc", LOWBALL).fouled is False
    assert score("Ah Ad 9c", "7s 5h 4d 3c 2s", "Ks Kd 8c 7h Qc", LOWBALL).fouled is True
    better = score("Qh Qd 9c", "7s 5h 4d 3c 2s", "Ks Kd Kc 8h 8c", LOWBALL)
    worse = evaluate_board(Board.parse("Qs Qc 9d", "7h 6h 4s 3s 2h", "As Ad Ac 9h 9s"), LOWBALL)
    assert better.lines[1] > worse.lines[1]


# R9 jokers: the best non-fouling choice, most royalties, then strongest bottom, middle, top.
def test_joker_takes_the_most_royalties() -> None:
    result = score("X Kh 3c", "Qs Qd Qc 5h 5d", "2s 3s 4s 5s 6s", JOKER)
    assert result.royalties == (8, 12, 15)  # KK on top, full house middle, straight flush
    assert result.names[0] == "Pair of Kings"


def test_joker_avoids_the_foul() -> None:
    # A nine would make 99 on top (4), beating the middle's eights: fouled. The best that
    # does not foul is the strongest top under the middle: a pair of twos, paying nothing.
    result = score("X 9h 2c", "8s 8d 4c 5h 3d", "Ts Td Tc 3h 3c", JOKER)
    assert not result.fouled
    assert result.royalties == (0, 0, 6)
    assert result.names[0] == "Pair of Twos"


def test_joker_board_fouled_when_every_choice_fouls() -> None:
    result = score("Ah Ad X", "Ks Kd 2c 3h 4s", "Qs Qd Qc 9h 9d", JOKER)
    assert result.fouled
    assert result.royalties == (0, 0, 0)


def test_two_jokers_make_trips_without_copying_a_card_of_their_row() -> None:
    result = score("X X Ah", "2s 3s 4s 5s 6s", "7d 8d 9d Td Jd", JOKER)
    assert result.royalties[0] == 22  # AAA
    assert "Ah" not in result.resolved.text()["top"].replace("Ah", "", 1)


def test_joker_completes_a_royal() -> None:
    result = score("2c 3d 4h", "Ah Ad 7c 8s 9d", "As Ks Qs Js X", JOKER)
    assert result.royalties[2] == 25
    assert result.resolved.text()["bottom"].split()[-1] == "Ts"


def test_joker_without_royalty_gives_the_strongest_bottom() -> None:
    result = score("2c 3d 4h", "Ah Ad 7c 8s 9d", "2h 2d 5c 7s X", JOKER)
    assert result.total_royalties == 0
    assert result.names[2] == "Three of a kind, twos"


# R4 option `royalties = off` (seed 000: "Royalties are optional").
def test_royalties_off_pays_nothing_not_even_the_lowball_middle() -> None:
    off = TableRules(royalties="off")
    result = score("Ah Ad Ac", "Ks Kd Kc Kh 2s", "8h 9h Th Jh Qh", off)  # 22 + 20 + 15 paid
    assert not result.fouled and result.royalties == (0, 0, 0)
    low = score("Qh Qd 9c", "7s 5h 4d 3c 2s", "Ks Kd Kc 8h 8c", TableRules(
        variant="lowball", royalties="off"))
    assert not low.fouled and low.royalties == (0, 0, 0)  # QQ, 75432: 7 + 8 with royalties


# R9: a joker may stand for a card already elsewhere on its own board (another row), only not
# for one in its own row.
def test_joker_may_copy_a_card_of_another_row_of_its_board() -> None:
    # Three kings are on the bottom and the fourth on top: the joker's pair of kings on top
    # (8) copies a bottom king. Top KK < middle QQQ55 < bottom KKK22, so it does not foul.
    result = score("X Kh 3c", "Qs Qd Qc 5h 5d", "Ks Kd Kc 2s 2d", JOKER)
    assert not result.fouled
    assert result.royalties == (8, 12, 6)
    top = result.resolved.text()["top"].split()
    assert next(c for c in top if c[0] == "K" and c != "Kh") in {"Ks", "Kd", "Kc"}
