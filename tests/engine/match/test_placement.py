"""One action's helpers (bot.engine.placement): enumeration, sampling, the R10 placement."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.board import Board
from bot.engine.cards import DECK
from bot.engine.placement import (
    DISCARD,
    apply,
    auto_assignment,
    legal_assignments,
    needs,
    random_assignment,
)
from tests.engine.match.helpers import cards_of


def test_counts_of_legal_street_assignments() -> None:
    five = tuple(cards_of("Ah Kh Qh Jh Th"))
    # 3^5 = 243 row choices, less those with 4 (5 x 2 ways) or 5 (1 way) cards on top: 232.
    assert len(list(legal_assignments(Board(), five, 0))) == 232
    three = tuple(cards_of("2c 3c 4c"))
    one_each = Board(tuple(cards_of("2d 3d")), tuple(cards_of("4d 5d 6d 7d")),
                     tuple(cards_of("8d 9d Td Jd")))
    # 3 discards x (2 kept cards in 2 different rows of the 3 with one place each: 3 x 2).
    assert len(list(legal_assignments(one_each, three, 1))) == 18
    top_full = Board(tuple(cards_of("2d 3d 4d")), tuple(cards_of("5d 6d 7d")),
                     tuple(cards_of("8d 9d Td Jd Qd")))
    # Only the middle has room (2): 3 choices of discard, both kept cards in the middle.
    assert len(list(legal_assignments(top_full, three, 1))) == 3
    assert needs(top_full, three, 1).place == 2 and needs(top_full, three, 1).middle == 2


def test_auto_assignment_follows_r10() -> None:
    dealt = tuple(cards_of("Ah Kh Qh"))
    partly = Board((), tuple(cards_of("2c")), tuple(cards_of("3c 4c 5c 6c")))
    # First card: bottom's last place; second: middle; third discarded.
    assert auto_assignment(partly, dealt, 1) == dict(zip(dealt, ("bottom", "middle", DISCARD),
                                                         strict=True))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), street=st.integers(1, 5))
def test_random_assignments_are_legal(seed: int, street: int) -> None:
    """Random boards part filled as after `street - 1` pineapple streets; the sample always
    passes the full check, with exactly one discard after street 1."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    board, placed = Board(), 0
    for size, discards in [(5, 0), (3, 1), (3, 1), (3, 1), (3, 1)][:street]:
        dealt = tuple(deck[placed:placed + size])
        placed += size
        assignment = random_assignment(board, dealt, discards, rng)
        board, kept, thrown = apply(board, dealt, discards, assignment)
        assert len(thrown) == discards and len(kept) == size - discards
    assert len(board.cards) == 5 + 2 * (street - 1)
