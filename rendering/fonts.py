"""The bundled DejaVu fonts (rendering/fonts/LICENSE.txt): images never use a system font."""

from functools import cache
from pathlib import Path
from typing import Literal

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
Style = Literal["bold", "condensed", "condensed_bold"]
_FILES: dict[Style, str] = {
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed_bold": "DejaVuSansCondensed-Bold.ttf",
}
ELLIPSIS = "…"


@cache
def font(size: int, style: Style = "bold") -> ImageFont.FreeTypeFont:
    # BASIC layout places glyphs the same with or without libraqm: the same bytes on any machine.
    return ImageFont.truetype(
        str(FONT_DIR / _FILES[style]), size, layout_engine=ImageFont.Layout.BASIC
    )


def fit(text: str, max_width: int, size: int, style: Style = "bold",
        min_size: int = 0) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` in the largest size from `size` down to `min_size` that fits `max_width`; when
    even the smallest is too wide, the text is cut with an ellipsis."""
    smallest = min_size or size
    for s in range(size, smallest - 1, -1):
        f = font(s, style)
        if f.getlength(text) <= max_width:
            return text, f
    f = font(smallest, style)
    cut = text
    while cut and f.getlength(cut.rstrip() + ELLIPSIS) > max_width:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS, f
