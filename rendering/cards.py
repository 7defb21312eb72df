"""Card faces, backs, empty slots and marks, drawn once per size and deck and then pasted.

Shapes are drawn at SUPER times the size and scaled down (smooth corners); indices are drawn at
the final size so FreeType hints them crisp."""

from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.engine.cards import Card, is_joker, rank_of, suit_of
from rendering import theme
from rendering.fonts import font
from rendering.theme import RGB

SUPER = 4
RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_GLYPHS = "♠♥♦♣"  # order s, h, d, c as bot.engine.cards.SUITS
STAR = "★"
# Index size as a share of the card width: the rank's capital height is ~0.51 of the width,
# so a 64 px card has a 32 px rank (see tests/rendering/test_readability.py).
RANK_EM = 0.70
SUIT_EM = 0.62
CAP = 0.729  # DejaVu capital height per em


def card_height(width: int) -> int:
    return round(width * 1.4)


def _radius(width: int) -> int:
    return max(3, round(width * 0.09))


def ring_thickness(width: int) -> int:
    return max(3, round(width / 18))


@cache
def _shape(width: int, fill: RGB, edge: RGB, edge_width: int) -> Image.Image:
    """A rounded card-sized shape, RGBA, with smooth corners."""
    w, h = width * SUPER, card_height(width) * SUPER
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w - 1, h - 1), _radius(width) * SUPER, fill=fill, outline=edge,
        width=edge_width * SUPER,
    )
    return big.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def _index(draw: ImageDraw.ImageDraw, width: int, label: str, colour: RGB) -> None:
    """The big rank at the top left; a two-digit rank is drawn with its digits closer."""
    f = font(round(width * RANK_EM), "condensed_bold")
    x, baseline = round(width * 0.08), round(width * 0.1 + width * RANK_EM * CAP)
    if len(label) == 2:
        x -= round(width * 0.03)
        draw.text((x, baseline), label[0], font=f, fill=colour, anchor="ls")
        x += round(f.getlength(label[0]) - width * 0.065)
        draw.text((x, baseline), label[1], font=f, fill=colour, anchor="ls")
    else:
        draw.text((x, baseline), label, font=f, fill=colour, anchor="ls")


def _pip(draw: ImageDraw.ImageDraw, width: int, glyph: str, colour: RGB) -> None:
    """The big suit symbol at the bottom right."""
    f = font(round(width * SUIT_EM), "bold")
    right, bottom = width - round(width * 0.07), card_height(width) - round(width * 0.09)
    draw.text((right, bottom), glyph, font=f, fill=colour, anchor="rs")


@cache
def face(card: Card, width: int, four_colour: bool = False) -> Image.Image:
    """A card face up; a joker shows a star (R9)."""
    if is_joker(card):
        return _joker(width)
    img = _shape(width, theme.CARD_WHITE, theme.CARD_EDGE, 1).copy()
    draw = ImageDraw.Draw(img)
    colour = theme.ink(card, four_colour)
    _index(draw, width, RANK_LABELS[rank_of(card)], colour)
    _pip(draw, width, SUIT_GLYPHS[suit_of(card)], colour)
    return img


@cache
def _joker(width: int) -> Image.Image:
    img = _shape(width, theme.CARD_WHITE, theme.JOKER, max(2, width // 24)).copy()
    draw = ImageDraw.Draw(img)
    _index(draw, width, STAR, theme.JOKER)
    draw.text((width // 2, card_height(width) - round(width * 0.1)), "JOKER",
              font=font(round(width * 0.2), "condensed_bold"), fill=theme.JOKER, anchor="ms")
    return img


@cache
def stand_in(card: Card, width: int, four_colour: bool = False) -> Image.Image:
    """A joker shown as the card it stands for (R9): that card's face in a joker frame."""
    img = _shape(width, theme.JOKER_TINT, theme.JOKER, max(3, width // 14)).copy()
    draw = ImageDraw.Draw(img)
    colour = theme.ink(card, four_colour)
    _index(draw, width, RANK_LABELS[rank_of(card)], colour)
    _pip(draw, width, SUIT_GLYPHS[suit_of(card)], colour)
    star = font(round(width * 0.3), "bold")
    draw.text((round(width * 0.1), card_height(width) - round(width * 0.1)), STAR, font=star,
              fill=theme.JOKER, anchor="ls")
    return img


@cache
def back(width: int) -> Image.Image:
    """A face-down card: a blue lattice inside a white frame."""
    img = _shape(width, theme.CARD_WHITE, theme.CARD_EDGE, 1).copy()
    w, h = width * SUPER, card_height(width) * SUPER
    inset = round(width * 0.08) * SUPER
    inner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(inner)
    draw.rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset),
                           max(1, _radius(width) - 2) * SUPER, fill=theme.BACK)
    step = max(8, width // 5) * SUPER
    for k in range(-h, w + h, step):
        draw.line((k, inset, k + h, inset + h), fill=theme.BACK_LINE, width=SUPER * 2)
        draw.line((k, h - inset, k + h, h - inset - h), fill=theme.BACK_LINE, width=SUPER * 2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset),
                                           max(1, _radius(width) - 2) * SUPER, fill=255)
    framed = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    framed.paste(inner, (0, 0), mask)
    img.alpha_composite(framed.resize(img.size, Image.Resampling.LANCZOS))
    return img


@cache
def slot(width: int) -> Image.Image:
    """An empty place on a board."""
    return _shape(width, theme.SLOT_FILL, theme.SLOT_EDGE, 2)


@cache
def ring(width: int, colour: RGB) -> Image.Image:
    """An outline drawn around a card to mark it; its size is the card's plus 2 x `ring_pad`."""
    t, pad = ring_thickness(width), ring_pad(width)
    w, h = (width + 2 * pad) * SUPER, (card_height(width) + 2 * pad) * SUPER
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w - 1, h - 1), (_radius(width) + pad) * SUPER, outline=colour, width=t * SUPER
    )
    return big.resize((width + 2 * pad, card_height(width) + 2 * pad), Image.Resampling.LANCZOS)


def ring_pad(width: int) -> int:
    return ring_thickness(width)


Kind = Literal["face", "stand_in", "dimmed", "back", "slot"]


@cache
def tile(kind: Kind, card: Card, width: int, four_colour: bool = False,
         ring_colour: RGB | None = None) -> Image.Image:
    """A card place as an opaque RGB image on the panel colour, `ring_pad` wider on each side
    than the card, ringed when `ring_colour` is given. Pasting it needs no mask: every board
    is drawn on a panel, and these are what the images paste."""
    pad = ring_pad(width)
    out = Image.new("RGBA", (width + 2 * pad, card_height(width) + 2 * pad), theme.FELT_DARK)
    if kind == "face":
        img = face(card, width, four_colour)
    elif kind == "stand_in":
        img = stand_in(card, width, four_colour)
    elif kind == "dimmed":
        img = dimmed(card, width, four_colour)
    else:
        img = back(width) if kind == "back" else slot(width)
    out.alpha_composite(img, (pad, pad))
    if ring_colour:
        out.alpha_composite(ring(width, ring_colour))
    return out.convert("RGB")


@cache
def dimmed(card: Card, width: int, four_colour: bool = False) -> Image.Image:
    """A discarded card: greyed, with a red cross."""
    img = face(card, width, four_colour).copy()
    veil = Image.new("RGBA", img.size, (40, 40, 40, 150))
    img.alpha_composite(Image.composite(veil, Image.new("RGBA", img.size, (0, 0, 0, 0)),
                                        img.getchannel("A")))
    draw = ImageDraw.Draw(img)
    w, h = img.size
    t = max(3, width // 14)
    m = round(width * 0.18)
    draw.line((m, m, w - m, h - m), fill=theme.DISCARD, width=t)
    draw.line((w - m, m, m, h - m), fill=theme.DISCARD, width=t)
    return img


# Index cards: a card as narrow as its index, the rank over the suit (another seat's strip on
# the private image of streets 2-5, rendering/strip.py). The same kinds as `tile`.
INDEX_ASPECT = 1.7


def index_height(width: int) -> int:
    return round(width * INDEX_ASPECT)


@cache
def index_tile(kind: Kind, card: Card, width: int, four_colour: bool = False,
               ring_colour: RGB | None = None) -> Image.Image:
    """An index card as `tile` draws a card: opaque RGB, `ring_pad` wider on each side."""
    pad = ring_pad(width)
    height = index_height(width)
    out = Image.new("RGBA", (width + 2 * pad, height + 2 * pad), theme.FELT_DARK)
    radius = _radius(width)
    if kind == "slot":
        shape = _rounded(width, height, radius, theme.SLOT_FILL, theme.SLOT_EDGE, 2)
    elif kind == "back":
        shape = _rounded(width, height, radius, theme.CARD_WHITE, theme.CARD_EDGE, 1)
        inset = max(2, round(width * 0.12))
        shape.alpha_composite(_rounded(width - 2 * inset, height - 2 * inset,
                                       max(1, radius - 2), theme.BACK, theme.BACK_LINE, 1),
                              (inset, inset))
    else:
        shape = _rounded(width, height, radius, theme.CARD_WHITE, theme.CARD_EDGE, 1)
        draw = ImageDraw.Draw(shape)
        if is_joker(card):
            rank, suit, colour = STAR, "", theme.JOKER
        else:
            rank, suit = RANK_LABELS[rank_of(card)], SUIT_GLYPHS[suit_of(card)]
            colour = theme.ink(card, four_colour)
        size = round(width * 0.86)
        f = font(size, "condensed_bold")
        top = round(width * 0.12 + size * CAP)
        if len(rank) == 2:  # "10": the digits closer, as on the faces
            left = round((width - f.getlength(rank) + width * 0.1) / 2)
            draw.text((left, top), rank[0], font=f, fill=colour, anchor="ls")
            draw.text((left + round(f.getlength(rank[0]) - width * 0.1), top), rank[1],
                      font=f, fill=colour, anchor="ls")
        else:
            draw.text((width // 2, top), rank, font=f, fill=colour, anchor="ms")
        if suit:
            draw.text((width // 2, height - round(width * 0.12)), suit,
                      font=font(round(width * 0.62), "bold"), fill=colour, anchor="ms")
    out.alpha_composite(shape, (pad, pad))
    if ring_colour:
        t = ring_thickness(width)
        edge = Image.new("RGBA", out.size, (0, 0, 0, 0))
        edge.alpha_composite(_rounded(width + 2 * pad, height + 2 * pad, radius + pad,
                                      (0, 0, 0, 0), ring_colour, t))
        out.alpha_composite(edge)
    return out.convert("RGB")


def _rounded(width: int, height: int, radius: int, fill: RGB | tuple[int, int, int, int],
             edge: RGB, edge_width: int) -> Image.Image:
    """A smooth rounded rectangle of any size, RGBA."""
    w, h = width * SUPER, height * SUPER
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w - 1, h - 1), radius * SUPER, fill=fill,
                                          outline=edge, width=edge_width * SUPER)
    return big.resize((width, height), Image.Resampling.LANCZOS)
