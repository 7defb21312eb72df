"""The showdown image: every board face up with its hands, royalties, fouls, points and chips
(R3-R6, R8), one band per seat."""

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.views import SeatView, ShowdownSeat, TableView
from rendering import theme
from rendering.board import board_size, draw_board, row_y, shown_rows
from rendering.canvas import (
    HEADER_H,
    MARGIN,
    header_bar,
    panel_base,
    paste,
    pill,
    text,
    to_png,
)
from rendering.cards import card_height
from rendering.fonts import font
from rendering.labels import rules_text, street_text
from rendering.seat import BADGE_SIZE, NAME_SIZE, PAD, chips, dealer_button

CARD = 64
INFO_W = 250
CAPTION_W = 330
BAND_GAP = 12


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "0"


def _tone(n: int) -> theme.RGB:
    return theme.WIN if n > 0 else theme.LOSS if n < 0 else theme.MUTED


@lru_cache(maxsize=8)
def _stamp(width: int) -> Image.Image:
    """'FOULED' in a red frame, tilted like a rubber stamp (R3)."""
    f = font(round(width * 0.16), "bold")
    tw = round(f.getlength("FOULED"))
    w, h = tw + 40, round(width * 0.16) + 30
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((3, 3, w - 4, h - 4), 10, fill=(255, 255, 255, 215),
                           outline=theme.FOUL, width=6)
    draw.text((w // 2, h // 2), "FOULED", font=f, fill=theme.FOUL, anchor="mm")
    return img.rotate(12, resample=Image.Resampling.BICUBIC, expand=True)


def _band_size() -> tuple[int, int]:
    bw, bh = board_size(CARD)
    return INFO_W + bw + CAPTION_W + 4 * PAD, bh + 2 * PAD


def _info(img: Image.Image, x: int, y: int, seat: SeatView, result: ShowdownSeat,
          button: bool) -> None:
    """Name, points, chips moved and the stack after, Fantasyland earned."""
    left = x
    if button:
        dealer_button(img, left, y, NAME_SIZE + 4)
        left += NAME_SIZE + 12
    text(img, (left, y), seat.name, NAME_SIZE, "bold", theme.TEXT, "la",
         max_width=x + INFO_W - left, min_size=18)
    y += NAME_SIZE + 18
    points = f"{_signed(result.points)} pt" if abs(result.points) == 1 else \
        f"{_signed(result.points)} pts"
    text(img, (x, y), points, 40, "bold", _tone(result.points))
    y += 52
    text(img, (x, y), "chips", 20, "condensed", theme.MUTED, "lm")
    text(img, (x + 60, y), _signed(result.chips), 24, "bold", _tone(result.chips), "lm")
    y += 34
    text(img, (x, y), "stack", 20, "condensed", theme.MUTED, "lm")
    chips(img, x + 60, y, result.stack_after, right_aligned=False)
    y += 30
    if result.fouled:
        pill(img, x, y, "FOULED", theme.FOUL, BADGE_SIZE, dark_text=False)
        y += 36
    if result.fantasy_next:
        pill(img, x, y, f"FANTASYLAND NEXT · {result.fantasy_next}", theme.FANTASY,
             BADGE_SIZE)


def _captions(img: Image.Image, x: int, y: int, result: ShowdownSeat) -> None:
    """Each row's hand name beside it, its royalty in a gold pill (R4)."""
    ch = card_height(CARD)
    for r, (name, royalty) in enumerate(zip(result.names, result.royalties, strict=True)):
        mid = y + row_y(CARD, r) + ch // 2
        colour = theme.MUTED if result.fouled else theme.TEXT
        room = CAPTION_W
        if royalty:
            label = f"+{royalty}"
            w = round(font(20, "condensed_bold").getlength(label)) + 22
            pill(img, x + CAPTION_W - w, mid - 15, label, theme.GOLD, 20)
            room -= w + 8
        text(img, (x, mid), name, 22, "condensed_bold", colour, "lm", max_width=room,
             min_size=16)


def showdown_image(view: TableView, four_colour: bool = False) -> Image.Image:
    assert view.showdown is not None
    by_seat = {s.seat: s for s in view.seats}
    results = view.showdown.seats
    bw, bh = _band_size()
    size = (2 * MARGIN + bw,
            HEADER_H + MARGIN + len(results) * (bh + BAND_GAP) - BAND_GAP + MARGIN)
    img = Image.new("RGB", size, theme.FELT)
    header_bar(img, street_text(view), rules_text(view))
    board_w, board_h = board_size(CARD)
    for i, result in enumerate(results):
        x, y = MARGIN, HEADER_H + MARGIN + i * (bh + BAND_GAP)
        img.paste(panel_base(bw, bh), (x, y))
        _info(img, x + PAD, y + PAD, by_seat[result.seat], result, result.seat == view.button)
        bx = x + 2 * PAD + INFO_W
        draw_board(img, bx, y + PAD, CARD, shown_rows(result.board, result.resolved),
                   four_colour)
        if result.fouled:
            stamp = _stamp(board_w)
            paste(img, stamp, bx + (board_w - stamp.width) // 2,
                  y + PAD + (board_h - stamp.height) // 2)
        _captions(img, bx + board_w + PAD, y + PAD, result)
    return img


def render_showdown(view: TableView, four_colour: bool = False) -> bytes:
    """The showdown as PNG bytes (`view.showdown` must be set)."""
    return to_png(showdown_image(view, four_colour))
