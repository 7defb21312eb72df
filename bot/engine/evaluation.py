"""Hand strength (R2) by table lookup.

Every five-card class (7,462) and every three-card class (455) has a comparison tuple
(category, defining ranks, kickers) as R2 orders them. Three-card tuples are padded with -1, so a
top row whose ranks all equal the start of a middle's sorts below it: R2 calls those equal, and
for the foul test (middle >= top) below and equal are the same answer. All tuples are merged into
one integer scale, so any two rows compare with one `<`, and a foul test is two comparisons.

Lookups: the sum of a row's card ints (cards.py) holds a rank-key sum and a suit-key sum; the
suit sum says flush or not, the rank sum indexes a list. No sorting or counting per call.
"""

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from bot.engine.cards import (
    RANK_KEYS,
    RANK_SHIFT,
    RANKS,
    SUIT_KEYS,
    SUIT_MASK,
    Card,
)
from bot.engine.text import Rank, Text

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush",
)
ACE, KING, QUEEN, TEN, FIVE = 12, 11, 10, 8, 3
_WHEEL = (12, 3, 2, 1, 0)

HandTuple = tuple[int, ...]


def _five_card_tuple(ranks: Sequence[int], flush: bool) -> HandTuple:
    """R2's comparison tuple of five ranks (indices 0-12), given whether they are suited."""
    counts = Counter(ranks)
    # Groups by size then rank, both descending: the order R2 compares in.
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(counts) == 5:
        desc = tuple(sorted(ranks, reverse=True))
        straight_high = None
        if desc[0] - desc[4] == 4:
            straight_high = desc[0]
        elif desc == _WHEEL:
            straight_high = FIVE
        if straight_high is not None:
            return (STRAIGHT_FLUSH if flush else STRAIGHT, straight_high)
        return (FLUSH if flush else HIGH_CARD, *desc)
    category = {
        (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
        (3, 2): FULL_HOUSE, (4, 1): QUADS,
    }[tuple(shape)]
    return (category, *groups)


def _three_card_tuple(ranks: Sequence[int]) -> HandTuple:
    """A top row's tuple (R2: no straights or flushes), padded to sort under equal middles."""
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    category = {3: TRIPS, 2: PAIR, 1: HIGH_CARD}[max(counts.values())]
    return (category, *groups, -1, -1)


def _rank_sum(ranks: Sequence[int]) -> int:
    return sum(RANK_KEYS[r] for r in ranks)


def _build() -> tuple[list[int], list[int], list[int], list[HandTuple], int]:
    five: dict[tuple[tuple[int, ...], bool], HandTuple] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        five[(ranks, False)] = _five_card_tuple(ranks, False)
        if len(set(ranks)) == 5:
            five[(ranks, True)] = _five_card_tuple(ranks, True)
    three = {
        ranks: _three_card_tuple(ranks)
        for ranks in combinations_with_replacement(range(13), 3)
    }
    ordered = sorted(set(five.values()) | set(three.values()))
    value_of = {t: v for v, t in enumerate(ordered, start=1)}
    size = _rank_sum((12, 12, 12, 12, 11)) + 1
    plain, suited, top = [0] * size, [0] * size, [0] * size
    for (five_ranks, flush), t in five.items():
        (suited if flush else plain)[_rank_sum(five_ranks)] = value_of[t]
    for top_ranks, t in three.items():
        top[_rank_sum(top_ranks)] = value_of[t]
    return plain, suited, top, [(-1,), *ordered], len(five)


_PLAIN5, _FLUSH5, _TOP3, TUPLES, FIVE_CARD_CLASS_COUNT = _build()
# The values by rank-key sum (cards.RANK_KEYS), for reasoning about cards not yet known: five
# unsuited, five suited (all different ranks), three.
PLAIN5, FLUSH5, TOP3 = _PLAIN5, _FLUSH5, _TOP3
# A five-card suit-key sum is a flush exactly when one suit's octal digit is 5.
_FLUSH_SUITS = frozenset(5 * k for k in SUIT_KEYS)
CATEGORY: list[int] = [t[0] for t in TUPLES]


def eval5(cards: Sequence[Card]) -> int:
    """Strength of five cards on the common scale (higher is stronger)."""
    a, b, c, d, e = cards
    s = a + b + c + d + e
    if (s & SUIT_MASK) in _FLUSH_SUITS:
        return _FLUSH5[s >> RANK_SHIFT]
    return _PLAIN5[s >> RANK_SHIFT]


def eval3(cards: Sequence[Card]) -> int:
    """Strength of a three-card top row on the same scale as eval5."""
    a, b, c = cards
    return _TOP3[(a + b + c) >> RANK_SHIFT]


def eval_row(cards: Sequence[Card]) -> int:
    """eval3 or eval5 by length."""
    return eval3(cards) if len(cards) == 3 else eval5(cards)


def category_of(value: int) -> int:
    return CATEGORY[value]


def ranks_of(value: int) -> tuple[int, ...]:
    """The defining ranks of a value's class, in R2 order, without the top row's padding."""
    return tuple(r for r in TUPLES[value][1:] if r >= 0)


def is_royal(value: int) -> bool:
    return TUPLES[value] == (STRAIGHT_FLUSH, ACE)


def is_low(value: int) -> bool:
    """A legal 2-7 low middle (R9 lowball): no pair, straight or flush, ten-high or lower."""
    t = TUPLES[value]
    return t[0] == HIGH_CARD and len(t) == 6 and t[1] <= TEN


def _rank_text(rank: int) -> str:
    return "10" if RANKS[rank] == "T" else RANKS[rank]


def low_text(value: int) -> Text:
    """'7-5 low': the two highest cards of a 2-7 low."""
    r = ranks_of(value)
    return Text("{high}-{next} low", high=_rank_text(r[0]), next=_rank_text(r[1]))


def low_name(value: int) -> str:
    return str(low_text(value))


def hand_name(value: int) -> str:
    """A readable name: 'Pair of Queens', 'Flush, ace high', 'Full house, kings full of fives'."""
    return _NAMES[value]


def hand_text(value: int) -> Text:
    """The hand's name as a Text (for a player's language; str() is `hand_name`)."""
    t = TUPLES[value]
    category, ranks = t[0], ranks_of(value)
    first = Rank(ranks[0])
    if category == HIGH_CARD:
        return Text("{rank:Name} high", rank=first)
    if category == PAIR:
        return Text("Pair of {rank:Plural}", rank=first)
    if category == TWO_PAIR:
        return Text("Two pair, {high:plural} and {low:plural}", high=first, low=Rank(ranks[1]))
    if category == TRIPS:
        return Text("Three of a kind, {rank:plural}", rank=first)
    if category == STRAIGHT:
        return Text("Straight, {rank:name} high", rank=first)
    if category == FLUSH:
        return Text("Flush, {rank:name} high", rank=first)
    if category == FULL_HOUSE:
        return Text("Full house, {trips:plural} full of {pair:plural}", trips=first,
                    pair=Rank(ranks[1]))
    if category == QUADS:
        return Text("Four of a kind, {rank:plural}", rank=first)
    if is_royal(value):
        return Text("Royal flush")
    return Text("Straight flush, {rank:name} high", rank=first)


_NAMES = ["", *(str(hand_text(v)) for v in range(1, len(TUPLES)))]



def all_five_card_values() -> list[int]:
    """Every five-card value, by enumerating the 2,598,960 hands (the full check, slow)."""
    from bot.engine.cards import DECK

    return [eval5(h) for h in combinations(DECK, 5)]
