"""Hebrew and Arabic names are drawn as they are read: right to left, Arabic letters joined
(the BASIC layout draws characters as stored, left to right, each alone). Expected strings
were written from the Unicode tables (presentation forms) and the bidirectional algorithm's
rules, not from the code."""

import pytest
from PIL import Image, ImageDraw

from rendering import canvas, theme
from rendering.bidi import visual
from rendering.fonts import ELLIPSIS, fit, font

HEBREW = "דוד בן גוריון"


@pytest.mark.parametrize(("logical", "seen"), [
    (HEBREW, "ןוירוג ןב דוד"),
    # seen initial, lam-alef final (its alef joins nothing after it), meem isolated
    ("سلام", "\ufee1\ufefc\ufeb3"),
    # alef isolated; lam initial, lam medial, heh final
    ("الله", "\ufeea\ufee0\ufedf\ufe8d"),
    # a line read left to right: the Hebrew word and the number after it (rule W2/N1)
    ("Player דוד 2", "Player 2 דוד"),
    # a line read right to left: digits and a Latin word keep their own order
    ("דוד 123 abc!", "!abc 123 דוד"),
    ("דוד (1)", "(1) דוד"),  # brackets mirrored
])
def test_right_to_left_text_in_the_order_it_is_seen(logical: str, seen: str) -> None:
    assert visual(logical) == seen


@pytest.mark.parametrize("text", ["Bartholomew the Great", "Александр", "欧阳娜娜", "Zoë (2)"])
def test_other_text_is_unchanged(text: str) -> None:
    assert visual(text) == text


def test_a_hebrew_name_is_drawn_right_to_left() -> None:
    drawn = Image.new("RGB", (400, 50), theme.FELT)
    canvas.text(drawn, (10, 25), HEBREW, 26, "condensed_bold", anchor="lm")
    expected = Image.new("RGB", (400, 50), theme.FELT)
    ImageDraw.Draw(expected).text((10, 25), HEBREW[::-1], font=font(26, "condensed_bold"),
                                  fill=theme.TEXT, anchor="lm")
    assert drawn.tobytes() == expected.tobytes()


def test_a_long_right_to_left_name_is_cut_at_its_end_on_the_left() -> None:
    cut, _ = fit(HEBREW * 3, 120, 20, "condensed_bold")
    assert cut.endswith(ELLIPSIS) and visual(cut).startswith(ELLIPSIS)
    assert visual(cut).endswith("דוד"[::-1])  # its first word is kept, at the right
