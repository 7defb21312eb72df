"""Cards (R1): parsing, printing, the deck.

A card is a plain int chosen so that the sum of five (or three) cards identifies the hand:
bits 12 and up hold a rank key (sums of up to five keys, at most four alike, are unique), bits
0-11 hold a suit key (1, 8, 64, 512: a five-card sum shows a flush as one octal digit 5). This
lets evaluation be one addition and one list lookup (see evaluation.py). Jokers are negative.
"""

from collections.abc import Iterable, Sequence
from typing import TypeAlias

from bot.engine.errors import RuleError
from bot.engine.text import Text, excerpt

Card: TypeAlias = int

RANKS = "23456789TJQKA"
SUITS = "shdc"

# Smallest keys whose 3- and 5-card multisets (at most four of a rank) have distinct sums.
RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
SUIT_KEYS = (1, 8, 64, 512)
SUIT_MASK = 4095
RANK_SHIFT = 12

JOKERS: tuple[Card, Card] = (-1, -2)
JOKER_TEXT = "X"


def make_card(rank: int, suit: int) -> Card:
    """The card of rank index 0-12 (2..A) and suit index 0-3 (s, h, d, c)."""
    return (RANK_KEYS[rank] << RANK_SHIFT) | SUIT_KEYS[suit]


DECK: tuple[Card, ...] = tuple(make_card(r, s) for r in range(13) for s in range(4))
_RANK_OF = {c: i // 4 for i, c in enumerate(DECK)}
_SUIT_OF = {c: i % 4 for i, c in enumerate(DECK)}
_TEXT = {c: RANKS[i // 4] + SUITS[i % 4] for i, c in enumerate(DECK)}
_TEXT.update({j: JOKER_TEXT for j in JOKERS})
_PARSE = {t.lower(): c for c, t in _TEXT.items() if c >= 0}
INDEX: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
INDEX.update({JOKERS[0]: 52, JOKERS[1]: 53})


def is_joker(card: Card) -> bool:
    return card < 0


def rank_of(card: Card) -> int:
    """Rank index 0 (deuce) to 12 (ace)."""
    return _RANK_OF[card]


def suit_of(card: Card) -> int:
    return _SUIT_OF[card]


def card_str(card: Card) -> str:
    return _TEXT[card]


def cards_str(cards: Iterable[Card]) -> str:
    return " ".join(_TEXT[c] for c in cards)


def full_deck(jokers: bool = False) -> list[Card]:
    """A fresh unshuffled deck: 52 cards, or 54 with the two jokers (R9)."""
    return list(DECK) + (list(JOKERS) if jokers else [])


def parse_card(token: str) -> Card:
    """One card: `Ah`, `td`, `10c` (10 for T, either case); `X` is a joker (the first one)."""
    cards = parse_cards([token])
    return cards[0]


def parse_cards(text: str | Sequence[str], allow_jokers: bool = True) -> list[Card]:
    """Cards separated by spaces or commas (or a list of tokens).

    Each joker token `X` takes the next unused joker, so two jokers are two distinct cards.
    Raises RuleError naming the first bad token or the first repeated card.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out: list[Card] = []
    seen: set[Card] = set()
    jokers_used = 0
    for raw in tokens:
        token = raw.strip()
        low = token.lower()
        if low == "x" and allow_jokers:
            if jokers_used == len(JOKERS):
                raise RuleError(Text("there are only two jokers."))
            card = JOKERS[jokers_used]
            jokers_used += 1
        else:
            if low.startswith("10"):
                low = "t" + low[2:]
            if low not in _PARSE:
                raise RuleError(Text("'{token}' is not a card.", token=excerpt(token)))
            card = _PARSE[low]
            if card in seen:
                raise RuleError(Text("{card} appears twice.", card=_TEXT[card]))
        seen.add(card)
        out.append(card)
    return out
