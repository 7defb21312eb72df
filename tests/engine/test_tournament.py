"""The shootout tournament's pure rules (RULES.md R13, seed 001)."""

import pytest

from bot.engine.errors import RuleError
from bot.engine.tournament import (
    Tournament,
    draw,
    parse_payouts,
    split,
    split_pool,
)


def make(players: int, *, seats: int = 3, payouts: tuple[int, ...] = (100,),
         seed: int = 7) -> Tournament:
    t = Tournament.new(1, 10, 99, buy_in=100, seats=seats, hands=20, payouts=payouts,
                       seed=seed, closes_at=1000.0)
    for p in range(1, players + 1):
        t.join(p, f"P{p}", now=0.0)
    return t


def play_level(t: Tournament, score: dict[int, int] | None = None) -> None:
    """Every table of the level ends; the lowest id wins unless `score` says otherwise."""
    for table in list(t.current_tables):
        points = {p: (score or {}).get(p, -p) for p in table.players}
        t.table_done(table.level, table.index, points)


@pytest.mark.parametrize(("n", "seats", "sizes"), [
    (2, 3, [2]), (3, 3, [3]), (4, 3, [2, 2]), (5, 3, [3, 2]), (7, 3, [3, 2, 2]),
    (9, 3, [3, 3, 3]), (4, 2, [2, 2]), (5, 2, [3, 2]), (3, 2, [3]), (2, 2, [2]),
])
def test_tables_of_at_most_three_heads_up_when_odd(n: int, seats: int,
                                                  sizes: list[int]) -> None:
    assert sorted((len(t) for t in split(list(range(n)), seats)), reverse=True) == sizes


def test_seating_is_a_lot_replayable_from_the_seed() -> None:
    players = list(range(1, 10))
    assert draw(players, 5, 1) == draw(list(reversed(players)), 5, 1)
    assert draw(players, 5, 1) != draw(players, 6, 1)
    t = make(9, seed=5)
    tables = t.start()
    assert [p for table in tables for p in table.players] == draw(players, 5, 1)


def test_registration_window_and_rules() -> None:
    t = make(2)
    with pytest.raises(RuleError, match="already registered"):
        t.join(1, "P1", now=1.0)
    with pytest.raises(RuleError, match="window has closed"):
        t.join(3, "P3", now=1000.0)
    t.leave(2, now=5.0)
    with pytest.raises(RuleError, match="at least 2"):
        t.start()
    with pytest.raises(RuleError, match="seat 2 or 3"):
        Tournament.new(1, 1, 1, buy_in=1, seats=4, hands=20, payouts=(100,), seed=1,
                       closes_at=1)


def test_levels_until_the_final_and_payouts() -> None:
    t = make(9, payouts=(65, 35))
    t.start()
    assert len(t.current_tables) == 3 and not t.is_final
    play_level(t)
    assert t.level == 2 and t.is_final
    final = t.current_tables[0]
    assert len(final.players) == 3
    play_level(t)
    assert t.status == "finished"
    first, second, third = t.placings[:3]
    assert first.player_id == min(final.players) and first.prize == 585
    assert second.prize == 315 and third.prize == 0
    assert sum(p.prize for p in t.placings) == t.pool == 900


def test_ties_go_to_points_after_penalties_then_points_then_lot() -> None:
    t = make(2)
    t.start()
    t.penalty(1, 10, "time", by=99, now=1.0)
    t.table_done(1, 0, {1: 5, 2: -4})  # 1 loses 10 points: -5 against -4
    assert t.placings[0].player_id == 2
    # a dead heat is decided by the lot drawn from the seed, the same every time
    winners = set()
    for seed in range(20):
        u = make(2, seed=seed)
        u.start()
        u.table_done(1, 0, {1: 0, 2: 0})
        assert u.placings[0].player_id == u.rank_table(u.tables[0])[0]
        winners.add(u.placings[0].player_id)
    assert winners == {1, 2}


def test_a_penalty_given_before_the_start_counts_at_the_first_level() -> None:
    # R13: Bob's 5 points taken during registration count at his level-1 table: with +3
    # there he ranks below Ann's 0 (3 - 5 = -2), as the standings' -5 says.
    t = make(2)
    assert t.penalty(2, 5, "late", by=99, now=1.0).level == 1
    t.start()
    t.table_done(1, 0, {1: 0, 2: 3})
    assert [p.player_id for p in t.placings] == [1, 2]


def test_warnings_cost_25_then_exclude_without_refund() -> None:
    t = make(3)
    t.start()
    assert t.warn(2, "slow", by=99, now=1.0).points == 0
    assert t.warn(2, "mucked open", by=99, now=2.0).points == 25
    third = t.warn(2, "again", by=99, now=3.0)
    assert third.excluded and t.entry(2).status == "excluded"  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="already excluded"):
        t.penalty(2, 10, "time", by=99, now=4.0)
    t.table_done(1, 0, {1: -50, 2: 100, 3: -50})
    assert t.placings[0].player_id != 2
    assert t.placings[-1].player_id == 2
    t2 = make(3)
    t2.start()
    t2.warn(3, "x", by=99, now=1.0)
    t2.warn(3, "x", by=99, now=1.0)
    t2.warn(3, "x", by=99, now=1.0)
    assert t2.cancel() == [1, 2]  # the excluded player's buy-in is not refunded


def test_round_trip_at_every_stage() -> None:
    t = make(5, payouts=(65, 35))
    assert Tournament.from_json(t.to_json()) == t
    t.start()
    t.warn(1, "slow", by=99, now=1.0)
    t.penalty(3, 10, "time", by=99, now=2.0)
    t.tables[0].table_id = 42
    assert Tournament.from_json(t.to_json()) == t
    play_level(t)
    play_level(t)
    assert t.status == "finished"
    assert Tournament.from_json(t.to_json()) == t


def test_payout_tables() -> None:
    assert parse_payouts("") == (100,)
    assert parse_payouts("65/35") == (65, 35)
    with pytest.raises(RuleError):
        parse_payouts("60/30")
    assert split_pool(101, (65, 35)) == [66, 35]


def test_registration_closes_when_its_window_ends_and_the_director_starts() -> None:
    t = make(2)  # the window ends at 1000
    assert not t.close_registration(999.0) and t.status == "registering"
    assert t.close_registration(1000.0) and t.status == "closed"
    assert not t.close_registration(2000.0)  # once
    with pytest.raises(RuleError, match="Registration is closed"):
        t.leave(1, now=1.0)  # even with a clock that reads earlier
    with pytest.raises(RuleError, match="Registration is closed"):
        t.join(9, "late", now=1.0)
    assert Tournament.from_json(t.to_json()) == t
    t.warn(1, "slow", by=99, now=1001.0)  # the director acts before the start too
    (table,) = t.start()
    assert t.status == "running" and sorted(table.players) == [1, 2]


def test_a_table_closed_early_is_decided_on_its_points_and_says_so() -> None:
    t = make(4, seats=2)
    t.start()
    first, second = t.current_tables
    t.table_done(1, first.index, {first.players[0]: -3, first.players[1]: 3}, early=True)
    assert first.early and first.winner == first.players[1]
    assert Tournament.from_json(t.to_json()) == t
    t.table_done(1, second.index, {second.players[0]: 1, second.players[1]: 0})
    assert not second.early and t.level == 2
    assert sorted(t.current_tables[0].players) == sorted([first.players[1], second.players[0]])


def test_a_reason_is_needed_and_kept_short() -> None:
    t = make(2)
    t.start()
    with pytest.raises(RuleError, match="reason"):
        t.warn(1, "  ", by=99, now=1.0)
    with pytest.raises(RuleError, match="reason"):
        t.penalty(1, 10, "x" * 201, by=99, now=1.0)
    assert t.sanctions == []
    assert t.warn(1, " slow\n  play ", by=99, now=1.0).reason == "slow play"


# ------------------------------------------------------------------ only people's chips
def test_computers_pay_nothing_and_prizes_go_to_people_by_their_rank_among_people() -> None:
    # Two people and one computer at tables of three (the computer fills their table); the
    # computer wins the final, yet the pool is the people's 200 and 65/35 goes to them.
    t = make(2, payouts=(65, 35))
    t.join(-1, "Easy 1", now=0.0, ai_level="easy")
    assert t.pool == 200
    assert len(t.start()) == 1
    t.table_done(1, 0, {-1: 9, 1: 4, 2: -13})
    assert [(p.player_id, p.place, p.prize, p.computer) for p in t.placings] == [
        (-1, 1, 0, True), (1, 2, 130, False), (2, 3, 70, False)]
    assert sum(p.prize for p in t.placings) == t.pool


def test_with_a_buy_in_computers_only_fill_the_peoples_tables() -> None:
    t = make(1)  # one person at tables of three: two computers seat them
    t.join(-1, "Easy 1", now=0.0, ai_level="easy")
    t.join(-2, "Easy 2", now=0.0, ai_level="easy")
    with pytest.raises(RuleError, match="computers only fill the people's tables"):
        t.join(-3, "Easy 3", now=0.0, ai_level="easy")
    t.join(2, "P2", now=0.0)  # four people would sit at two tables: room for two more
    t.leave(2, now=0.0)
    free = Tournament.new(2, 10, 99, buy_in=0, seats=3, hands=20, payouts=(100,), seed=1,
                          closes_at=1000.0)
    for n in range(1, 6):  # a free tournament: no chips at stake, no such cap here
        free.join(-n, f"Easy {n}", now=0.0, ai_level="easy")
    assert free.pool == 0


def test_computers_beyond_the_peoples_tables_leave_at_the_start() -> None:
    t = make(1)  # one person, two computers: one table of three
    t.join(-1, "Easy 1", now=0.0, ai_level="easy")
    t.join(-2, "Easy 2", now=0.0, ai_level="easy")
    t.join(2, "P2", now=0.0)  # a second person: their table has room for one computer
    (table,) = t.start()
    assert sorted(table.players) == [-1, 1, 2]
    assert [e.player_id for e in t.entries] == [1, -1, 2]


# ------------------------------------------------------------------ seed 001, exactly
def test_an_excluded_player_takes_no_prize_and_is_listed_as_excluded() -> None:
    # Payouts 50/30/20: the player excluded at level 1 would be third; the pool goes to the
    # two others, 50/30 of 300 scaled to the whole pool (187 + 112, the odd chip to 1st).
    t = make(3, payouts=(50, 30, 20))
    t.start()
    for reason in ("slow", "mucked open", "again"):
        t.warn(3, reason, by=99, now=1.0)
    t.table_done(1, 0, {1: 10, 2: 5, 3: -15})
    assert [(p.player_id, p.prize, p.excluded) for p in t.placings] == [
        (1, 188, False), (2, 112, False), (3, 0, True)]


@pytest.mark.parametrize(("final", "a_first"), [(20, True), (10, False)])
def test_a_sanction_after_a_decided_table_counts_at_the_players_next_level(
        final: int, a_first: bool) -> None:
    # Level 1: two heads-up tables. Player A's table is decided; the other still plays. A's
    # second warning (25 points) counts at the final, where A plays next: A's +20 there less
    # 25 is -5, still above B's -20; A's +10 less 25 is -15, below B's -10.
    t = make(4, seats=2)
    t.start()
    first, second = t.current_tables
    a, loser = first.players
    t.table_done(1, first.index, {a: 10, loser: -10})
    t.warn(a, "slow", by=99, now=1.0)
    second_warning = t.warn(a, "again", by=99, now=2.0)
    assert second_warning.level == 2 and second_warning.points == 25
    b = second.players[0]
    t.table_done(1, second.index, {b: 1, second.players[1]: -1})
    assert t.is_final
    t.table_done(2, 0, {a: final, b: -final})
    assert [p.player_id for p in t.placings[:2]] == ([a, b] if a_first else [b, a])


def test_a_sanction_at_a_table_still_playing_counts_there() -> None:
    t = make(2)
    t.start()
    assert t.penalty(1, 3, "slow", by=99, now=1.0).level == 1


def test_a_penalty_to_a_player_already_out_lowers_their_place_among_those_out() -> None:
    t = make(4, seats=2, payouts=(50, 30, 20))
    t.start()
    first, second = t.current_tables
    t.table_done(1, first.index, {first.players[0]: 10, first.players[1]: -1})
    t.table_done(1, second.index, {second.players[0]: 10, second.players[1]: -5})
    better, worse = first.players[1], second.players[1]  # out at level 1: -1 and -5
    assert t.penalty(better, 10, "unsporting", by=99, now=1.0).level == 1
    (final,) = t.current_tables
    t.table_done(2, 0, {p: 0 for p in final.players})
    assert [p.player_id for p in t.placings[2:]] == [worse, better]  # -11 below -5
    assert t.placings[2].prize == 80  # 20% of 400


def test_the_time_penalty_is_ten_points_and_a_warning() -> None:
    t = make(2)
    t.start()
    penalty, warning = t.time_penalty(1, by=99, now=1.0)
    assert (penalty.kind, penalty.points, warning.kind) == ("penalty", 10, "warning")
    assert t.warnings(1) == 1 and t.penalty_points(1) == 10
    t.time_penalty(1, by=99, now=2.0)  # the second warning costs 25 more
    assert t.penalty_points(1) == 10 + 10 + 25
    t.time_penalty(1, by=99, now=3.0)
    assert t.entry(1).status == "excluded"  # type: ignore[union-attr]


def test_each_absence_at_a_table_is_called_once() -> None:
    t = make(4, seats=2)
    t.start()
    assert t.uncalled(1, 1, 0) == [] and t.uncalled(1, 1, 2) == [1, 2]
    t.time_penalty(1, by=99, now=1.0)  # the director's: calls no absence
    assert t.uncalled(1, 1, 2) == [1, 2]
    penalty, _ = t.time_penalty(1, by=0, now=2.0, absence=2)
    assert penalty.absence == 2
    assert t.uncalled(1, 1, 2) == [1] and t.uncalled(2, 1, 2) == [1, 2]  # another player's
    assert t.uncalled(1, 2, 2) == [1, 2]  # the player's table of the next level
    restored = Tournament.from_json(t.to_json())
    assert restored.uncalled(1, 1, 3) == [1, 3]


def test_sanctions_not_recorded_are_taken_back_with_their_exclusion() -> None:
    t = make(4, seats=2)
    t.start()
    for reason in ("a", "b"):
        t.warn(1, reason, by=99, now=1.0)
    entry = t.entry(1)
    assert entry is not None
    given = t.time_penalty(1, by=0, now=2.0, absence=1)  # the third warning: excluded
    assert entry.status == "excluded" and t.uncalled(1, 1, 1) == []
    t.withdraw(given, {1: ("in", 0)})
    assert (entry.status, entry.level_out) == ("in", 0)
    assert t.warnings(1) == 2 and t.penalty_points(1) == 25 and t.uncalled(1, 1, 1) == [1]


def test_a_table_plays_at_least_twenty_hands() -> None:
    with pytest.raises(RuleError, match="at least 20"):
        Tournament.new(1, 1, 1, buy_in=1, seats=3, hands=19, payouts=(100,), seed=1,
                       closes_at=1)
    made = Tournament.new(1, 1, 1, buy_in=1, seats=3, hands=20, payouts=(100,), seed=1,
                          closes_at=1)
    assert made.clock_penalty  # a timeout is a called clock unless the director says not


@pytest.mark.parametrize("registered", [(1, 2, 3, 4), (4, 3, 2, 1), (2, 4, 1, 3)])
def test_players_out_at_one_level_are_placed_by_the_tie_rule_not_by_registration(
        registered: tuple[int, ...]) -> None:
    """Two players go out at level 1 on the same points, and third place pays 20%: R13's
    tie rule places them (points after penalties, points, then the lot from the seed), the
    same whoever registered first."""
    t = Tournament.new(1, 10, 99, buy_in=100, seats=2, hands=20, payouts=(50, 30, 20),
                       seed=7, closes_at=1000.0)
    for p in registered:
        t.join(p, f"P{p}", now=0.0)
    t.start()
    first, second = t.current_tables
    t.table_done(1, first.index, {first.players[0]: 4, first.players[1]: -4})
    t.table_done(1, second.index, {second.players[0]: 4, second.players[1]: -4})
    out = sorted((first.players[1], second.players[1]))
    (final,) = t.current_tables
    t.table_done(2, 0, {final.players[0]: 1, final.players[1]: -1})
    assert [p.player_id for p in t.placings[2:]] == draw(out, 7, 1, "places")
    assert t.placings[2].prize == 80


def test_points_are_not_carried_to_the_next_level() -> None:
    """Seed 001's shootout: the best of each table goes on, and the next level is a new
    game: a big win at level 1 does not help at the final."""
    t = make(4, seats=2)
    t.start()
    first, second = t.current_tables
    big, small = first.players[0], second.players[0]
    t.table_done(1, first.index, {big: 50, first.players[1]: -50})
    t.table_done(1, second.index, {small: 1, second.players[1]: -1})
    t.table_done(2, 0, {big: -1, small: 1})
    assert [p.player_id for p in t.placings[:2]] == [small, big]
