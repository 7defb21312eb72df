"""/ofc stats's player card: a member's rating and rank, their net points over their latest
matches as a line, their fouls, Fantasyland entries and royalties beside the server's, and
their best hand. Drawn for a phone (640 px wide, read at about 550); the numbers are also in
the embed's text under it, for screen readers."""

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, decimal, number, short_number, t
from rendering import theme
from rendering.canvas import header_bar, panel_base, text, to_png
from rendering.fonts import font, length
from rendering.seat import amount

WIDTH = 640
HEADER = 52
EDGE = 12
PAD = 16
CHART_H = 150
BAR_H = 16
LABEL_W = 70  # the chart's room for its total, widened for a wider one
LABEL_SIZE = 22


@dataclass(frozen=True, slots=True)
class Figures:
    """Rates per hand: fouls, Fantasyland entries (per hand outside it), royalties."""

    foul_rate: float
    fantasy_entry_rate: float
    royalties_per_hand: float


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    server: str
    rating: int | None  # the shown rating (bot/ratings.py); None before a rated match
    rank: int | None
    rated: int  # members on the season's board
    matches: int
    hands: int
    nets: tuple[int, ...]  # net points of each latest finished match, oldest first
    mine: Figures
    average: Figures  # the server's people together
    best_royalties: int


def _chart(img: Image.Image, x: int, y: int, w: int, h: int, nets: Sequence[int],
           loc: str) -> None:
    """The running total of `nets` as a line over a zero line, its last value at its end."""
    draw = ImageDraw.Draw(img)
    totals = [0]
    for net in nets:
        totals.append(totals[-1] + net)
    low, high = min(totals), max(totals)
    span = max(high - low, 1)
    # The total at the line's end, in short form ("-123.5K") when the full one is too wide; the
    # line leaves it room, since a cut one would lose its unit and read as another number.
    label = amount(number(loc, totals[-1], signed=True),
                   short_number(loc, totals[-1], signed=True), LABEL_W + 2, LABEL_SIZE)
    label_w = max(LABEL_W, length(label, font(LABEL_SIZE, "bold", label)) - 2)

    def at(i: int, value: int) -> tuple[int, int]:
        return (x + round(i * (w - label_w) / max(len(totals) - 1, 1)),
                y + round((high - value) * (h - 8) / span) + 4)

    zero = at(0, 0)[1]
    for dash in range(x, x + w - label_w, 12):
        draw.line((dash, zero, min(dash + 6, x + w - label_w), zero), fill=theme.MUTED, width=1)
    colour = theme.WIN if totals[-1] >= 0 else theme.LOSS
    points = [at(i, v) for i, v in enumerate(totals)]
    if len(points) > 1:
        draw.line(points, fill=colour, width=4, joint="curve")
    end = points[-1]
    draw.ellipse((end[0] - 5, end[1] - 5, end[0] + 5, end[1] + 5), fill=colour)
    text(img, (end[0] + 10, end[1]), label, LABEL_SIZE, "bold", colour, "lm")


def _compare(img: Image.Image, x: int, y: int, w: int, label: str, mine: float,
             average: float, shown: tuple[str, str], loc: str) -> int:
    """A figure's label, then the player's bar and the server's under it; returns the height."""
    draw = ImageDraw.Draw(img)
    text(img, (x, y), label, 20, "condensed_bold", theme.TEXT, max_width=w)
    y += 28
    top = max(mine, average, 1e-9)
    names = (t(loc, "You"), t(loc, "Server"))
    name_w = 110
    value_w = 90
    for row, (value, colour) in enumerate(((mine, theme.DRAFT), (average, theme.MUTED))):
        row_y = y + row * (BAR_H + 8)
        text(img, (x, row_y + BAR_H // 2), names[row], 17, "condensed", theme.MUTED, "lm",
             max_width=name_w - 8)
        full = w - name_w - value_w
        length = max(round(full * value / top), 2)
        draw.rounded_rectangle((x + name_w, row_y, x + name_w + length, row_y + BAR_H), 6,
                               fill=colour)
        text(img, (x + w, row_y + BAR_H // 2), shown[row], 18, "bold", colour, "rm")
    return 28 + 2 * BAR_H + 8 + 14


def _percent(loc: str, rate: float) -> str:
    return t(loc, "{n}%", n=f"{100 * rate:.0f}")


def player_card_image(card: PlayerCard, locale: str = ENGLISH) -> Image.Image:
    loc = locale
    inner = WIDTH - 2 * EDGE - 2 * PAD
    height = HEADER + EDGE + 96 + CHART_H + 52 + 3 * 82 + 54 + EDGE
    img = Image.new("RGB", (WIDTH, height), theme.FELT)
    header_bar(img, card.name, card.server, HEADER, 26)
    y = HEADER + EDGE
    img.paste(panel_base(WIDTH - 2 * EDGE, height - y - EDGE), (EDGE, y))
    x = EDGE + PAD
    y += PAD

    rating = t(loc, "unrated") if card.rating is None else number(loc, card.rating)
    text(img, (x, y), t(loc, "Rating"), 20, "condensed", theme.MUTED)
    text(img, (x, y + 24), rating, 46, "bold", theme.GOLD, max_width=inner // 2, min_size=24)
    rank = t(loc, "#{rank:,} of {n:,}", rank=card.rank, n=card.rated) if card.rank else ""
    played = t(loc, "{n:,} match", "{n:,} matches", n=card.matches)
    hands = t(loc, "{n:,} hand", "{n:,} hands", n=card.hands)
    right = x + inner
    # Shrunk before cut: a cut number would read as another.
    text(img, (right, y + 6), rank, 30, "bold", theme.TEXT, "ra", max_width=inner // 2,
         min_size=18)
    text(img, (right, y + 46), f"{played} · {hands}", 20, "condensed", theme.MUTED, "ra",
         max_width=inner // 2, min_size=13)
    y += 96

    shown = card.nets[-30:]
    text(img, (x, y), t(loc, "Net points over the last {n} match",
                        "Net points over the last {n} matches", n=len(shown)),
         20, "condensed_bold", theme.TEXT, max_width=inner)
    _chart(img, x, y + 30, inner, CHART_H - 30, shown, loc)
    y += CHART_H + 22

    rows = (
        (t(loc, "Fouls, of hands"), card.mine.foul_rate, card.average.foul_rate,
         (_percent(loc, card.mine.foul_rate), _percent(loc, card.average.foul_rate))),
        (t(loc, "Fantasyland entries, of normal hands"), card.mine.fantasy_entry_rate,
         card.average.fantasy_entry_rate, (_percent(loc, card.mine.fantasy_entry_rate),
                                           _percent(loc, card.average.fantasy_entry_rate))),
        (t(loc, "Royalties a hand"), card.mine.royalties_per_hand,
         card.average.royalties_per_hand, (decimal(loc, card.mine.royalties_per_hand),
                                           decimal(loc, card.average.royalties_per_hand))),
    )
    for label, mine, average, values in rows:
        y += _compare(img, x, y, inner, label, mine, average, values, loc) + 10
    text(img, (x, y + 6), t(loc, "Best hand: {n} royalties", n=card.best_royalties), 22,
         "bold", theme.FANTASY, max_width=inner)
    return img


def render_player_card(card: PlayerCard, locale: str = ENGLISH) -> bytes:
    return to_png(player_card_image(card, locale))
