"""/ofc solve's picture: a Fantasyland arrangement alone (R8). No seat, no turn, no dealer, no
chips, no table's header (the message's title says what it is): the board with each row's
hand and royalty, the Fantasyland it keeps, and the discards."""

from collections.abc import Sequence

from PIL import Image

from bot.engine.board import Board, evaluate_board
from bot.engine.cards import Card
from bot.engine.outlook import outlook
from bot.engine.rules import TableRules
from bot.i18n import ENGLISH, t
from rendering import theme
from rendering.board import Tile, shown_rows
from rendering.canvas import panel_base, text, to_png
from rendering.hand import draw_labelled_board, label_room, labelled_height
from rendering.private import (
    DISCARD_CARD,
    EDGE,
    INNER,
    PAD,
    PLACE_SIZE,
    WIDTH,
    card_line,
    line_height,
)

CARD = 80


def solution_image(board: Board, discards: Sequence[Card], rules: TableRules,
                   four_colour: bool = False, locale: str = ENGLISH) -> Image.Image:
    """A complete `board` (jokers as jokers) and the cards it leaves out. Kept in Fantasyland
    is judged as from a Fantasyland hand of all these cards (R8)."""
    size = len(board.cards) + len(discards)
    seen = outlook(board, rules, in_fantasy=True, entry_cards=size)
    board_h = labelled_height(CARD, seen)
    discards_h = PLACE_SIZE + 8 + line_height(DISCARD_CARD) if discards else 0
    panel_h = 2 * PAD + board_h + discards_h
    img = Image.new("RGB", (WIDTH, 2 * EDGE + panel_h), theme.FELT)
    y = EDGE
    img.paste(panel_base(WIDTH - 2 * EDGE, panel_h), (EDGE, y))
    rows = shown_rows(board, evaluate_board(board, rules).resolved)
    draw_labelled_board(locale, img, EDGE + PAD, y + PAD, CARD, rows, seen,
                        label_room(INNER, CARD), four_colour)
    if discards:
        y += PAD + board_h + 4
        text(img, (EDGE + PAD, y), t(locale, "Discard"), PLACE_SIZE, "condensed_bold", theme.MUTED)
        card_line(img, EDGE + PAD, y + PLACE_SIZE + 8,
                   [(Tile("face", c), "", theme.MUTED) for c in discards], DISCARD_CARD, INNER,
                   four_colour)
    return img


def render_solution(board: Board, discards: Sequence[Card], rules: TableRules,
                    four_colour: bool = False, locale: str = ENGLISH) -> bytes:
    """The solved hand as PNG bytes."""
    return to_png(solution_image(board, discards, rules, four_colour, locale))
