"""The table image everyone in the channel sees (the public view, R7, R8)."""

from PIL import Image

from bot.engine.views import TableView
from bot.i18n import ENGLISH
from rendering.board import public_rows
from rendering.canvas import COLUMN_GAP, HEADER_H, MARGIN, blank, header_bar, to_png
from rendering.labels import rules_text, street_text
from rendering.seat import draw_panel, panel_size, seat_header

# seats -> (columns, card width): two columns, so that a card stays about 40 px wide or more
# where a phone shows the image 550 px wide (three side by side would leave 29 px).
LAYOUTS = {2: (2, 80), 3: (2, 76), 4: (2, 76)}


def layout(seats: int) -> tuple[int, int]:
    return LAYOUTS[max(2, min(seats, 4))]


def table_image(view: TableView, four_colour: bool = False,
                locale: str = ENGLISH) -> Image.Image:
    columns, card_width = layout(len(view.seats))
    pw, ph = panel_size(card_width)
    lines = -(-len(view.seats) // columns)
    size = (2 * MARGIN + columns * pw + (columns - 1) * COLUMN_GAP,
            HEADER_H + MARGIN + lines * ph + (lines - 1) * COLUMN_GAP + MARGIN)
    img = blank(size)
    header_bar(img, street_text(locale, view), rules_text(locale, view))
    for i, seat in enumerate(view.seats):
        x = MARGIN + (i % columns) * (pw + COLUMN_GAP)
        y = HEADER_H + MARGIN + (i // columns) * (ph + COLUMN_GAP)
        rows = public_rows(seat.board, seat.new_cards, seat.hidden_cards)
        header = seat_header(locale, seat, view.button, seat.seat in view.to_act)
        draw_panel(img, x, y, card_width, header, rows, four_colour)
    return img


def render_table(view: TableView, four_colour: bool = False, locale: str = ENGLISH) -> bytes:
    """The table image as PNG bytes, its words in `locale`."""
    return to_png(table_image(view, four_colour, locale))
