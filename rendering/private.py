"""The private image of one seat (R7, R8): its own board large, the cards it must place now
with the player's draft placement, and the other seats' boards small."""

from collections.abc import Mapping, Sequence

from PIL import Image

from bot.engine.cards import Card
from bot.engine.ordering import sort_row
from bot.engine.royalties import ROW_SIZES, ROWS
from bot.engine.views import PrivateView
from rendering import cards, theme
from rendering.board import Tile, public_rows
from rendering.canvas import COLUMN_GAP, HEADER_H, MARGIN, header_bar, panel_base, text, to_png
from rendering.labels import rules_text, street_text
from rendering.seat import PAD, draw_panel, panel_size, seat_header

OWN_CARD = 100
OTHER_CARD = 64
DEALT_CARD = 100  # a street's 3 or 5 cards
MANY_DEALT_CARD = 64  # a Fantasyland hand's 13-17 cards
TITLE_SIZE = 24
LABEL_SIZE = 17
PLACES = {"top": "TOP", "middle": "MIDDLE", "bottom": "BOTTOM", "discard": "DISCARD"}

Draft = Mapping[Card, str]


def _own_rows(view: PrivateView, seat_new: Sequence[Card],
              draft: Draft) -> tuple[list[Tile], list[Tile], list[Tile]]:
    """The own board with the draft's cards in the free places, each row in the order of its
    hand: this street's placed cards ringed gold, the draft's in the draft colour; a draft
    beyond a row's room is not drawn."""
    rows = []
    for name in ROWS:
        placed = view.board.row(name)
        going = [c for c in view.dealt if draft.get(c) == name][:ROW_SIZES[name] - len(placed)]
        rows.append([Tile("face", c, theme.DRAFT if c in going else
                          theme.GOLD if c in seat_new else None)
                     for c in sort_row(name, placed + tuple(going))])
    return (rows[0], rows[1], rows[2])


def _task(view: PrivateView, draft: Draft) -> str:
    n, discards = len(view.dealt), view.discard_count
    seat = next(s for s in view.table.seats if s.seat == view.seat)
    if seat.in_fantasy:
        head = f"Fantasyland: set 13 of {n}, discard {discards}"
    else:
        head = f"Place {n - discards}" + (f", discard {discards}" if discards else "")
    chosen = sum(1 for c in view.dealt if c in draft)
    return head + (f" · {chosen} of {n} chosen" if draft else "")


def _grid(count: int, width: int, inner: int) -> tuple[int, int]:
    """Cards per line and lines for `count` cards of `width` in `inner` pixels."""
    step = width + cards.ring_pad(width) * 2 + 6
    per_line = max(1, (inner + 6) // step)
    return per_line, -(-count // per_line)


def _dealt_height(view: PrivateView, inner: int) -> int:
    lines = 0
    if view.dealt:
        width = DEALT_CARD if len(view.dealt) <= 5 else MANY_DEALT_CARD
        lines = _grid(len(view.dealt), width, inner)[1]
        body = lines * (cards.card_height(width) + LABEL_SIZE + 26)
    else:
        body = 0
    if view.discards:
        body += TITLE_SIZE + 16 + cards.card_height(OTHER_CARD) + 12
    return TITLE_SIZE + 24 + body + PAD if (view.dealt or view.discards) else 0


def _card_line(img: Image.Image, x: int, y: int, tiles: Sequence[tuple[Tile, str, theme.RGB]],
               width: int, inner: int, four_colour: bool) -> int:
    """Cards with a label under each, wrapped to `inner`; returns the height used."""
    pad = cards.ring_pad(width)
    step = width + 2 * pad + 6
    per_line, lines = _grid(len(tiles), width, inner)
    line_h = cards.card_height(width) + LABEL_SIZE + 26
    for i, (tile, label, colour) in enumerate(tiles):
        cx = x + pad + (i % per_line) * step
        cy = y + pad + (i // per_line) * line_h
        img.paste(tile.image(width, four_colour), (cx - pad, cy - pad))
        if label:
            text(img, (cx + width // 2, cy + cards.card_height(width) + pad + 4), label,
                 LABEL_SIZE, "condensed_bold", colour, "mt", max_width=width, min_size=12)
    return lines * line_h


def _dealt_section(img: Image.Image, x: int, y: int, w: int, view: PrivateView, draft: Draft,
                   four_colour: bool) -> None:
    h = _dealt_height(view, w - 2 * PAD)
    img.paste(panel_base(w, h), (x, y))
    x, y, inner = x + PAD, y + PAD, w - 2 * PAD
    if view.dealt:
        text(img, (x, y), _task(view, draft), TITLE_SIZE, "bold", theme.TEXT, max_width=inner,
             min_size=18)
        y += TITLE_SIZE + 14
        width = DEALT_CARD if len(view.dealt) <= 5 else MANY_DEALT_CARD
        tiles = []
        for c in view.dealt:
            place = draft.get(c)
            if place == "discard":
                tiles.append((Tile("dimmed", c), "DISCARD", theme.DISCARD))
            elif place in PLACES:
                tiles.append((Tile("face", c, theme.DRAFT), PLACES[place], theme.DRAFT))
            else:
                tiles.append((Tile("face", c), "", theme.MUTED))
        y += _card_line(img, x, y, tiles, width, inner, four_colour) + 4
    if view.discards:
        text(img, (x, y), "Your discards (only you see them)", TITLE_SIZE - 4, "condensed_bold",
             theme.MUTED, max_width=inner)
        y += TITLE_SIZE + 12
        _card_line(img, x, y, [(Tile("face", c), "", theme.MUTED) for c in view.discards],
                   OTHER_CARD, inner, four_colour)


def private_image(view: PrivateView, draft: Draft | None = None,
                  four_colour: bool = False) -> Image.Image:
    table = view.table
    draft = {c: p for c, p in (draft or {}).items() if c in view.dealt}
    own = next(s for s in table.seats if s.seat == view.seat)
    others = [s for s in table.seats if s.seat != view.seat]
    own_w, own_h = panel_size(OWN_CARD)
    other_h = panel_size(OTHER_CARD)[1]
    dealt_h = _dealt_height(view, own_w - 2 * PAD)
    # Each other seat goes under whichever column is shorter so far: [x, height used].
    left = [MARGIN, own_h + COLUMN_GAP + (dealt_h + COLUMN_GAP if dealt_h else 0)]
    right = [MARGIN + own_w + COLUMN_GAP, 0]
    places = []
    for seat in others:
        column = right if right[1] <= left[1] else left
        places.append((seat, column[0], column[1]))
        column[1] += other_h + COLUMN_GAP
    width = right[0] + panel_size(OTHER_CARD)[0] + MARGIN if right[1] else own_w + 2 * MARGIN
    img = Image.new("RGB", (width, HEADER_H + MARGIN + max(left[1], right[1]) - COLUMN_GAP
                            + MARGIN), theme.FELT)
    header_bar(img, street_text(table), rules_text(table))
    top = HEADER_H + MARGIN
    header = seat_header(own, table.button, view.seat in table.to_act, you=True)
    draw_panel(img, MARGIN, top, OWN_CARD, header, _own_rows(view, own.new_cards, draft),
               four_colour)
    if dealt_h:
        _dealt_section(img, MARGIN, top + own_h + COLUMN_GAP, own_w, view, draft, four_colour)
    for seat, x, y in places:
        rows = public_rows(seat.board, seat.new_cards, seat.hidden_cards)
        draw_panel(img, x, top + y, OTHER_CARD,
                   seat_header(seat, table.button, seat.seat in table.to_act), rows, four_colour)
    return img


def render_private(view: PrivateView, draft: Draft | None = None,
                   four_colour: bool = False) -> bytes:
    """One seat's private image as PNG bytes. `draft` maps cards of `view.dealt` to "top",
    "middle", "bottom" or "discard": the player's placement not yet confirmed."""
    return to_png(private_image(view, draft, four_colour))
