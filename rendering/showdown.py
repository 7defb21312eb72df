"""The showdown image: every board face up with its hands, royalties, fouls, points and chips
(R3-R6, R8), one band per seat."""

from functools import cache

from PIL import Image, ImageDraw

from bot.engine.board import board_texts
from bot.engine.cards import Card, rank_of, suit_of
from bot.engine.ordering import joker_choices
from bot.engine.royalties import ROWS
from bot.engine.views import SeatView, ShowdownSeat, TableView
from bot.i18n import ENGLISH, number, series, short_number, t
from bot.i18n.names import seat_name
from rendering import theme
from rendering.board import board_size, draw_board, row_y, shown_rows
from rendering.canvas import (
    HEADER_H,
    MARGIN,
    blank,
    header_bar,
    panel_base,
    paste,
    pill,
    put,
    text,
    to_png,
)
from rendering.cards import RANK_LABELS, SUIT_GLYPHS, card_height
from rendering.fonts import font
from rendering.labels import rules_text, street_text
from rendering.seat import BADGE_SIZE, NAME_SIZE, PAD, amount, chips, dealer_button

CARD = 64
INFO_W = 280
CAPTION_W = 350
AMOUNT_X = 64  # where the chips moved and the stack start, right of their labels
BAND_GAP = 12


def _signed(loc: str, n: int, short: bool = False) -> str:
    return ("+" if n > 0 else "−" if n < 0 else "") + (short_number if short else number)(
        loc, abs(n))


def _tone(n: int) -> theme.RGB:
    return theme.WIN if n > 0 else theme.LOSS if n < 0 else theme.MUTED


@cache
def _stamp(loc: str) -> Image.Image:
    """'FOULED' in a red frame, tilted like a rubber stamp (R3)."""
    word = t(loc, "FOULED")
    f = font(40, "bold", word)
    tw = round(f.getlength(word))
    w, h = tw + 36, 62
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((3, 3, w - 4, h - 4), 10, fill=theme.CARD_WHITE,
                           outline=theme.FOUL, width=5)
    draw.text((w // 2, h // 2), word, font=f, fill=theme.FOUL, anchor="mm")
    return img.rotate(6, resample=Image.Resampling.BICUBIC, expand=True)


def _band_size() -> tuple[int, int]:
    bw, bh = board_size(CARD)
    return INFO_W + bw + CAPTION_W + 4 * PAD, bh + 2 * PAD


def _info(loc: str, img: Image.Image, x: int, y: int, seat: SeatView, result: ShowdownSeat,
          button: bool, stacks: bool) -> None:
    """Name, points, chips moved and (with `stacks`) the stack after, Fantasyland earned."""
    left = x
    mid = y + NAME_SIZE // 2 + 2
    if button:
        dealer_button(img, left, mid - (NAME_SIZE + 4) // 2, NAME_SIZE + 4)
        left += NAME_SIZE + 12
    text(img, (left, mid), seat_name(loc, seat.name, seat.is_ai), NAME_SIZE, "condensed_bold",
         theme.TEXT, "lm", max_width=x + INFO_W - left, min_size=18)
    y = mid + 62  # baseline of the points
    points = t(loc, "{points} pt", "{points} pts", n=abs(result.points),
               points=_signed(loc, result.points))
    text(img, (x, y), points, 40, "bold", _tone(result.points), "ls")
    y += 30
    text(img, (x, y), t(loc, "chips"), 20, "condensed", theme.MUTED, "lm", max_width=60,
         min_size=12)
    moved = amount(_signed(loc, result.chips), _signed(loc, result.chips, short=True),
                   INFO_W - AMOUNT_X, 24)
    text(img, (x + AMOUNT_X, y), moved, 24, "bold", _tone(result.chips), "lm")
    y += 34
    if stacks:
        text(img, (x, y), t(loc, "stack"), 20, "condensed", theme.MUTED, "lm", max_width=60,
             min_size=12)
        chips(img, x + AMOUNT_X, y, number(loc, result.stack_after), right_aligned=False,
              room=INFO_W - AMOUNT_X, short=short_number(loc, result.stack_after))
    y += 28
    if result.fouled:
        paste(img, _stamp(loc), x, y - 6)
    if result.fantasy_next:
        pill(img, x, y, t(loc, "FANTASYLAND NEXT · {n}", n=result.fantasy_next), theme.FANTASY,
             BADGE_SIZE)


def _card_text(card: Card) -> str:
    return RANK_LABELS[rank_of(card)] + SUIT_GLYPHS[suit_of(card)]


def _captions(loc: str, img: Image.Image, x: int, y: int, result: ShowdownSeat,
              lowball: bool) -> None:
    """Each row's hand name beside it, its royalty in a gold pill (R4)."""
    ch = card_height(CARD)
    names = (t(loc, name) for name in board_texts(result.resolved, lowball))
    for r, (name, royalty) in enumerate(zip(names, result.royalties, strict=True)):
        mid = y + row_y(CARD, r) + ch // 2
        colour = theme.MUTED if result.fouled else theme.TEXT
        row = ROWS[r]
        jokers = joker_choices(result.board.row(row), result.resolved.row(row)).values()
        if jokers:
            # R9: say what each joker stood for, under the hand it made.
            note = t(loc, "★ joker as {cards}", cards=series([_card_text(c) for c in jokers]))
            text(img, (x, mid + 6), note, 19, "condensed_bold", theme.JOKER_NOTE, "la",
                 max_width=CAPTION_W)
            mid -= 12
        room = CAPTION_W
        if royalty:
            label = f"+{royalty}"
            w = round(font(20, "condensed_bold").getlength(label)) + 22
            pill(img, x + CAPTION_W - w, mid - 15, label, theme.GOLD, 20)
            room -= w + 8
        text(img, (x, mid), name, 22, "condensed_bold", colour, "lm", max_width=room,
             min_size=16)


def showdown_image(view: TableView, four_colour: bool = False, stacks: bool = True,
                   locale: str = ENGLISH) -> Image.Image:
    """A table's showdown; without `stacks`, /ofc score's boards someone typed in: no game
    around them (no hand title, no rules header, no dealer, no stacks)."""
    assert view.showdown is not None
    by_seat = {s.seat: s for s in view.seats}
    results = view.showdown.seats
    bw, bh = _band_size()
    header = HEADER_H if stacks else 0
    size = (2 * MARGIN + bw,
            header + MARGIN + len(results) * (bh + BAND_GAP) - BAND_GAP + MARGIN)
    img = blank(size)
    if stacks:
        header_bar(img, street_text(locale, view), rules_text(locale, view))
    board_w = board_size(CARD)[0]
    for i, result in enumerate(results):
        x, y = MARGIN, header + MARGIN + i * (bh + BAND_GAP)
        put(img, panel_base(bw, bh, theme.FOUL if result.fouled else None), (x, y))
        _info(locale, img, x + PAD, y + PAD, by_seat[result.seat], result,
              stacks and result.seat == view.button, stacks)
        bx = x + 2 * PAD + INFO_W
        draw_board(img, bx, y + PAD, CARD, shown_rows(result.board, result.resolved),
                   four_colour)
        _captions(locale, img, bx + board_w + PAD, y + PAD, result,
                  view.rules.variant == "lowball")
    return img


def render_showdown(view: TableView, four_colour: bool = False, locale: str = ENGLISH) -> bytes:
    """The showdown as PNG bytes (`view.showdown` must be set)."""
    return to_png(showdown_image(view, four_colour, locale=locale))


def render_score(view: TableView, four_colour: bool = False, locale: str = ENGLISH) -> bytes:
    """/ofc score's boards as PNG bytes: the showdown of typed boards, without the game's
    chrome (a live game elsewhere keeps its own stacks)."""
    return to_png(showdown_image(view, four_colour, stacks=False, locale=locale))
