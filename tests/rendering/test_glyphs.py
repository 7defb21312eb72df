"""A name holding characters no bundled font has (emoji, the rarer marks of zalgo text) is
drawn without them, not with a box (tofu) for each."""

import pytest
from babel.messages.pofile import read_po
from PIL import Image

from bot.i18n.catalogue import PO_DIR
from rendering import canvas, theme
from rendering.fonts import MISSING, drawable, font

EMOJI_NAME = "Poker King 👑🔥"


def boxes(text: str, style: str = "condensed_bold") -> list[str]:
    f = font(24, style, text)  # type: ignore[arg-type]
    box = bytes(f.getmask(MISSING))
    return [c for c in text if not c.isspace() and bytes(f.getmask(c)) == box]


def drawn(s: str) -> bytes:
    img = Image.new("RGB", (600, 60), theme.FELT)
    canvas.text(img, (10, 30), s, 26, "condensed_bold", anchor="lm")
    return img.tobytes()


@pytest.mark.parametrize("name", [
    EMOJI_NAME, "🦄 Ace", "Z\u0334\u0321A\u0338L\u0337\u0356G\u0335\u0324O\u0336\u0359",
    "欧阳娜娜 🐼",
])
def test_names_are_drawn_without_boxes(name: str) -> None:
    assert boxes(name)  # the name holds characters no font here has
    assert not boxes(drawable(name, "condensed_bold"))


def test_an_emoji_is_left_out_of_the_drawn_name() -> None:
    assert drawn(EMOJI_NAME) == drawn("Poker King ")
    assert drawn("Chen 陈静 🐼") == drawn("Chen 陈静 ")


@pytest.mark.parametrize("text", ["Zoë Åsa", "Zoe\u0308 A\u030asa", "Александр", "陈静",
                                  "Раздача 1 из 3 · Улица 3 из 5", "Hand 1 av 3 · Visning"])
def test_what_the_fonts_hold_is_kept(text: str) -> None:
    assert drawable(text) == text


def test_a_name_of_emoji_alone_is_a_question_mark() -> None:
    assert drawable("👑🔥") == "?"
    assert drawable("") == ""


@pytest.mark.parametrize(("fancy", "plain"), [
    ("𝓐𝓵𝓲𝓬𝓮", "Alice"), ("𝔄𝔩𝔦𝔠𝔢 🔥", "Alice "), ("Ⓐⓛⓘⓒⓔ", "Alice"), ("ｆｕｌｌ", "full"),
])
def test_a_fancy_names_styled_letters_are_drawn_as_plain_ones(fancy: str, plain: str) -> None:
    # Discord display names often use Unicode's mathematical, circled or fullwidth letters,
    # which the bundled fonts do not hold: drawn as the letters they style.
    assert boxes(fancy)
    assert drawn(fancy) == drawn(plain)


@pytest.mark.parametrize("po", ["ru.po", "sv_SE.po", "zh_CN.po"])
def test_every_label_of_every_catalogue_is_drawn_whole(po: str) -> None:
    # Leaving out glyph-less characters must never eat a translated label's letter or sign.
    with (PO_DIR / po).open("rb") as source:
        catalog = read_po(source)
    # The texts images draw: theirs and the engine's (hands, variants, levels); the cogs'
    # embeds are drawn by Discord.
    texts = [s for message in catalog
             if any(path.startswith(("rendering/", "bot/")) for path, _ in message.locations)
             for s in (message.string if isinstance(message.string, tuple)
                       else (message.string,)) if s]
    assert len(texts) > 100
    for style in ("bold", "condensed", "condensed_bold"):
        eaten = [s for s in texts if drawable(s, style) != s]  # type: ignore[arg-type]
        assert not eaten, eaten[:5]


@pytest.mark.parametrize(("name", "shown"), [
    ("Raj राज", "Raj ?"),  # Devanagari: no bundled font has it
    ("鮨職人", "?人"),  # Japanese kanji outside GB 2312, then one it holds
    ("สมชาย ใจดี", "? ?"),  # Thai, its vowel and tone marks with their letters
    ("ᎠᏍᎦᏯ Joe", "? Joe"),  # Cherokee
])
def test_letters_no_font_has_leave_a_question_mark(name: str, shown: str) -> None:
    # Two players "Raj राज" and "Raj" must not look alike, nor "鮨職人" read "人": each run of
    # letters the fonts lack is one "?", while an emoji or a zalgo mark (decoration) goes.
    assert drawable(name) == shown
    assert not boxes(shown)


@pytest.mark.parametrize("name", ["\u2800", "\u2800\u2800\u2800", "\u200b", "\u3164",
                                  "\u2063\u200d", " \u200b "])
def test_a_name_that_draws_no_ink_is_a_question_mark(name: str) -> None:
    # Discord lets a member look nameless (the Braille blank, the Hangul filler, zero-width
    # characters): the fonts hold some of them as empty glyphs, and the seat would have no
    # name at all in the image.
    assert drawable(name) == "?"
    assert drawn(name) == drawn("?")


def test_a_line_break_in_a_name_is_drawn_as_a_space() -> None:
    assert drawable("Ann\nLee") == "Ann Lee"
    assert drawable("Ann\r\n\tLee") == "Ann Lee"
