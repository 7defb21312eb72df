"""The catalogues. Every text of the code and every slash command string has a
translation in every language (the test lists what is missing), no text is built where a
catalogue cannot find it, translations keep their templates' fields, a missing or broken
translation falls back to English, and no player-facing English sits in the Discord layer or
the renderer outside a translated call."""

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.app import OFCBot
from bot.config import Settings
from bot.engine.text import Rank, Text, listing, series
from bot.i18n import LOCALES, Slash, decimal, locale_of, number, t
from bot.i18n import catalogue as catalogues
from bot.i18n.catalogue import FILES, PO_DIR
from bot.i18n.extract import ROOT, Key, code_templates
from cogs.tools.score_input import EXAMPLE

# What the Discord layer and the renderer may hold as plain English: ids and keys the code
# matches on, never shown (a custom_id, a translator context, an event's reason code).
NOT_SHOWN = {"command name", "command description", "option name", "option description",
             "table over", "table closed early", "custom_id longer than ",
             EXAMPLE}  # a board as a player types it: names and cards
WORDS = re.compile(r"\b[A-Za-z]{3,}\b[ ,;:]+\b[A-Za-z]{2,}\b")
# Calls whose strings are translated: t() and Text(), and the slash commands' own strings
# (discord.py hands every name, description and choice to the tree's translator).
TRANSLATED = {"t", "Text", "locale_str", "command", "describe", "Group", "Choice"}
NOT_TEXT = {"debug", "info", "warning", "error", "exception"}  # log lines, for operators


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, str | None]:
    """Every template, as `ofc-bot --update-catalogues` collects it: the code's and the
    slash commands' (read by the translator while the tree is exported in every locale)."""
    import asyncio

    async def collect() -> dict[tuple[str, str], None]:
        folder = tmp_path_factory.mktemp("catalogues")
        bot = OFCBot(Settings(database=str(folder / "t.sqlite3")))
        try:
            await bot.load_cogs()
            await bot.command_payload()
            return dict(getattr(bot.tree.translator, "asked", {}))
        finally:
            await bot.close()

    found: dict[Key, str | None] = dict.fromkeys(asyncio.run(collect()))
    found.update(code_templates().messages)
    return found


def catalogue(locale: str) -> Any:
    with (PO_DIR / f"{FILES[locale]}.po").open("rb") as po:
        return read_po(po, locale=FILES[locale])


def entries(locale: str) -> Iterator[tuple[Key, Any]]:
    for message in catalogue(locale):
        if message.id:
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            yield (message.context, key), message


@pytest.mark.parametrize("locale", list(FILES))
def test_every_text_has_a_translation_in_every_language(
        locale: str, templates: dict[Key, str | None]) -> None:
    """Fails listing each text the catalogue lacks, leaves untranslated or marks fuzzy, and
    each it holds that the code no longer has: run `ofc-bot --update-catalogues`, then
    translate what it lists."""
    held = dict(entries(locale))
    missing = [key for key in templates if key not in held]
    untranslated = [key for key, m in held.items() if key in templates and (
        m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))]
    stale = [key for key in held if key not in templates]
    assert not missing, f"{locale}: not in the catalogue: {missing}"
    assert not untranslated, f"{locale}: without a translation: {untranslated}"
    assert not stale, f"{locale}: no longer in the code: {stale}"
    assert catalogues.untranslated(locale, templates) == []


def test_no_text_is_built_where_a_catalogue_cannot_find_it() -> None:
    assert code_templates().unreadable == [], "give t() or Text() a literal template"


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0]
            for _, name, _, _ in Formatter().parse(template) if name}


@pytest.mark.parametrize("locale", list(FILES))
def test_translations_use_their_templates_fields(locale: str) -> None:
    for (_, msgid), message in entries(locale):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        allowed = set().union(*map(_fields, ids)) | ({"n"} if len(ids) > 1 else set())
        for text in (message.string if isinstance(message.string, tuple)
                     else (message.string,)):
            assert _fields(text) <= allowed, (locale, msgid, text)


def test_a_missing_or_broken_translation_reads_english(monkeypatch: pytest.MonkeyPatch) -> None:
    assert t("ru", "Not in any catalogue {x}", x=1) == "Not in any catalogue 1"
    monkeypatch.setattr(catalogues, "lookup", lambda *args, **kwargs: "{nonexistent}")
    assert t("zh-CN", "Seat {seat} is empty.", seat=3) == "Seat 3 is empty."


def test_each_language_says_a_text_its_way() -> None:
    chips = [t(loc, "{n:,} chip", "{n:,} chips", n=n) for loc in LOCALES for n in (1, 3, 2000)]
    assert chips == ["1 chip", "3 chips", "2,000 chips",
                     "1 фишка", "3 фишки", "2\xa0000 фишек",
                     "1 mark", "3 marker", "2\xa0000 marker",
                     "1 筹码", "3 筹码", "2,000 筹码"]
    pair = Text("Pair of {rank:Plural}", rank=Rank(10))  # card ranks stay symbols
    assert [t(loc, pair) for loc in LOCALES] == ["Pair of Queens", "Пара Q", "Par, Q",
                                                "对子 Q"]
    assert str(pair) == "Pair of Queens"  # what `ofc score` prints
    assert t("ru", "Open one with {cmd}.", cmd=Slash("ofc create")) == "Open one with /ofc создать."
    assert t("sv-SE", listing(["A", "B", "C"])) == "A, B och C"
    # Chinese separates a list's items with "、", no space.
    assert t("zh-CN", listing(["A", "B", "C"])) == "A、B 和 C"
    assert [t(loc, series(list("ABCDE"))) for loc in ("zh-CN", "ru")] == ["A、B、C、D、E",
                                                                         "A, B, C, D, E"]
    assert str(series(list("ABCDE"))) == "A, B, C, D, E"  # what `ofc` prints


@pytest.mark.parametrize(("n", "russian"), [
    (1, "1 фишка"), (2, "2 фишки"), (5, "5 фишек"), (11, "11 фишек"), (21, "21 фишка"),
    (22, "22 фишки"), (25, "25 фишек"), (-1, "-1 фишка"), (-22, "-22 фишки"), (-25, "-25 фишек")])
def test_russian_plural_forms_of_every_kind_of_number(n: int, russian: str) -> None:
    # CLDR chooses the form by the number without its sign: a loss of 1 chip is "-1 фишка"
    # (gettext's formula, run on -1, gives 9 as its last digit: "фишек").
    assert t("ru", "{n:,} chip", "{n:,} chips", n=n) == russian


def test_numbers_in_images_are_grouped_as_in_the_texts() -> None:
    # The images' stacks and chips (rendering) and the texts' "{n:,}" group digits alike.
    assert [number(loc, 950_000) for loc in LOCALES] == ["950,000", "950\xa0000", "950\xa0000",
                                                          "950,000"]
    assert (number("ru", -725_000), number("en-US", 6, signed=True)) == ("-725\xa0000", "+6")
    assert number("sv-SE", 2000) + " marker" == t("sv-SE", "{n:,} chip", "{n:,} chips", n=2000)


@pytest.mark.parametrize(("code", "locale"), [
    ("en-US", "en-US"), ("en-GB", "en-US"), ("ru", "ru"), ("sv-SE", "sv-SE"), ("zh-CN", "zh-CN"),
    ("zh-TW", "en-US"), ("fr", "en-US"), (None, "en-US"), ("", "en-US")])
def test_discord_locales_map_to_the_bots_languages(code: str | None, locale: str) -> None:
    assert locale_of(code) == locale


def _unmarked(path: Path) -> Iterator[tuple[int, str]]:
    """String literals that read as English words, outside docstrings, translated calls
    and log lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            if name in TRANSLATED | NOT_TEXT:
                skip |= {id(inner) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip and WORDS.search(node.value) \
                and node.value not in NOT_SHOWN and not node.value.startswith("ofc"):
            yield node.lineno, node.value


def test_no_english_for_players_outside_a_translated_call() -> None:
    """A sentence written in the Discord layer or the renderer goes through t(), Text() or,
    for a slash command, locale_str (cogs/common/translator.py); else this lists it.
    rendering/samples.py (the docs' pictures) and the font script are tools."""
    tools = {ROOT / "rendering" / "samples.py", ROOT / "rendering" / "fonts" / "make_cjk_subset.py"}
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
             for root in ("cogs", "rendering") for path in sorted((ROOT / root).rglob("*.py"))
             if path not in tools for line, text in _unmarked(path)]
    assert not found, "\n".join(found)


def test_the_catalogues_are_the_committed_text_files() -> None:
    """The .po files are the one source: no compiled catalogue is kept beside them."""
    assert not list(PO_DIR.glob("*.mo"))
    assert {p.name for p in PO_DIR.glob("*.po")} == {f"{name}.po" for name in FILES.values()}



@pytest.mark.parametrize(("locale", "shown"), [
    ("en-US", "Its choice: **+1,234.5 points**: as good as yours."),
    ("ru", "Его выбор: **+1\u00a0234,5 очк.**: равноценен вашему."),
    ("sv-SE", "Dess val: **+1\u00a0234,5 poäng**: lika bra som ditt.")])
def test_a_decimal_field_is_written_the_languages_way(locale: str, shown: str) -> None:
    text = Text("Its choice: **{gain:+.1f} points**: as good as yours.", gain=1234.5)
    assert t(locale, text) == shown


def test_a_decimal_rounding_to_zero_has_no_minus() -> None:
    assert decimal("ru", -0.04) == "0,0"
    assert decimal("en-US", -0.04, signed=True) == "+0.0"
    assert decimal("sv-SE", -2.25, 2) == "-2,25"
