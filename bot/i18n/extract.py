"""Collecting the templates to translate, and keeping the catalogues up to date.

Templates in code are the literal first arguments of `Text(...)` and of `t(locale, ...)`
(with the plural form when a second literal follows), read from the source with `ast`; a
call whose template is not a literal cannot be collected and is reported. The slash
commands' names, descriptions and choices come from the command tree (cogs/common/
translator.py records them, each with its context: "command name", "option description", ...).
`update` writes po/messages.pot and merges it into each language's .po with babel, as
`pybabel update` would: new templates are added empty, vanished ones are dropped.
"""

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogue import FILES, PO_DIR

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs", "rendering")
Key = tuple[str | None, str]  # (context, template)
WIDTH = 100
# Fixed, so that updating the catalogues changes only what changed (no date churn).
DATE = datetime(2026, 1, 1, tzinfo=UTC)
HEADER = ("# {language} texts of the OFC Pineapple bot (bot/i18n). Edit with any PO editor;\n"
          "# `ofc-bot --update-catalogues` adds new texts. English is the message ids.\n#")
NAMES = {"ru": "Russian", "sv_SE": "Swedish", "zh_CN": "Simplified Chinese"}


@dataclass(frozen=True, slots=True)
class Found:
    """Templates found, and the calls whose template is not a literal."""

    messages: dict[Key, str | None]  # -> plural form
    where: dict[Key, list[str]]  # -> "path:line" of each use
    unreadable: list[str]


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def _calls(tree: ast.AST) -> Iterator[tuple[ast.Call, int]]:
    """Each call of Text (template first) or t (template second): (call, template index)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name == "Text":
                yield node, 0
            elif name == "t":
                yield node, 1


def code_templates(roots: Iterable[Path] | None = None) -> Found:
    messages: dict[Key, str | None] = {}
    where: dict[Key, list[str]] = {}
    unreadable: list[str] = []
    paths = roots or (ROOT / name for name in SOURCES)
    for root in paths:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            place = path.relative_to(ROOT).as_posix()
            for call, index in _calls(tree):
                args = call.args
                if len(args) <= index or isinstance(args[index], ast.Starred):
                    continue
                template = _literal(args[index])
                if template is None:
                    # A name passes a template or Text made elsewhere; built text cannot be
                    # looked up in a catalogue.
                    if isinstance(args[index], ast.JoinedStr | ast.BinOp):
                        unreadable.append(f"{place}:{call.lineno}")
                    continue
                plural = _literal(args[index + 1]) if len(args) > index + 1 else None
                key = (None, template)
                messages[key] = plural
                where.setdefault(key, []).append(f"{place}:{call.lineno}")
    return Found(messages, where, unreadable)


def template(messages: Mapping[Key, str | None],
             where: Mapping[Key, list[str]] | None = None) -> Catalog:
    """The catalogue template (messages.pot) of these templates."""
    pot = Catalog(project="ofc-pineapple-bot", fuzzy=False, creation_date=DATE,
                  revision_date=DATE, header_comment=HEADER.format(language="Template of the"))
    for (context, msgid), plural in sorted(messages.items(), key=lambda i: (i[0][0] or "",
                                                                           i[0][1])):
        locations = [(w.split(":")[0], int(w.split(":")[1]))
                     for w in (where or {}).get((context, msgid), [])]
        pot.add((msgid, plural) if plural else msgid, context=context, locations=locations,
                flags=("python-brace-format",) if "{" in msgid else ())
    return pot


def _write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=WIDTH, sort_output=True, omit_header=False,
                 include_previous=False, include_lineno=False)


def update(messages: Mapping[Key, str | None], where: Mapping[Key, list[str]]) -> dict[str, int]:
    """Write messages.pot and merge it into every language's catalogue; returns each
    language's count of templates still without a translation."""
    pot = template(messages, where)
    _write(pot, PO_DIR / "messages.pot")
    missing: dict[str, int] = {}
    for locale, name in FILES.items():
        path = PO_DIR / f"{name}.po"
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=name)
        else:
            catalog = Catalog(locale=name, project="ofc-pineapple-bot", fuzzy=False,
                              header_comment=HEADER.format(language=NAMES.get(name, name)))
        catalog.creation_date = catalog.revision_date = DATE
        catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()  # a template gone from the code is gone from the catalogue
        _write(catalog, path)
        missing[locale] = sum(1 for m in catalog if (m.id and not m.string) or (
            isinstance(m.string, tuple) and not all(m.string)))
    return missing
