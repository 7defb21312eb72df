"""Boards (R2, R3, R4, R9): rows, the foul check, royalties, names, and joker resolution."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from bot.engine.cards import DECK, Card, cards_str, is_joker, parse_cards
from bot.engine.errors import RuleError
from bot.engine.evaluation import eval3, eval5, hand_text, is_low, low_text
from bot.engine.royalties import ROW_SIZES, ROWS, ROYALTY, Row, middle_royalties
from bot.engine.rules import TableRules
from bot.engine.text import Text

ROW_FULL = {"top": Text("Top row is full."), "middle": Text("Middle row is full."),
            "bottom": Text("Bottom row is full.")}


@dataclass(frozen=True, slots=True)
class Board:
    """Three rows of cards, possibly partly filled."""

    top: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()

    def row(self, name: Row) -> tuple[Card, ...]:
        return getattr(self, name)  # type: ignore[no-any-return]

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.top, self.middle, self.bottom)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.top + self.middle + self.bottom

    @property
    def complete(self) -> bool:
        return all(len(self.row(r)) == ROW_SIZES[r] for r in ROWS)

    def free(self, name: Row) -> int:
        return ROW_SIZES[name] - len(self.row(name))

    def with_cards(self, name: Row, cards: Iterable[Card]) -> "Board":
        """A copy with `cards` added to row `name` (RuleError when they do not fit)."""
        added = tuple(cards)
        if len(added) > self.free(name):
            raise RuleError(ROW_FULL[name])
        rows = {r: self.row(r) for r in ROWS}
        rows[name] = rows[name] + added
        return Board(**rows)

    def text(self) -> dict[Row, str]:
        return {r: cards_str(self.row(r)) for r in ROWS}

    @staticmethod
    def parse(top: str, middle: str, bottom: str, jokers: bool = False) -> "Board":
        """A complete board from text rows; RuleError for a bad card, a repeat or a bad length."""
        rows: dict[Row, tuple[Card, ...]] = {}
        for name, text in zip(ROWS, (top, middle, bottom), strict=True):
            rows[name] = tuple(parse_cards(text, allow_jokers=jokers))
            if len(rows[name]) != ROW_SIZES[name]:
                raise RuleError(Text("the {row} row needs {size} cards, not {n}.",
                                     row=name, size=ROW_SIZES[name], n=len(rows[name])))

        # Re-parse all rows together: a card repeated across rows, or a third joker, is named.
        parse_cards(" ".join(top.split() + middle.split() + bottom.split()), allow_jokers=jokers)
        return Board(**rows)


class BoardResult(NamedTuple):
    """A complete board as scored: what R3, R4 and R5 need to know about it.

    A NamedTuple rather than a dataclass: scoring builds millions of these in simulations."""

    board: Board  # as placed, jokers included
    resolved: Board  # jokers replaced by the cards they stand for (R9)
    fouled: bool
    hands: tuple[int, int, int]  # evaluation values of top, middle, bottom (resolved)
    lines: tuple[int, int, int]  # line strength per row, higher wins (lowball middle: -value)
    royalties: tuple[int, int, int]  # per row; all 0 when fouled (R3)
    lowball: bool = False

    @property
    def total_royalties(self) -> int:
        return sum(self.royalties)

    @property
    def texts(self) -> tuple[Text, Text, Text]:
        """Each row's hand in words, for a player's language."""
        top, middle, bottom = self.hands
        return (row_text("top", top), row_text("middle", middle, self.lowball),
                row_text("bottom", bottom))

    @property
    def names(self) -> tuple[str, str, str]:
        top, middle, bottom = self.texts
        return (str(top), str(middle), str(bottom))


def row_text(row: Row, value: int, lowball: bool = False) -> Text:
    """A row's hand in words; a lowball middle (R9) as a 2-7 low."""
    if lowball and row == "middle":
        return low_text(value) if is_low(value) else Text(
            "{hand} (not a 2-7 low)", hand=hand_text(value))
    return hand_text(value)


def row_name(row: Row, value: int, lowball: bool = False) -> str:
    return str(row_text(row, value, lowball))


def board_texts(resolved: Board, lowball: bool = False) -> tuple[Text, Text, Text]:
    """The rows of a complete board, its jokers already resolved (R9), in words."""
    return (row_text("top", eval3(resolved.top)),
            row_text("middle", eval5(resolved.middle), lowball),
            row_text("bottom", eval5(resolved.bottom)))




def _fouled(top: int, middle: int, bottom: int, lowball: bool) -> bool:
    """R3: bottom >= middle >= top; R9 lowball: a legal low middle and bottom >= top."""
    if lowball:
        return not is_low(middle) or top > bottom
    return top > middle or middle > bottom


def row_options(row: Row, cards: tuple[Card, ...]) -> dict[int, tuple[Card, ...]]:
    """Each value the row can take, with one choice of cards for its jokers (R9).

    A joker may be any card but one already in its own row (no five of a kind)."""
    fixed = tuple(c for c in cards if not is_joker(c))
    wild = len(cards) - len(fixed)
    evaluate = eval3 if row == "top" else eval5
    if not wild:
        return {evaluate(fixed): fixed}
    pool = [c for c in DECK if c not in fixed]
    options: dict[int, tuple[Card, ...]] = {}
    for extra in combinations(pool, wild):
        hand = fixed + extra
        options.setdefault(evaluate(hand), hand)
    return options


def evaluate_board(board: Board, rules: TableRules) -> BoardResult:
    """Score one complete board under `rules`: foul, royalties, names (R3, R4, R9)."""
    top_cards, middle_cards, bottom_cards = board.top, board.middle, board.bottom
    if len(top_cards) != 3 or len(middle_cards) != 5 or len(bottom_cards) != 5:
        raise RuleError(Text("the board is not complete."))
    lowball = rules.variant == "lowball"
    if min(top_cards + middle_cards + bottom_cards) < 0:
        values, resolved = _resolve_jokers(board, rules.royalties, lowball)
    else:
        values, resolved = (eval3(top_cards), eval5(middle_cards), eval5(bottom_cards)), board
    top, middle, bottom = values
    fouled = _fouled(top, middle, bottom, lowball)
    return BoardResult(
        board,
        resolved,
        fouled,
        values,
        (top, -middle if lowball else middle, bottom),
        (0, 0, 0) if fouled else _royalties(rules.royalties, values, lowball),
        lowball,
    )


def _royalties(table: str, values: tuple[int, int, int], lowball: bool) -> tuple[int, int, int]:
    top, middle, bottom = values
    rows = ROYALTY[table]
    return (rows["top"][top], middle_royalties(table, lowball)[middle], rows["bottom"][bottom])


def _resolve_jokers(board: Board, table: str,
                    lowball: bool) -> tuple[tuple[int, int, int], Board]:
    """R9: not fouled if any choice avoids it; then most royalties, then the strongest bottom,
    middle, top."""
    options = [row_options(r, board.row(r)) for r in ROWS]
    best: tuple[tuple[int, ...], tuple[int, int, int]] | None = None
    for bottom in options[2]:
        for middle in options[1]:
            for top in options[0]:
                values = (top, middle, bottom)
                fouled = _fouled(top, middle, bottom, lowball)
                earned = 0 if fouled else sum(_royalties(table, values, lowball))
                key = (not fouled, earned, bottom, middle, top)
                if best is None or key > best[0]:
                    best = (key, values)
    assert best is not None
    values = best[1]
    return values, Board(*(opts[v] for opts, v in zip(options, values, strict=True)))


def board_from_rows(rows: Sequence[Sequence[Card]]) -> Board:
    top, middle, bottom = (tuple(r) for r in rows)
    return Board(top, middle, bottom)
