"""The bundled fonts (rendering/fonts/, each with its licence): images never use a system font.

DejaVu draws Latin, Cyrillic, Greek, Hebrew and Arabic text (the last two put in the order
they are read by rendering/bidi.py: the BASIC layout does not); it has no Chinese glyphs, so a
text holding Chinese (or other CJK: kana, Hangul) characters is drawn with Noto Sans CJK SC
instead, a subset of it holding the characters the bot's catalogues use and those most names
are written with: every hanzi of GB 2312, the kana and the Hangul syllables of KS X 1001
(rendering/fonts/make_cjk_subset.py rebuilds it; tests check the catalogues' characters and
some names). A name's characters no bundled font holds are not drawn as a box each (`drawable`):
an emoji or a zalgo's rarer mark is left out, a run of letters in a script the fonts lack
(Thai, Devanagari, rarer kanji) is one "?".
"""

import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from PIL import ImageFont

from bot.i18n.names import one_line
from rendering.bidi import visual

FONT_DIR = Path(__file__).with_name("fonts")
Style = Literal["bold", "condensed", "condensed_bold"]
_FILES: dict[Style, str] = {
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed_bold": "DejaVuSansCondensed-Bold.ttf",
}
CJK_BOLD = "NotoSansCJKsc-Bold-subset.otf"
CJK_REGULAR = "NotoSansCJKsc-Regular-subset.otf"
_CJK_FILES: dict[Style, str] = {"bold": CJK_BOLD, "condensed": CJK_REGULAR,
                                "condensed_bold": CJK_BOLD}
# Hangul jamo, CJK radicals, symbols and punctuation, kana, Hangul compatibility jamo,
# unified ideographs (with extension A), Hangul syllables, compatibility ideographs, fullwidth
# forms.
_CJK_RANGES = ((0x1100, 0x11FF), (0x2E80, 0x30FF), (0x3130, 0x318F), (0x3400, 0x4DBF),
               (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))
ELLIPSIS = "…"
MISSING = "\U000f0000"  # a private-use character no bundled font has: drawn as its box
PLACEHOLDER = "?"  # where a name's letters no bundled font holds were


def is_cjk(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK_RANGES)


@lru_cache(maxsize=4096)  # the same names and labels come back image after image
def needs_cjk(text: str) -> bool:
    return any(is_cjk(c) for c in text)


@cache
def _font(size: int, style: Style, cjk: bool) -> ImageFont.FreeTypeFont:
    # BASIC layout places glyphs the same with or without libraqm: the same bytes on any machine.
    name = _CJK_FILES[style] if cjk else _FILES[style]
    return ImageFont.truetype(str(FONT_DIR / name), size, layout_engine=ImageFont.Layout.BASIC)


def font(size: int, style: Style = "bold", text: str = "") -> ImageFont.FreeTypeFont:
    """The font of `style` at `size` for drawing `text` (the CJK font if it holds CJK)."""
    return _font(size, style, needs_cjk(text))


@cache
def _has_glyph(char: str, style: Style, cjk: bool) -> bool:
    f = _font(24, style, cjk)
    return _drawn(f, char) != _drawn(f, MISSING)


def _drawn(f: ImageFont.FreeTypeFont, char: str) -> tuple[bytes, tuple[int, int]]:
    mask = f.getmask(char)
    return bytes(mask), mask.size


@lru_cache(maxsize=4096)  # the same names come back image after image
def drawable(text: str, style: Style = "bold") -> str:
    """`text` without the characters its font has no glyph for (an emoji would be a box), a
    styled letter as its plain one; each run of letters or digits no bundled font holds (Thai,
    Devanagari, rare kanji) as one "?", so that "Raj राज" does not read "Raj"; a line break
    as a space; "?" when nothing visible is left of it."""
    cjk = needs_cjk(text)
    kept: list[str] = []
    for c in one_line(text):
        shown = _shown(c, style, cjk)
        if shown:
            kept.append(shown)
        elif unicodedata.category(c)[0] in "LN" and kept[-1:] != [PLACEHOLDER]:
            kept.append(PLACEHOLDER)  # a mark or emoji (decoration) is just left out
    drawn = "".join(kept)
    # A name of blank glyphs only (the Braille blank, zero-width characters) would leave its
    # seat nameless.
    inked = any(_has_ink(c, style, cjk) for c in drawn)
    return drawn if inked or not text.strip() else PLACEHOLDER


@cache
def _has_ink(char: str, style: Style, cjk: bool) -> bool:
    return any(_drawn(_font(24, style, cjk), char)[0])


@cache
def _shown(char: str, style: Style, cjk: bool) -> str:
    """`char`, else its plain form when the font has that (the styled letters of "fancy"
    names: 𝓐, Ⓐ, ｆ read A, A, f), else nothing."""
    if _has_glyph(char, style, cjk):
        return char
    plain = unicodedata.normalize("NFKC", char)
    return plain if plain != char and all(_has_glyph(c, style, cjk) for c in plain) else ""


@lru_cache(maxsize=4096)  # names, stacks and labels are measured image after image
def length(text: str, f: ImageFont.FreeTypeFont) -> int:
    """How far `text` advances in `f`, in whole pixels (as seen: rendering/bidi.py)."""
    return round(f.getlength(visual(text)))


@lru_cache(maxsize=4096)
def fit(text: str, max_width: int, size: int, style: Style = "bold",
        min_size: int = 0) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` in the largest size from `size` down to `min_size` that fits `max_width`; when
    even the smallest is too wide, the text is cut with an ellipsis."""
    smallest = min_size or size
    for s in range(size, smallest - 1, -1):
        f = font(s, style, text)
        if f.getlength(visual(text)) <= max_width:
            return text, f
    f = font(smallest, style, text)
    cut = text
    # Cut at the text's logical end: the left of a right-to-left name.
    while cut and f.getlength(visual(cut.rstrip() + ELLIPSIS)) > max_width:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS, f
