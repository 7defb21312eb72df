"""Drawing helpers every image shares: panels, pills, the header bar, PNG encoding."""

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from rendering import theme
from rendering.fonts import Style, fit, font, is_cjk, needs_cjk
from rendering.palette import fixed
from rendering.theme import RGB

SUPER = 4
MARGIN = 16
HEADER_H = 58
COLUMN_GAP = 14  # between panels
# zlib level 2: as fast as 1 and 8% smaller; each level above costs far more time per KB saved
# (docs/maintainers/performance.md)
LEVEL = 2


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


def paste(canvas: Image.Image, img: Image.Image, x: int, y: int) -> None:
    canvas.paste(img, (x, y), img)


def pill(canvas: Image.Image, x: int, y: int, label: str, colour: RGB, size: int = 18,
         dark_text: bool = True) -> int:
    """A rounded label; returns its width."""
    f = font(size, "condensed_bold", label)
    h = round(size * 1.45)
    w = pill_width(label, size)
    paste(canvas, rounded(w, h, h // 2, colour), x, y)
    _ink(canvas, (x + w // 2, y + h // 2), label, f, (20, 20, 20) if dark_text else theme.TEXT,
         "mm")
    return w


def pill_width(label: str, size: int = 18) -> int:
    return round(font(size, "condensed_bold", label).getlength(label)) + 2 * round(size * 0.55)


def pill_height(size: int = 18) -> int:
    return round(size * 1.45)


def text(canvas: Image.Image, xy: tuple[int, int], s: str, size: int, style: Style = "bold",
         fill: RGB = theme.TEXT, anchor: str = "la", max_width: int = 0,
         min_size: int = 0) -> int:
    """Draw `s` (shrunk or cut to `max_width` when given); returns the width drawn."""
    if max_width:
        s, f = fit(s, max_width, size, style, min_size)
    else:
        f = font(size, style, s)
    _ink(canvas, xy, s, f, fill, anchor)
    return round(f.getlength(s))


@lru_cache(maxsize=4096)
def _mask(s: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage as a mask, and where its corner is from the anchor point. The same
    names, stacks and labels come back render after render: each is rasterized once."""
    # Whole pixels: the BASIC layout (fonts.py) measures in ints; the stubs say float.
    left, top, right, bottom = (int(v) for v in f.getbbox(s, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _ink(canvas: Image.Image, xy: tuple[int, int], s: str, f: ImageFont.FreeTypeFont,
         fill: RGB, anchor: str) -> None:
    mask, left, top = _mask(s, f, anchor)
    canvas.paste(fill, (xy[0] + left, xy[1] + top), mask)


def header_bar(canvas: Image.Image, left: str, right: str, height: int = HEADER_H,
               size: int = 28) -> None:
    """The strip across the top: the hand and street on the left, the rules on the right."""
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, canvas.width, height - 1), fill=theme.FELT_DARK)
    draw.line((0, height - 1, canvas.width, height - 1), fill=theme.PANEL_EDGE, width=2)
    mid = height // 2
    margin = min(MARGIN, height // 3)
    right_w = text(canvas, (canvas.width - margin, mid), right, max(16, round(size * 0.72)),
                   "condensed", theme.MUTED, "rm")
    text(canvas, (margin, mid), left, size, "bold", theme.TEXT, "lm",
         max_width=canvas.width - 3 * margin - right_w, min_size=round(size * 0.72))


def wrap(s: str, max_width: int, size: int, style: Style = "bold",
         max_lines: int = 3) -> list[str]:
    """`s` broken into lines of at most `max_width` pixels at words, or between any two
    Chinese characters (the last line cut with an ellipsis when the text needs more than
    `max_lines`)."""
    f = font(size, style, s)
    lines: list[str] = []
    for unit, space in _units(s):
        joined = f"{lines[-1]}{space}{unit}" if lines else unit
        if lines and f.getlength(joined) <= max_width:
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
    region = canvas.crop(box)
    canvas.paste(Image.blend(region, Image.new("RGB", region.size, theme.FELT), amount), box[:2])


def to_png(img: Image.Image, level: int = LEVEL) -> bytes:
    """PNG bytes; the same image always gives the same bytes (no timestamp, no text chunk).
    A higher zlib `level` makes a smaller file for more time."""
    # Every pixel takes its nearest entry of the fixed palette (rendering/palette.py): no colour
    # reduction per image, and the file is several times smaller and faster to write than RGB.
    out = io.BytesIO()
    img.quantize(palette=fixed(), dither=Image.Dither.NONE).save(out, "PNG",
                                                                 compress_level=level)
    return out.getvalue()
