"""What the board says it is making (R2-R4, R8, R9): every expected value worked out by hand."""

import random

import pytest

from bot.engine.board import Board
from bot.engine.cards import DECK, JOKERS, parse_cards
from bot.engine.match import Match, PlayerSpec
from bot.engine.outlook import draft_outlook, foul_unavoidable, outlook, row_text, with_draft
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, SeatView, TableView


def board(top: str = "", middle: str = "", bottom: str = "") -> Board:
    return Board(*(tuple(parse_cards(r)) for r in (top, middle, bottom)))


@pytest.mark.parametrize(("row", "cards", "expected"), [
    ("top", "", ""),
    ("top", "7h", "Seven high"),
    ("top", "Kd 5s", "King high"),
    ("top", "7h 7d", "Pair of Sevens"),
    ("middle", "Ks 4d Kh 4c", "Two pair, kings and fours"),
    ("bottom", "9s 2c 9h 9d", "Three of a kind, nines"),
    ("bottom", "Jd Jc Jh Js", "Four of a kind, jacks"),
    ("middle", "2h 7h Jh", "Flush draw"),
    ("middle", "8c 9d Tc", "Straight draw"),
    ("bottom", "As 2d 4c 5h", "Straight draw"),  # to the wheel
    ("middle", "As 7d 2c", "Ace high"),
    ("bottom", "6s 6h Th Jh", "Pair of Sixes"),  # a pair says more than a draw
    # full rows name their hand (R2)
    ("top", "2h 7h Jh", "Jack high"),
    ("top", "Qs Qh 4c", "Pair of Queens"),
    ("middle", "Kd Kc 4s 4h 4d", "Full house, fours full of kings"),
    ("bottom", "As 2d 3c 4h 5s", "Straight, five high"),
    ("bottom", "Ah Kh Qh Jh Th", "Royal flush"),
    # jokers (R9): in a row not yet full a joker joins the largest group
    ("middle", "X 7d 3c", "Pair of Sevens"),
    ("top", "X", "Ace high"),
    ("top", "X X", "Pair of Aces"),
    # a full row with a joker takes its strongest choice
    ("bottom", "X Kh Qh Jh Th", "Royal flush"),
])
def test_row_text(row: str, cards: str, expected: str) -> None:
    assert str(row_text(row, parse_cards(cards)) or "") == expected


@pytest.mark.parametrize(("cards", "expected"), [
    ("7d 5c", "7-5 low draw"),
    ("8d", "8 low draw"),
    ("Qd 5c", "Queen high (not a 2-7 low)"),
    ("5d 5c", "Pair of Fives (not a 2-7 low)"),
    ("7d 5c 4h 3s 2d", "7-5 low"),
])
def test_row_text_of_a_lowball_middle(cards: str, expected: str) -> None:
    assert str(row_text("middle", parse_cards(cards), lowball=True)) == expected


# -- every way to foul (R3), with full rows and rows not yet full ----------------------------

def test_full_boards() -> None:
    # top KK beats middle QQ: fouled
    assert foul_unavoidable(board("Ks Kh 2c", "Qs Qh 5d 4c 3s", "As Ad Ac 2s 2h"))
    # middle trips beats bottom two pair: fouled
    assert foul_unavoidable(board("Ks Kh 2c", "Qs Qh Qd 4c 3s", "As Ad 2s 2h 7c"))
    # in order: not fouled; equal rows are allowed (R3)
    assert not foul_unavoidable(board("Ks Kh 2c", "Qs Qh Qd 4c 3s", "As Ad Ac 2s 2h"))
    assert not foul_unavoidable(board("Qh Qd 4c", "Qs Qc 4h 3d 2s", "As Ad Ac 2c 2h"))


def test_top_beats_a_middle_not_yet_full() -> None:
    # 7 5 4 2 and one card: at best a pair of sevens, below the top's kings
    assert foul_unavoidable(board("Ks Kh 7c", "7s 5h 4d 2c"))
    # with two cards to come the middle can still make a straight (6 and 3) or trips
    assert not foul_unavoidable(board("Ks Kh 7c", "7s 5h 4d"))


def test_a_top_not_yet_full_beats_the_middle() -> None:
    # aces on top beat the middle's kings whatever the third card
    assert foul_unavoidable(board("As Ah", "Ks Kh Qd Jc 9s"))
    # A K and a deuce is below a pair of kings
    assert not foul_unavoidable(board("As Kh", "Ks Kd Qd Jc 9s"))


def test_both_top_and_middle_not_yet_full() -> None:
    # the top is at least a pair of queens; the middle J 8 5 3 + one card at best jacks
    assert foul_unavoidable(board("Qs Qh", "Js 8h 5d 3c"))
    assert not foul_unavoidable(board("Qs Jh", "Js 8h 5d 3c"))


def test_middle_beats_a_bottom_not_yet_full() -> None:
    # trips of nines against A K Q 3 + one card: at best a pair of aces
    assert foul_unavoidable(board("", "9s 9h 9d 4c 2s", "As Kd Qh 3c"))
    # A K Q J + a ten is a straight, above trips
    assert not foul_unavoidable(board("", "9s 9h 9d 4c 2s", "As Kd Qh Jc"))


def test_a_middle_not_yet_full_beats_the_bottom() -> None:
    # the middle is at least trips of nines; the bottom is full with a pair of aces
    assert foul_unavoidable(board("", "9s 9h 9d", "As Ad Kh 3c 2d"))
    assert not foul_unavoidable(board("", "9s 9h", "As Ad Kh 3c 2d"))


def test_middle_and_bottom_both_not_yet_full() -> None:
    assert foul_unavoidable(board("", "9s 9h 9d", "As Kd Qh 3c"))
    assert not foul_unavoidable(board("", "9s 9h", "As Kd Qh 3c"))


def test_only_the_cards_that_can_still_come_count() -> None:
    # Last street: the middle Q Q 5 4 needs a third queen to reach the top's kings.
    b = board("Ks Kh 7c", "Qs Qh 5d 4c", "As Ad Ac 9s 9h")
    assert foul_unavoidable(b, parse_cards("7d 3c"))  # a pair of queens at best: fouled
    assert not foul_unavoidable(b, parse_cards("Qd 3c"))  # trips of queens: in order
    assert not foul_unavoidable(b)  # every card not on the board: Qd or Qc may come


def test_card_by_card_when_two_rows_need_the_same_card() -> None:
    # The middle needs the Qd to beat the top's kings (trips of queens), and the bottom needs
    # the same Qd to stay above it (Q J T 9 8, a straight). With only Qd and 3s to come, each
    # row can be saved on its own, but not both: every way fouls.
    b = board("Ks Kh 2c", "Qs Qh 5d 4c", "Jd Tc 9h 8h")
    assert foul_unavoidable(b, parse_cards("Qd 3s"))
    # A second card that makes the straight (a seven: J T 9 8 7) leaves the Qd to the middle.
    assert not foul_unavoidable(b, parse_cards("Qd 7s"))


def test_lowball_middle_must_be_a_low_and_bottom_at_least_the_top() -> None:
    assert foul_unavoidable(board("", "Ks 7d"), lowball=True)  # a king: never a 2-7 low
    assert foul_unavoidable(board("", "7d 5c 5h"), lowball=True)  # a pair
    assert not foul_unavoidable(board("", "7d 5c 4h"), lowball=True)
    # lowball compares only the bottom with the top (R9): trips of aces above trips of kings
    assert foul_unavoidable(board("As Ah Ad", "7d 5c 4h", "Ks Kh Kd 2c 3h"), lowball=True)
    assert not foul_unavoidable(board("Ks Kh", "7d 5c 4h", "As Ad"), lowball=True)


def test_jokers_may_stand_for_any_card() -> None:
    # top A 3 and a joker: at weakest A 3 2, below the middle's pair of kings
    assert not foul_unavoidable(board("As X 3c", "Ks Kh Qd Jc 9s"))
    # ... and above a king-high middle: fouled whatever the joker is
    assert foul_unavoidable(board("As X 3c", "Ks Qh 7d 5c 3s"))


def test_a_full_row_beside_jokers_still_to_come() -> None:
    # The joker variant's prompts: a full top with no joker in it, both jokers unseen. The
    # middle's ace-high is below the top's queens whatever comes (R3); a pair of aces is not.
    def unavoidable(b: Board) -> bool:
        return foul_unavoidable(b, [c for c in DECK if c not in b.cards] + list(JOKERS))

    assert unavoidable(board("Qs Qh 2c", "Ah 7d 5c 4s 3d"))
    assert not unavoidable(board("Qs Qh 2c", "Ah 7d"))
    assert not unavoidable(board("Qs Qh 2c", "Ah Ad"))


def test_an_empty_board_never_fouls() -> None:
    assert not foul_unavoidable(Board())


# -- the whole picture -----------------------------------------------------------------------

def test_outlook_of_a_full_board_gives_royalties_and_fantasyland() -> None:
    b = board("Qs Qh 2c", "9s 9h 9d 4c 2s", "Ah Kh 8h 5h 3h")
    got = outlook(b, TableRules())
    # R4 american: top QQ 12 - 5 = 7, middle trips 2, bottom flush 4; R8 QQ: 14 cards
    assert got.complete and not got.fouled and not got.foul_unavoidable
    assert got.royalties == (7, 2, 4) and got.total_royalties == 13
    assert got.fantasy == 14
    assert tuple(map(str, got.rows)) == ("Pair of Queens", "Three of a kind, nines",
                                         "Flush, ace high")
    # progressive (R8): KK on top enters with 15 cards
    kings = board("Ks Kh 2c", "9s 9h 9d 4c 2s", "Ah Qh 8h 5h 3h")
    assert outlook(kings, TableRules(fantasy="progressive")).fantasy == 15
    # russian table (R4): bottom quads pay 8 instead of 10
    quads = board("2c 3d 4s", "9s 9h Td Tc 2s", "Ah As Ad Ac 3h")
    assert outlook(quads, TableRules()).royalties == (0, 0, 10)
    assert outlook(quads, TableRules(royalties="russian")).royalties == (0, 0, 8)


def test_outlook_of_a_fouled_board_has_no_royalties() -> None:
    b = board("As Ah Ad", "9s 9h 9d 4c 2s", "Kh Qh 8h 5h 3h")
    got = outlook(b, TableRules())
    assert got.fouled and got.foul_unavoidable and got.royalties == (0, 0, 0)
    assert got.fantasy == 0


def test_outlook_of_a_board_not_yet_full() -> None:
    got = outlook(board("Ks Kh", "7s 5h 4d 2c", "Ah"), TableRules())
    assert not got.complete and got.foul_unavoidable
    assert tuple(map(str, got.rows)) == ("Pair of Kings", "Seven high", "Ace high")
    assert got.royalties == (0, 0, 0) and got.fantasy == 0


def _view(street: int, placed: Board, dealt: str, in_fantasy: bool = False) -> PrivateView:
    seat = SeatView(seat=1, player_id=1, name="A", stack=100, board=placed,
                    in_fantasy=in_fantasy, fantasy_size=14 if in_fantasy else 0)
    table = TableView(rules=TableRules(), hand_no=1, phase="playing", street=street, streets=5,
                      button=1, seats=(seat,), to_act=(1,))
    cards = parse_cards(dealt)
    return PrivateView(table=table, seat=1, board=placed, dealt=tuple(cards),
                       discard_count=1)


def test_draft_on_the_last_street() -> None:
    placed = board("Qs Qh", "9s 9h 9d 4c", "Ah Kh 8h 5h")
    view = _view(5, placed, "2c 3h 7d")
    draft = dict(zip(parse_cards("2c 3h 7d"), ("top", "bottom", "discard"), strict=True))
    assert with_draft(placed, view.dealt, draft) == board(
        "Qs Qh 2c", "9s 9h 9d 4c", "Ah Kh 8h 5h 3h")
    # The middle still has a place: the 7d is the only card left to fill it (last street).
    got = draft_outlook(view, draft)
    assert not got.complete and not got.foul_unavoidable
    draft[parse_cards("7d")[0]] = "middle"
    got = draft_outlook(view, draft)
    assert got.complete and got.royalties == (7, 2, 4) and got.fantasy == 14


def test_draft_mid_hand_counts_every_unseen_card() -> None:
    # The middle Q Q 5 4 needs a queen to reach the top's kings; none is dealt now.
    placed = board("Ks Kh 7c", "Qs Qh 5d 4c", "As Ad Ac 9s")
    # Street 2: a queen may come on a later street.
    assert not draft_outlook(_view(2, placed, "3c 8d 9c"), {}).foul_unavoidable
    # The last street: only the dealt cards can still come.
    assert draft_outlook(_view(5, placed, "3c 8d 9c"), {}).foul_unavoidable
    assert not draft_outlook(_view(5, placed, "3c Qd 9c"), {}).foul_unavoidable


def test_when_not_exact_a_foul_announced_is_always_certain(monkeypatch: pytest.MonkeyPatch) -> None:
    # Boards of the last streets with a few cards to come: the row-by-row reasoning (forced by
    # an exact limit of 0) never says "unavoidable" when some way avoids the foul, and agrees
    # with the card-by-card search nearly always.
    import random

    from bot.engine import outlook as module
    from bot.engine.cards import DECK

    rng = random.Random(7)
    limit = module.EXACT_LIMIT
    agree = total = 0
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        free = [rng.randint(0, 1), rng.randint(0, 2), rng.randint(0, 2)]
        rows = [tuple(deck.pop() for _ in range(n - f)) for n, f in zip((3, 5, 5), free,
                                                                         strict=True)]
        b = Board(*rows)
        pool = [deck.pop() for _ in range(sum(free) + rng.randint(0, 2))]
        exact = foul_unavoidable(b, pool)
        monkeypatch.setattr(module, "EXACT_LIMIT", 0)
        relaxed = foul_unavoidable(b, pool)
        monkeypatch.setattr(module, "EXACT_LIMIT", limit)
        assert not relaxed or exact
        agree += relaxed == exact
        total += 1
    assert agree >= 0.95 * total


def test_any_13_cards_can_be_set_without_a_foul() -> None:
    # Why an empty board never fouls: the best five at the bottom, the best five of the other
    # eight in the middle, the last three on top is always in order (R3).
    import random
    from itertools import combinations

    from bot.engine.cards import DECK
    from bot.engine.evaluation import eval3, eval5

    rng = random.Random(3)
    for _ in range(200):
        cards = rng.sample(DECK, 13)
        bottom = max(combinations(cards, 5), key=eval5)
        rest = [c for c in cards if c not in bottom]
        middle = max(combinations(rest, 5), key=eval5)
        top = [c for c in rest if c not in middle]
        assert eval3(top) <= eval5(middle) <= eval5(bottom)
    assert not foul_unavoidable(Board(), parse_cards("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 7s"))


def test_every_prompt_of_joker_hands_has_an_outlook() -> None:
    # Every seat's view at every action of 30 seeded joker hands (R9), placed at random so
    # rows fill in every order: its outlook is what the prompt and its image show.
    # An unavoidable foul is a promise about every card still to come: the board shown down
    # fouls (R3). Each row has its text once it holds a card, none while it is empty.
    rules = TableRules.from_mapping({"seats": 3, "variant": "joker"})
    prompts = promised = 0
    for seed in range(30):
        match = Match.new(rules, [PlayerSpec(i + 1, f"P{i}", 1000) for i in range(3)], seed=seed)
        match.start_hand(0.0)
        rng = random.Random(seed)
        doomed = set()
        while match.phase == "playing":
            seat = match.pending()[0]
            view = match.view_for(seat)
            got = draft_outlook(view)
            assert [text is None for text in got.rows] == [
                not view.board.row(row) for row in ("top", "middle", "bottom")]
            assert not got.complete
            if got.foul_unavoidable:
                doomed.add(seat)
            prompts += 1
            events = match.place(seat, match.random_assignment(seat, rng), 1.0)
        (shown,) = [e for e in events if e.kind == "showdown"]
        fouled = {s["seat"]: s["fouled"] for s in shown.data["seats"]}
        assert all(fouled[seat] for seat in doomed), (seed, doomed, fouled)
        promised += len(doomed)
    assert prompts == 30 * 3 * 5  # five streets each, three seats, no Fantasyland in hand 1
    assert promised > 0  # some random placements did doom their board early


def test_a_drafts_outlook_is_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The prompt's text, its image and its foul check each ask about the same draft.
    judged: list[Board] = []

    def counted(board: Board, pool: object, lowball: bool) -> bool:
        judged.append(board)
        return False

    monkeypatch.setattr("bot.engine.outlook.foul_unavoidable", counted)
    outlook.cache_clear()
    try:
        view = _view(3, board("Ks Kh", "Qs Qh 5d", "As Ad Ac"), "3c 8d 9c")
        draft = dict(zip(parse_cards("3c 8d 9c"), ("middle", "bottom", "discard"), strict=True))
        for _ in range(3):
            draft_outlook(view, draft)
        assert len(judged) == 1
        draft[parse_cards("9c")[0]] = "bottom"  # the draft changes: worked out again
        draft[parse_cards("8d")[0]] = "discard"
        draft_outlook(view, draft)
        assert len(judged) == 2
    finally:
        outlook.cache_clear()  # nothing judged by the stand-in outlives this test


def test_every_row_content_fills_with_every_multiset_short_of_five_of_a_rank() -> None:
    """What the foul check reasons from (outlook._fillings), against its definition, for every
    row content: the ranks a row's free places may take are every multiset of them but five of
    one rank (R9: a joker never makes five of a kind), each once; a 5-card row whose ranks all
    differ may also make them a flush, the same hand of one suit; a top never (R2)."""
    from collections import Counter
    from itertools import combinations_with_replacement
    from math import comb

    from bot.engine.outlook import ANY, SUITED, UNSUITED, _fillings

    checked = 0
    for size in (3, 5):
        for held in range(size + 1):
            free = size - held
            for ranks in combinations_with_replacement(range(13), held):
                if max(Counter(ranks).values(), default=0) > 4:
                    continue
                made = Counter((extra, suited) for _, _, extra, suited in
                               _fillings(size, ranks, free))
                expected: Counter[tuple[tuple[int, ...], int]] = Counter()
                for extra in combinations_with_replacement(range(13), free):
                    if max(Counter(ranks + extra).values()) > 4:
                        continue
                    if size == 5 and len(set(ranks + extra)) == 5:
                        expected[extra, UNSUITED] += 1
                        expected[extra, SUITED] += 1
                    else:
                        expected[extra, ANY] += 1
                assert made == expected, (size, ranks)
                checked += 1
    # every row content: the multisets of 0-5 ranks but five of one, and of 0-3 ranks
    rows, tops = (sum(comb(12 + n, n) for n in range(size + 1)) for size in (5, 3))
    assert checked == rows - 13 + tops
