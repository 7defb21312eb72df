"""The Fantasyland solver (R8, R9) against an independent brute force and hand-checked hands."""

import random
from itertools import combinations

import pytest

from bot.ai.solver import Solution, _joker_options, solve
from bot.engine.board import Board, evaluate_board, row_options
from bot.engine.cards import DECK, JOKERS, Card, make_card, parse_cards
from bot.engine.errors import RuleError
from bot.engine.evaluation import eval3, eval5
from bot.engine.royalties import ROYALTY, Row
from bot.engine.rules import TableRules
from tests.ai import brute

RULE_SETS = {
    "default": TableRules(),
    "russian-progressive": TableRules(royalties="russian", fantasy="progressive"),
    "full-house-middle-stays": TableRules(fantasy_stay_full_house_middle=True),
    "turbo": TableRules(variant="turbo", seats=2),
    "lowball": TableRules(variant="lowball"),
    "tournament": TableRules(fantasy="tournament"),
    "ultimate": TableRules(fantasy="ultimate"),
    "off": TableRules(fantasy="off"),
}
STAY_VALUES = (0.0, 4.5, 11.0, 40.0)


def deal(rng: random.Random, count: int, rich: bool, jokers: int = 0) -> list[Card]:
    """A random hand; `rich` draws from five ranks and a few more cards, so trips, quads and
    full houses (the stay decisions) come up often."""
    if rich:
        ranks = rng.sample(range(13), 5)
        pool = [make_card(r, s) for r in ranks for s in range(4)]
        extra = rng.sample([c for c in DECK if c not in pool], 8)
        cards = rng.sample(pool + extra, count - jokers)
    else:
        cards = rng.sample(DECK, count - jokers)
    return cards + list(JOKERS[:jokers])


def solved_key(cards: list[Card], rules: TableRules, stay: float
               ) -> tuple[float, tuple[int, int, int]] | None:
    solution = solve(cards, rules, stay)
    result = solution.result
    assert sorted(solution.board.cards + solution.discard) == sorted(cards)
    assert len(solution.board.cards) == 13
    if result.fouled:
        return None
    top, middle, bottom = result.lines
    return solution.value, (bottom, middle, top)


def check_against_brute(seed: int, count: int, jokers: int = 0) -> None:
    rng = random.Random(seed)
    name = rng.choice(sorted(RULE_SETS)) if not jokers else "joker"
    rules = RULE_SETS.get(name, TableRules(variant="joker"))
    stay = rng.choice(STAY_VALUES)
    cards = deal(rng, count, rich=seed % 2 == 0, jokers=jokers)
    expected = brute.best(cards, rules, stay)
    assert solved_key(cards, rules, stay) == expected, (name, stay, cards)


@pytest.mark.parametrize("seed", range(36))
def test_13_cards_equal_brute_force(seed: int) -> None:
    check_against_brute(seed, 13)


@pytest.mark.parametrize("seed", range(4))
def test_14_cards_equal_brute_force(seed: int) -> None:
    check_against_brute(1000 + seed, 14)


def test_15_cards_equal_brute_force() -> None:
    check_against_brute(2000, 15)


@pytest.mark.parametrize("seed", range(6))
def test_joker_hands_equal_brute_force(seed: int) -> None:
    check_against_brute(3000 + seed, 13, jokers=1 + seed % 2)


# The joker hands found on which the search looked at the most candidates (a search for slow
# hands, changing a card or two at a time, and a sweep of random ones), at sizes the brute
# force checks in seconds: where the bounds counting each row's jokers prune the most, each
# with other table options and stay values.
JokerHand = tuple[str, dict[str, object], float]  # cards, table options, stay value
SLOWEST_JOKER_HANDS: tuple[JokerHand, ...] = (
    ("6s 6c 9s Qs 3c 8d Ac 6d 7h 2h Kc X X", {}, 13.0),
    ("Jc 9s 3c Ts Jd Qh Th Qs 8c 8d Kd 7h X X", {"fantasy_stay_full_house_middle": True}, 40.0),
    ("Ac 4s 6h X Ts 3d Kh X Jc Td 9d 3s 8s Th", {"royalties": "russian"}, 4.5),
    ("9c 3h Ad 9h 6s Ts 7c 7h Ks 4d Qc 8s Td X", {"fantasy": "tournament"}, 0.0),
)
# Hands on which a bound or a candidate list that counted too few jokers left for the rows
# still to choose (for the middle, for the top, in either's gains) picks a worse board.
JOKER_BUDGET_HANDS: tuple[JokerHand, ...] = (
    ("6s 9s Jc Qd 3h As 6d 4c 8h 4s Th X X", {"fantasy_stay_full_house_middle": True}, 0.0),
    ("Tc 5h 8c 2c 9d 7c Js Ac 5s Ts 8d 9c X", {"fantasy": "tournament"}, 4.5),
    ("Ad 2h Qd Ah 6c 4h 3c Qh Qc 5d 3d 7s X", {"fantasy_stay_full_house_middle": True}, 4.5),
    ("Qc Ah 8s 4h 7s 4c 8h 8c 4d 4s Qh X X", {"fantasy_stay_full_house_middle": True}, 0.0),
)


@pytest.mark.parametrize("hand,options,stay", SLOWEST_JOKER_HANDS + JOKER_BUDGET_HANDS)
def test_slowest_and_joker_budget_hands_equal_brute_force(hand: str, options: dict[str, object],
                                                      stay: float) -> None:
    rules = TableRules.from_mapping({"variant": "joker", **options})
    cards = parse_cards(hand)
    assert solved_key(cards, rules, stay) == brute.best(cards, rules, stay)


@pytest.mark.slow
@pytest.mark.parametrize("count,seeds", [(13, 300), (14, 200), (15, 100)])
def test_hundreds_equal_brute_force(count: int, seeds: int) -> None:
    for seed in range(seeds):
        check_against_brute(10_000 * count + seed, count)


@pytest.mark.slow
def test_joker_hands_hundreds_equal_brute_force() -> None:
    for seed in range(100):
        check_against_brute(500_000 + seed, 13 + seed % 2, jokers=1 + seed % 2)


def test_greedy_joker_resolution_is_the_engines() -> None:
    """The brute force's reading of R9 (each row its strongest option not above the row under
    it) gives the same values as evaluate_board, on random joker boards."""
    rng = random.Random(7)
    rules = TableRules(variant="joker")
    for _ in range(150):
        cards = rng.sample(DECK, 13 - (k := rng.randint(1, 2))) + list(JOKERS[:k])
        rng.shuffle(cards)
        board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        result = evaluate_board(board, rules)
        vb = brute.options(board.bottom)[-1]
        vm = brute.greedy(brute.options(board.middle), vb)
        vt = None if vm is None else brute.greedy(brute.options(board.top), vm)
        assert result.fouled == (vt is None)
        if vt is not None:
            assert result.hands == (vt, vm, vb)


def test_joker_options_are_the_engines() -> None:
    """The values the solver gives a joker row (by rank sums) are those of the engine's
    row_options (one evaluation per choice of cards), on random rows and on the rows where a
    joker's suit or rank is constrained: one suit (a flush), trips and quads (no five alike)."""
    rng = random.Random(11)
    rows: list[tuple[Row, list[Card], int]] = []
    for _ in range(150):
        for row, size in (("top", 3), ("middle", 5)):
            rows += [(row, rng.sample(DECK, size - wild), wild) for wild in (1, 2)]
        suit, rank = rng.randrange(4), rng.randrange(13)
        ranks = rng.sample(range(13), 4)
        rows += [("middle", [make_card(r, suit) for r in ranks[:3]], 2),
                 ("middle", [make_card(r, suit) for r in ranks], 1),
                 ("middle", [make_card(rank, s) for s in range(3)], 2),
                 ("middle", [make_card(rank, s) for s in range(4)], 1),
                 ("top", [make_card(rank, s) for s in range(2)], 1)]
    for row, fixed, wild in rows:
        expected = tuple(sorted(row_options(row, (*fixed, *JOKERS[:wild]))))
        assert _joker_options(row, tuple(sorted(fixed)), wild) == expected, (row, fixed)


def test_royalties_and_staying_grow_with_row_strength() -> None:
    """What the search and the joker reading rely on: in every row (lowball's middle aside,
    which has no jokers) a stronger hand never pays less nor loses a stay."""
    tops = sorted({eval3(c) for c in combinations(DECK[::3], 3)})
    fives = sorted({eval5(c) for c in combinations(DECK[::2], 5)})
    for table in ("american", "russian"):
        for row, values in (("top", tops), ("middle", fives), ("bottom", fives)):
            pay = [ROYALTY[table][row][v] for v in values]
            assert pay == sorted(pay)
    for rules in RULE_SETS.values():
        for index, values in ((0, tops), (1, fives), (2, fives)):
            flags = []
            for v in values:
                hands = [1, 1, 1]
                hands[index] = v
                flags.append(brute.stays(rules, *hands))
            assert flags == sorted(flags)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def rows(solution: Solution) -> tuple[set[Card], set[Card], set[Card]]:
    top, middle, bottom = solution.board.rows
    return set(top), set(middle), set(bottom)


def test_royal_flush_bottom_and_trips_top() -> None:
    # R4: royal flush bottom 25, straight middle 4, trips 222 top 10 = 39; it stays (R8: quads or
    # better on the bottom, and trips on top). The royal must be the bottom (nothing is above it),
    # the only other straight would break it, and the 2s are the only pair or trips.
    hand = cards("As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c")
    for stay in (0.0, 11.0):
        solution = solve(hand, TableRules(), stay_value=stay)
        assert rows(solution) == (
            set(cards("2h 2d 2c")), set(cards("5h 6d 7c 8h 9d")), set(cards("As Ks Qs Js Ts")))
        assert (solution.royalties, solution.stays, solution.value) == (39, True, 39 + stay)


def test_staying_beats_more_royalties() -> None:
    hand = cards("7c 8c 5c 7d 8h 4s 7h 9s 4d 9c Jc Ac Tc")
    # Most royalties (R4): bottom 777 44 full house 6, middle Ac Jc Tc 8c 5c flush 8, top 99 8
    # pair of nines 4 = 18, and it does not stay (no trips on top, no quads+ bottom).
    plain = solve(hand, TableRules(), stay_value=0.0)
    assert (plain.royalties, plain.stays) == (18, False)
    assert rows(plain)[2] == set(cards("7c 7d 7h 4s 4d"))
    # The only stay (R8) is the 7-J clubs straight flush bottom (15): then no trips are left for
    # the middle, so top 777 is out, and the rest is middle 77 44 A, top 9 8 5: 15 + 11 = 26.
    stay = solve(hand, TableRules(), stay_value=11.0)
    assert rows(stay) == (
        set(cards("5c 8h 9s")), set(cards("7d 7h 4s 4d Ac")), set(cards("7c 8c 9c Tc Jc")))
    assert (stay.royalties, stay.stays, stay.value) == (15, True, 26.0)


def test_bad_hands_are_refused() -> None:
    with pytest.raises(RuleError, match="13 to 17 cards"):
        solve(DECK[:12])
    with pytest.raises(RuleError, match="13 to 17 cards"):
        solve(DECK[:18])
    with pytest.raises(RuleError, match="jokers"):
        solve([*DECK[:12], JOKERS[0]])


def test_assignment_places_every_card() -> None:
    hand = list(DECK[10:27])
    solution = solve(hand)
    assignment = solution.assignment()
    assert sorted(assignment) == sorted(hand)
    assert sum(1 for r in assignment.values() if r == "discard") == 4
    for row, size in (("top", 3), ("middle", 5), ("bottom", 5)):
        assert sum(1 for r in assignment.values() if r == row) == size
