"""The playout policy: row keys, legal placements, no foul it could avoid."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.fantasy_value import fantasy_worth
from bot.ai.policy import Policy, plan
from bot.ai.rowkey import multisets, ranks, row_key, value3, value5
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import DECK, parse_cards, rank_of
from bot.engine.deal import streets
from bot.engine.evaluation import eval3, eval5
from bot.engine.outlook import foul_unavoidable
from bot.engine.placement import legal_assignments
from bot.engine.rules import TableRules

VARIANTS = ("pineapple", "turbo", "lowball")


def policy(variant: str = "pineapple") -> Policy:
    rules = TableRules(variant=variant)
    return Policy(rules, fantasy_worth(rules, None))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=5, unique=True))
def test_a_row_key_names_its_ranks_and_strength(cards: list[int]) -> None:
    key = row_key(cards)
    assert ranks(key) == tuple(sorted(rank_of(c) for c in cards))
    if len(cards) == 3:
        assert value3(key) == eval3(cards)
    if len(cards) == 5:
        assert value5(key) == eval5(cards)


def test_every_small_rank_multiset_is_named_once() -> None:
    # 13 ranks, up to five cards, at most four alike: 1 + 13 + 91 + 455 + 1820 + 6175
    assert len(multisets()) == 1 + 13 + 91 + 455 + 1820 + (6188 - 13)


def test_plan_is_the_engines_legal_placements() -> None:
    rng = random.Random(4)
    for _ in range(50):
        board = Board(tuple(rng.sample(DECK, 0)))
        cards = rng.sample(DECK, 13)
        top, middle, bottom = rng.randint(0, 3), rng.randint(0, 5), rng.randint(0, 5)
        board = Board(tuple(cards[:top]), tuple(cards[3:3 + middle]), tuple(cards[8:8 + bottom]))
        free = 13 - len(board.cards)
        dealt = tuple(c for c in DECK if c not in cards)[:3] if free >= 2 else ()
        if not dealt:
            continue
        discards = 1 if free >= 2 else 0
        engine = {tuple(sorted(a.items())) for a in legal_assignments(board, dealt, discards)}
        ours = set()
        for choice in plan(3 - top, 5 - middle, 5 - bottom, 3, discards).choices:
            out = {}
            for i, card in enumerate(dealt):
                row = next((name for name, mask in zip(("top", "middle", "bottom"), choice,
                                                       strict=False) if mask >> i & 1),
                           "discard")
                out[card] = row
            ours.add(tuple(sorted(out.items())))
        assert ours == engine


def _random_state(rng: random.Random, variant: str) -> tuple[Board, list[int], int, int]:
    """A board part-way through a hand (filled at random), the next street's cards, its
    discards and the streets left after it."""
    plan_ = streets(TableRules(variant=variant))
    street = rng.randrange(1, len(plan_))
    deck = list(DECK)
    rng.shuffle(deck)
    placed = plan_[0].cards + sum(s.cards - s.discards for s in plan_[1:street])
    slots = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
    rng.shuffle(slots)
    rows: dict[str, list[int]] = {"top": [], "middle": [], "bottom": []}
    for card, row in zip(deck[:placed], slots, strict=False):
        rows[row].append(card)
    now = plan_[street]
    dealt = deck[placed:placed + now.cards]
    board = Board(tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]))
    return board, dealt, now.discards, len(plan_) - street - 1


def _place(p: Policy, board: Board, dealt: list[int], discards: int,
           left: int) -> tuple[Board, float]:
    keys = (row_key(board.top), row_key(board.middle), row_key(board.bottom))
    free = (3 - len(board.top), 5 - len(board.middle), 5 - len(board.bottom))
    choice, score = p.best(keys, free, dealt, discards, left)
    rows = [list(r) for r in board.rows]
    for row in range(3):
        rows[row] += [c for i, c in enumerate(dealt) if choice[row] >> i & 1]
    return Board(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])), score


def _certain_foul(board: Board, dealt: list[int], lowball: bool) -> bool:
    """The engine's outlook: no way to fill the free places from the cards not yet seen avoids
    a foul (R3; R9 lowball). When it says so it is always right."""
    seen = set(board.cards) | set(dealt)
    return foul_unavoidable(board, [c for c in DECK if c not in seen], lowball)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(VARIANTS))
def test_the_policy_keeps_the_board_legal_when_it_claims_it_can(seed: int, variant: str) -> None:
    """Its choice is one of the engine's legal placements. When it counts its board safe (no
    foul chance), the board can still end legal (the engine's outlook, exact this late in a
    hand). When it counts some placement not certain to foul, it does not choose one it counts
    certain to. And on the last street, when any placement keeps the board legal, its board is
    legal (the engine scores it)."""
    rng = random.Random(seed)
    board, dealt, discards, left = _random_state(rng, variant)
    p = policy(variant)
    chosen, _ = _place(p, board, dealt, discards, left)
    lowball = variant == "lowball"
    others = []
    for assignment in legal_assignments(board, tuple(dealt), discards):
        rows = [list(r) for r in board.rows]
        for card, row in assignment.items():
            if row != "discard":
                rows[("top", "middle", "bottom").index(row)].append(card)
        others.append(Board(tuple(rows[0]), tuple(rows[1]), tuple(rows[2])))
    assert chosen in others

    def foul_chance(b: Board) -> float:
        return p.foul_chance((row_key(b.top), row_key(b.middle), row_key(b.bottom)), left)

    if foul_chance(chosen) == 0.0:
        assert not _certain_foul(chosen, dealt, lowball)
    if any(foul_chance(b) < 1.0 for b in others):
        assert foul_chance(chosen) < 1.0
    rules = TableRules(variant=variant)
    if chosen.complete and any(not evaluate_board(b, rules).fouled for b in others):
        assert not evaluate_board(chosen, rules).fouled


def test_the_policy_pairs_queens_on_top_when_the_board_carries_them() -> None:
    """R8: with a made middle and bottom, a second queen goes on top (Fantasyland)."""
    p = policy()
    board = Board(tuple(parse_cards("Qh 4c")), tuple(parse_cards("Ks Kd 9c 9d")),
                  tuple(parse_cards("As Ad Ac 2h")))
    chosen, _ = _place(p, board, parse_cards("Qs 7h 3d"), 1, 1)
    assert set(parse_cards("Qs")) <= set(chosen.top)


def test_fantasyland_is_worth_what_the_rules_earn() -> None:
    """A pair of queens or better on top is worth a Fantasyland hand, a lower pair is not, and
    with Fantasyland off nothing is (R8)."""
    p = policy()
    assert p.pair_fantasy[10] > 0 and p.pair_fantasy[9] == 0  # QQ, JJ
    off = TableRules(fantasy="off")
    assert Policy(off, fantasy_worth(off, None)).pair_fantasy == [0.0] * 13
    low = TableRules(variant="lowball")  # R9: kings or better
    assert Policy(low, fantasy_worth(low, None)).pair_fantasy[10] == 0


def test_a_policy_that_forgets_chooses_as_before() -> None:
    """The worths it remembers are only a cache: after reset the same street gets the same
    placement (players.py resets a policy that has remembered too much)."""
    p = policy()
    rng = random.Random(12)
    states = [_random_state(rng, "pineapple") for _ in range(30)]
    before = [_place(p, *state) for state in states]
    assert p.size() > 0
    p.reset()
    assert p.size() == 0
    assert [_place(p, *state) for state in states] == before


def test_a_top_earns_fantasyland_by_the_rules() -> None:
    """R8: a pair of queens or better, or trips, on top earns Fantasyland; a lower pair or a
    lone queen does not; R9 lowball asks for kings; with Fantasyland off nothing earns it."""
    p = policy()

    def earns(rules_policy: Policy, cards: str) -> bool:
        return rules_policy.earns_fantasy(sum(parse_cards(cards)))

    assert earns(p, "Qs Qh") and earns(p, "As Ah 2c") and earns(p, "2s 2h 2d")
    assert not earns(p, "Js Jh") and not earns(p, "Qs") and not earns(p, "Qs Kh 2c")
    low = TableRules(variant="lowball")
    lowball = Policy(low, fantasy_worth(low, None))
    assert earns(lowball, "Ks Kh") and not earns(lowball, "Qs Qh")
    off = TableRules(fantasy="off")
    assert not earns(Policy(off, fantasy_worth(off, None)), "As Ah")
