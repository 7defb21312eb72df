"""Hypothesis properties of scoring (R5) and settlement (R6) over random whole hands."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.board import Board, evaluate_board
from bot.engine.cards import full_deck
from bot.engine.rules import TableRules
from bot.engine.scoring import score_hand
from bot.engine.settlement import settle

VARIANTS = ["pineapple", "lowball", "joker", "turbo"]


@st.composite
def hands(draw: st.DrawFn) -> tuple[TableRules, list[Board], list[int], int]:
    variant = draw(st.sampled_from(VARIANTS))
    rules = TableRules(variant=variant, scoring=draw(st.sampled_from(["1-6", "2-4"])),
                       royalties=draw(st.sampled_from(["american", "russian"])),
                       point_value=draw(st.integers(1, 5)))
    players = draw(st.integers(2, 4 if variant == "turbo" else 3))
    deck = draw(st.permutations(full_deck(jokers=rules.jokers)))
    boards = [Board(tuple(deck[i:i + 3]), tuple(deck[i + 3:i + 8]), tuple(deck[i + 8:i + 13]))
              for i in range(0, 13 * players, 13)]
    stacks = draw(st.lists(st.integers(0, 300), min_size=players, max_size=players))
    return rules, boards, stacks, draw(st.integers(0, players - 1))


@settings(max_examples=150, deadline=None)
@given(hands())
def test_points_sum_to_zero_and_settlement_conserves_within_both_caps(hand) -> None:
    rules, boards, stacks, button = hand
    results = [evaluate_board(b, rules) for b in boards]
    points, pairs = score_hand(results, rules.scoring, button)
    assert sum(points) == 0
    after, transfers = settle(stacks, pairs, rules.point_value)
    assert sum(after) == sum(stacks)
    assert min(after) >= 0
    running = list(stacks)
    for t in transfers:
        assert 0 <= t.paid <= min(t.owed, running[t.payer], running[t.payee])
        # The cap bites only where a stack is short: otherwise everything owed moves.
        assert t.paid == min(t.owed, running[t.payer], running[t.payee])
        running[t.payer] -= t.paid
        running[t.payee] += t.paid
    assert running == after


@settings(max_examples=150, deadline=None)
@given(hands())
def test_fouled_board_gets_no_royalties_and_wins_no_line(hand) -> None:
    rules, boards, _, button = hand
    results = [evaluate_board(b, rules) for b in boards]
    _, pairs = score_hand(results, rules.scoring, button)
    for r in results:
        if r.fouled:
            assert r.royalties == (0, 0, 0)
    for p in pairs:
        if results[p.a].fouled:
            assert max(p.lines) <= 0
        if results[p.b].fouled:
            assert min(p.lines) >= 0


@settings(max_examples=100, deadline=None)
@given(hands(), st.randoms(use_true_random=False))
def test_listing_order_changes_nothing_but_through_the_button(hand, rnd) -> None:
    rules, boards, stacks, button = hand
    n = len(boards)
    results = [evaluate_board(b, rules) for b in boards]
    points, pairs = score_hand(results, rules.scoring, button)
    _, transfers = settle(stacks, pairs, rules.point_value)

    # Points do not depend on the listing at all.
    order = list(range(n))
    rnd.shuffle(order)
    shuffled_points, _ = score_hand([results[i] for i in order], rules.scoring,
                                    order.index(button))
    assert [shuffled_points[order.index(i)] for i in range(n)] == points

    # Rotating the seats together with the button leaves settlement unchanged.
    shift = rnd.randrange(n)
    rotated = [(i + shift) % n for i in range(n)]  # new position k holds old seat rotated[k]
    r_points, r_pairs = score_hand([results[i] for i in rotated], rules.scoring,
                                   rotated.index(button))
    _, r_transfers = settle([stacks[i] for i in rotated], r_pairs, rules.point_value)
    assert [r_points[rotated.index(i)] for i in range(n)] == points
    assert [(rotated[t.payer], rotated[t.payee], t.owed, t.paid) for t in r_transfers] == [
        (t.payer, t.payee, t.owed, t.paid) for t in transfers]
