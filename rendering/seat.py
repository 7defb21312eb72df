"""A seat's panel: name, stack, button and status badges above its board."""

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.views import SeatView
from bot.i18n import number, short_number, t
from bot.i18n.names import LEVELS, badged_name, seat_name
from rendering import theme
from rendering.board import Rows, board_size, draw_board
from rendering.canvas import (
    dim,
    panel_base,
    paste,
    pill,
    pill_height,
    pill_width,
    put,
    rounded,
    text,
)
from rendering.fonts import font, length
from rendering.theme import RGB

PAD = 14
NAME_SIZE = 26
BADGE_SIZE = 17
LINE_GAP = 8
STACK_SHARE = 0.45  # of a name line, the most a stack takes before it is shortened
HEAD_H = NAME_SIZE + 8 + LINE_GAP + pill_height(BADGE_SIZE) + 12


@dataclass(frozen=True, slots=True)
class Header:
    name: str
    stack: str  # grouped as the reader's language groups digits
    short_stack: str  # the same in short form ("1.2M"), where the full one has no room
    button: bool
    badges: tuple[tuple[str, RGB], ...]
    highlight: RGB | None = None  # panel edge colour (whose turn)
    dimmed: bool = False


def panel_size(card_width: int) -> tuple[int, int]:
    w, h = board_size(card_width)
    return w + 2 * PAD, HEAD_H + h + 2 * PAD


def seat_badges(loc: str, seat: SeatView, to_act: bool,
                you: bool = False) -> tuple[tuple[str, RGB], ...]:
    """Status labels, most urgent first (R7, R8, R10)."""
    badges: list[tuple[str, RGB]] = []
    if to_act:
        badges.append((t(loc, "YOUR TURN") if you else t(loc, "TO ACT"), theme.GOLD))
    if seat.in_fantasy:
        badges.append((t(loc, "FANTASYLAND {n}", n=seat.fantasy_size), theme.FANTASY))
    if seat.away:
        badges.append((t(loc, "AWAY"), theme.AWAY))
    if seat.out:  # busted or got up (R6, R11): out for the match, not back next hand
        badges.append((t(loc, "OUT"), theme.AWAY))
    elif seat.sitting_out:
        badges.append((t(loc, "SITTING OUT"), theme.AWAY))
    if seat.is_ai:
        level = LEVELS.get(seat.ai_level or "")
        badges.append((t(loc, "BOT {level}", level=level) if level else t(loc, "BOT"),
                       theme.MUTED))
    return tuple(badges)


def seat_header(loc: str, seat: SeatView, button: int, to_act: bool,
                you: bool = False) -> Header:
    name = badged_name(loc, seat.name, seat.is_ai) if seat.ai_level in LEVELS \
        else seat_name(loc, seat.name, seat.is_ai)
    return Header(name, number(loc, seat.stack), short_number(loc, seat.stack),
                  seat.seat == button,
                  seat_badges(loc, seat, to_act, you), theme.GOLD if to_act else None,
                  seat.sitting_out)


@dataclass(frozen=True, slots=True)
class Badges:
    """Status labels fitted to a line: their size, the ones shown, the gap between them."""

    size: int
    shown: tuple[tuple[str, RGB], ...]
    gap: int

    @property
    def width(self) -> int:
        return sum(pill_width(label, self.size) + self.gap for label, _ in self.shown)

    def draw(self, canvas: Image.Image, x: int, mid: int) -> int:
        """From `x`, centred on `mid`; returns the width drawn."""
        start = x
        for label, colour in self.shown:
            x += pill(canvas, x, mid - pill_height(self.size) // 2, label, colour,
                      self.size) + self.gap
        return x - start


def fit_badges(badges: Sequence[tuple[str, RGB]], room: int, size: int, gap: int) -> Badges:
    """The badges in `room` pixels: a few sizes smaller when they do not fit, then the least
    urgent left out (they come most urgent first)."""
    fitted = Badges(size, tuple(badges), gap)
    smallest = max(11, size - 4)
    while fitted.size > smallest and fitted.width - gap > room:
        fitted = Badges(fitted.size - 1, fitted.shown, gap)
    while fitted.shown and fitted.width - gap > room:
        fitted = Badges(fitted.size, fitted.shown[:-1], gap)
    return fitted


def dealer_button(canvas: Image.Image, x: int, y: int, size: int) -> None:
    """The dealer button: a white disc with a D."""
    paste(canvas, rounded(size, size, size // 2, theme.CARD_WHITE, (160, 160, 160), 1), x, y)
    text(canvas, (x + size // 2, y + size // 2 + 1), "D", round(size * 0.62), "bold",
         (20, 20, 20), "mm")


def amount(label: str, short: str, room: int, size: int) -> str:
    """`label`, or its short form `short` when `label` is wider than `room` pixels at `size`:
    a number is never cut (a cut one would read as a smaller amount)."""
    return short if length(label, font(size, "bold", label)) > room else label


def chips(canvas: Image.Image, x: int, mid: int, label: str, size: int = 24,
          right_aligned: bool = True, room: int = 0, short: str = "") -> int:
    """A chip icon then the amount `label` (`short` when given and the whole would be wider
    than `room`), ending at `x` (or starting there); returns the width."""
    d = round(size * 0.8)
    if short:
        label = amount(label, short, room - d - 6, size)
    width = d + 6 + length(label, font(size))
    left = x - width if right_aligned else x
    paste(canvas, rounded(d, d, d // 2, theme.CHIP, theme.CHIP_EDGE, max(2, d // 7)), left,
          mid - d // 2)
    text(canvas, (left + d + 6, mid), label, size, "bold", theme.TEXT, "lm")
    return width


def draw_panel(canvas: Image.Image, x: int, y: int, card_width: int, header: Header,
               rows: Rows, four_colour: bool) -> None:
    """One seat's panel with its top-left corner at (x, y)."""
    w, h = panel_size(card_width)
    put(canvas, panel_base(w, h, header.highlight), (x, y))
    mid = y + PAD + NAME_SIZE // 2 + 2
    left = x + PAD
    if header.button:
        size = NAME_SIZE + 4
        dealer_button(canvas, left, mid - size // 2, size)
        left += size + 8
    stack_w = chips(canvas, x + w - PAD, mid, header.stack, room=round((w - 2 * PAD) * STACK_SHARE),
                    short=header.short_stack)
    text(canvas, (left, mid), header.name, NAME_SIZE, "condensed_bold", theme.TEXT, "lm",
         max_width=x + w - PAD - stack_w - 12 - left, min_size=20)
    by = y + PAD + NAME_SIZE + 8 + LINE_GAP
    fit_badges(header.badges, w - 2 * PAD, BADGE_SIZE, 6).draw(
        canvas, x + PAD, by + pill_height(BADGE_SIZE) // 2)
    draw_board(canvas, x + PAD, y + PAD + HEAD_H, card_width, rows, four_colour)
    if header.dimmed:
        dim(canvas, (x, y, x + w, y + h))
