"""Images draw Chinese with real glyphs. The bundled Noto Sans CJK SC subsets hold
every character of the Chinese catalogue (rendering/fonts/make_cjk_subset.py rebuilds them
when the catalogue gains one), and text holding Chinese is drawn with them, not DejaVu."""

import io

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops

from bot.i18n.catalogue import PO_DIR
from rendering import samples, table_png
from rendering.canvas import wrap
from rendering.fonts import CJK_BOLD, CJK_REGULAR, FONT_DIR, font, is_cjk, needs_cjk

MISSING = "\U000f0000"  # a private-use character no font here has: drawn as its box


def catalogue_chinese() -> set[str]:
    with (PO_DIR / "zh_CN.po").open("rb") as po:
        catalog = read_po(po)
    found: set[str] = set()
    for message in catalog:
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            found |= {c for c in text or "" if is_cjk(c)}
    return found


def drawn(char: str, style: str) -> bytes:
    f = font(24, style, "中")  # type: ignore[arg-type]
    mask = f.getmask(char)
    return bytes(mask) + bytes(str(mask.size), "ascii")


@pytest.mark.parametrize("style", ["bold", "condensed", "condensed_bold"])
def test_every_chinese_character_of_the_catalogue_has_a_glyph(style: str) -> None:
    chars = catalogue_chinese()
    assert len(chars) > 300  # the catalogue is there and read
    box = drawn(MISSING, style)
    boxes = sorted(c for c in chars if drawn(c, style) == box)
    assert not boxes, f"run rendering/fonts/make_cjk_subset.py: no glyph for {''.join(boxes)}"


@pytest.mark.parametrize("name", [
    "王大明", "陈静", "覃丽", "欧阳娜娜",  # common Chinese names, rarer surnames included
    "田中太郎", "さくら", "サクラ",  # Japanese: kanji of everyday Chinese, both kana
    "김민준", "이서연",  # Korean
])
def test_players_names_in_chinese_japanese_and_korean_have_glyphs(name: str) -> None:
    assert needs_cjk(name)
    box = drawn(MISSING, "condensed_bold")
    assert [c for c in name if drawn(c, "condensed_bold") == box] == []


def test_text_with_chinese_uses_the_cjk_font_and_latin_text_dejavu() -> None:
    assert font(20, "bold", "第 1/3 手").path.endswith(CJK_BOLD)
    assert font(20, "condensed", "筹码").path.endswith(CJK_REGULAR)
    assert "DejaVu" in font(20, "bold", "Раздача 1 из 3").path
    assert (FONT_DIR / "LICENSE-NotoSansCJK.txt").read_text().count("SIL OPEN FONT LICENSE")


def test_chinese_wraps_between_characters() -> None:
    lines = wrap("同花听牌同花听牌同花听牌同花听牌同花听牌", 90, 17, "condensed_bold")
    assert len(lines) > 1 and all(font(17, "condensed_bold", line).getlength(line) <= 90
                                  for line in lines)
    assert "".join(lines).replace("…", "") in "同花听牌" * 5


def test_a_chinese_table_image_shows_chinese_where_english_shows_english() -> None:
    """The same table in two languages: the header differs (the words), the boards do not."""
    view = samples.mid_hand(3).public_view()
    english = Image.open(io.BytesIO(table_png(view, False, "en-US"))).convert("RGB")
    chinese = Image.open(io.BytesIO(table_png(view, False, "zh-CN"))).convert("RGB")
    assert english.size == chinese.size
    header = (0, 0, english.width, 58)
    assert ImageChops.difference(english.crop(header), chinese.crop(header)).getbbox()
    assert drawn("手", "bold") != drawn("轮", "bold") != drawn(MISSING, "bold")  # ink, not boxes
