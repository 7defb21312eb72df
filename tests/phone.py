"""How tall a DM prompt stands on a phone, computed from what the message holds (on
streets 2-5 the whole prompt must fit one screen without scrolling).

The model is Discord's app on a 390 x 844 pt phone (iPhone 12 to 16, the commonest size),
every figure in points. Discord does not publish its mobile layout, so each constant is an
estimate from the app's look, rounded the way that makes the message taller:
- usable height: 844 less the status bar (47), the DM's top bar (52), the message box (71)
  and the home indicator (34): USABLE = 640;
- the message column: 390 less the left margin and avatar (12 + 40 + 10) and the right margin
  (10): 318; an embed inside it has a 4 pt colour bar and 12 pt of padding on each side, so
  its text and its image are 290 pt wide, and the image keeps its aspect ratio;
- text is measured with the bundled DejaVu Sans (a little wider than Discord's gg sans, so it
  wraps no later than Discord does): the author line at 13 pt, the title bold at 16, the
  description at 15 on 20 pt lines (markdown stripped, a relative timestamp read as
  "in 59 seconds");
- buttons: 15 pt labels, 14 pt of padding each side (60 pt at least), 36 pt tall, 8 pt apart
  both ways; an action row's buttons wrap to a new line when the next does not fit the
  message column (as the app does);
- a select menu (closed): a row of its own, 48 pt tall (a 15 pt line and its padding, as tall
  as the app draws it, rounded up), 8 pt apart from the next row;
- the message's own header (the bot's name and time, 22 pt) is counted, though the app leaves
  it out when the bot's previous message is only minutes old.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import ImageFont

from rendering.fonts import FONT_DIR

USABLE = 640
SCREEN_WIDTH = 390
COLUMN = 318
EMBED_BAR = 4
EMBED_PAD = 12
EMBED_INNER = COLUMN - EMBED_BAR - 2 * EMBED_PAD
HEADER = 22
GAP = 8  # between an embed's parts, and between the embed and the buttons
AUTHOR_SIZE, AUTHOR_LINE = 13, 18
TITLE_SIZE, TITLE_LINE = 16, 22
TEXT_SIZE, TEXT_LINE = 15, 20
BUTTON_SIZE, BUTTON_PAD, BUTTON_MIN, BUTTON_HEIGHT = 15, 14, 60, 36
MENU_HEIGHT = 48

_TIMESTAMP = re.compile(r"<t:\d+(?::[tTdDfFR])?>")
_MARKDOWN = re.compile(r"\*\*|__|~~|`")


@cache
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


@cache
def _length(text: str, size: int, bold: bool = False) -> float:
    """A word's width in points (the matrix of tests/phone_prompts.py measures the same words
    hundreds of thousands of times)."""
    return float(_font(size, bold).getlength(text))


def plain(text: str) -> str:
    """Discord markdown as the reader sees it."""
    return _MARKDOWN.sub("", _TIMESTAMP.sub("in 59 seconds", text))


def _words(line: str, bold: bool) -> list[tuple[str, bool]]:
    """A line's words, each with whether it is bold (`**` toggles)."""
    out: list[tuple[str, bool]] = []
    for n, part in enumerate(_TIMESTAMP.sub("in 59 seconds", line).split("**")):
        strong = bold != (n % 2 == 1)
        for i, word in enumerate(_MARKDOWN.sub("", part).split(" ")):
            if i == 0 and out and word and not part.startswith(" "):
                out[-1] = (out[-1][0] + word, out[-1][1] or strong)  # "**8** ·" glued
            elif word:
                out.append((word, strong))
    return out


def lines(text: str, size: int, width: int, *, bold: bool = False) -> int:
    """How many lines `text` takes in `width` points, wrapped at spaces (bold words measured
    in the bold face)."""
    space = _length(" ", size)
    count = 0
    for paragraph in text.split("\n"):
        count += 1
        used = 0.0
        for word, strong in _words(paragraph, bold):
            w = _length(word, size, strong)
            if used and used + space + w > width:
                count, used = count + 1, w
            else:
                used += (space if used else 0) + w
    return count


def button_width(label: str) -> float:
    return max(BUTTON_MIN, _length(label, BUTTON_SIZE) + 2 * BUTTON_PAD)


def button_lines(row: Sequence[str]) -> int:
    """The lines one action row's buttons take in the message column."""
    count, used = 1, 0.0
    for label in row:
        width = button_width(label)
        if used and used + GAP + width > COLUMN:
            count, used = count + 1, width
        else:
            used += (GAP if used else 0) + width
    return count


@dataclass(frozen=True)
class Prompt:
    """What a DM prompt shows: its embed's author, title, description and image (pixel size),
    the labels of its buttons by action row, and how many select menus it has (each a row)."""

    author: str | None
    title: str
    description: str
    image: tuple[int, int] | None
    rows: Sequence[Sequence[str]]
    menus: int = 0


@dataclass(frozen=True)
class Height:
    """A prompt's height on the phone, part by part, in points."""

    header: float
    text: float
    image: float
    buttons: float

    @property
    def total(self) -> float:
        return self.header + self.text + self.image + self.buttons

    def __str__(self) -> str:
        return (f"{self.total:.0f} pt (header {self.header:.0f}, text {self.text:.0f}, "
                f"image {self.image:.0f}, buttons {self.buttons:.0f}) of {USABLE}")


def height(prompt: Prompt) -> Height:
    text = 2 * EMBED_PAD
    parts = 0
    if prompt.author:
        text += lines(prompt.author, AUTHOR_SIZE, EMBED_INNER) * AUTHOR_LINE
        parts += 1
    if prompt.title:
        text += lines(prompt.title, TITLE_SIZE, EMBED_INNER, bold=True) * TITLE_LINE
        parts += 1
    if prompt.description:
        text += lines(prompt.description, TEXT_SIZE, EMBED_INNER) * TEXT_LINE
        parts += 1
    image = 0.0
    if prompt.image:
        width, tall = prompt.image
        image = GAP + tall * EMBED_INNER / width
    text += GAP * max(0, parts - 1)
    count = sum(button_lines(row) for row in prompt.rows if row)
    shown = count + prompt.menus
    buttons = GAP + count * BUTTON_HEIGHT + prompt.menus * MENU_HEIGHT + (shown - 1) * GAP \
        if shown else 0.0
    return Height(HEADER, text, image, buttons)
