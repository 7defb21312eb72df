"""Rebuild the Noto Sans CJK SC subsets the images draw Chinese with (rendering/fonts.py).

    apt-get install fonts-noto-cjk      # Debian's package: Noto Sans CJK 2.004
    pip install fonttools                # the subsetter (not needed to run the bot)
    python rendering/fonts/make_cjk_subset.py

The subsets hold every character of the Chinese catalogue (bot/i18n/po/zh_CN.po), printable
ASCII and the few symbols the images use, and for players' names every hanzi of GB 2312 (the
6,763 of everyday Simplified Chinese), the kana, and the 2,350 Hangul syllables of KS X 1001:
from the Simplified Chinese face of Debian's collection (regular and bold), under 2 MB each in
place of 20 MB. Run it again after the Chinese catalogue gains a character;
tests/rendering/test_cjk.py fails until then. The same inputs (the font package's version,
fontTools' version) give the same files.
"""

import sys
from pathlib import Path

from babel.messages.pofile import read_po

# fontTools is a maintainer's tool here (pip install fonttools), not a dependency of the bot.
from fontTools import subset  # type: ignore[import-untyped, import-not-found, unused-ignore]
from fontTools.ttLib import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    TTCollection,
    TTFont,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CATALOGUE = ROOT / "bot" / "i18n" / "po" / "zh_CN.po"
SOURCES = {"NotoSansCJKsc-Regular-subset.otf": "NotoSansCJK-Regular.ttc",
           "NotoSansCJKsc-Bold-subset.otf": "NotoSansCJK-Bold.ttc"}
SYSTEM_FONTS = Path("/usr/share/fonts/opentype/noto")
FAMILY = "Noto Sans CJK SC"
EXTRA = "·…★→−–—×♠♥♦♣％（）：，。、“”！？"  # symbols a Chinese text may hold


def _charset(codec: str, rows: range) -> set[str]:
    """The characters of a two-byte national set, by its rows (EUC form)."""
    found = set()
    for high in rows:
        for low in range(0xA1, 0xFF):
            try:
                found.add(bytes((high, low)).decode(codec))
            except UnicodeDecodeError:
                continue  # an unassigned place in the row
    return found


def name_characters() -> set[str]:
    """What most players' names in Chinese, Japanese kana and Korean are written with."""
    hanzi = _charset("gb2312", range(0xB0, 0xF8))
    hangul = _charset("euc_kr", range(0xB0, 0xC9))
    kana = {chr(c) for c in range(0x3041, 0x3100)}
    return hanzi | hangul | kana


def characters() -> str:
    """Every character a Chinese text or a name in an image may need."""
    with CATALOGUE.open("rb") as po:
        catalog = read_po(po)
    chars = {chr(c) for c in range(0x20, 0x7F)} | set(EXTRA) | name_characters()
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            chars |= set(text or "")
    return "".join(sorted(c for c in chars if c.isprintable()))


def simplified_face(collection: Path) -> TTFont:
    for face in TTCollection(collection).fonts:
        if face["name"].getDebugName(1) == FAMILY:
            return face
    raise SystemExit(f"{collection} has no {FAMILY} face")


def build(target: str, source: str, text: str) -> int:
    font = simplified_face(SYSTEM_FONTS / source)
    options = subset.Options()
    options.layout_features = ["kern", "palt", "vert"]  # no CJK shaping needed beyond these
    options.hinting = False  # Pillow renders unhinted at image sizes
    options.name_IDs = ["*"]  # keep the copyright and licence notices
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.recalcTimestamp = False  # the same inputs, the same bytes
    path = HERE / target
    font.save(path)
    return path.stat().st_size


def main() -> int:
    text = characters()
    for target, source in SOURCES.items():
        size = build(target, source, text)
        print(f"{target}: {len(text)} characters, {size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
