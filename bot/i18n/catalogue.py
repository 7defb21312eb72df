"""The catalogues (po/*.po) and `t`: a template in the reader's language, its fields filled in.

Each .po file is read with babel and compiled in memory into a standard `gettext`
translation the first time its language is asked for (no compiled .mo file is kept in the
repository, so the .po text is the one source). Fields are formatted for the language: a
nested Text in the same language, numbers with `,` grouped the language's way ("1 000" in
Russian and Swedish).
"""

import gettext
import io
import logging
import re
import string
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale as BabelLocale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_compact_decimal, format_decimal, get_decimal_symbol

from bot.engine.text import Text

log = logging.getLogger(__name__)

PO_DIR = Path(__file__).with_name("po")
ENGLISH = "en-US"
# Discord's locale codes of the languages the bot speaks, and their catalogue files.
FILES = {"ru": "ru", "sv-SE": "sv_SE", "zh-CN": "zh_CN"}
LOCALES = (ENGLISH, *FILES)
# Each language in its own words (the server language setting offers these).
LANGUAGE_NAMES = {ENGLISH: "English", "ru": "Русский", "sv-SE": "Svenska", "zh-CN": "简体中文"}
_ALIASES = {"en": ENGLISH, "sv": "sv-SE", "zh": "zh-CN"}


def locale_of(code: object) -> str:
    """The bot's locale for a Discord locale code (or None): one of LOCALES, English for any
    language the bot does not speak (en-GB reads en-US; zh-TW reads English, as there is no
    Traditional Chinese catalogue yet)."""
    text = str(code or "")
    if text in LOCALES:
        return text
    base = text.split("-")[0]
    if base == "en" or text in _ALIASES:
        return _ALIASES.get(text, ENGLISH)
    return ENGLISH


@cache
def _catalogue(locale: str) -> gettext.NullTranslations:
    """The compiled translations of `locale` (English: none, the templates are English)."""
    path = PO_DIR / f"{FILES.get(locale, '')}.po"
    if locale not in FILES or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=FILES[locale])
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy and empty translations are left out: English shows
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def _babel_locale(locale: str) -> BabelLocale:
    return BabelLocale.parse(locale, sep="-")


class Slash:
    """A slash command named in a text, `Slash("ofc create")`: shown as the reader's Discord
    shows it ("/ofc создать"), each word after the group's translated as a command name."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def localized(self, locale: str) -> str:
        group, *words = self.path.split()
        return "/" + " ".join([group, *(lookup(locale, w, context="command name") or w
                                        for w in words)])

    def __str__(self) -> str:
        return "/" + self.path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Slash) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)


class _Formatter(string.Formatter):
    def __init__(self, locale: str) -> None:
        self.locale = locale

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, Text):
            return format(translate(self.locale, value), format_spec)
        localized = getattr(value, "localized", None)
        if callable(localized):  # a Slash, a SeatName: said the reader's way
            return format(localized(self.locale), format_spec)
        if isinstance(value, int) and not isinstance(value, bool) and "," in format_spec:
            return number(self.locale, value, signed="+" in format_spec)
        places = _PLACES.fullmatch(format_spec)
        if isinstance(value, float) and places:
            return decimal(self.locale, value, int(places["digits"]), signed=bool(places["sign"]))
        return format(value, format_spec)


_PLACES = re.compile(r"(?P<sign>\+)?\.(?P<digits>\d)f")  # "{x:.1f}", "{x:+.2f}"


def number(locale: str, value: int, signed: bool = False) -> str:
    """`value` with its digits grouped as `locale` groups them ("12,500", "12 500"); a sign
    for negatives, and "+" for the others when `signed`."""
    grouped = format_decimal(abs(value), locale=_babel_locale(locale))
    return ("-" if value < 0 else "+" if signed else "") + grouped


def decimal(locale: str, value: float, digits: int = 1, signed: bool = False) -> str:
    """`value` rounded to `digits` places, written as `locale` writes it ("3.5", "3,5",
    "1 234,5"); a sign for negatives (none for one that rounds to zero), "+" for the others when
    `signed`."""
    whole, _, fraction = f"{abs(value):.{digits}f}".partition(".")
    shown = number(locale, int(whole)) + (
        get_decimal_symbol(_babel_locale(locale)) + fraction if digits else "")
    negative = value < 0 and any(c not in "0" for c in whole + fraction)
    return ("-" if negative else "+" if signed else "") + shown


@lru_cache(maxsize=4096)  # every image formats each seat's stack: the same ones come back
def short_number(locale: str, value: int, signed: bool = False) -> str:
    """`value` in the short form of `locale` ("1.2M", "1,2\u00a0млн", "1万亿"), for an image
    whose room is too narrow for every digit: rounded, never cut."""
    short = format_compact_decimal(abs(value), format_type="short",
                                   locale=_babel_locale(locale), fraction_digits=1)
    return ("-" if value < 0 else "+" if signed else "") + short


def _fill(locale: str, template: str, fields: Mapping[str, Any]) -> str:
    return _Formatter(locale).vformat(template, (), fields)


def lookup(locale: str, msgid: str, plural: str | None = None, n: int = 1,
           context: str | None = None) -> str | None:
    """The translation of a template in `locale`, or None when its catalogue has none."""
    if locale not in FILES:
        return None
    catalogue = _catalogue(locale)
    if plural is not None:
        found = catalogue.ngettext(msgid, plural, n)
        missing = found in (msgid, plural) and not _has(catalogue, msgid, context)
    elif context is not None:
        found = catalogue.pgettext(context, msgid)
        missing = not _has(catalogue, msgid, context)
    else:
        found = catalogue.gettext(msgid)
        missing = not _has(catalogue, msgid, context)
    return None if missing else found


def _has(catalogue: gettext.NullTranslations, msgid: str, context: str | None) -> bool:
    messages: dict[Any, Any] = getattr(catalogue, "_catalog", {})
    key = msgid if context is None else f"{context}\x04{msgid}"
    return key in messages or (key, 0) in messages


def translate(locale: str, text: Text) -> str:
    """`text` in `locale`; in English where its catalogue lacks it, or where the translation
    does not fit the fields (a translator's typo must not lose a message)."""
    fields = text.fields
    # CLDR's plural operand is the number without its sign ("-1 фишка"); gettext's formulas,
    # run on a negative number, would take Python's modulo of it.
    n = abs(fields.get("n", 1)) if text.plural is not None else 1
    template = lookup(locale, text.msgid, text.plural, n) if locale != ENGLISH else None
    if template is not None:
        try:
            return _fill(locale, template, fields)
        except (KeyError, IndexError, ValueError, AttributeError):
            log.warning("the %s translation of %r does not fit its fields", locale, text.msgid)
    return _fill(locale, text.template, fields)


def t(locale: str, message: str | Text, plural: str | None = None, /, **fields: Any) -> str:
    """A text for a reader of `locale` (see bot.i18n). Fields given with a Text fill (or
    replace) its own."""
    if isinstance(message, Text):
        if fields:
            message = Text(message.msgid, message.plural, **{**message.fields, **fields})
        return translate(locale, message)
    return translate(locale, Text(message, plural, **fields))


def untranslated(locale: str, msgids: Mapping[tuple[str | None, str], str | None]) -> list[str]:
    """Which of `msgids` ((context, template) -> plural) `locale`'s catalogue lacks."""
    if locale not in FILES:
        return []
    return [msgid for (context, msgid), plural in msgids.items()
            if lookup(locale, msgid, plural, 1, context) is None]
