"""Another seat as a strip, for the private image of streets 2-5 (so that the prompt fits a
phone): its name, stack and badges on the left, its public board on the right in one line of
index cards (the rank over the suit), top, middle and bottom side by side (RULES.md R7: what
everyone sees of it; a set Fantasyland board as card backs, R8)."""

from collections.abc import Sequence

from PIL import Image

from bot.engine.royalties import ROW_SIZES, ROWS
from bot.engine.views import SeatView
from rendering import cards, theme
from rendering.board import EMPTY, Tile, public_rows
from rendering.canvas import dim, panel_base, put, text
from rendering.seat import chips, dealer_button, fit_badges, seat_header

CARD = 28  # the narrowest index card whose rank stays 14 px tall at 550 px wide
PAD = 4
NAME_SIZE = 16
BADGE_SIZE = 12
CARD_GAP = 1  # between the cards of a row
ROW_GAP = 8  # between rows


def _tile_width(card: int) -> int:
    return card + 2 * cards.ring_pad(card)


def cards_width(card: int = CARD) -> int:
    """The width of a board's 13 places in one line."""
    places = sum(ROW_SIZES.values())
    return places * _tile_width(card) + (places - len(ROWS)) * CARD_GAP \
        + (len(ROWS) - 1) * ROW_GAP


def cards_height(card: int = CARD) -> int:
    return cards.index_height(card) + 2 * cards.ring_pad(card)


def height() -> int:
    return 2 * PAD + cards_height()


def draw_strip(loc: str, img: Image.Image, x: int, y: int, width: int, seat: SeatView,
               button: int, to_act: bool, four_colour: bool) -> None:
    """The strip `width` pixels wide with its top-left corner at (x, y), its words in `loc`."""
    header = seat_header(loc, seat, button, to_act)
    h = height()
    put(img, panel_base(width, h, header.highlight), (x, y))
    row_x = x + width - PAD - 2 - cards_width()
    left, right = x + PAD + 6, row_x - 8
    first, second = y + h // 2 - NAME_SIZE // 2 - 2, y + h // 2 + NAME_SIZE // 2 + 2
    if header.button:
        dealer_button(img, left, first - (NAME_SIZE + 2) // 2, NAME_SIZE + 2)
        name_x = left + NAME_SIZE + 8
    else:
        name_x = left
    text(img, (name_x, first), header.name, NAME_SIZE, "condensed_bold", theme.TEXT, "lm",
         max_width=right - name_x, min_size=13)
    badge_x = left + chips(img, left, second, header.stack, NAME_SIZE - 2,
                           right_aligned=False, room=right - left,
                           short=header.short_stack) + 6
    fit_badges(header.badges, right - badge_x, BADGE_SIZE, 4).draw(img, badge_x, second)
    draw_cards(img, row_x, y + PAD, public_rows(seat.board, seat.new_cards, seat.hidden_cards),
           four_colour)
    if seat.sitting_out:
        dim(img, (x, y, x + width, y + h))


def draw_cards(img: Image.Image, x: int, y: int, rows: Sequence[Sequence[Tile]],
               four_colour: bool, card: int = CARD) -> None:
    """A board's rows in one line of index cards `card` pixels wide, empty places as slots."""
    step = _tile_width(card) + CARD_GAP
    for name, row in zip(ROWS, rows, strict=True):
        for i in range(ROW_SIZES[name]):
            tile = row[i] if i < len(row) else EMPTY
            put(img, cards.index_tile(tile.kind, tile.card, card, four_colour, tile.ring),
                (x, y))
            x += step
        x += ROW_GAP - CARD_GAP
