"""Dealing (R1, R7, R9): streets per variant, the shuffled deck, cards in state JSON."""

import random
import secrets
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated

from bot.engine import codec
from bot.engine.board import Board
from bot.engine.cards import DECK, JOKERS, Card, card_str, full_deck
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules
from bot.engine.text import Text

BOARD_CARDS = 13


@dataclass(frozen=True, slots=True)
class Street:
    cards: int  # dealt
    discards: int  # of them discarded face down


# R7: pineapple 5, then 3 x 4 (2 placed, 1 discarded); turbo 5, 4, 4 all placed.
PINEAPPLE_STREETS = (Street(5, 0),) + (Street(3, 1),) * 4
TURBO_STREETS = (Street(5, 0), Street(4, 0), Street(4, 0))


def streets(rules: TableRules) -> tuple[Street, ...]:
    return TURBO_STREETS if rules.variant == "turbo" else PINEAPPLE_STREETS


def check_seats(rules: TableRules, count: int) -> None:
    """R7: the pineapple family seats 2-3 (17 cards each), turbo 2-4; and the table's `seats`."""
    if count < 2:
        raise RuleError(Text("A match needs at least two players."))
    limit = min(rules.seats, rules.max_seats)
    if count > limit:
        raise RuleError(Text("This table seats at most {n} player.",
                             "This table seats at most {n} players.", n=limit))



def shuffled_deck(rules: TableRules, seed: int | None, hand_no: int) -> list[Card]:
    """R1: an unpredictable shuffle, or with `seed` (tests, simulations) one fixed per hand."""
    deck = full_deck(jokers=rules.jokers)
    # A seeded hand's deck depends on the seed and the hand number only (hand_no < 2^20).
    rng = secrets.SystemRandom() if seed is None else random.Random(seed * 2**20 + hand_no)
    # Sorting by independent 64-bit random keys is a uniform shuffle (a tie, odds about
    # 2^-53, keeps deck order); one draw of all the keys is one system call, not 52.
    keys = struct.unpack(f"<{len(deck)}Q", rng.randbytes(8 * len(deck)))
    return [card for _, card in sorted(zip(keys, deck, strict=True))]


# State JSON names cards as text; the two jokers are told apart ("X1", "X2") so a restored state
# is the same state, whereas display text calls both "X".
CODE = {c: card_str(c) for c in DECK} | {JOKERS[0]: "X1", JOKERS[1]: "X2"}  # card -> state text
_DECODE = {t: c for c, t in CODE.items()}


def encode(cards: Iterable[Card]) -> list[str]:
    return [CODE[c] for c in cards]


def decode(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(_DECODE[t] for t in codes)


def encode_board(board: Board) -> list[list[str]]:
    return [encode(board.top), encode(board.middle), encode(board.bottom)]


def decode_board(rows: list[list[str]]) -> Board:
    top, middle, bottom = (decode(r) for r in rows)
    return Board(top, middle, bottom)


# How state JSON (bot/engine/codec.py) holds cards: a row, hand or deck as a list of state text,
# a board as its three rows, a draft's cards as the keys of an object.
CARDS = codec.Custom(encode, decode)
DECK_CARDS = codec.Custom(encode, lambda codes: list(decode(codes)))
BOARD = codec.Custom(encode_board, decode_board)
CARD_KEYS = codec.Custom(lambda rows: dict(zip(encode(rows), rows.values(), strict=True)),
                         lambda rows: dict(zip(decode(rows), rows.values(), strict=True)))
Cards = Annotated[tuple[Card, ...], CARDS]

TEXT = {c: card_str(c) for c in CODE}  # display text ("X" for both jokers), for event data


def texts(cards: Iterable[Card]) -> tuple[str, ...]:
    text = TEXT
    return tuple([text[c] for c in cards])
