"""The private image of one seat (R7, R8), sized for a phone: Discord shows it about 550 px
wide there, so it is drawn 640 px wide.

Street 1 and a Fantasyland hand, top to bottom:
- the seat's own board large, its draft placement drawn in, each row labelled with the hand it
  makes or holds so far, and a warning once no finish avoids a foul (or, full, its royalties and
  Fantasyland);
- the cards to place now (pairs together, then high to low), each labelled with where the
  draft puts it, and the seat's discards;
- the other seats' boards small, two to a line.

Streets 2-5 (issue 14: the whole prompt fits one phone screen): no header (the prompt's title
names the hand and street), the own board beside the seat's name, the cards dealt and the
discards; the rows' hands are in the prompt's text (with the draft, which this image is drawn
without in a DM); then each other seat as a strip, its board in one line of small cards.
"""

from collections.abc import Mapping, Sequence

from PIL import Image

from bot.engine.cards import Card
from bot.engine.ordering import order_cards, sort_row
from bot.engine.outlook import draft_outlook, with_draft
from bot.engine.royalties import ROWS
from bot.engine.views import PrivateView, SeatView
from bot.i18n import ENGLISH, Text, t
from rendering import cards, strip, theme
from rendering.board import Tile, board_size, draw_board, public_rows
from rendering.canvas import (
    dim,
    header_bar,
    panel_base,
    text,
    to_png,
)
from rendering.fonts import font
from rendering.hand import draw_labelled_board, draw_status, label_room, labelled_height
from rendering.labels import rules_text, street_text
from rendering.seat import Header, chips, dealer_button, fit_badges, seat_header
from rendering.theme import RGB

WIDTH = 640
EDGE = 10  # around the image and between panels
PAD = 12  # inside a panel
HEADER = 40
OWN_CARD = 80
OTHER_CARD = 52
DEALT_CARD = 80  # a street's 3 or 5 cards
MANY_DEALT_CARD = OTHER_CARD  # a Fantasyland hand's 13-17 cards: the faces drawn for others
DISCARD_CARD = 40
COMPACT_CARD = 48  # streets 2-5: the own board and the cards dealt
COMPACT_NAME = 20
NAME_SIZE = 22
SMALL_NAME = 18
TITLE_SIZE = 19
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


def _task(loc: str, view: PrivateView, seat: SeatView, draft: Draft) -> str:
    n, discards = len(view.dealt), view.discard_count
    if seat.in_fantasy:
        head = t(loc, "Fantasyland: set 13 of {n}, discard {discards}", n=n, discards=discards)
    elif discards:
        head = t(loc, "Place {n}, discard {discards}", n=n - discards, discards=discards)
    else:
        head = t(loc, "Place {n}", n=n - discards)
    chosen = sum(1 for c in view.dealt if c in draft)
    return t(loc, "{task} · {chosen} of {n} chosen", task=head, chosen=chosen, n=n) \
        if draft else head


def _dealt_width(view: PrivateView) -> int:
    return DEALT_CARD if len(view.dealt) <= 5 else MANY_DEALT_CARD


def _step(width: int) -> int:
    return width + 2 * cards.ring_pad(width) + 6


def line_height(width: int) -> int:
    return cards.card_height(width) + 2 * cards.ring_pad(width) + PLACE_SIZE + 6


def _per_line(width: int, room: int) -> int:
    return max(1, (room + 6) // _step(width))


def _dealt_height(view: PrivateView) -> int:
    if not view.dealt and not view.discards:
        return 0
    height = 2 * PAD + TITLE_SIZE + 10
    if view.dealt:
        width = _dealt_width(view)
        lines = -(-len(view.dealt) // _per_line(width, INNER))
        return height + lines * line_height(width)
    return height + line_height(DISCARD_CARD)


def card_line(img: Image.Image, x: int, y: int, tiles: Sequence[tuple[Tile, str, RGB]],
               width: int, room: int, four_colour: bool) -> None:
    """Cards with a label under each, wrapped to `room` pixels."""
    pad = cards.ring_pad(width)
    per_line = _per_line(width, room)
    for i, (tile, label, colour) in enumerate(tiles):
        cx = x + (i % per_line) * _step(width)
        cy = y + (i // per_line) * line_height(width)
        img.paste(tile.image(width, four_colour), (cx, cy))
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


def _dealt_section(loc: str, img: Image.Image, y: int, view: PrivateView, seat: SeatView,
                   draft: Draft, four_colour: bool) -> None:
    img.paste(panel_base(WIDTH - 2 * EDGE, _dealt_height(view)), (EDGE, y))
    x, y = EDGE + PAD, y + PAD
    discards_x = x
    if view.dealt:
        text(img, (x, y), _task(loc, view, seat, draft), TITLE_SIZE, "bold", theme.TEXT,
             max_width=INNER, min_size=15)
        width = _dealt_width(view)
        tiles = _dealt_tiles(loc, view, draft)
        card_line(img, x, y + TITLE_SIZE + 10, tiles, width, INNER, four_colour)
        discards_x = x + min(len(tiles), _per_line(width, INNER)) * _step(width) + 14
    if view.discards:
        # Beside the dealt cards (a street deals 3 at most with discards), else alone.
        room = EDGE + PAD + INNER - discards_x
        text(img, (discards_x, y + (TITLE_SIZE + 10 if view.dealt else 0)), t(loc, "Your discards"),
             PLACE_SIZE, "condensed_bold", theme.MUTED)
        shown = [(Tile("face", c), "", theme.MUTED) for c in order_cards(view.discards)]
        card_line(img, discards_x, y + TITLE_SIZE + 10 + (PLACE_SIZE + 6 if view.dealt else 0),
                   shown, DISCARD_CARD, room, four_colour)


def _own_height(outlook_height: int) -> int:
    return 2 * PAD + NAME_SIZE + 12 + outlook_height


def _name_line(img: Image.Image, x: int, y: int, right: int, header: Header,
               size: int) -> None:
    """[dealer button] name badges ... stack, centred on y."""
    name = header.name
    if header.button:
        d = size + 2
        dealer_button(img, x, y - d // 2, d)
        x += d + 6
    stack_w = chips(img, right, y, header.stack, size)
    room = right - stack_w - 10 - x
    smallest = max(12, size - 6)
    # The name keeps up to half the line at its smallest size; the badges get the rest.
    name_w = round(font(smallest, "condensed_bold", name).getlength(name))
    badges_shown = fit_badges(header.badges, room - 8 - min(name_w, room // 2),
                              max(11, round(size * 0.62)), 5)
    x += text(img, (x, y), name, size, "condensed_bold", theme.TEXT, "lm",
              max_width=room - badges_shown.width, min_size=smallest) + 8
    badges_shown.draw(img, x, y)


def _mini_size() -> tuple[int, int]:
    w, h = board_size(OTHER_CARD)
    return w + 2 * PAD - 4, h + 2 * PAD + SMALL_NAME + 10


def _mini_panel(loc: str, img: Image.Image, x: int, y: int, seat: SeatView, button: int,
                to_act: bool, four_colour: bool) -> None:
    """Another seat: name, badges and stack on one line, its public board small."""
    w, h = _mini_size()
    header = seat_header(loc, seat, button, to_act)
    img.paste(panel_base(w, h, header.highlight), (x, y))
    _name_line(img, x + PAD - 2, y + PAD + SMALL_NAME // 2, x + w - PAD + 2, header, SMALL_NAME)
    rows = public_rows(seat.board, seat.new_cards, seat.hidden_cards)
    draw_board(img, x + PAD - 2, y + PAD + SMALL_NAME + 10, OTHER_CARD, rows, four_colour)
    if seat.sitting_out:
        dim(img, (x, y, x + w, y + h))


def compact(view: PrivateView) -> bool:
    """Streets 2-5 of a normal hand: the compact layout (see the module's summary)."""
    own = next(s for s in view.table.seats if s.seat == view.seat)
    return view.table.street >= 2 and not own.in_fantasy


def private_image(view: PrivateView, draft: Draft | None = None, four_colour: bool = False,
                  locale: str = ENGLISH) -> Image.Image:
    draft = {c: p for c, p in (draft or {}).items() if c in view.dealt}
    if compact(view):
        return _compact_image(locale, view, draft, four_colour)
    table = view.table
    own = next(s for s in table.seats if s.seat == view.seat)
    others = [s for s in table.seats if s.seat != view.seat]
    outlook = draft_outlook(view, draft)
    own_h = _own_height(labelled_height(OWN_CARD, outlook))
    dealt_h = _dealt_height(view)
    mini_w, mini_h = _mini_size()
    mini_lines = -(-len(others) // 2)
    height = (HEADER + EDGE + own_h + EDGE + (dealt_h + EDGE if dealt_h else 0)
              + mini_lines * (mini_h + EDGE))
    img = Image.new("RGB", (WIDTH, height), theme.FELT)
    header_bar(img, street_text(locale, table), rules_text(locale, table), HEADER, 20)
    y = HEADER + EDGE
    header = seat_header(locale, own, table.button, view.seat in table.to_act, you=True)
    img.paste(panel_base(WIDTH - 2 * EDGE, own_h, header.highlight), (EDGE, y))
    _name_line(img, EDGE + PAD, y + PAD + NAME_SIZE // 2, WIDTH - EDGE - PAD, header, NAME_SIZE)
    draw_labelled_board(locale, img, EDGE + PAD, y + PAD + NAME_SIZE + 12, OWN_CARD,
                        _own_rows(view, own.new_cards, draft), outlook,
                        label_room(INNER, OWN_CARD), four_colour)
    y += own_h + EDGE
    if dealt_h:
        _dealt_section(locale, img, y, view, own, draft, four_colour)
        y += dealt_h + EDGE
    gap = WIDTH - 2 * EDGE - 2 * mini_w
    for i, seat in enumerate(others):
        x = EDGE + (i % 2) * (mini_w + gap)
        _mini_panel(locale, img, x, y + (i // 2) * (mini_h + EDGE), seat, table.button,
                    seat.seat in table.to_act, four_colour)
    return img


def _compact_column(view: PrivateView) -> tuple[int, int]:
    """The heights of the right column's cards dealt (0 for none) and discards (0 for none),
    gaps above each included."""
    dealt = line_height(COMPACT_CARD) if view.dealt else 0
    discards = 0
    if view.discards:
        room = _compact_room()
        lines = -(-len(view.discards) // _per_line(DISCARD_CARD, room))
        discards = (8 if view.dealt else 0) + PLACE_SIZE + 4 + \
            lines * line_height(DISCARD_CARD) - PLACE_SIZE - 6
    return dealt, discards


def _compact_room() -> int:
    """The right column's width, beside the own board."""
    return INNER - board_size(COMPACT_CARD)[0] - 2 * PAD


def _compact_image(loc: str, view: PrivateView, draft: Draft,
                   four_colour: bool) -> Image.Image:
    table = view.table
    own = next(s for s in table.seats if s.seat == view.seat)
    others = [s for s in table.seats if s.seat != view.seat]
    # The rows' hands are the prompt's text; the pills under the board stay (a foul ahead;
    # drawn with a full draft, the royalties and Fantasyland).
    outlook = draft_outlook(view, draft)
    board_h = labelled_height(COMPACT_CARD, outlook)
    dealt_h, discards_h = _compact_column(view)
    column_h = COMPACT_NAME + 10 + dealt_h + discards_h
    own_h = 2 * PAD + max(board_h, column_h)
    strip_h = strip.height()
    height = EDGE + own_h + EDGE + len(others) * (strip_h + EDGE - 4) + 4
    img = Image.new("RGB", (WIDTH, height), theme.FELT)
    y = EDGE
    to_act = view.seat in table.to_act
    header = seat_header(loc, own, table.button, to_act, you=True)
    img.paste(panel_base(WIDTH - 2 * EDGE, own_h, header.highlight), (EDGE, y))
    x = EDGE + PAD
    draw_board(img, x, y + PAD, COMPACT_CARD, _own_rows(view, own.new_cards, draft), four_colour)
    draw_status(loc, img, x, y + PAD + board_size(COMPACT_CARD)[1], outlook)
    cx = x + board_size(COMPACT_CARD)[0] + 2 * PAD
    room = _compact_room()
    _name_line(img, cx, y + PAD + COMPACT_NAME // 2, WIDTH - EDGE - PAD, header, COMPACT_NAME)
    cy = y + PAD + COMPACT_NAME + 10
    if view.dealt:
        card_line(img, cx, cy, _dealt_tiles(loc, view, draft), COMPACT_CARD, room, four_colour)
        cy += dealt_h
    if view.discards:
        cy += 8 if view.dealt else 0
        text(img, (cx, cy), t(loc, "Your discards"), PLACE_SIZE, "condensed_bold", theme.MUTED)
        shown = [(Tile("face", c), "", theme.MUTED) for c in order_cards(view.discards)]
        card_line(img, cx, cy + PLACE_SIZE + 4, shown, DISCARD_CARD, room, four_colour)
    y += own_h + EDGE
    for seat in others:
        strip.draw_strip(loc, img, EDGE, y, WIDTH - 2 * EDGE, seat, table.button,
                         seat.seat in table.to_act, four_colour)
        y += strip_h + EDGE - 4
    return img


def render_private(view: PrivateView, draft: Draft | None = None, four_colour: bool = False,
                   locale: str = ENGLISH) -> bytes:
    """One seat's private image as PNG bytes. `draft` maps cards of `view.dealt` to "top",
    "middle", "bottom" or "discard": the player's placement not yet confirmed.

    A DM gets a new one whenever what it shows changes (cogs.tables.controls.image_key; the
    bot draws no draft, its buttons show it)."""
    return to_png(private_image(view, draft, four_colour, locale))
