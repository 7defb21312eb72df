"""Fantasyland (R8, R9): who plays the next hand in Fantasyland, with how many cards."""

from bot.engine.board import BoardResult
from bot.engine.evaluation import (
    FULL_HOUSE,
    KING,
    PAIR,
    QUADS,
    QUEEN,
    TRIPS,
    TUPLES,
    category_of,
)
from bot.engine.rules import TableRules

# R8: cards on entry by top hand, per mode: (QQ, KK, AA, trips)
_ENTRY = {
    "standard": (14, 14, 14, 14),
    "progressive": (14, 15, 16, 17),
    "ultimate": (14, 15, 16, 17),
    "tournament": (13, 14, 15, 16),
}
_REPEAT = {"standard": 14, "progressive": 14}
TURBO_CARDS = 13  # R9
LOWBALL_CARDS = 14  # R9, 15 when both entry conditions hold
LOWBALL_BEST = (5, 3, 2, 1, 0)  # 75432


def _top_grade(result: BoardResult, lowest_pair: int) -> int | None:
    """0-3 for pair of `lowest_pair`.. aces, then trips (as index into _ENTRY); None below."""
    t = TUPLES[result.hands[0]]
    if t[0] == TRIPS:
        return 3
    if t[0] == PAIR and t[1] >= lowest_pair:
        return t[1] - QUEEN
    return None


def _stays(result: BoardResult, full_house_middle: bool) -> bool:
    top, middle, bottom = (category_of(v) for v in result.hands)
    return top == TRIPS or bottom >= QUADS or (full_house_middle and middle >= FULL_HOUSE)


def repeats_entry(rules: TableRules) -> bool:
    """R8 ultimate: a stay deals the count the hand was entered with, so scoring a hand
    played in Fantasyland needs that count (turbo and lowball deal fixed counts, R9)."""
    return rules.fantasy == "ultimate" and rules.variant in ("pineapple", "joker")


def fantasy_cards(result: BoardResult, rules: TableRules, in_fantasy: bool,
                  entry_cards: int = 0) -> int:
    """Cards for the next hand's Fantasyland, or 0 for none.

    `in_fantasy`: this hand was played in Fantasyland; `entry_cards`: the count it was entered
    with (ultimate repeats it)."""
    if rules.fantasy == "off" or result.fouled:
        return 0
    if rules.variant == "turbo":
        if in_fantasy:
            return TURBO_CARDS if _stays(result, full_house_middle=True) else 0
        return TURBO_CARDS if _top_grade(result, QUEEN) is not None else 0
    if rules.variant == "lowball":
        if in_fantasy:
            return LOWBALL_CARDS if _stays(result, full_house_middle=False) else 0
        top_ok = _top_grade(result, KING) is not None
        middle_ok = TUPLES[result.hands[1]][1:] == LOWBALL_BEST
        if top_ok and middle_ok:
            return LOWBALL_CARDS + 1
        return LOWBALL_CARDS if top_ok or middle_ok else 0
    if in_fantasy:
        # R8: staying needs a FL hand; leaving FL with QQ+ on top does not re-enter.
        if rules.fantasy == "tournament" or not _stays(
            result, rules.fantasy_stay_full_house_middle
        ):
            return 0
        return entry_cards if repeats_entry(rules) else _REPEAT[rules.fantasy]
    grade = _top_grade(result, QUEEN)
    return 0 if grade is None else _ENTRY[rules.fantasy][grade]
