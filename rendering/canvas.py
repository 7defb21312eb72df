"""Drawing helpers every image shares: panels, pills, the header bar, PNG encoding.

The images people see at every click (table, private, showdown, score) are drawn straight in palette
mode ("P", rendering/palette.py): each opaque part is mapped to the palette once and cached,
and antialiased text and shapes are mixed once for each background colour they land on, so the
finished image needs no mapping of its own (docs/maintainers/performance.md). The same helpers
draw on an RGB canvas too (the rarer images), which to_png maps to the palette as a whole."""

import struct
import zlib
from collections.abc import Callable
from functools import cache, lru_cache

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from rendering import theme
from rendering.bidi import visual
from rendering.fonts import Style, drawable, fit, font, is_cjk, length, needs_cjk
from rendering.palette import fixed
from rendering.theme import RGB

SUPER = 4
MARGIN = 16
HEADER_H = 58
COLUMN_GAP = 14  # between panels
# ISA-L's deflate, level 1: a seventh of zlib's time at level 1 or 2, and smaller; see
# docs/maintainers/performance.md for the measurement
LEVEL = 1
KEPT = 2048  # images mapped to the palette (or mixed onto a background) kept by canvas


@lru_cache(maxsize=256)
def rounded(width: int, height: int, radius: int, fill: RGB, edge: RGB | None = None,
            edge_width: int = 0) -> Image.Image:
    """A smooth rounded rectangle, RGBA (drawn large and scaled down)."""
    big = Image.new("RGBA", (width * SUPER, height * SUPER), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * SUPER - 1, height * SUPER - 1), radius * SUPER, fill=fill,
        outline=edge, width=edge_width * SUPER,
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def panel_base(width: int, height: int, edge: RGB | None = None) -> Image.Image:
    """A panel on the felt, opaque RGB (pasted without a mask); `edge` highlights it."""
    out = Image.new("RGB", (width, height), theme.FELT)
    if edge:
        shape = rounded(width, height, 16, theme.FELT_DARK, edge, 4)
    else:
        shape = rounded(width, height, 16, theme.FELT_DARK, theme.PANEL_EDGE, 2)
    out.paste(shape, (0, 0), shape)
    return out


def blank(size: tuple[int, int]) -> Image.Image:
    """A new canvas in palette mode, the felt all over."""
    return _flat(size, index(theme.FELT))


@cache
def _entries() -> list[int]:
    return fixed().getpalette() or []


def indexed(img: Image.Image) -> Image.Image:
    """An opaque image mapped to the palette: each pixel to its nearest entry."""
    return img.convert("RGB").quantize(palette=fixed(), dither=Image.Dither.NONE)


@cache
def index(colour: RGB) -> int:
    """The palette entry a pixel of `colour` maps to (the theme's colours map to themselves)."""
    found = indexed(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(found, int)
    return found


def ink(canvas: Image.Image, colour: RGB) -> RGB | int:
    """What ImageDraw fills with to draw `colour` on `canvas`: an entry on a palette canvas."""
    return index(colour) if canvas.mode == "P" else colour


class _Part:
    """An image as a cache key: the same object, not an equal one (comparing pixels would cost
    what the cache saves). The key keeps the image, so its id is not reused while cached."""

    __slots__ = ("img",)

    def __init__(self, img: Image.Image) -> None:
        self.img = img

    def __hash__(self) -> int:
        return id(self.img)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Part) and other.img is self.img


def _kept(img: Image.Image, background: int) -> Image.Image:
    """A part pasted image after image, mapped once: opaque (`background` -1), or its alpha
    mixed onto the entry `background`."""
    return _mapped(_Part(img), background)


@lru_cache(maxsize=KEPT)
def _mapped(part: _Part, background: int) -> Image.Image:
    img = part.img
    if background < 0:
        return indexed(img)
    return _mix(_flat(img.size, background), img, img.getchannel("A"))


def _flat(size: tuple[int, int], entry: int) -> Image.Image:
    """A palette image of one entry."""
    img = Image.new("P", size, entry)
    img.putpalette(_entries())
    return img


def _mix(under: Image.Image, fill: Image.Image | RGB, mask: Image.Image) -> Image.Image:
    """`fill` drawn through `mask` onto the palette image `under`, mixed in RGB and mapped back
    (every entry maps to itself, so the pixels left uncovered keep theirs)."""
    rgb = under.convert("RGB")
    rgb.paste(fill, (0, 0), mask)
    return indexed(rgb)


def _place(canvas: Image.Image, box: tuple[int, int, int, int],
           flat: Callable[[int], Image.Image],
           mixed: Callable[[Image.Image], Image.Image]) -> None:
    """Draw a part at `box` of a palette canvas: `flat(entry)` (kept from image to image) where
    the canvas there is one entry, else `mixed(what is under it)`."""
    # Through the images' core: Image.crop and Image.paste cost several times the work itself.
    low, high = canvas.im.crop(box).getextrema()
    part = flat(low) if low == high else mixed(canvas.crop(box))
    canvas.im.paste(part.im, box)


def put(canvas: Image.Image, img: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an opaque part (a card, a panel)."""
    if canvas.mode == "P":
        canvas.im.paste(_kept(img, -1).im, (*xy, xy[0] + img.width, xy[1] + img.height))
    else:
        canvas.paste(img, xy)


def paste(canvas: Image.Image, img: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA part through its alpha."""
    if canvas.mode == "P":
        _place(canvas, (x, y, x + img.width, y + img.height), lambda entry: _kept(img, entry),
               lambda under: _mix(under, img, img.getchannel("A")))
    else:
        canvas.paste(img, (x, y), img)


def pill(canvas: Image.Image, x: int, y: int, label: str, colour: RGB, size: int = 18,
         dark_text: bool = True) -> int:
    """A rounded label; returns its width."""
    label = drawable(label, "condensed_bold")
    f = font(size, "condensed_bold", label)
    h = round(size * 1.45)
    w = pill_width(label, size)
    paste(canvas, rounded(w, h, h // 2, colour), x, y)
    _ink(canvas, (x + w // 2, y + h // 2), label, f, (20, 20, 20) if dark_text else theme.TEXT,
         "mm")
    return w


def pill_width(label: str, size: int = 18) -> int:
    label = drawable(label, "condensed_bold")
    return length(label, font(size, "condensed_bold", label)) + 2 * round(size * 0.55)


def pill_height(size: int = 18) -> int:
    return round(size * 1.45)


def text(canvas: Image.Image, xy: tuple[int, int], s: str, size: int, style: Style = "bold",
         fill: RGB = theme.TEXT, anchor: str = "la", max_width: int = 0,
         min_size: int = 0) -> int:
    """Draw `s` (shrunk or cut to `max_width` when given; without the characters the font has
    no glyph for); returns the width drawn."""
    s = drawable(s, style)
    if max_width:
        s, f = fit(s, max_width, size, style, min_size)
    else:
        f = font(size, style, s)
    _ink(canvas, xy, s, f, fill, anchor)
    return length(s, f)


@lru_cache(maxsize=4096)
def _mask(s: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage as a mask, and where its corner is from the anchor point. The same
    names, stacks and labels come back render after render: each is rasterized once."""
    seen = visual(s)  # right-to-left letters in the order they are read
    # Whole pixels: the BASIC layout (fonts.py) measures in ints; the stubs say float.
    left, top, right, bottom = (int(v) for v in f.getbbox(seen, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), seen, font=f, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=4096)
def _lettered(s: str, f: ImageFont.FreeTypeFont, anchor: str, fill: RGB,
              background: int) -> Image.Image:
    """The text in `fill` on a palette background of one entry, mixed and mapped once."""
    mask = _mask(s, f, anchor)[0]
    return _mix(_flat(mask.size, background), fill, mask)


def _ink(canvas: Image.Image, xy: tuple[int, int], s: str, f: ImageFont.FreeTypeFont,
         fill: RGB, anchor: str) -> None:
    mask, left, top = _mask(s, f, anchor)
    corner = (xy[0] + left, xy[1] + top)
    if canvas.mode == "P":
        _place(canvas, (*corner, corner[0] + mask.width, corner[1] + mask.height),
               lambda entry: _lettered(s, f, anchor, fill, entry),
               lambda under: _mix(under, fill, mask))
    else:
        canvas.paste(fill, corner, mask)


def header_bar(canvas: Image.Image, left: str, right: str, height: int = HEADER_H,
               size: int = 28) -> None:
    """The strip across the top: the hand and street on the left, the rules on the right."""
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, canvas.width, height - 1), fill=ink(canvas, theme.FELT_DARK))
    draw.line((0, height - 1, canvas.width, height - 1), fill=ink(canvas, theme.PANEL_EDGE),
              width=2)
    mid = height // 2
    margin = min(MARGIN, height // 3)
    room = canvas.width - 3 * margin
    smallest = round(size * 0.72)
    # The right side yields to the left down to half the bar: a long server name is cut before
    # the player's name is.
    left_w = length(drawable(left), font(smallest, "bold", left))
    right_w = text(canvas, (canvas.width - margin, mid), right, max(16, smallest), "condensed",
                   theme.MUTED, "rm", max_width=max(room // 2, room - left_w))
    text(canvas, (margin, mid), left, size, "bold", theme.TEXT, "lm",
         max_width=room - right_w, min_size=smallest)


def wrap(s: str, max_width: int, size: int, style: Style = "bold",
         max_lines: int = 3) -> list[str]:
    """`s` broken into lines of at most `max_width` pixels at words, or between any two
    Chinese characters (the last line cut with an ellipsis when the text needs more than
    `max_lines`)."""
    s = drawable(s, style)
    f = font(size, style, s)
    lines: list[str] = []
    for unit, space in _units(s):
        joined = f"{lines[-1]}{space}{unit}" if lines else unit
        if lines and f.getlength(visual(joined)) <= max_width:
            lines[-1] = joined
        else:
            lines.append(unit)
    if len(lines) > max_lines:
        rest = ("" if needs_cjk(s) else " ").join(lines[max_lines - 1:])
        lines = [*lines[:max_lines - 1], rest]
    return [fit(line, max_width, size, style)[0] for line in lines]


def _units(s: str) -> list[tuple[str, str]]:
    """The pieces a line may break between, each with what joins it to the one before: words
    (a space), and each CJK character on its own (nothing; Chinese has no spaces)."""
    units: list[tuple[str, str]] = []
    for word in s.split():
        space = " "
        run = ""
        for char in word:
            if is_cjk(char):
                if run:
                    units.append((run, space))
                    space = ""
                units.append((char, space))
                space, run = "", ""
            else:
                run += char
        if run:
            units.append((run, space))
    return units


def dim(canvas: Image.Image, box: tuple[int, int, int, int], amount: float = 0.55) -> None:
    """Fade a region into the felt (a seat sitting out)."""
    region = canvas.crop(box).convert("RGB")
    faded = Image.blend(region, Image.new("RGB", region.size, theme.FELT), amount)
    canvas.paste(indexed(faded) if canvas.mode == "P" else faded, box[:2])


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I",
                                                                    zlib.crc32(kind + data))


def to_png(img: Image.Image) -> bytes:
    """PNG bytes in palette mode (an RGB image is mapped to the palette first); the same image
    always gives the same bytes (no timestamp, no text chunk)."""
    indices = img if img.mode == "P" else indexed(img)
    width, height = indices.size
    # Each row starts with its filter type, 0 (none): palette rows gain nothing from filters.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(indices, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"PLTE", bytes(_entries())),
                     _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), LEVEL)),
                     _chunk(b"IEND", b"")))
