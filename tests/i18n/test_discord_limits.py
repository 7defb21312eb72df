"""Every translation fits the Discord limit of the place its template is shown: a button label
80 characters, a menu option 100, a placeholder 150, an embed title 256, a field 1024, ...
The places are read from the Discord layer's source (a `t(loc, "...")` or `Text("...")` given
as a component's label, an embed's title, a field's value, directly or through a helper's
parameter of that name); the text a translation adds around its fields must fit by itself,
before any name or number fills them. tests/cogs/test_embed_limits.py builds the messages
themselves with the longest names and values in every language."""

import ast
from collections.abc import Iterator
from pathlib import Path
from string import Formatter

import pytest

from bot.i18n import LOCALES
from bot.i18n.catalogue import ENGLISH, lookup
from bot.i18n.extract import ROOT

# https://discord.com/developers/docs/components/reference and .../resources/message
# (callee, parameter) -> limit; a callee of None stands for any call.
LIMITS: dict[tuple[str | None, str], int] = {
    (None, "label"): 80,  # a button's (the helpers that make buttons name it so too)
    ("SelectOption", "label"): 100,
    ("SelectOption", "description"): 100,
    (None, "placeholder"): 150,
    ("Embed", "title"): 256,
    ("Embed", "description"): 4096,
    ("add_field", "name"): 256,
    ("add_field", "value"): 1024,
    ("set_footer", "text"): 2048,
    ("set_author", "name"): 256,
    (None, "content"): 2000,
    ("Modal", "title"): 45,
    ("TextInput", "label"): 45,
}
Template = tuple[str, str | None]  # (msgid, plural)


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else ""


def _template(node: ast.expr) -> Template | None:
    """The literal template of a `t(loc, "...")` or `Text("...")` call."""
    if not isinstance(node, ast.Call):
        return None
    index = {"t": 1, "Text": 0}.get(_name(node.func))
    if index is None or len(node.args) <= index:
        return None
    literal = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
               for a in node.args[index:index + 2]]
    return (literal[0], literal[1] if len(literal) > 1 else None) if literal[0] else None


def _limit(callee: str, parameter: str) -> int | None:
    return LIMITS.get((callee, parameter), LIMITS.get((None, parameter)))


def placed(path: Path) -> Iterator[tuple[Template, int, str]]:
    """(template, limit, where) of each template given directly to a limited place."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    params = {f.name: [a.arg for a in f.args.args] for f in ast.walk(tree)
              if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        callee = _name(call.func)
        given = [(k.arg, k.value) for k in call.keywords if k.arg] + list(
            zip(params.get(callee, []), call.args, strict=False))
        for parameter, value in given:
            limit = _limit(callee, parameter)
            template = _template(value)
            if limit is not None and template is not None:
                yield template, limit, f"{path.relative_to(ROOT)}:{value.lineno}"


def places() -> dict[Template, tuple[int, str]]:
    """Each template's tightest limit, and where it is used with it."""
    found: dict[Template, tuple[int, str]] = {}
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        for template, limit, where in placed(path):
            if template not in found or limit < found[template][0]:
                found[template] = (limit, where)
    return found


def fixed_text(translation: str) -> str:
    """What a translation shows besides its fields."""
    return "".join(literal for literal, _, _, _ in Formatter().parse(translation))


def translations(locale: str, msgid: str, plural: str | None) -> list[str]:
    if locale == ENGLISH:
        return [msgid] + ([plural] if plural else [])
    counts = (1, 2, 5) if plural else (1,)  # every plural form of the three languages
    return [found for n in counts
            if (found := lookup(locale, msgid, plural, n)) is not None]


def test_the_places_are_found() -> None:
    """The source reading finds the limited places: a button made through a helper, a menu's
    placeholder, an embed's title, a field's value."""
    found = places()
    assert found[("Confirm", None)][0] == 80  # _button(..., t(loc, "Confirm"), ...)
    assert found[("Show the hands of a match", None)][0] == 150
    assert found[("Match #{n}", None)][0] == 100  # a menu option's label
    assert found[("Hand {n}: showdown", None)][0] == 256
    assert len(found) > 40


@pytest.mark.parametrize("locale", LOCALES)
def test_every_translation_fits_the_place_it_is_shown(locale: str) -> None:
    too_long = [f"{where}: {len(fixed_text(text))} > {limit}: {text!r}"
                for (msgid, plural), (limit, where) in places().items()
                for text in translations(locale, msgid, plural)
                if len(fixed_text(text)) > limit]
    assert not too_long, "\n".join(too_long)


def test_an_overflowing_translation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.i18n import test_discord_limits as this
    monkeypatch.setattr(this, "lookup", lambda *args, **kwargs: "Б" * 81)
    with pytest.raises(AssertionError, match="81 > 80"):
        test_every_translation_fits_the_place_it_is_shown("ru")
