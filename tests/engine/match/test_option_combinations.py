"""Table options that act together in one hand, played through the match and checked by hand
against RULES.md: the scoring and royalty tables with several fouls at once (R3-R5), and the
table-stakes rule with scoops, Fantasyland and a player busting mid-settlement (R6, R8)."""

import pytest

from bot.engine.events import BUSTED, SHOWDOWN
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.showdown import show_down
from tests.engine.match.helpers import board, check_replay, first, kinds, stacked_deal

# Three boards sharing no card (R2-R4 by hand).
# TRIPS: trip tens on top (R4: 10 + 8 = 18), king-high straight middle (4), heart flush
# bottom (4): 26 royalties, not fouled, earns Fantasyland with trips.
TRIPS = board("Ts Tc Th", "Kd Qc Jc Td 9s", "2h 4h 6h 7h Qh")
# ACES: J-high top < pair of aces middle < trip nines bottom: no royalty.
ACES = board("Js 8d 3c", "As Ad 5c 6d 8s", "9h 9d 9c 3h 4s")
# KINGS: K-high top < kings and sevens middle < aces and eights bottom: no royalty.
KINGS = board("Ks 5d 2c", "Kh Kc 7c 7d 2d", "Ac Ah 8c 8h 5h")

# Two fouled boards and a clean one, sharing no card.
# FOUL_AA: aces on top over a pair of queens in the middle (R3).
FOUL_AA = board("As Ad 4c", "Qd Qc 5c 7c 8d", "Tc Td Th 2c 2d")
# FOUL_88: eights on top over a pair of sevens in the middle (R3).
FOUL_88 = board("8s 8h 4d", "7s 7d 3s 5s 2s", "6s 6h 6d 9c 9d")
# QUADS: nines on top (9 - 5 = 4), trip jacks middle (2), four kings bottom (american 10,
# russian 8): 16 american, 14 russian, off 0. No Fantasyland (below queens).
QUADS = board("9s 9h 3c", "Js Jh Jd 5d 6c", "Ks Kh Kd Kc 2h")


def match_of(stacks: list[int], **options: object) -> Match:
    """Ann, Bob and Cy in seats 0-2 with these stacks; the button on seat 2, so R6 settles
    (0, 1), (0, 2), (1, 2) in that order."""
    rules = TableRules.from_mapping({"seats": 3, **options})
    specs = [PlayerSpec(i + 1, name, stack)
             for i, (name, stack) in enumerate(zip(("Ann", "Bob", "Cy"), stacks, strict=True))]
    return Match.new(rules, specs, button=2, seed=1)


@pytest.mark.parametrize(("royalties", "scoring", "points"), [
    # Fouled against fouled: 0 (R3). Each fouled board against QUADS: the lines and bonus
    # (1-6: 3 + 3 = 6; 2-4: 3 + 1 = 4, R5) plus QUADS' royalties (R4).
    ("american", "1-6", [-(6 + 16), -(6 + 16), 2 * (6 + 16)]),
    ("american", "2-4", [-(4 + 16), -(4 + 16), 2 * (4 + 16)]),
    ("russian", "1-6", [-(6 + 14), -(6 + 14), 2 * (6 + 14)]),
    ("russian", "2-4", [-(4 + 14), -(4 + 14), 2 * (4 + 14)]),
    ("off", "1-6", [-6, -6, 12]),
    ("off", "2-4", [-4, -4, 8]),
])
def test_two_fouls_at_once_under_each_scoring_and_royalty_table(
        royalties: str, scoring: str, points: list[int]) -> None:
    match = match_of([100, 100, 100], royalties=royalties, scoring=scoring)
    shown = first(stacked_deal(match, {0: FOUL_AA, 1: FOUL_88, 2: QUADS}), SHOWDOWN).data
    assert [s["points"] for s in shown["seats"]] == points
    assert [s["fouled"] for s in shown["seats"]] == [True, True, False]
    # R3: a fouled board has no royalty; R4: QUADS' by the table in force.
    assert [sum(s["royalties"]) for s in shown["seats"]][:2] == [0, 0]
    assert [s["stack_after"] for s in shown["seats"]] == [100 + p for p in points]


def test_a_short_stack_wins_no_more_than_it_has_from_each_opponent_in_turn() -> None:
    # R5: TRIPS scoops ACES and KINGS: 6 + 26 each, 32; KINGS beats ACES 2-1 (top K > J,
    # kings and sevens > aces, trip nines > aces and eights): 1. Points: 64, -33, -31.
    # R6 with stacks 10, 15, 100: (Ann, Bob) min(32, 15, 10) = 10: 20, 5, 100;
    # (Ann, Cy) min(32, 100, 20) = 20: 40, 5, 80; (Bob, Cy) min(1, 5, 80) = 1: 40, 4, 81.
    match = match_of([10, 15, 100])
    events = stacked_deal(match, {0: TRIPS, 1: ACES, 2: KINGS})
    shown = first(events, SHOWDOWN).data
    assert [s["points"] for s in shown["seats"]] == [64, -33, -31]
    assert [(t["payer"], t["payee"], t["owed"], t["paid"]) for t in shown["transfers"]] == [
        (1, 0, 32, 10), (2, 0, 32, 20), (1, 2, 1, 1)]
    assert [s["stack_after"] for s in shown["seats"]] == [40, 4, 81]
    assert [s["chips"] for s in shown["seats"]] == [30, -11, -19]
    # R8: trips on top earn 14 standard cards, and the button stays for the FL hand.
    assert [s["fantasy_next"] for s in shown["seats"]] == [14, 0, 0] and match.button == 2
    check_replay(match)


def test_a_player_who_busts_mid_settlement_pays_and_wins_nothing_more() -> None:
    # As above with Bob at 6: (Ann, Bob) min(32, 6, 10) = 6: 16, 0, 100, Bob is all-in;
    # (Ann, Cy) min(32, 100, 16) = 16: 32, 0, 84; (Bob, Cy) Bob owes 1 but has 0: 0 paid.
    # Chips are kept: 10 + 6 + 100 = 32 + 0 + 84.
    match = match_of([10, 6, 100], point_value=1)
    events = stacked_deal(match, {0: TRIPS, 1: ACES, 2: KINGS})
    shown = first(events, SHOWDOWN).data
    assert [(t["payer"], t["payee"], t["owed"], t["paid"]) for t in shown["transfers"]] == [
        (1, 0, 32, 6), (2, 0, 32, 16), (1, 2, 1, 0)]
    assert [s["stack_after"] for s in shown["seats"]] == [32, 0, 84]
    assert BUSTED in kinds(events) and first(events, BUSTED).seat == 1
    # The Fantasyland hand Ann earned is played by the two with chips; Bob is out (R6).
    assert [p.status for p in match.seats if p is not None] == ["playing", "out", "playing"]
    started = first(match.start_hand(10.0), "hand_started").data
    assert sorted(started["seats"]) == [0, 2] and started["fantasy"] == [{"seat": 0, "cards": 14}]


def test_point_value_scales_what_is_owed_before_the_stakes_cap() -> None:
    # point_value 3 (R5): Ann is owed 32 x 3 = 96 from each. Stacks 50, 200, 200:
    # (Ann, Bob) min(96, 200, 50) = 50: 100, 150, 200; (Ann, Cy) min(96, 200, 100) = 96:
    # 196, 150, 104; (Bob, Cy) Bob owes 1 x 3 = 3: 196, 147, 107.
    match = match_of([50, 200, 200], point_value=3)
    shown = first(stacked_deal(match, {0: TRIPS, 1: ACES, 2: KINGS}), SHOWDOWN).data
    assert [(t["owed"], t["paid"]) for t in shown["transfers"]] == [(96, 50), (96, 96), (3, 3)]
    assert [s["stack_after"] for s in shown["seats"]] == [196, 147, 107]


def test_settlement_starts_left_of_a_button_whose_seat_is_not_in_the_hand() -> None:
    # R6 at a four-seat turbo table whose button (seat 1) is empty: left of it come seats 2,
    # 3, 0, so the pairs settle (2, 3), (2, 0), (3, 0). Stacks 100, -, 10, 15 (seats 0-3):
    # (2, 3) TRIPS is owed 32 from ACES: min(32, 15, 10) = 10: seat 2 has 20, seat 3 5;
    # (2, 0) 32 from KINGS: min(32, 100, 20) = 20: 40, and seat 0 80;
    # (3, 0) KINGS beats ACES 2-1, owed 1: seat 3 has 4, seat 0 81.
    # Settled from seat 0 instead, ACES would end with 0. Turbo trips on top: 13 cards (R9).
    rules = TableRules.from_mapping({"variant": "turbo", "seats": 4})
    shown = show_down(rules, {0: KINGS, 2: TRIPS, 3: ACES}, {}, {0: 100, 2: 10, 3: 15},
                      button=1)
    assert [(t.payer, t.payee, t.owed, t.paid) for t in shown.transfers] == [
        (3, 2, 32, 10), (0, 2, 32, 20), (3, 0, 1, 1)]
    assert [(s.seat, s.stack_after, s.fantasy_next) for s in shown.seats] == [
        (0, 81, 0), (2, 40, 13), (3, 4, 0)]
