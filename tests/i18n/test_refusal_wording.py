"""Every refusal a player reads is a sentence: it ends with terminal punctuation, as the
most of them do (labels, button texts and titles are not refusals and are not checked).

The refusals are found in the code, not guessed from the catalogue: the texts raised as
the errors a player is shown (the engine's RuleError, the table and tournament services'
errors, the cogs' refusals), followed through the module's constants and helpers that
build them."""

import ast
from collections.abc import Iterator
from pathlib import Path

from babel.messages.pofile import read_po

from bot.i18n.catalogue import PO_DIR
from bot.i18n.extract import ROOT

# The errors whose text reaches a player as it is.
REFUSALS = {"RuleError", "TableError", "TournamentError", "Refusal", "Refused"}
ENDINGS = (".", "!", "?", "…", "。", "！", "？")
# A refusal that carries another one at its end ends as that one does, even when a
# parenthesis follows it ("... {reason} ({when})").
CARRIED = "{reason}"


def finished(text: str) -> bool:
    return (text.rstrip().endswith(ENDINGS) or text.endswith(CARRIED)
            or text.rsplit(" (", 1)[0].endswith(CARRIED))


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _texts(node: ast.AST, module: ast.Module, seen: set[str]) -> Iterator[tuple[str, ...]]:
    """The Text templates (singular, then plural) this expression can build, following names
    to the module's constants and calls to its functions' returns."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _name(sub.func) == "Text":
            yield tuple(a.value for a in sub.args if isinstance(a, ast.Constant)
                        and isinstance(a.value, str))
        name = _name(sub)
        if name is None or name in seen:
            continue
        seen.add(name)
        for top in ast.walk(module):
            if (isinstance(top, ast.Assign) and top in module.body
                    and any(_name(target) == name for target in top.targets)):
                yield from _texts(top.value, module, seen)
            elif isinstance(top, ast.FunctionDef) and top.name == name:
                for ret in ast.walk(top):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        yield from _texts(ret.value, module, seen)


def refusals() -> dict[str, str]:
    """Each refusal template (singular and plural) -> where it is raised."""
    found: dict[str, str] = {}
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(module):
                if (isinstance(node, ast.Call) and _name(node.func) in REFUSALS
                        and node.args):
                    for forms in _texts(node.args[0], module, set()):
                        for form in forms:
                            found[form] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_the_refusals_are_found() -> None:
    """The search reaches refusals raised directly, through a constant and through a helper
    (so the test below cannot pass on an empty list)."""
    found = refusals()
    assert {"A match needs at least two players.", "Top row is full.",
            "Top row has room for only {n} cards.", "You have already left.",
            "Your board is complete."} <= set(found)


def test_every_refusal_in_the_template_ends_a_sentence() -> None:
    with Path(PO_DIR / "messages.pot").open("rb") as source:
        template = {form for m in read_po(source) if m.id
                    for form in (m.id if isinstance(m.id, tuple) else (m.id,))}
    found = refusals()
    assert set(found) <= template, "a refusal missing from the template"
    unfinished = sorted(f"{where}: {text!r}" for text, where in found.items()
                        if not finished(text))
    assert unfinished == []
