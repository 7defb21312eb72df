"""R7, R8 visibility in public_view / view_for, and the showdown view."""

import random

import pytest

from bot.engine.cards import Card
from bot.engine.errors import RuleError
from bot.engine.match import Match
from tests.engine.match.boards import P1, P2, P3
from tests.engine.match.helpers import cards_of, check_views, new_match, stacked_deal, start_with


def assign(cards: str, *rows: str) -> dict[Card, str]:
    return dict(zip(cards_of(cards), rows, strict=True))


def board_cards(match: Match, seat: int) -> set[Card]:
    view = match.public_view()
    return set(next(sv for sv in view.seats if sv.seat == seat).board.cards)


def test_sequential_later_players_see_earlier_placements() -> None:
    match = new_match(2, button=1)
    start_with(match, "Ah Kh Qh Jh Th  2c 3c 4c 5c 6c")
    assert match.view_for(1).dealt == tuple(cards_of("2c 3c 4c 5c 6c"))
    assert not set(cards_of("2c 3c 4c 5c 6c")) & {c for sv in match.view_for(0).table.seats
                                                   for c in sv.board.cards}
    match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "top", "middle", "middle"), 1.0)
    assert board_cards(match, 0) == set(cards_of("Ah Kh Qh Jh Th"))
    assert match.public_view().seats[0].new_cards == tuple(cards_of("Ah Kh Qh Jh Th"))
    assert match.public_view().to_act == (1,)
    check_views(match)


def test_simultaneous_placements_show_when_the_street_is_done() -> None:
    match = new_match(2, button=1, order="simultaneous")
    start_with(match, "Ah Kh Qh Jh Th  2c 3c 4c 5c 6c")
    assert match.public_view().to_act == (0, 1)
    match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "top", "middle", "middle"), 1.0)
    view = match.public_view()
    assert board_cards(match, 0) == set() and view.seats[0].acted
    assert view.seats[0].new_cards == ()
    assert set(match.view_for(0).board.cards) == set(cards_of("Ah Kh Qh Jh Th"))
    assert not set(cards_of("Ah Kh Qh Jh Th")) & set(match.view_for(1).board.cards)
    check_views(match)
    match.place(1, assign("2c 3c 4c 5c 6c", *["bottom"] * 5), 2.0)
    assert board_cards(match, 0) == set(cards_of("Ah Kh Qh Jh Th"))
    assert board_cards(match, 1) == set(cards_of("2c 3c 4c 5c 6c"))
    assert match.public_view().street == 2
    check_views(match)


def test_fantasyland_board_hidden_until_showdown_discards_never_shown() -> None:
    match = new_match(2, button=1)
    match.seats[0].fantasy = 14  # type: ignore[union-attr]
    fl = "2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  2h 3h 4h  Ks"
    start_with(match, fl)
    seat = match.public_view().seats[0]
    assert (seat.in_fantasy, seat.fantasy_size, seat.hidden_cards) == (True, 14, 0)
    assert len(match.view_for(0).dealt) == 14 and match.view_for(0).discard_count == 1
    rows = ["bottom"] * 5 + ["middle"] * 5 + ["top"] * 3 + ["discard"]
    match.place(0, dict(zip(cards_of(fl), rows, strict=True)), 5.0)
    seat = match.public_view().seats[0]
    assert seat.board.cards == () and seat.hidden_cards == 13 and seat.acted
    assert len(match.view_for(0).board.cards) == 13
    assert match.view_for(0).discards == tuple(cards_of("Ks"))
    assert not set(cards_of(fl)) & set(match.view_for(1).board.cards)
    check_views(match)
    while match.phase == "playing":
        match.place(1, match.random_assignment(1, random.Random(3)), 9.0)
        check_views(match)
    view = match.public_view()
    assert set(view.seats[0].board.cards) == set(cards_of(fl)) - set(cards_of("Ks"))
    assert view.showdown is not None
    assert cards_of("Ks")[0] not in {c for ss in view.showdown.seats for c in ss.board.cards}


def test_showdown_view_names_seats_in_settlement_order() -> None:
    # R6: button 0, so s1 = seat 1, s2 = seat 2, s3 = seat 0: pairs (1,2), (1,0), (2,0).
    match = new_match(3, button=0)
    stacked_deal(match, {0: P1, 1: P2, 2: P3})
    view = match.public_view()
    assert view.showdown is not None and view.phase == "showdown"
    assert [(p.a, p.b) for p in view.showdown.pairs] == [(1, 2), (1, 0), (2, 0)]
    # Hand-scored (see test_scenarios): P2 (seat 1) loses 1 to P3 and 6 to P1.
    assert [p.points for p in view.showdown.pairs] == [-1, -6, -1]
    assert [s.chips for s in view.showdown.seats] == [7, -7, 0]
    # The showdown shows its own hand's dealer (seat 0), not the next one's.
    assert view.hands_total == 3 and view.button == view.showdown.button == 0


def test_unseen_cards_exclude_everything_the_seat_has_seen() -> None:
    match = new_match(2, button=1)
    start_with(match, "Ah Kh Qh Jh Th  2c 3c 4c 5c 6c")
    match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "top", "middle", "middle"), 1.0)
    unseen = set(match.view_for(1).unseen())
    # Seat 1 saw seat 0's five placed cards and its own five dealt ones: 42 left.
    assert len(unseen) == 42
    assert not unseen & set(cards_of("Ah Kh Qh Jh Th 2c 3c 4c 5c 6c"))


def owed_fantasyland(order: str) -> Match:
    """Three players, seat 0 (first to act: the button is seat 2) owed 14 cards (R8)."""
    match = new_match(3, button=2, fantasy_deal=order)
    match.seats[0].fantasy = 14  # type: ignore[union-attr]
    match.start_hand(0.0)
    return match


def test_fantasyland_dealt_first_is_set_before_anything_is_placed() -> None:
    # R8 (seed 002: the FL player sets the hand "without being able to see the cards of his
    # opponents"; seeds 000, 001: dealt first): the others' first street waits until the FL
    # board is set, so nothing placed after the FL cards came shows to its player: not in its
    # own view (its prompt, image and commands), nor in the channel's.
    match = owed_fantasyland("first")
    assert match.pending() == (0,) and match.dealt_to(1) == match.dealt_to(2) == ()
    with pytest.raises(RuleError, match="Fantasyland is set first: waiting for Ann"):
        match.place(1, {}, 1.0)
    mine = match.view_for(0)
    assert len(mine.dealt) == 14 and mine.table == match.public_view()
    assert all(sv.board.cards == sv.new_cards == () for sv in mine.table.seats)
    check_views(match)
    rng = random.Random(2)
    match.place(0, match.random_assignment(0, rng), 30.0)
    assert match.pending() == (1,) and len(match.dealt_to(1)) == 5  # street 1 now
    while match.phase == "playing":
        seat = match.pending()[0]
        match.place(seat, match.random_assignment(seat, rng), 40.0)
        check_views(match)
    assert len(match.public_view().seats[0].board.cards) == 13  # shown down


def test_fantasyland_dealt_last_sees_the_others_boards() -> None:
    # Seed 003: "the opponents are the first to lay out their cards openly ... After the
    # opponents have completed the layout of the cards, the player receives 14 cards".
    match = owed_fantasyland("last")
    assert match.pending() == (1,) and match.dealt_to(0) == ()
    with pytest.raises(RuleError, match="Your Fantasyland cards come once the others"):
        match.place(0, {}, 1.0)
    rng = random.Random(2)
    while 0 not in match.pending():
        assert match.dealt_to(0) == ()
        seat = match.pending()[0]
        match.place(seat, match.random_assignment(seat, rng), 10.0)
        check_views(match)
    mine = match.view_for(0)
    assert len(mine.dealt) == 14 and match.pending() == (0,)
    boards = {sv.seat: sv.board.cards for sv in mine.table.seats}
    assert (len(boards[0]), len(boards[1]), len(boards[2])) == (0, 13, 13)
    # Nothing it is dealt was seen: the others' boards and its 14 cards share no card.
    assert not set(mine.dealt) & (set(boards[1]) | set(boards[2]))
    match.place(0, match.random_assignment(0, rng), 100.0)
    assert match.phase == "showdown"


def test_in_seed_003s_order_the_one_player_outside_fantasyland_plays_first_face_down() -> None:
    # Seed 003: "The player without "Fantasy" lays out the cards first, face down ... Then
    # players with "Fantasy" lay out 14 cards face down at once": the FL player, dealt last,
    # still sees none of that board.
    match = new_match(2, button=1, fantasy_deal="last")
    match.seats[0].fantasy = 14  # type: ignore[union-attr]
    match.start_hand(0.0)
    rng = random.Random(8)
    while 0 not in match.pending():
        assert match.pending() == (1,) and match.dealt_to(0) == ()
        match.place(1, match.random_assignment(1, rng), 1.0)
    seat = match.view_for(0).table.seats[1]
    assert (seat.board.cards, seat.new_cards, seat.hidden_cards) == ((), (), 13)
    check_views(match)
