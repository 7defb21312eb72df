"""A player's own board drawn large, each row labelled with the hand it makes or holds so far,
and under it what the board is heading for: a warning when no finish avoids a foul, the
royalties and Fantasyland once it is full (bot.engine.outlook). The private image and the
solved-hand image draw it."""

from PIL import Image

from bot.engine.outlook import Outlook
from rendering import cards, theme
from rendering.board import Rows, board_size, draw_board, row_y
from rendering.canvas import pill, pill_height, text, wrap
from rendering.theme import RGB

LABEL_SIZE = 17
LABEL_GAP = 12
STATUS_SIZE = 15
STATUS_GAP = 10


def status(outlook: Outlook) -> list[tuple[str, RGB, bool]]:
    """The pills under the board: (label, colour, dark text)."""
    if outlook.complete:
        if outlook.fouled:
            return [("FOULED · NO ROYALTIES", theme.FOUL, False)]
        out = []
        if outlook.total_royalties:
            out.append((f"ROYALTIES +{outlook.total_royalties}", theme.GOLD, True))
        if outlook.fantasy:
            out.append((f"FANTASYLAND NEXT · {outlook.fantasy} CARDS", theme.FANTASY, True))
        return out
    if outlook.foul_unavoidable:
        return [("FOUL AHEAD · NO FINISH AVOIDS IT", theme.FOUL, False)]
    return []


def labelled_height(card_width: int, outlook: Outlook) -> int:
    height = board_size(card_width)[1]
    if status(outlook):
        height += STATUS_GAP + pill_height(STATUS_SIZE)
    return height


def draw_labelled_board(canvas: Image.Image, x: int, y: int, card_width: int, rows: Rows,
                        outlook: Outlook, label_width: int, four_colour: bool) -> None:
    """The board at (x, y), the labels in `label_width` pixels to its right, the status under
    both."""
    draw_board(canvas, x, y, card_width, rows, four_colour)
    lx = x + board_size(card_width)[0] + LABEL_GAP
    fouled = outlook.complete and outlook.fouled
    colour = theme.MUTED if fouled else theme.TEXT
    line_h = round(LABEL_SIZE * 1.2)
    for r, label in enumerate(outlook.rows):
        royalty = 0 if fouled else outlook.royalties[r]
        lines = wrap(label, label_width, LABEL_SIZE, "condensed_bold") if label else []
        block = len(lines) * line_h + (pill_height(LABEL_SIZE) + 4 if royalty else 0)
        ty = y + row_y(card_width, r) + (cards.card_height(card_width) - block) // 2
        for line in lines:
            text(canvas, (lx, ty), line, LABEL_SIZE, "condensed_bold", colour)
            ty += line_h
        if royalty:
            pill(canvas, lx, ty + 4, f"+{royalty}", theme.GOLD, LABEL_SIZE)
    draw_status(canvas, x, y + board_size(card_width)[1], outlook)


def draw_status(canvas: Image.Image, x: int, y: int, outlook: Outlook) -> None:
    """The status pills under a board whose bottom edge is at `y`."""
    px = x
    for label, tone, dark in status(outlook):
        px += pill(canvas, px, y + STATUS_GAP, label, tone, STATUS_SIZE, dark) + 8


def label_room(total_width: int, card_width: int) -> int:
    """Width left for the labels beside a board of `card_width` cards in `total_width`."""
    return total_width - board_size(card_width)[0] - LABEL_GAP

