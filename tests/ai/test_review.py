"""The coach (bot/ai/review.py) on stacked deals whose every card the test names: each street's
dealt cards, the board before it and what was placed are checked against the deal by hand;
the strong player's choice and the points between the two against RULES.md (R3 fouls, R4
royalties, R8 Fantasyland)."""

import pytest

from bot.ai.players import Settings, decide
from bot.ai.review import HandReview, review_hand
from bot.ai.solver import STAY_VALUE, solve
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import DECK, JOKERS, Card, full_deck, parse_cards
from bot.engine.errors import RuleError
from bot.engine.match import Match
from bot.engine.royalties import ROWS
from tests.engine.match.helpers import new_match

ANN, BOB = 0, 1  # seats; the button on Bob: Ann acts first (R7)
EASY = Settings(level="easy")

# Ann's streets: (cards dealt in order, where she puts each). Her board ends
# top Qh Qc Qd (trips) over middle Ks Kd 5c 6h 9s (a pair of kings): fouled (R3).
ANN_STREETS: tuple[tuple[str, dict[str, str]], ...] = (
    ("Ks Kd 7s 7h Qh", {"Ks": "middle", "Kd": "middle", "7s": "bottom", "7h": "bottom",
                        "Qh": "top"}),
    ("7d Qc 3h", {"7d": "bottom", "Qc": "top", "3h": "discard"}),
    ("5c 2c 4s", {"5c": "middle", "2c": "bottom", "4s": "discard"}),
    ("6h 2d Jc", {"6h": "middle", "2d": "bottom", "Jc": "discard"}),
    ("Qd 9s 8h", {"Qd": "top", "9s": "middle", "8h": "discard"}),
)
# Ann's board before each street, from the placements above.
BOARDS_BEFORE = (
    ("", "", ""),
    ("Qh", "Ks Kd", "7s 7h"),
    ("Qh Qc", "Ks Kd", "7s 7h 7d"),
    ("Qh Qc", "Ks Kd 5c", "7s 7h 7d 2c"),
    ("Qh Qc", "Ks Kd 5c 6h", "7s 7h 7d 2c 2d"),
)


def _named(placement: dict[str, str]) -> dict[Card, str]:
    return {parse_cards(card)[0]: row for card, row in placement.items()}


def _deal(match: Match, ann: list[list[Card]]) -> None:
    """Start the hand from a deck dealing Ann `ann` street by street, Bob the next unused
    cards (R7: each street, Ann then Bob)."""
    used = {c for street in ann for c in street}
    pool = [c for c in DECK if c not in used]
    deck: list[Card] = []
    for cards in ann:
        deck += cards + [pool.pop(0) for _ in cards]
    match._start_hand(0.0, deck + pool)


def _play(match: Match, ann: list[dict[Card, str]], *, late: bool = False) -> None:
    """Play the hand: Ann her placements while she has some left, then the easy player's
    (`late`: her first street times out, R10, and she is back at once), Bob the easy
    player's."""
    now = 0.0
    while match.phase == "playing":
        seat = match.pending()[0]
        if seat == ANN and late:
            deadline = match.deadline(ANN)
            assert deadline is not None
            now = deadline
            match.timeout(now)
            match.back(ANN, now)
            late = False
        elif seat == ANN and ann:
            match.place(ANN, ann.pop(0), now)
        else:
            match.place(seat, decide(match.view_for(seat), EASY), now)


def _hand(late: bool = False) -> tuple[Match, HandReview]:
    match = new_match(2, button=BOB)
    _deal(match, [parse_cards(cards) for cards, _ in ANN_STREETS])
    _play(match, [] if late else [_named(placement) for _, placement in ANN_STREETS],
          late=late)
    history = match.history()
    assert history is not None
    return match, review_hand(history, match.player(ANN).player_id, seed=5, playouts=200,
                              futures=100)


def test_each_street_shows_what_was_dealt_the_board_before_and_what_was_placed() -> None:
    match, review = _hand()
    assert [s.street for s in review.streets] == [1, 2, 3, 4, 5]
    for street, (cards, placement), before in zip(review.streets, ANN_STREETS, BOARDS_BEFORE,
                                                  strict=True):
        assert street.dealt == tuple(parse_cards(cards))
        assert street.board == Board(*(tuple(parse_cards(row)) for row in before))
        assert dict(street.played) == _named(placement)
        assert not street.auto
    assert review.fouled  # R3: trips on top over a pair of kings in the middle
    assert review.board == Board.parse("Qh Qc Qd", "Ks Kd 5c 6h 9s", "7s 7h 7d 2c 2d")
    assert review.skipped == 0
    shown = match.showdown
    assert shown is not None and review.points == shown.seats[ANN].points


def test_the_strong_choice_is_legal_and_the_last_street_avoids_the_foul() -> None:
    _, review = _hand()
    for street in review.streets:
        kept = [c for c, r in street.best.items() if r != "discard"]
        assert sorted(street.best) == sorted(street.dealt)
        assert len(kept) == (5 if street.street == 1 else 2)
    last = review.streets[-1]
    after = Board(*(before + tuple(c for c in last.dealt if last.best[c] == row)
                    for row, before in zip(ROWS, last.board.rows, strict=True)))
    assert not evaluate_board(after, new_match(2).rules).fouled
    # Ann's foul loses the scoop (6, R5) and the royalties the same board earns unfouled:
    # bottom full house 6 and top queens 7 (R4), and Fantasyland (R8, 13): the strong choice
    # is worth far more, beyond any doubt of the sampling.
    assert last.gain > 12 and last.gain > 4 * last.error
    assert review.gain == pytest.approx(sum(s.gain for s in review.streets))


def test_a_street_the_clock_placed_is_marked_and_placed_by_r10() -> None:
    _, review = _hand(late=True)
    first = review.streets[0]
    assert first.auto and not any(s.auto for s in review.streets[1:])
    # R10: in the order dealt, the bottom first until full (all five cards of street 1).
    assert dict(first.played) == dict.fromkeys(parse_cards(ANN_STREETS[0][0]), "bottom")


def test_the_clock_placing_a_street_and_the_ones_after_it_at_once_is_reviewed() -> None:
    """Simultaneous turns (R7): Ann's street 3 runs out after Bob placed his; the timeout
    places it, marks her away (R10) and, in the same action, places her streets 4 and 5 as
    they are dealt. Street 3 is reviewed as the clock placed it; 4 and 5, never seen, are left
    out."""
    match = new_match(2, button=BOB, order="simultaneous")
    _deal(match, [parse_cards(cards) for cards, _ in ANN_STREETS])
    for _, placement in ANN_STREETS[:2]:
        match.place(ANN, _named(placement), 0.0)
        match.place(BOB, decide(match.view_for(BOB), EASY), 0.0)
    match.place(BOB, decide(match.view_for(BOB), EASY), 0.0)
    deadline = match.deadline(ANN)
    assert deadline is not None
    match.timeout(deadline)
    while match.phase == "playing":
        match.place(BOB, decide(match.view_for(BOB), EASY), deadline)
    history = match.history()
    assert history is not None
    review = review_hand(history, match.player(ANN).player_id, seed=5, playouts=200,
                         futures=100)
    assert [s.street for s in review.streets] == [1, 2, 3] and review.skipped == 2
    third = review.streets[2]
    assert third.auto and not any(s.auto for s in review.streets[:2])
    # R10 on Ks Kd / 7s 7h 7d: the bottom takes 5c and 2c (full), the third card is discarded.
    assert dict(third.played) == _named({"5c": "bottom", "2c": "bottom", "4s": "discard"})


def test_the_same_choice_has_no_gain_and_a_repeat_gives_the_same_review() -> None:
    match, review = _hand()
    history = match.history()
    assert history is not None
    again = review_hand(history, match.player(ANN).player_id, seed=5, playouts=200, futures=100)
    assert again == review
    for street in review.streets:
        if street.same:
            assert street.gain == 0 and street.error == 0


def test_a_player_who_was_not_at_the_table_is_refused() -> None:
    match, _ = _hand()
    history = match.history()
    assert history is not None
    with pytest.raises(RuleError, match="did not play"):
        review_hand(history, 999)


def test_a_fantasyland_hand_is_compared_with_the_solver() -> None:
    match = new_match(2, button=BOB)
    player = match.seats[ANN]
    assert player is not None
    player.fantasy = 14  # R8: Ann plays this hand in Fantasyland
    cards = parse_cards("As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c")
    used = set(cards)
    pool = [c for c in DECK if c not in used]
    match._start_hand(0.0, cards + pool)
    # Ann keeps the royal flush and the straight but breaks her trips: a pair of twos on top.
    mine = _named({"As": "bottom", "Ks": "bottom", "Qs": "bottom", "Js": "bottom",
                   "Ts": "bottom", "5h": "middle", "6d": "middle", "7c": "middle",
                   "8h": "middle", "9d": "middle", "2h": "top", "2d": "top", "3c": "top",
                   "2c": "discard"})
    _play(match, [mine])
    history = match.history()
    assert history is not None
    review = review_hand(history, match.player(ANN).player_id, seed=5, playouts=50, futures=60)
    (hand,) = review.streets
    assert hand.street == 0 and hand.dealt == tuple(cards) and dict(hand.played) == mine
    assert dict(hand.best) == solve(cards, match.rules, STAY_VALUE).assignment()
    # Both boards stay in Fantasyland (R8: the royal flush is quads or better on the bottom).
    # The solver's top 2-2-2 pays 10 (R4: trips of twos) where Ann's pair of twos pays none,
    # and it never loses the top line where Ann's wins it: at least 10 better in every future.
    assert hand.gain >= 10 - 1e-9 and hand.error < 1


def test_the_solvers_board_with_its_two_jokers_swapped_is_the_same_choice() -> None:
    """R9: the two jokers are alike, so a board that differs from the solver's only by which
    joker sits where is the solver's board: not a different choice to show and score."""
    match = new_match(2, button=BOB, variant="joker")
    player = match.seats[ANN]
    assert player is not None
    player.fantasy = 14  # R8: Ann plays this hand in Fantasyland
    cards = parse_cards("X X Qs Qd As Ah Kc Kd 2c 3c 4d 5s 9h 7c")
    pool = [c for c in full_deck(jokers=True) if c not in set(cards)]
    # A joker table deals Fantasyland last (fantasy_deal, R8): after Bob's five streets.
    match._start_hand(0.0, pool[:17] + cards + pool[17:])
    best = solve(cards, match.rules, STAY_VALUE).assignment()
    first, second = JOKERS
    assert best[first] != best[second]  # the test swaps jokers set in two different rows
    mine = best | {first: best[second], second: best[first]}
    _play(match, [mine])
    history = match.history()
    assert history is not None
    review = review_hand(history, match.player(ANN).player_id, seed=5, playouts=50, futures=60)
    (hand,) = review.streets
    assert hand.dealt == tuple(cards) and dict(hand.played) == mine
    assert hand.same and hand.gain == 0 and hand.error == 0
