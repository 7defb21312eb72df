"""Hand-written scenarios, each checked by hand against RULES.md (R5-R11)."""

import random

import pytest

from bot.engine.errors import RuleError
from bot.engine.events import (
    BUSTED,
    HAND_OVER,
    HAND_STARTED,
    LEAVING,
    LEFT,
    MATCH_OVER,
    SAT_OUT,
    SHOWDOWN,
)
from bot.engine.match import PlayerSpec
from tests.engine.match.boards import P1, P2, P3, K, Q, T
from tests.engine.match.helpers import check_replay, first, kinds, new_match, stacked_deal


def fl_owed(match) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {s: p.fantasy for s, p in enumerate(match.seats) if p is not None and p.fantasy}


def test_plain_hand_scores_and_moves_the_button() -> None:
    # R5 by hand: P1 scoops P2 (6); P1 beats P3 2-1 (top K-J-2 < K-Q-2, AA-8 > AA-7, trips >
    # two pair): 1; P3 beats P2 2-1: 1. Points: P1 7, P2 -7, P3 0.
    match = new_match(3, stack=200)
    events = stacked_deal(match, {0: P1, 1: P2, 2: P3})
    shown = first(events, SHOWDOWN).data
    assert [s["points"] for s in shown["seats"]] == [7, -7, 0]
    assert [p.stack for p in match.seats] == [207, 193, 200]  # type: ignore[union-attr]
    assert match.button == 1  # R7/R11: no Fantasyland earned, the button moves on
    assert first(events, HAND_OVER).data["button"] == 1
    # ... but the showdown on display is still the hand seat 0 dealt, and says so
    assert match.phase == "showdown" and match.public_view().button == 0
    assert match.view_for(2).table.button == 0
    check_replay(match)
    match.start_hand(10.0)
    assert match.public_view().button == 1


def test_match_of_three_ends_after_three_hands_plus_its_fantasyland_hand() -> None:
    # R11 format match: one hand per player, plus one FL hand after a hand that earned FL;
    # R8: the button does not move for the FL hand.
    match = new_match(3, stack=200, format="match")
    assert match.hands_total == 3
    stacked_deal(match, {0: P1, 1: P2, 2: P3})
    assert (match.button, match.phase) == (1, "showdown")
    events = stacked_deal(match, {0: Q, 1: P1, 2: P3})  # seat 0: QQ on top, earns FL
    assert fl_owed(match) == {0: 14}
    assert match.button == 1 and match.hands_total == 4
    events = stacked_deal(match, {0: P2, 1: P1, 2: P3})  # the FL hand: seat 0 dealt 14
    started = first(events, HAND_STARTED).data
    assert started["fantasy"] == [{"seat": 0, "cards": 14}] and started["button"] == 1
    dealt = [e for e in events if e.kind == "dealt" and e.seat == 0]
    assert len(dealt) == 1 and len(dealt[0].data["cards"]) == 14
    assert dealt[0].data["discards"] == 1
    assert match.button == 2 and fl_owed(match) == {}
    events = stacked_deal(match, {0: P1, 1: P2, 2: P3})
    assert match.phase == "over" and match.hand_no == 4
    assert MATCH_OVER in kinds(events)


def test_button_moves_on_fantasy_when_the_option_says_so() -> None:
    match = new_match(3, format="hands", hands=5, button_moves_on_fantasy=True)
    stacked_deal(match, {0: Q, 1: P1, 2: P3})
    assert fl_owed(match) == {0: 14} and match.button == 1


def test_two_players_earning_fantasyland_add_one_hand() -> None:
    match = new_match(3, format="match")
    stacked_deal(match, {0: Q, 1: K, 2: P1})
    assert fl_owed(match) == {0: 14, 1: 14}  # standard: 14 for any entry
    assert match.hands_total == 4  # one extra hand, not two (R11)
    assert match.button == 0
    events = stacked_deal(match, {0: P2, 1: P1, 2: P3})
    # Listed in acting order: seat 1 is left of the button (seat 0), R7.
    assert first(events, HAND_STARTED).data["fantasy"] == [{"seat": 1, "cards": 14},
                                                           {"seat": 0, "cards": 14}]
    assert match.button == 1


def test_progressive_trips_on_top_deal_17_then_14_on_a_repeat() -> None:
    match = new_match(2, format="hands", hands=9, fantasy="progressive")
    stacked_deal(match, {0: T, 1: P1})
    assert fl_owed(match) == {0: 17}
    events = stacked_deal(match, {0: T, 1: P1})  # FL hand, trips on top again: stays
    assert len(first(events, "dealt").data["cards"]) == 17
    assert fl_owed(match) == {0: 14}
    events = stacked_deal(match, {0: P2, 1: P1})
    assert len(first(events, "dealt").data["cards"]) == 14
    assert fl_owed(match) == {}


def test_ultimate_keeps_its_entry_count() -> None:
    match = new_match(2, format="hands", hands=9, fantasy="ultimate")
    stacked_deal(match, {0: K, 1: P1})  # KK: 15
    assert fl_owed(match) == {0: 15}
    stacked_deal(match, {0: T, 1: P1})  # stays with trips: still 15, not 17
    assert fl_owed(match) == {0: 15}


def test_tournament_never_repeats() -> None:
    match = new_match(2, format="hands", hands=9, fantasy="tournament")
    stacked_deal(match, {0: T, 1: P1})  # trips: 16
    assert fl_owed(match) == {0: 16}
    stacked_deal(match, {0: T, 1: P1})  # would stay elsewhere; tournament never repeats
    assert fl_owed(match) == {}


def test_standard_leaving_fantasyland_with_queens_does_not_re_enter() -> None:
    match = new_match(2, format="hands", hands=9)
    stacked_deal(match, {0: Q, 1: P1})
    stacked_deal(match, {0: Q, 1: P1})  # in FL, QQ on top only: leaves (R8)
    assert fl_owed(match) == {}


def test_turbo_fantasyland_is_13_cards_without_discards() -> None:
    match = new_match(2, format="hands", hands=9, variant="turbo")
    stacked_deal(match, {0: Q, 1: P1})
    assert fl_owed(match) == {0: 13}
    events = stacked_deal(match, {0: P2, 1: P1})
    dealt = first(events, "dealt")
    assert dealt.seat == 0 and len(dealt.data["cards"]) == 13 and dealt.data["discards"] == 0
    assert match.hand is not None and match.hand.seats[0].discards == ()
    # R7 turbo: the other seat played 5, 4, 4 with no discards.
    assert [len(e.data["cards"]) for e in events if e.kind == "dealt" and e.seat == 1] == [5, 4, 4]


def test_bust_ends_a_match_early() -> None:
    # P1 scoops P2: 6 points owed, but P2 has 3: R6 pays 3; P2 is out, one player is left.
    match = new_match(2, stack=3, format="match")
    events = stacked_deal(match, {0: P1, 1: P2})
    transfer = first(events, SHOWDOWN).data["transfers"][0]
    assert (transfer["payer"], transfer["payee"], transfer["owed"], transfer["paid"]) == (
        1, 0, 6, 3)
    assert first(events, BUSTED).seat == 1
    assert match.phase == "over" and match.hand_no == 1
    standings = first(events, MATCH_OVER).data["standings"]
    assert [(s["stack"], s["net"], s["returned"]) for s in standings] == [(6, 3, 6), (0, -3, 0)]


def test_cash_player_owed_fantasyland_plays_it_before_leaving() -> None:
    match = new_match(2, seats=3, format="cash")
    stacked_deal(match, {0: Q, 1: P1})
    events = match.leave(0)
    assert kinds(events) == [LEAVING]
    events = stacked_deal(match, {0: P2, 1: P1})
    assert first(events, HAND_STARTED).data["fantasy"] == [{"seat": 0, "cards": 14}]
    left = first(events, LEFT)
    assert left.seat == 0 and left.data["stack"] == match.showdown.seats[0].stack_after  # type: ignore[union-attr]
    assert match.seats[0].status == "out"  # type: ignore[union-attr]
    # The seat frees at the next deal; meanwhile a newcomer takes the empty seat 2.
    match.join(PlayerSpec(9, "Eve", 50))
    assert match.seat_of(9) == 2
    check_replay(match)


def test_cash_join_during_a_hand_is_dealt_the_next_one() -> None:
    match = new_match(2, seats=3, format="cash")
    match.start_hand(0.0)
    match.join(PlayerSpec(9, "Eve", 50))
    view = match.public_view()
    assert [sv.sitting_out for sv in view.seats] == [False, False, True]
    assert match.hand is not None and 2 not in match.hand.seats
    check_replay(match)


def test_an_away_player_plays_the_fantasyland_hand_an_opponent_earned() -> None:
    # Seed 003: a player placed by the system sits out, "except in cases where the opponent has
    # received the right to lay Fantasy ... it will be played, and only after it will the
    # player be transferred to the Sit-out" (R8: FL continues the hand that earned it; R10).
    match = new_match(2, stack=200, format="match")  # 2 hands, button 0: seat 1 acts first
    events = stacked_deal(match, {0: Q, 1: P1}, late={1})
    assert first(events, "away").seat == 1
    assert SAT_OUT not in kinds(events)
    assert fl_owed(match) == {0: 14} and match.phase == "showdown" and match.hands_total == 3
    assert match.seats[1].status == "playing"  # type: ignore[union-attr]
    events = stacked_deal(match, {0: P2, 1: P3}, late={1})  # the FL hand, seat 1 still away
    started = first(events, HAND_STARTED).data
    assert started["seats"] == [1, 0] and started["fantasy"] == [{"seat": 0, "cards": 14}]
    assert first(events, SHOWDOWN) and first(events, SAT_OUT).seat == 1  # now it sits out
    assert match.phase == "over"  # one player left (R11)
    check_replay(match)


def test_the_one_player_outside_fantasyland_lays_out_face_down() -> None:
    # Seeds 000 and 003: when every player but one is in FL, the remaining player gets its
    # cards street by street but places them face down: no FL player (nor anyone else) sees
    # them before the showdown. The player sees its own board.
    match = new_match(3, stack=200, format="hands", hands=3)
    stacked_deal(match, {0: Q, 1: K, 2: P1})  # seats 0 and 1 earn FL
    assert fl_owed(match) == {0: 14, 1: 14}
    match.start_hand(0.0)
    assert set(match.pending()) == {0, 1, 2}  # FL seats and the street-1 player act at once
    dealt = match.dealt_to(2)
    match.place(2, {c: r for c, r in zip(dealt, ("bottom",) * 3 + ("middle",) * 2,
                                         strict=True)}, 1.0)
    assert match.view_for(2).board.cards != ()  # its own view shows its rows
    for viewer in (0, 1):
        seat = match.view_for(viewer).table.seats[2]
        assert (seat.board.cards, seat.new_cards, seat.hidden_cards) == ((), (), 5)
    assert match.public_view().seats[2].board.cards == ()
    rng = random.Random(5)
    for seat in (0, 1):  # the FL players set their boards
        match.place(seat, match.random_assignment(seat, rng), 2.0)
        assert match.view_for(seat).table.seats[2].board.cards == ()
    while match.phase == "playing":  # streets 2-5
        match.place(2, match.random_assignment(2, rng), 3.0)
        if match.phase == "playing":
            assert match.view_for(0).table.seats[2].board.cards == ()
            assert match.view_for(1).table.seats[2].hidden_cards == len(
                match.view_for(2).board.cards)
    assert len(match.view_for(0).table.seats[2].board.cards) == 13  # shown down


def test_completing_a_hand_places_by_r10_and_shows_down() -> None:
    # No hand lost: a closing table never voids a hand: what is owed is placed by R10's rule
    # (in the order dealt: bottom, then middle, then top; streets 2-5 discard the third card).
    match = new_match(2, stack=200)
    match.start_hand(0.0)
    seat = match.pending()[0]
    dealt = match.dealt_to(seat)
    events = match.complete_hand(5.0)
    assert match.phase == "showdown" and SHOWDOWN in kinds(events)
    assert "away" not in kinds(events) and "timeout" not in kinds(events)
    hand = match.hand
    assert hand is not None
    assert hand.seats[seat].board.bottom == dealt  # street 1: five cards, bottom first
    for sh in hand.seats.values():
        assert len(sh.board.cards) == 13 and len(sh.discards) == 4
    check_replay(match)


def test_a_cash_player_who_busts_can_buy_in_again_before_the_next_deal() -> None:
    # R11 cash: no end; R6: a busted player is out of the hands, not banned from the table.
    # P1 scoops P2: 6 owed, P2 has 3 and pays 3 (R6): busted.
    match = new_match(2, stack=3, seats=2, format="cash")
    events = stacked_deal(match, {0: P1, 1: P2})
    assert first(events, BUSTED).seat == 1 and match.phase == "showdown"
    events = match.join(PlayerSpec(2, "Bob", 50))  # Bob buys in again, in his seat
    assert kinds(events) == ["joined"] and match.seat_of(2) == 1
    events = match.start_hand(0.0)
    assert sorted(first(events, HAND_STARTED).data["seats"]) == [0, 1]
    over = first(match.finish(), MATCH_OVER).data["standings"]
    standings = {s["player_id"]: s for s in over}
    # Bob brought 3 + 50 and leaves with 50: net -3; Ann +3 (chips conserved).
    assert (standings[2]["stack"], standings[2]["net"]) == (50, -3)
    assert (standings[1]["stack"], standings[1]["net"]) == (6, 3)
    check_replay(match)


def test_a_seat_left_between_hands_is_free_for_a_newcomer_at_once() -> None:
    # R11 cash: players join and leave between hands. At a full table where Bob got up after
    # the hand, nothing else frees his seat (no hand is dealt with one player), so it is
    # Eve's now; the last hand's board there stays Bob's, shown to nobody as Eve's.
    match = new_match(2, stack=50, seats=2, format="cash")
    stacked_deal(match, {0: P1, 1: P2})
    bob = match.player(1).stack
    assert kinds(match.leave(1)) == [LEFT] and match.player(1).stack == 0
    events = match.join(PlayerSpec(9, "Eve", 40))
    assert kinds(events) == ["joined"] and match.seat_of(9) == 1
    assert match.seat_of(2) is None and match.player(1).status == "joining"
    eve = match.public_view().seats[1]
    assert (eve.name, eve.stack, eve.board.cards, eve.sitting_out) == ("Eve", 40, (), True)
    mine = match.view_for(1)
    assert mine.board.cards == () and mine.discards == ()
    assert match.public_view().seats[0].board == P1  # Ann's last board still shows
    events = match.start_hand(0.0)
    assert sorted(first(events, HAND_STARTED).data["seats"]) == [0, 1]
    over = first(match.finish(), MATCH_OVER).data["standings"]
    # Chips once: Bob's stack went home with "left"; Ann and Eve keep what they brought in.
    assert {s["player_id"]: s["stack"] for s in over} == {1: 100 - bob, 9: 40}
    check_replay(match)


def test_a_seat_left_during_a_hand_frees_only_when_the_hand_ends() -> None:
    for seats in (2, 3, 4):
        variant = "turbo" if seats == 4 else "pineapple"  # R7: turbo seats 4
        match = new_match(seats, stack=50, seats=seats, format="cash", variant=variant)
        match.start_hand(0.0)
        assert kinds(match.leave(1)) == [LEAVING]
        spec = PlayerSpec(9, "Eve", 40)
        with pytest.raises(RuleError, match=r"The table is full\."):
            match.join(spec)
        match.complete_hand(0.0)  # the hand ends with nobody away
        assert match.player(1).status == "out"
        match.join(spec)
        assert match.seat_of(9) == 1
        check_replay(match)


def test_a_cash_player_may_take_back_a_leave_before_the_hand_ends() -> None:
    # R11: a player asked to get up after the hand; until it ends, it may change its mind.
    match = new_match(2, stack=50, seats=2, format="cash")
    match.start_hand(0.0)
    assert kinds(match.leave(1)) == [LEAVING]
    assert kinds(match.stay(1)) == ["staying"]
    with pytest.raises(RuleError, match=r"You are not leaving this table\."):
        match.stay(1)
    match.complete_hand(0.0)
    assert match.player(1).status == "playing" and match.seat_of(2) == 1  # still seated
    check_replay(match)
    assert kinds(match.leave(1)) == [LEFT]  # between hands: up at once, nothing to take back
    with pytest.raises(RuleError, match=r"You have already left\."):
        match.stay(1)
