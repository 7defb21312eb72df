"""Names shared by the messages and the images: the variants, and computer players (named in
English when they sit down, as the table stores it, and shown in each reader's language)."""

import re

from bot.engine.rules import OPTIONS
from bot.engine.text import Text
from bot.i18n.catalogue import t

LEVELS = {"easy": Text("easy"), "strong": Text("strong")}
VARIANTS = OPTIONS["variant"].words
_COMPUTER = re.compile(r"Computer (?P<n>[0-9]+) \((?P<level>[a-z]+)\)")
# Line breaks, tabs and other control characters: in a name, one space.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(name: str) -> str:
    """`name` on one line, as the messages and images show it: a line break would start a line
    of its own in a message (a heading, a quote, one that looks like the bot's) and run its
    words together in an image."""
    return _BREAKS.sub(" ", name)


def computer_name(number: int, level: str) -> Text:
    """'Computer 2 (strong)'."""
    return Text("Computer {n} ({level})", n=number, level=LEVELS.get(level, level))


def seat_name(loc: str, name: str, is_ai: bool = True) -> str:
    """A seat's name as `loc` reads it: a computer's name the bot gave, translated."""
    found = _COMPUTER.fullmatch(name) if is_ai else None
    if found is None or found["level"] not in LEVELS:
        return name
    return t(loc, computer_name(int(found["n"]), found["level"]))


def badged_name(loc: str, name: str, is_ai: bool = True) -> str:
    """A seat's name beside a badge that says its level ('BOT strong'): a computer's name the
    bot gave without the level ('Computer 2'), so that it is not cut for saying it twice."""
    found = _COMPUTER.fullmatch(name) if is_ai else None
    if found is None or found["level"] not in LEVELS:
        return name
    return t(loc, "Computer {n}", n=int(found["n"]))


class SeatName:
    """A seat's name as a field of a Text: a computer's shown in the reader's language."""

    __slots__ = ("is_ai", "name")

    def __init__(self, name: str, is_ai: bool = True) -> None:
        self.name = name
        self.is_ai = is_ai

    def localized(self, locale: str) -> str:
        return seat_name(locale, self.name, self.is_ai)

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeatName) and (other.name, other.is_ai) == (self.name,
                                                                            self.is_ai)

    def __hash__(self) -> int:
        return hash((self.name, self.is_ai))
