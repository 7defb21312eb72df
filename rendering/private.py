"""The private image of one seat (R7, R8), sized for a phone: Discord shows it about 550 px
wide there, so it is drawn 640 px wide, and the whole DM prompt (text, image and controls)
fits one phone screen (tests/phone.py).

Street 1 and a Fantasyland hand, as a DM shows them (the own board still empty): the seat's
name and stack, the cards to place (pairs together, then high to low; with a draft drawn in,
each labelled with where it goes), two lines at most for a Fantasyland hand's 13-17; then
each other seat as a strip, its board in one line of small cards.

Streets 2-5: no header (the prompt's title names the hand and street), the own board beside
the seat's name, the cards dealt and the discards; the rows' hands are in the prompt's text
(with the draft, which this image is drawn without in a DM); then the other seats' strips.
"""

from collections.abc import Mapping, Sequence

from PIL import Image

from bot.engine.cards import Card
from bot.engine.ordering import order_cards, sort_row
from bot.engine.outlook import draft_outlook, with_draft
from bot.engine.royalties import ROWS
from bot.engine.views import PrivateView
from bot.i18n import ENGLISH, Text, t
from rendering import cards, strip, theme
from rendering.board import Tile
from rendering.canvas import (
    blank,
    panel_base,
    pill_height,
    put,
    text,
    to_png,
)
from rendering.fonts import font, length
from rendering.hand import STATUS_GAP, STATUS_SIZE, draw_status, status
from rendering.seat import STACK_SHARE, Header, chips, dealer_button, fit_badges, seat_header
from rendering.theme import RGB

WIDTH = 640
EDGE = 10  # around the image and between panels
PAD = 12  # inside a panel
DEALT_CARD = 60  # street 1's 5 cards
MANY_DEALT_CARD = 52  # the narrowest card of a Fantasyland hand's two lines
DISCARD_CARD = 40
COMPACT_CARD = 48  # streets 2-5: the own board and the cards dealt
COMPACT_NAME = 20
PLACE_SIZE = 15
PLACES = {"top": Text("TOP"), "middle": Text("MIDDLE"), "bottom": Text("BOTTOM")}
INNER = WIDTH - 2 * EDGE - 2 * PAD

Draft = Mapping[Card, str]


def _own_rows(view: PrivateView, seat_new: Sequence[Card], draft: Draft) -> tuple[
        list[Tile], list[Tile], list[Tile]]:
    """The own board with the draft's cards in the free places, each row in the order of its
    hand: this street's placed cards ringed gold, the draft's in the draft colour; a draft
    beyond a row's room is not drawn."""
    drafted = with_draft(view.board, view.dealt, draft)
    rows = []
    for name in ROWS:
        placed = view.board.row(name)
        rows.append([Tile("face", c, None if c in placed and c not in seat_new else
                          theme.GOLD if c in placed else theme.DRAFT)
                     for c in sort_row(name, drafted.row(name))])
    return (rows[0], rows[1], rows[2])


def _dealt_width(count: int) -> int:
    """The widest face card that puts `count` cards on two lines at most (a street's 5 cards
    on one)."""
    per_line = -(-count // (1 if count <= 5 else 2))
    width = DEALT_CARD
    while width > MANY_DEALT_CARD and _per_line(width, INNER) < per_line:
        width -= 2
    return width


def _step(width: int) -> int:
    return width + 2 * cards.ring_pad(width) + 6


def line_height(width: int, labelled: bool = True) -> int:
    label = PLACE_SIZE + 6 if labelled else 0
    return cards.card_height(width) + 2 * cards.ring_pad(width) + label


def _per_line(width: int, room: int) -> int:
    return max(1, (room + 6) // _step(width))


def card_line(img: Image.Image, x: int, y: int, tiles: Sequence[tuple[Tile, str, RGB]],
              width: int, room: int, four_colour: bool, labelled: bool = True) -> None:
    """Cards with a label under each (room for none unless `labelled`), wrapped to `room`
    pixels."""
    pad = cards.ring_pad(width)
    per_line = _per_line(width, room)
    for i, (tile, label, colour) in enumerate(tiles):
        cx = x + (i % per_line) * _step(width)
        cy = y + (i // per_line) * line_height(width, labelled)
        put(img, tile.image(width, four_colour), (cx, cy))
        if label:
            text(img, (cx + pad + width // 2, cy + cards.card_height(width) + 2 * pad + 2),
                 label, PLACE_SIZE, "condensed_bold", colour, "mt", max_width=width + 2 * pad,
                 min_size=11)


def _dealt_tiles(loc: str, view: PrivateView, draft: Draft) -> list[tuple[Tile, str, RGB]]:
    """The cards to place (pairs together, then high to low), each labelled with where the
    draft puts it."""
    tiles = []
    for c in order_cards(view.dealt):
        place = draft.get(c)
        if place == "discard":
            tiles.append((Tile("dimmed", c), t(loc, "DISCARD"), theme.DISCARD))
        elif place in PLACES:
            tiles.append((Tile("face", c, theme.DRAFT), t(loc, PLACES[place]), theme.DRAFT))
        else:
            tiles.append((Tile("face", c), "", theme.MUTED))
    return tiles


def _name_line(img: Image.Image, x: int, y: int, right: int, header: Header,
               size: int) -> None:
    """[dealer button] name badges ... stack, centred on y."""
    name = header.name
    if header.button:
        d = size + 2
        dealer_button(img, x, y - d // 2, d)
        x += d + 6
    stack_w = chips(img, right, y, header.stack, size, room=round((right - x) * STACK_SHARE),
                    short=header.short_stack)
    room = right - stack_w - 10 - x
    smallest = max(12, size - 6)
    # The name keeps up to half the line at its smallest size; the badges get the rest.
    name_w = length(name, font(smallest, "condensed_bold", name))
    badges_shown = fit_badges(header.badges, room - 8 - min(name_w, room // 2),
                              max(11, round(size * 0.62)), 5)
    x += text(img, (x, y), name, size, "condensed_bold", theme.TEXT, "lm",
              max_width=room - badges_shown.width, min_size=smallest) + 8
    badges_shown.draw(img, x, y)


def dealing(view: PrivateView) -> bool:
    """Street 1 or a Fantasyland hand, the own board still empty: the cards to place are the
    whole of the seat's part (see the module's summary)."""
    return bool(view.dealt) and not view.board.cards


def private_image(view: PrivateView, draft: Draft | None = None, four_colour: bool = False,
                  locale: str = ENGLISH) -> Image.Image:
    draft = {c: p for c, p in (draft or {}).items() if c in view.dealt}
    if dealing(view):
        return _dealing_image(locale, view, draft, four_colour)
    return _compact_image(locale, view, draft, four_colour)


def _others(loc: str, img: Image.Image, y: int, view: PrivateView, four_colour: bool) -> None:
    """The other seats' strips, one under the other from `y`."""
    table = view.table
    for seat in table.seats:
        if seat.seat != view.seat:
            strip.draw_strip(loc, img, EDGE, y, WIDTH - 2 * EDGE, seat, table.button,
                             seat.seat in table.to_act, four_colour)
            y += strip.height() + EDGE - 4


def _others_height(view: PrivateView) -> int:
    return (len(view.table.seats) - 1) * (strip.height() + EDGE - 4) + 4


def _dealing_image(loc: str, view: PrivateView, draft: Draft, four_colour: bool) -> Image.Image:
    table = view.table
    own = next(s for s in table.seats if s.seat == view.seat)
    width = _dealt_width(len(view.dealt))
    labelled = bool(draft)
    lines = -(-len(view.dealt) // _per_line(width, INNER))
    own_h = 2 * PAD + COMPACT_NAME + 10 + lines * line_height(width, labelled) - 6
    img = blank((WIDTH, EDGE + own_h + EDGE + _others_height(view)))
    header = seat_header(loc, own, table.button, view.seat in table.to_act, you=True)
    put(img, panel_base(WIDTH - 2 * EDGE, own_h, header.highlight), (EDGE, EDGE))
    x, y = EDGE + PAD, EDGE + PAD
    _name_line(img, x, y + COMPACT_NAME // 2, WIDTH - EDGE - PAD, header, COMPACT_NAME)
    card_line(img, x, y + COMPACT_NAME + 10, _dealt_tiles(loc, view, draft), width, INNER,
              four_colour, labelled)
    _others(loc, img, EDGE + own_h + EDGE, view, four_colour)
    return img


def _own_index() -> int:
    """The widest index card that puts the own board's 13 places in one line of the panel."""
    width = strip.CARD
    while strip.cards_width(width + 2) <= INNER:
        width += 2
    return width


OWN_INDEX = _own_index()


def _compact_lower(view: PrivateView, labelled: bool) -> int:
    """The height of the line under the own board: the cards dealt, then the discards."""
    dealt = line_height(COMPACT_CARD, labelled) if view.dealt else 0
    discards = PLACE_SIZE + 4 + line_height(DISCARD_CARD, False) if view.discards else 0
    return max(dealt, discards)


def _compact_image(loc: str, view: PrivateView, draft: Draft,
                   four_colour: bool) -> Image.Image:
    table = view.table
    own = next(s for s in table.seats if s.seat == view.seat)
    # The rows' hands are the prompt's text; the pills stay (a foul ahead; drawn with a full
    # draft, the royalties and Fantasyland).
    outlook = draft_outlook(view, draft)
    pills = STATUS_GAP + pill_height(STATUS_SIZE) if status(loc, outlook) else 0
    lower = _compact_lower(view, bool(draft))
    board_y = PAD + COMPACT_NAME + 10
    lower_y = board_y + strip.cards_height(OWN_INDEX) + (10 if lower else 0)
    own_h = lower_y + lower + pills + PAD
    img = blank((WIDTH, EDGE + own_h + EDGE + _others_height(view)))
    header = seat_header(loc, own, table.button, view.seat in table.to_act, you=True)
    put(img, panel_base(WIDTH - 2 * EDGE, own_h, header.highlight), (EDGE, EDGE))
    x, y = EDGE + PAD, EDGE
    _name_line(img, x, y + PAD + COMPACT_NAME // 2, WIDTH - EDGE - PAD, header, COMPACT_NAME)
    strip.draw_cards(img, x, y + board_y, _own_rows(view, own.new_cards, draft), four_colour,
                     OWN_INDEX)
    cx = x
    if view.dealt:
        tiles = _dealt_tiles(loc, view, draft)
        card_line(img, cx, y + lower_y, tiles, COMPACT_CARD, INNER, four_colour, bool(draft))
        cx += len(tiles) * _step(COMPACT_CARD) + 14
    if view.discards:
        text(img, (cx, y + lower_y), t(loc, "Your discards"), PLACE_SIZE, "condensed_bold",
             theme.MUTED)
        shown = [(Tile("face", c), "", theme.MUTED) for c in order_cards(view.discards)]
        card_line(img, cx, y + lower_y + PLACE_SIZE + 4, shown, DISCARD_CARD,
                  EDGE + PAD + INNER - cx, four_colour, False)
    draw_status(loc, img, x, y + lower_y + lower, outlook)
    _others(loc, img, EDGE + own_h + EDGE, view, four_colour)
    return img


def render_private(view: PrivateView, draft: Draft | None = None, four_colour: bool = False,
                   locale: str = ENGLISH) -> bytes:
    """One seat's private image as PNG bytes. `draft` maps cards of `view.dealt` to "top",
    "middle", "bottom" or "discard": the player's placement not yet confirmed.

    A DM gets a new one whenever what it shows changes (cogs.tables.controls.image_key; the
    bot draws no draft, its buttons show it)."""
    return to_png(private_image(view, draft, four_colour, locale))
