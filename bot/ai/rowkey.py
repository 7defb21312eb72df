"""A row of cards as one int, its key: the sum of its cards (cards.py).

The card ints are built so that a row's sum names its rank multiset (the rank part, above
RANK_SHIFT) and how many cards of each suit it holds (the suit part, one octal digit a suit),
which is all the playout policy and the final scoring need to know about a row. So adding a card
to a row is one addition, a row's worth is one dictionary lookup by its key, and a complete row's
strength is the engine's own list lookup by the rank part (evaluation.py). Jokers (R9) have no
key: the joker variant is played by `strong-v1`.
"""

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations_with_replacement

from bot.engine.cards import RANK_KEYS, RANK_SHIFT, SUIT_MASK, Card
from bot.engine.evaluation import FLUSH5, PLAIN5, TOP3, TUPLES

# per suit part: (cards, every card of one suit); a suit holds at most five cards of a row
SUITS: list[tuple[int, bool]] = []
for _part in range(SUIT_MASK + 1):
    _digits = [_part >> shift & 7 for shift in (0, 3, 6, 9)]
    SUITS.append((sum(_digits), max(_digits) == sum(_digits) > 0))
# per evaluation value: category * 16 + main rank, comparable across rows as R2 orders them
MADE = [0] + [t[0] * 16 + t[1] for t in TUPLES[1:]]


def row_key(cards: Iterable[Card]) -> int:
    return sum(cards)


@lru_cache(maxsize=1)
def multisets() -> dict[tuple[int, int], tuple[int, ...]]:
    """(count, rank part) -> the ranks (ascending), for every multiset of up to five ranks, four
    alike at most: the rank keys make these sums unique for each count (cards.py)."""
    out = {}
    for n in range(6):
        for ranks in combinations_with_replacement(range(13), n):
            if max((ranks.count(r) for r in ranks), default=0) <= 4:
                out[(n, sum(RANK_KEYS[r] for r in ranks))] = ranks
    return out


def ranks(key: int) -> tuple[int, ...]:
    """The ranks in a row, ascending."""
    return multisets()[(SUITS[key & SUIT_MASK][0], key >> RANK_SHIFT)]


def value3(key: int) -> int:
    """The evaluation value (evaluation.py's scale) of a complete top."""
    return TOP3[key >> RANK_SHIFT]


def value5(key: int) -> int:
    """The evaluation value of a complete five-card row."""
    if SUITS[key & SUIT_MASK][1]:
        return FLUSH5[key >> RANK_SHIFT]
    return PLAIN5[key >> RANK_SHIFT]
