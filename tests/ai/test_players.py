"""Computer players: legal moves only, seeded reproducibility, what they can see,
strong-v1 kept beside strong."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bot.ai.players as players_module
from bot.ai.fantasy_value import V1_FANTASY_VALUE, fantasy_worth
from bot.ai.players import LEVELS, AIPlayers, Settings, _heuristic, decide, estimate
from bot.ai.solver import solve
from bot.ai.turn import future_streets, rows_after
from bot.ai.v1 import StrongV1
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import DECK, parse_cards
from bot.engine.deal import PINEAPPLE_STREETS, TURBO_STREETS
from bot.engine.errors import RuleError
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, SeatView, TableView

QUICK = {"seconds": None, "playouts": 12}  # tiny budgets: legality, not strength


def play(match: Match, levels: list[str], seed: int) -> int:
    """Play the match to its end with the computer players; every action must be legal
    (Match.place raises RuleError on any illegal one). Returns the actions made."""
    actions = 0
    while match.phase != "over":
        match.start_hand(0.0)
        while match.pending():
            seat = match.pending()[0]
            view = match.view_for(seat)
            choice = decide(view, Settings(level=levels[seat], seed=seed, **QUICK))
            assert sorted(choice) == sorted(view.dealt)
            assert list(choice.values()).count("discard") == view.discard_count
            match.place(seat, choice, 0.0)
            actions += 1
    return actions


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(["pineapple", "turbo", "lowball", "joker"]),
    order=st.sampled_from(["sequential", "simultaneous"]),
    seats=st.integers(2, 3),
    levels=st.lists(st.sampled_from(LEVELS), min_size=3, max_size=3),
)
def test_players_only_make_legal_moves(seed: int, variant: str, order: str, seats: int,
                                       levels: list[str]) -> None:
    rules = TableRules(variant=variant, order=order, format="hands", hands=2, seats=seats)
    players = [PlayerSpec(-(i + 1), f"cpu{i}", 10_000, levels[i]) for i in range(seats)]
    match = Match.new(rules, players, seed=seed)
    assert play(match, levels, seed) >= 2 * seats * 3


def test_fantasyland_hands_use_the_solver() -> None:
    """R8: a whole Fantasyland arrangement at once, the solver's, legal for Match; staying is
    worth the measured value of a Fantasyland hand against each opponent to `strong`, and the
    value they always used to `easy` and `strong-v1`."""
    rng = random.Random(3)
    rules = TableRules()
    measured = fantasy_worth(rules, None).of(14)
    for _ in range(3):
        dealt = tuple(rng.sample(DECK, 14))
        view = private_view(rules, Board(), dealt, discard_count=1)
        for level, stay in (("easy", V1_FANTASY_VALUE), ("strong-v1", V1_FANTASY_VALUE),
                            ("strong", measured)):
            assert decide(view, Settings(level=level, seed=1, **QUICK)) == solve(
                dealt, rules, stay).assignment()


def private_view(rules: TableRules, board: Board, dealt: tuple[int, ...],
                 discard_count: int, other: Board | None = None,
                 discards: tuple[int, ...] = ()) -> PrivateView:
    seats = (SeatView(0, -1, "me", 100, Board()), SeatView(1, -2, "you", 100, other or Board()))
    table = TableView(rules=rules, hand_no=1, phase="playing", street=5, streets=5, button=1,
                      seats=seats, to_act=(0,))
    return PrivateView(table=table, seat=0, board=board, dealt=dealt,
                       discard_count=discard_count, discards=discards)


def test_the_last_street_avoids_the_only_fouls() -> None:
    # Middle AA (full), top KK with one place, bottom four spades with one place; dealt Kc 5s
    # 9d, one to discard. Kc on top is KKK over AA, a foul (R3); Kc or 9d on the bottom leaves
    # it high-card under the aces, a foul. The only clean board: 9d top (KK9, 8), 5s bottom
    # (flush, 4), Kc away.
    board = Board(tuple(parse_cards("Kh Kd")), tuple(parse_cards("As Ac 3h 4d 7c")),
                  tuple(parse_cards("2s 3s 8s Js")))
    dealt = tuple(parse_cards("Kc 5s 9d"))
    view = private_view(TableRules(), board, dealt, 1)
    expected = dict(zip(dealt, ("discard", "bottom", "top"), strict=True))
    for level in LEVELS:
        assert decide(view, Settings(level=level, seed=2, **QUICK)) == expected


# The last street of a board whose rows the easy player's rule of thumb compares by category
# and main rank only (R2 compares every rank): (variant, top, middle, bottom, dealt).
SAVEABLE = {
    # Top T 9 4 is full. Middle T 8 7 6 + one: 4h gives T 8 7 6 4, under the top's T 9 4 (R2),
    # a foul; 9h gives a straight, over any bottom QQ K 2 + one card can make (trips at
    # best), a foul. The joker in the middle stands for a ten (R9): pair of tens, over the
    # top, under the bottom's pair of queens. The only clean boards: X middle.
    "joker": ("joker", "9s Th 4s", "6s Tc 8d 7h", "Qs Qh Ks 2c", "X 9h 4h"),
    # Middle K 9 6 5 4 is full. Kc on top makes K Q 8 over it (Q > 9, R2), As on top A Q 8
    # over it too: a foul either way. 7c on top (Q 8 7) is under it, and the bottom
    # A 9 5 4 + As or Kc is over it.
    "pineapple": ("pineapple", "8h Qs", "9c 4s 5c Kh 6h", "5d 4d 9d Ac", "Kc As 7c"),
}


@pytest.mark.parametrize("case", SAVEABLE)
def test_the_easy_player_never_fouls_a_board_it_can_still_save(case: str) -> None:
    variant, top, middle, bottom, cards = SAVEABLE[case]
    rules = TableRules(variant=variant)
    board = Board(*(tuple(parse_cards(row)) for row in (top, middle, bottom)))
    dealt = tuple(parse_cards(cards))
    view = private_view(rules, board, dealt, 1)
    choice = decide(view, Settings(level="easy", seed=3))
    finished = Board(*rows_after(board.rows, dealt, choice))
    assert finished.complete and not evaluate_board(finished, rules).fouled, choice


def test_seeded_decisions_repeat() -> None:
    rules = TableRules(format="hands", hands=1, seats=2)
    match = Match.new(rules, [PlayerSpec(-1, "a", 100, "strong"),
                              PlayerSpec(-2, "b", 100, "strong")], seed=5)
    match.start_hand(0.0)
    view = match.view_for(match.pending()[0])
    for level in ("strong", "strong-v2", "strong-v1"):
        settings_ = Settings(level=level, seed=9, seconds=None, playouts=60)
        assert len({tuple(sorted(decide(view, settings_).items())) for _ in range(3)}) == 1


def test_dead_cards_are_not_dealt_in_strong_v1_playouts() -> None:
    """Own board, own discards, the dealt cards and every visible board are dead (the strong
    player's search is given PrivateView.unseen, test_view_unseen_is_what_the_seat_has_not_seen).
    """
    rules = TableRules()
    mine = Board(tuple(parse_cards("2c")), tuple(parse_cards("3c 4c")), tuple(parse_cards("5c")))
    theirs = Board(tuple(parse_cards("Ah")), tuple(parse_cards("Kh Qh")),
                   tuple(parse_cards("Jh Th")))
    dealt = tuple(parse_cards("9s 8s 7s"))
    discards = tuple(parse_cards("6c"))
    view = private_view(rules, mine, dealt, 1, other=theirs, discards=discards)
    search = StrongV1(view, Settings(seed=1, **QUICK), _heuristic(rules, 11.0), 11.0)
    dead = set(mine.cards) | set(theirs.cards) | set(dealt) | set(discards)
    assert set(search.unseen) == set(DECK) - dead
    assert len(search.unseen) == 52 - 13


def test_future_streets_follow_r7() -> None:
    rules = TableRules()
    assert future_streets(rules, 0) == PINEAPPLE_STREETS
    assert future_streets(rules, 5) == PINEAPPLE_STREETS[1:]
    assert future_streets(rules, 11) == PINEAPPLE_STREETS[4:]
    assert future_streets(rules, 13) == ()
    assert future_streets(TableRules(variant="turbo"), 9) == TURBO_STREETS[2:]


def test_service_adapter_decides_and_suggests() -> None:
    rules = TableRules(format="hands", hands=1, seats=2)
    match = Match.new(rules, [PlayerSpec(-1, "a", 100, "easy"),
                              PlayerSpec(-2, "b", 100, "easy")], seed=8)
    match.start_hand(0.0)
    seat = match.pending()[0]
    players = AIPlayers(seconds=None, playouts=10)
    view = match.view_for(seat)
    # strong-v1, today's strong player, stays a level (for comparisons)
    for choice in (*(players.decide(view, level, 3) for level in LEVELS),
                   players.suggest(view)):
        assert sorted(choice) == sorted(match.dealt_to(seat))
    match.place(seat, players.decide(view, "strong", 3), 0.0)


def test_view_unseen_is_what_the_seat_has_not_seen() -> None:
    """What the strong player draws its playouts from: the deck less its own board, dealt cards
    and discards and every visible board; cards in other hands or the deck order are not in a
    view at all (R7)."""
    rules = TableRules()
    mine = Board(tuple(parse_cards("2c")), tuple(parse_cards("3c 4c")), tuple(parse_cards("5c")))
    theirs = Board(tuple(parse_cards("Ah")), tuple(parse_cards("Kh Qh")),
                   tuple(parse_cards("Jh Th")))
    dealt = tuple(parse_cards("9s 8s 7s"))
    view = private_view(rules, mine, dealt, 1, other=theirs, discards=tuple(parse_cards("6c")))
    dead = set(mine.cards) | set(theirs.cards) | set(dealt) | set(parse_cards("6c"))
    assert set(view.unseen()) == set(DECK) - dead


def test_the_strong_search_draws_from_the_views_unseen_cards(monkeypatch) -> None:
    """The strong player's playouts deal only cards this seat has not seen (PrivateView.unseen:
    a view holds no other hand and no deck order, R7), and treat a Fantasyland board as hidden
    (R8)."""
    given: list[tuple[int, ...]] = []
    real = players_module.Search

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        given.append(tuple(args[7]))
        return real(*args, **kwargs)

    monkeypatch.setattr(players_module, "Search", spy)
    rules = TableRules()
    mine = Board(tuple(parse_cards("2c")), tuple(parse_cards("3c 4c")), tuple(parse_cards("5c")))
    theirs = Board(tuple(parse_cards("Ah")), tuple(parse_cards("Kh Qh")),
                   tuple(parse_cards("Jh Th")))
    view = private_view(rules, mine, tuple(parse_cards("9s 8s 7s")), 1, other=theirs,
                        discards=tuple(parse_cards("6c")))
    decide(view, Settings(seed=1, **QUICK))
    assert given == [view.unseen()]


def test_estimate_scores_placements_on_the_same_futures() -> None:
    """The strong player's estimate of given placements (for the coach, /ofc review): on the last
    street against a finished board nothing is left to deal, so each estimate is the exact
    points of R5, one value each; an illegal placement is refused."""
    board = Board(tuple(parse_cards("Kh Kd")), tuple(parse_cards("As Ac 3h 4d 7c")),
                  tuple(parse_cards("2s 3s 8s Js")))
    other = Board(tuple(parse_cards("2h 3d 4h")), tuple(parse_cards("5c 5d 7d 8d Ts")),
                  tuple(parse_cards("Jh Qh 9c Tc Jc")))
    dealt = tuple(parse_cards("Kc 5s 9d"))
    view = private_view(TableRules(), board, dealt, 1, other=other)
    clean = dict(zip(dealt, ("discard", "bottom", "top"), strict=True))
    foul = dict(zip(dealt, ("top", "bottom", "discard"), strict=True))  # KKK over AA (R3)
    good, bad = estimate(view, [clean, foul], futures=5)
    # clean: top KK9 (8), middle AA, bottom flush (4) against 4-high, 55 and JJ, which pay
    # nothing: every line and the scoop, 6, and royalties 12 (R4, R5); kings on top also earn
    # a Fantasyland hand (R8), worth its measured value against the one opponent
    assert good == [6 + 12 + fantasy_worth(TableRules(), None).of(14)]
    # foul: loses the three lines and the scoop (R3)
    assert bad == [-6.0]
    with pytest.raises(RuleError, match="not legal"):
        estimate(view, [dict(zip(dealt, ("top", "top", "top"), strict=True))], futures=1)
