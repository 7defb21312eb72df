"""Sentences for people: an English template with named fields, translated where it is shown.

The engine (and the layers above it) say what they mean as a `Text`; `str(text)` is the
English sentence (what `ofc` prints and what the English catalogue holds). The layers that
show a text to a player look its template up in that player's language (bot.i18n), so the
engine stays free of languages, catalogues and I/O.

A field may be a `Text` itself (translated in the same language), a number, or a `Rank`: a
card rank that the English template names in words (`{rank:Plural}` is "Queens") and other
languages show as its symbol (`{rank}` is "Q": card ranks and suits stay symbols).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# As the card faces of the images show them (a ten is "10").
RANK_SYMBOLS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)


@dataclass(frozen=True, slots=True)
class Rank:
    """A card rank (index 0-12, 2..A) as a field of a Text. Format specs: '' the symbol
    ('Q'), 'name' ('queen'), 'Name' ('Queen'), 'plural' ('queens'), 'Plural' ('Queens')."""

    index: int

    def __format__(self, spec: str) -> str:
        words = {"name": RANK_NAMES, "plural": RANK_PLURALS}.get(spec.lower())
        if words is None:
            return format(RANK_SYMBOLS[self.index], spec)
        word = words[self.index]
        return word.capitalize() if spec[0].isupper() else word


class Typed(str):
    """A field of a Text that a member typed or is called by (a player's name, an excerpt of
    their input): the Discord layer shows it as typed, never as markdown or a mention."""

    __slots__ = ()


class Text:
    """`Text("Seat {seat} is empty", seat=3)`; with a plural form,
    `Text("{n} chip", "{n} chips", n=5)` (the count is the field `n`; a language picks its own
    form of it). Immutable and hashable; equal when template and fields are."""

    __slots__ = ("fields", "msgid", "plural")

    msgid: str
    plural: str | None
    fields: Mapping[str, Any]

    def __init__(self, msgid: str, plural: str | None = None, /, **fields: Any) -> None:
        if plural is not None and not isinstance(fields.get("n"), int):
            raise TypeError("a Text with a plural form needs its count as the field n")
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "plural", plural)
        object.__setattr__(self, "fields", dict(fields))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Text is immutable")

    @property
    def template(self) -> str:
        """The English template for these fields (the plural form when n is not 1)."""
        return self.msgid if self.plural is None or self.fields["n"] == 1 else self.plural

    def __str__(self) -> str:
        return self.template.format_map(
            {k: str(v) if isinstance(v, Text) else v for k, v in self.fields.items()})

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def _key(self) -> tuple[object, ...]:
        return (self.msgid, self.plural, tuple(sorted(self.fields.items(), key=lambda i: i[0])))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled for the worker processes (images are drawn from views holding texts).
        return (_rebuild, (self.msgid, self.plural, dict(self.fields)))


def _rebuild(msgid: str, plural: str | None, fields: dict[str, Any]) -> Text:
    return Text(msgid, plural, **fields)


def series(items: Sequence[Text | str]) -> Text | str:
    """'A, B, C': the items of a list, separated as the reader's language separates them
    once shown (Chinese writes 'A、B、C')."""
    if len(items) < 2:
        return items[0] if items else ""
    half = len(items) // 2  # halves: a long list nests only as deep as its logarithm
    return Text("{items}, {more}", items=series(items[:half]), more=series(items[half:]))


def listing(items: Sequence[Text | str]) -> Text | str:
    """'A', 'A and B', 'A, B and C', in the reader's language once shown."""
    if len(items) < 2:
        return items[0] if items else ""
    return Text("{first} and {last}", first=series(items[:-1]), last=items[-1])


def joined(parts: Sequence[Text | str], separator: str = "\n") -> Text:
    """Several texts (or plain strings) as one, each in the reader's language."""
    fields = {f"part{i}": part for i, part in enumerate(parts)}
    return Text(separator.replace("{", "{{").replace("}", "}}").join(
        f"{{{name}}}" for name in fields), **fields)


EXCERPT = 24  # characters of a member's input a refusal quotes at most


def excerpt(text: str, limit: int = EXCERPT) -> Typed:
    """A short prefix of what a member typed, for a refusal to quote: a whole input could be
    past Discord's limits on an answer (or just flood it)."""
    return Typed(text if len(text) <= limit else text[:limit - 1] + "…")


_PLAIN = "{message}"  # a name, not a literal: a plain message is not looked up in a catalogue


def plain(message: str) -> Text:
    """A message no player is meant to read (an operator's, a caller's mistake), kept as it
    is in every language."""
    return Text(_PLAIN, message=message)
