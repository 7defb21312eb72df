"""The order a row's cards are shown in: by the hand they make (R2), so a player reads a row at
a glance whatever order the cards were placed in.

- Groups first, the larger group first, then the higher rank: quads, trips before the pair of
  a full house, the higher pair of two pair, pairs before kickers; kickers high to low.
- Straights high to low; the wheel A-2-3-4-5 shows the ace low: 5 4 3 2 A.
- Flushes and high cards high to low.
- A row not yet full is ordered the same way (pairs together, then high to low).
- Jokers (R9) stand where the card they stand for would: at showdown the board's choice, and
  for a full row before it the row's strongest choice; a joker in a row not yet full goes
  first (it may still become anything).
Cards of the same rank are ordered by suit (s, h, d, c), so the order is always the same.
"""

from collections import Counter
from collections.abc import Sequence

from bot.engine.board import row_options
from bot.engine.cards import Card, is_joker, rank_of, suit_of
from bot.engine.royalties import ROW_SIZES, Row

_WHEEL = frozenset((12, 0, 1, 2, 3))
ACE = 12


def order_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Natural cards in display order (jokers, if any, first)."""
    jokers = tuple(sorted((c for c in cards if is_joker(c)), reverse=True))
    natural = [c for c in cards if not is_joker(c)]
    counts = Counter(rank_of(c) for c in natural)
    wheel = len(natural) == 5 and set(counts) == _WHEEL
    def key(card: Card) -> tuple[int, int, int]:
        rank = rank_of(card)
        if wheel and rank == ACE:
            rank = -1
        return (-counts[rank_of(card)], -rank, suit_of(card))
    return jokers + tuple(sorted(natural, key=key))


def joker_choices(placed: Sequence[Card], resolved: Sequence[Card]) -> dict[Card, Card]:
    """Which card each joker of a row stands for (R9).

    `resolved` holds the row's cards with jokers replaced, in any order: the cards it has beyond
    the placed natural ones are the jokers' choices, the higher one to the first joker."""
    extra = list(resolved)
    for c in placed:
        if not is_joker(c):
            extra.remove(c)
    extra.sort(key=lambda c: (rank_of(c), -suit_of(c)), reverse=True)
    jokers = [c for c in placed if is_joker(c)]
    return dict(zip(jokers, extra, strict=True))


def strongest_choice(row: Row, placed: Sequence[Card]) -> tuple[Card, ...]:
    """A full row with its jokers replaced by the row's strongest choice (R9), on its own."""
    options = row_options(row, tuple(placed))
    return options[max(options)]


def sort_row(row: Row, placed: Sequence[Card],
             resolved: Sequence[Card] | None = None) -> tuple[Card, ...]:
    """`placed` (jokers as jokers) in display order. `resolved`: the same row with each joker
    replaced by what it stands for (a showdown's choice); without it a full row's jokers take
    the row's strongest choice, and a row not yet full shows its jokers first."""
    if not any(is_joker(c) for c in placed):
        return order_cards(placed)
    if resolved is None:
        if len(placed) < ROW_SIZES[row]:
            return order_cards(placed)
        resolved = strongest_choice(row, placed)
    shown = joker_choices(placed, resolved)
    back = {card: joker for joker, card in shown.items()}
    as_shown = [shown.get(c, c) for c in placed]
    return tuple(back.get(c, c) for c in order_cards(as_shown))
