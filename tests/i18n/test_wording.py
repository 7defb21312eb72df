"""What a translation names must exist: a button a text tells the player to press carries that
label in the same language, a rule idea has one word in each language (docs/languages.md lists
them), a Russian count agrees with every number, and no translation repeats a word by mistake
("död hand hand")."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.i18n.catalogue import FILES, PO_DIR

# The buttons players are told to press by name in the guide, the lobby and the prompts.
BUTTONS = ("Join", "Leave", "Start", "Confirm", "My hand", "Top", "Middle", "Bottom", "Discard",
           "Suggest", "Rematch", "I'm back")
BOLD = re.compile(r"\*\*([^*]+)\*\*")
REPEATED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
# Chips or cards counted in an English template without a plural form: "{chips} chips".
COUNTED = re.compile(r"{(\w+)[^}]*}\**\s+(?:(?:play|tournament|lent)\s+)?(?:chips|cards)\b")
# Words that another word of the same language already says: English left in Swedish (the
# sheet's bust is död hand, royalties premier), a row that is not "линия", a director or a
# scoop said two ways in Chinese, and the house called 庄家, the Chinese for the button; and
# Swedish "över" (sitter över: sits out) written without its dots.
OTHER_WORDS = {"ru": r"\b(ряд|роялти|фол)\b",
               "sv-SE": r"\b(royalt\w*|foul\w*|bust\w*|over)\b",
               "zh-CN": r"裁判长|全胜|爆牌|庄家的筹码"}


def translated(locale: str) -> Iterator[tuple[Any, str]]:
    with (PO_DIR / f"{FILES[locale]}.po").open("rb") as po:
        for message in read_po(po, locale=FILES[locale]):
            if message.id:
                for text in (message.string if isinstance(message.string, tuple)
                             else (message.string,)):
                    yield message, str(text or "")


@pytest.mark.parametrize("locale", list(FILES))
def test_a_button_named_in_a_text_is_the_buttons_label(locale: str) -> None:
    labels = {m.id: text for m, text in translated(locale)
              if m.context is None and m.id in BUTTONS}
    wrong = [(button, labels[button], text) for m, text in translated(locale)
             if isinstance(m.id, str) for button in BOLD.findall(m.id)
             if button in labels and labels[button] not in BOLD.findall(text)]
    assert not wrong, wrong


@pytest.mark.parametrize("locale", list(FILES))
def test_no_translation_repeats_a_word(locale: str) -> None:
    assert [text for _, text in translated(locale) if REPEATED.search(text)] == []


@pytest.mark.parametrize("locale", list(FILES))
def test_each_rule_idea_has_one_word(locale: str) -> None:
    other = re.compile(OTHER_WORDS[locale], re.IGNORECASE)
    assert [text for _, text in translated(locale)
            if other.search(re.sub(r"{[^}]*}", "", text))] == []  # a field's name is no word


def test_a_russian_count_without_a_plural_form_agrees_with_every_number() -> None:
    # "{chips} фишек" reads "242 фишек" (242 фишки) and "21 фишек" (21 фишка): a noun after a
    # number that no plural form chooses is written before it ("фишки: 242"), or abbreviated
    # ("{points} очк."). {n} and {high} alone count Fantasyland's cards, 13 to 17: "карт".
    wrong = [text for message, text in translated("ru") if isinstance(message.id, str)
             for field in COUNTED.findall(message.id) if field not in ("n", "high")
             if re.search(rf"{{{field}[^}}]*}}\**\s+(?:[а-яё]+\s+)?[а-яё]+\b(?!\.)", text)]
    assert wrong == []


def test_chinese_puts_no_space_after_a_sentence() -> None:
    # A field that is a whole sentence ("{how} The lobby closes...", "{reason} Chips back to
    # wallets...") ends with Chinese's full stop "。", which carries its own space: "。 如果"
    # reads as a stray gap, in the lobby of every Chinese server.
    wrong = [text for message, text in translated("zh-CN") if isinstance(message.id, str)
             for field in re.findall(r"^{(\w+)} [A-Z]", message.id)
             if re.match(rf"{{{field}}} [^\x00-\x7f]", text)]
    wrong += [text for _, text in translated("zh-CN") if "。 " in text]
    assert wrong == []


def test_chinese_puts_no_space_between_a_chip_count_and_the_next_word() -> None:
    # {chips} is a count with its word ("200 筹码"): a space after it splits the sentence,
    # "你从钱包带 200 筹码 入座。", where Chinese spaces only between a digit and a character.
    assert [text for _, text in translated("zh-CN")
            if re.search(r"{chips}\s+[\u4e00-\u9fff]", text)] == []
