"""R10: deadlines, the time bank, the system's placement, away players sitting out."""

import json
import random

from bot.engine.cards import cards_str
from bot.engine.events import AWAY, BACK, PLACED, SAT_OUT, SHOWDOWN, TIMEOUT, TURN
from bot.engine.match import Match, PlayerSpec
from tests.engine.match.boards import P1, P2, P3
from tests.engine.match.helpers import (
    cards_of,
    check_replay,
    first,
    kinds,
    new_match,
    stacked_deal,
    start_with,
)


def rows(match: Match, seat: int) -> tuple[str, ...]:
    assert match.hand is not None
    return tuple(cards_str(r) for r in match.hand.seats[seat].board.rows)


def test_deadline_is_turn_time_then_time_bank() -> None:
    match = new_match(2, turn_seconds=60, time_bank_seconds=30, button=1, clock="per_street")
    events = match.start_hand(1000.0)
    turn = first(events, TURN)
    assert turn.seat == 0 and turn.data["deadline"] == 1000 + 60 + 30
    assert match.deadline(0) == 1090 and match.deadline(1) is None
    assert match.timeout(1089.9) == []
    # Acting 70 s late uses 10 s of the bank (R10); the next seat's clock starts now.
    match.place(0, match.random_assignment(0, random.Random(1)), 1070.0)
    assert match.seats[0].time_bank == 20  # type: ignore[union-attr]
    assert match.deadline(1) == 1070 + 60 + 30
    # 80 s into seat 1's turn: 20 s past its 60, so 10 s of its 30 s bank are left.
    assert match.public_view(now=1150.0).seats[1].time_bank == 10


def test_a_pause_moves_every_pending_clock_and_replays() -> None:
    # The bot stopped 500 s (a restart): the seat's clock goes on where it stopped; the time
    # its action took, for the bank and a per_hand clock, leaves the pause out.
    match = new_match(2, turn_seconds=60, time_bank_seconds=30, button=1, clock="per_hand")
    match.start_hand(1000.0)
    assert match.deadline(0) == 1000 + 300 + 30
    match.pause(500.0)
    assert match.deadline(0) == 1500 + 300 + 30 and match.deadline(1) is None
    assert match.timeout(1829.9) == []
    match.place(0, match.random_assignment(0, random.Random(1)), 1540.0)  # 40 s of its own
    assert match.hand is not None and match.hand.seats[0].used == 40
    assert match.seats[0].time_bank == 30  # type: ignore[union-attr]
    match.pause(0.0)  # nothing stood still: nothing recorded
    assert [a["do"] for a in match.log.actions] == ["start", "pause", "place"]  # type: ignore[union-attr]
    check_replay(match)


def test_timeout_on_street_one_fills_bottom_in_the_order_dealt() -> None:
    match = new_match(2, button=1)  # seat 0 acts first
    start_with(match, "2c 9d Kh 4s Ah  3c 3d 3h 3s 4c")
    events = match.timeout(match.deadline(0))  # type: ignore[arg-type]
    assert kinds(events)[:3] == [TIMEOUT, AWAY, PLACED]
    assert rows(match, 0) == ("", "", "2c 9d Kh 4s Ah")
    assert match.seats[0].away and match.seats[0].time_bank == 0  # type: ignore[union-attr]
    assert match.pending() == (1,)


def test_away_seat_is_placed_at_once_on_later_streets() -> None:
    match = new_match(2, button=1)
    # Street 1: seat 0 then seat 1 (5 each); street 2: seat 0 gets 7c 8c 9c, seat 1 next 3.
    start_with(match, "2c 9d Kh 4s Ah  3c 3d 3h 3s 4c  7c 8c 9c  5c 5d 5h")
    match.place(0, {c: r for c, r in zip(cards_of("2c 9d Kh 4s Ah"),
                                         ("top", "middle", "middle", "bottom", "bottom"),
                                         strict=True)}, 10.0)
    match.timeout(match.deadline(1))  # type: ignore[arg-type]
    assert rows(match, 1) == ("", "", "3c 3d 3h 3s 4c")
    # Street 2 in sequential order: seat 0 first, then seat 1 who is away: placed at once.
    events = match.place(0, dict(zip(cards_of("7c 8c 9c"), ("bottom", "bottom", "discard"),
                                     strict=True)), 20.0)
    auto = [e for e in events if e.kind == PLACED and e.seat == 1]
    assert auto and auto[0].data["auto"] is True
    # R10 streets 2-5: the first two dealt go where there is room (bottom full: middle), the
    # third is discarded.
    assert rows(match, 1) == ("", "5c 5d", "3c 3d 3h 3s 4c")
    assert match.hand.seats[1].discards == tuple(cards_of("5h"))  # type: ignore[union-attr]
    assert TURN not in [e.kind for e in events if e.seat == 1]


def test_timeout_on_a_later_street_uses_bottom_room_first() -> None:
    match = new_match(2, button=1)
    start_with(match, "2c 9d Kh 4s Ah  3c 3d 3h 3s 4c  7c 8c 9c  5c 5d 5h")
    match.place(0, dict(zip(cards_of("2c 9d Kh 4s Ah"),
                            ("top", "middle", "middle", "bottom", "bottom"), strict=True)), 1.0)
    match.place(1, dict(zip(cards_of("3c 3d 3h 3s 4c"),
                            ("top", "middle", "middle", "bottom", "bottom"), strict=True)), 2.0)
    match.timeout(match.deadline(0))  # type: ignore[arg-type]
    assert rows(match, 0) == ("2c", "9d Kh", "4s Ah 7c 8c")
    assert match.hand.seats[0].discards == tuple(cards_of("9c"))  # type: ignore[union-attr]


def test_fantasyland_timeout_fills_bottom_middle_top_and_discards_the_rest() -> None:
    match = new_match(2, button=1)
    match.seats[0].fantasy = 15  # type: ignore[union-attr]
    fl = "2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  2h 3h 4h  Ks As"
    start_with(match, fl)
    assert match.deadline(0) == 0 + 180 + 120  # fantasy_turn_seconds, then the bank
    match.timeout(300.0)
    assert rows(match, 0) == ("2h 3h 4h", "2d 3d 4d 5d 6d", "2c 3c 4c 5c 6c")
    assert match.hand.seats[0].discards == tuple(cards_of("Ks As"))  # type: ignore[union-attr]


def test_away_player_sits_out_after_the_hand_with_its_stack() -> None:
    match = new_match(3, format="hands", hands=5)
    match.seats[2].away = True  # type: ignore[union-attr]
    events = stacked_deal(match, {0: P1, 1: P2, 2: P3})
    sat = first(events, SAT_OUT)
    # Seat 2 was placed by the system all hand; what it has after the showdown goes home.
    after = first(events, SHOWDOWN).data["seats"][2]["stack_after"]
    assert sat.seat == 2 and sat.data == {"player_id": 3, "stack": after}
    assert match.seats[2].status == "out" and match.seats[2].stack == 0  # type: ignore[union-attr]
    events = match.start_hand(50.0)
    assert first(events, "hand_started").data["seats"] == [0, 1]  # seat 2 sits out
    assert match.public_view().seats[2].sitting_out
    check_replay(match)


def test_at_a_tournament_table_an_away_player_stays_and_is_placed_for() -> None:
    match = new_match(3, format="hands", hands=5, sit_out_when_away=False)  # R13
    match.seats[2].away = True  # type: ignore[union-attr]
    events = stacked_deal(match, {0: P1, 1: P2, 2: P3})
    assert SAT_OUT not in kinds(events)
    after = first(events, SHOWDOWN).data["seats"][2]["stack_after"]
    assert match.seats[2].status == "playing"  # type: ignore[union-attr]
    assert match.seats[2].stack == after  # type: ignore[union-attr]
    events = match.start_hand(50.0)
    assert sorted(first(events, "hand_started").data["seats"]) == [0, 1, 2]
    assert 2 not in match.pending()  # still away: placed at once
    check_replay(match)


def test_away_player_plays_its_fantasyland_before_sitting_out() -> None:
    match = new_match(2, format="hands", hands=5)
    match.seats[0].fantasy = 14  # type: ignore[union-attr]
    match.seats[0].away = True  # type: ignore[union-attr]
    events = match.start_hand(0.0)
    # The FL arrangement was placed at once (R10) and nobody waits for seat 0.
    assert first(events, PLACED).seat == 0 and 0 not in match.pending()
    while match.phase == "playing":
        match.timeout(match.next_deadline())  # type: ignore[arg-type]
    assert match.phase == "over"  # both away: both sit out; fewer than two players left


def test_back_clears_away_and_each_time_away_counts_once() -> None:
    match = new_match(2, button=1, format="hands", hands=5, sit_out_when_away=False)
    match.start_hand(0.0)
    match.timeout(match.deadline(0))  # type: ignore[arg-type]
    assert match.seats[0].absences == 1  # type: ignore[union-attr]
    events = match.back(0, 200.0)
    assert kinds(events) == [BACK] and not match.seats[0].away  # type: ignore[union-attr]
    match.place(1, match.random_assignment(1, random.Random(2)), 201.0)
    assert match.pending() == (0,)  # waited for again on street 2
    match.timeout(match.deadline(0))  # type: ignore[arg-type]  # away again: a second absence
    rng = random.Random(3)
    while match.phase == "playing":  # seat 0 is placed for at once: only seat 1 is waited for
        match.place(1, match.random_assignment(1, rng), 400.0)
    match.start_hand(500.0)  # still away: placed for at once, not a new absence
    assert [p.absences for p in match.seats if p is not None] == [2, 0]
    check_replay(match)



def test_per_street_clock_gives_every_street_its_own_turn_seconds() -> None:
    # R10 `clock: per_street` (seeds 001, 003): 59 s spent on street 1 leave street 2's 60 s.
    match = new_match(2, button=1, turn_seconds=60, time_bank_seconds=30, clock="per_street")
    match.start_hand(1000.0)
    rng = random.Random(4)
    match.place(0, match.random_assignment(0, rng), 1059.0)
    match.place(1, match.random_assignment(1, rng), 1060.0)
    assert match.deadline(0) == 1060 + 60 + 30
    assert match.seats[0].time_bank == 30  # type: ignore[union-attr]


def test_per_hand_clock_is_one_clock_for_the_hand_less_the_time_spent() -> None:
    # R10 `clock: per_hand` (seed 000): "equal period of time to lay out their cards in all
    # boxes ... in the second street players have less time by the amount of time spent
    # during the first street". Five pineapple streets of 60 s: 300 s for the hand.
    match = new_match(2, button=1, turn_seconds=60, time_bank_seconds=30, clock="per_hand")
    match.start_hand(1000.0)
    assert match.deadline(0) == 1000 + 300 + 30
    rng = random.Random(4)
    match.place(0, match.random_assignment(0, rng), 1059.0)  # 59 s spent
    assert match.deadline(1) == 1059 + 300 + 30
    match.place(1, match.random_assignment(1, rng), 1060.0)  # 1 s spent
    assert match.deadline(0) == 1060 + 241 + 30  # street 2: 300 - 59 left
    match.place(0, match.random_assignment(0, rng), 1310.0)  # 250 s: 9 past its 241
    assert match.seats[0].time_bank == 21  # type: ignore[union-attr]
    assert match.deadline(1) == 1310 + 299 + 30
    match.place(1, match.random_assignment(1, rng), 1311.0)
    assert match.deadline(0) == 1311 + 0 + 21  # street 3: the hand's time is gone
    assert match.timeout(1331.9) == []
    assert kinds(match.timeout(1332.0))[:2] == [TIMEOUT, AWAY]
    # Turbo's three streets (R7): 180 s for the hand.
    turbo = new_match(2, button=1, variant="turbo", turn_seconds=60, time_bank_seconds=30,
                      clock="per_hand")
    turbo.start_hand(0.0)
    assert turbo.deadline(0) == 180 + 30


def test_a_street_that_timed_out_comes_off_a_per_hand_clock_too() -> None:
    # R10 `clock: per_hand`: what a player spends on a street comes off its later streets,
    # a street the system placed after its time ran out included. By hand: 5 streets of 60 s
    # give 300 s for the hand, then the 30 s bank; street 1 times out at 1000 + 330, so the
    # player has used its hand's 300 s and its bank. Back for street 2 (dealt at 1340), it
    # has 300 - 330 < 0, so 0 s of the hand and 0 s of bank: its deadline is 1340 itself.
    match = new_match(2, button=1, turn_seconds=60, time_bank_seconds=30, clock="per_hand",
                      format="hands", hands=5, sit_out_when_away=False)
    match.start_hand(1000.0)
    assert kinds(match.timeout(1330.0))[:2] == [TIMEOUT, AWAY]
    match.back(0, 1331.0)
    match.place(1, match.random_assignment(1, random.Random(2)), 1340.0)
    assert match.pending() == (0,)
    assert match.deadline(0) == 1340.0
    # At a per-street clock the same player gets street 2's own 60 s (and no bank).
    street = new_match(2, button=1, turn_seconds=60, time_bank_seconds=30,
                       clock="per_street", format="hands", hands=5, sit_out_when_away=False)
    street.start_hand(1000.0)
    street.timeout(1090.0)
    street.back(0, 1091.0)
    street.place(1, street.random_assignment(1, random.Random(2)), 1100.0)
    assert street.deadline(0) == 1100.0 + 60
    check_replay(match)


def finish_hand(match: Match, now: float) -> None:
    rng = random.Random(6)
    while match.phase == "playing":
        seat = match.pending()[0]
        match.place(seat, match.random_assignment(seat, rng), now)


def test_a_time_bank_fills_again_once_its_refill_period_has_passed() -> None:
    # R10 (seed 003: "The time bank resets after a certain period"): at a deal, a bank last
    # full `time_bank_refill_seconds` ago is full again.
    match = new_match(2, button=1, format="cash", turn_seconds=60, time_bank_seconds=30,
                      time_bank_refill_seconds=600, clock="per_street")
    match.start_hand(1000.0)  # Ann's bank is full: its period starts
    match.place(0, match.random_assignment(0, random.Random(1)), 1080.0)  # 20 s of the bank
    finish_hand(match, 1081.0)
    assert match.seats[0].time_bank == 10  # type: ignore[union-attr]
    match.start_hand(1599.0)  # 599 s: not yet
    assert match.seats[0].time_bank == 10  # type: ignore[union-attr]
    finish_hand(match, 1599.0)
    match.start_hand(1600.0)  # 600 s since it was last full
    assert match.seats[0].time_bank == 30  # type: ignore[union-attr]
    # Without a period (a match: one bank for the match, seeds 000, 001) it never refills.
    once = new_match(2, button=1, turn_seconds=60, time_bank_seconds=30, clock="per_street")
    once.start_hand(1000.0)
    once.place(0, once.random_assignment(0, random.Random(1)), 1080.0)
    finish_hand(once, 1081.0)
    once.start_hand(1000.0 + 86400)
    assert once.seats[0].time_bank == 10  # type: ignore[union-attr]


def time_out_and_sit_out(match: Match, late: int, now: float) -> None:
    """Deal at `now`; the others act at once, `late` lets its turn and its whole bank run out
    (R10: placed for, away), so it sits out after the hand."""
    match.start_hand(now)
    rng = random.Random(3)
    while match.phase == "playing":
        others = [s for s in match.pending() if s != late]
        if others:
            match.place(others[0], match.random_assignment(others[0], rng), now)
        else:
            now = match.deadline(late)  # type: ignore[assignment]
            match.timeout(now)
    assert match.seats[late].status == "out"  # type: ignore[union-attr]


def kept_json(match: Match) -> Match:
    """The match as a restart reads it back from its snapshot's JSON."""
    restored = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert restored.to_json() == match.to_json()
    return restored


def ann_gone() -> Match:
    """A cash table of 60 s turns and a 30 s bank refilled hourly: Ann (seat 0) lets her
    bank run out in hand 1 (dealt at 0, her period's start) and sits out; hand 2, dealt and
    played at 100 without her, frees her seat."""
    match = new_match(3, button=2, format="cash", turn_seconds=60, time_bank_seconds=30,
                      time_bank_refill_seconds=3600, clock="per_street")
    time_out_and_sit_out(match, 0, 0.0)
    match.start_hand(100.0)
    assert match.seats[0] is None
    finish_hand(match, 100.0)
    return match


def test_getting_up_and_coming_back_after_the_seat_frees_fills_no_bank() -> None:
    # R10: the period starts when the player is first dealt in; getting up and sitting down
    # again neither restarts it nor fills the bank, even once the next deal freed the seat.
    match = kept_json(ann_gone())  # a restart in between
    match.join(PlayerSpec(1, "Ann", 200))
    ann = match.player(0)
    assert (ann.time_bank, ann.bank_filled) == (0.0, 0.0)
    match.start_hand(300.0)  # 300 s since her bank was last full: not an hour
    assert (ann.time_bank, ann.bank_filled) == (0.0, 0.0)
    assert match.public_view(300.0).seats[0].time_bank == 0.0
    check_replay(match)


def test_a_player_back_after_the_refill_period_has_a_full_bank() -> None:
    match = ann_gone()
    match.join(PlayerSpec(1, "Ann", 200))  # back at 3,500 s: still the empty bank of hand 1
    assert match.player(0).time_bank == 0.0
    match.leave(0)  # and gone again before the deal: the bank is still kept
    match.join(PlayerSpec(1, "Ann", 200))
    assert match.player(0).time_bank == 0.0
    match.start_hand(3600.0)  # an hour since it was last full: full again, a new period
    ann = match.player(0)
    assert (ann.time_bank, ann.bank_filled) == (30.0, 3600.0)
    check_replay(match)


def test_a_kept_bank_is_forgotten_once_its_period_has_passed() -> None:
    # The snapshot keeps a departed player's bank only while its period still matters.
    match = ann_gone()
    match.start_hand(3599.0)
    finish_hand(match, 3599.0)
    assert '"kept_banks":{"1":' in match.text()
    match.start_hand(3600.0)
    finish_hand(match, 3600.0)
    assert '"kept_banks":{}' in match.text()
    match.join(PlayerSpec(1, "Ann", 200))  # back after the hour: a full bank, dealt at 3,700
    match.start_hand(3700.0)
    ann = match.player(0)
    assert (ann.time_bank, ann.bank_filled) == (30.0, 3700.0)


def test_another_player_in_the_freed_seat_gets_a_fresh_bank() -> None:
    match = ann_gone()
    match.join(PlayerSpec(4, "Dee", 200), seat=0)
    match.start_hand(300.0)
    dee = match.player(0)
    assert (dee.player_id, dee.time_bank, dee.bank_filled) == (4, 30.0, 300.0)
    while 0 not in match.pending():  # the others before her play at once
        seat = match.pending()[0]
        match.place(seat, match.random_assignment(seat, random.Random(2)), 300.0)
    match.place(0, match.random_assignment(0, random.Random(1)), 380.0)  # 20 s of her bank
    finish_hand(match, 380.0)
    match.leave(0)
    match.start_hand(400.0)
    match.join(PlayerSpec(1, "Ann", 200), seat=0)  # Ann's own bank, not Dee's
    assert match.player(0).time_bank == 0.0
    match.leave(0)
    match.join(PlayerSpec(4, "Dee", 200), seat=0)
    assert (match.player(0).time_bank, match.player(0).bank_filled) == (10.0, 300.0)


def _computer_times_out(computers_away: bool) -> Match:
    """Seat 1 a computer whose street 1 times out; street 2 as the rules then go."""
    rules = new_match(2).rules
    match = Match.new(rules, [PlayerSpec(1, "Ann", 200), PlayerSpec(-1, "Computer", 200,
                                                                    "easy")], button=1, seed=1)
    start_with(match, "2c 9d Kh 4s Ah  3c 3d 3h 3s 4c  7c 8c 9c  5c 5d 5h")
    match.place(0, dict(zip(cards_of("2c 9d Kh 4s Ah"),
                            ("top", "middle", "middle", "bottom", "bottom"), strict=True)), 10.0)
    match.timeout(match.deadline(1), computers_away=computers_away)  # type: ignore[arg-type]
    match.place(0, dict(zip(cards_of("7c 8c 9c"), ("bottom", "bottom", "discard"),
                            strict=True)), 20.0)
    return match


def test_a_computer_whose_time_ran_out_is_not_away_and_histories_replay_either_way() -> None:
    # R10: the clock places the computer's street, but it is not away (it has no "I'm back"):
    # street 2 waits for it. A history recorded before (the computer marked away, street 2
    # placed at once) still replays as it was played, and so does one recorded now.
    now = _computer_times_out(computers_away=False)
    assert not now.seats[1].away and now.pending() == (1,)  # type: ignore[union-attr]
    now.place(1, dict(zip(cards_of("5c 5d 5h"), ("middle", "middle", "discard"), strict=True)),
              30.0)
    check_replay(now)
    before = _computer_times_out(computers_away=True)
    assert before.seats[1].away and before.pending() == (0,)  # type: ignore[union-attr]
    check_replay(before)
