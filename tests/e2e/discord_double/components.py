"""Message components and modals as the Discord client sees them: finding a button or a select
the way a person would (by its label, in a given row), checking a payload against Discord's
limits, and filling a modal in."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)
INTERACTIVE_TYPES = (BUTTON, *SELECT_TYPES)
LINK_STYLE = 5
PREMIUM_STYLE = 6
COMPONENTS_V2 = 1 << 15


class ComponentError(AssertionError):
    """A scripted user tried something a person cannot do in the Discord client."""


def walk(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, depth first, through rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from walk(component.get("components", ()))
        for key in ("component", "accessory"):
            if key in component:
                yield from walk([component[key]])


@dataclass(frozen=True)
class Located:
    """A clickable component and the index of the top-level row it sits in."""

    component: Mapping[str, Any]
    row: int

    @property
    def custom_id(self) -> str:
        return str(self.component["custom_id"])

    @property
    def type(self) -> int:
        return int(self.component["type"])


def interactive(components: Sequence[Mapping[str, Any]]) -> list[Located]:
    return [
        Located(c, row)
        for row, top in enumerate(components)
        for c in walk([top])
        if c.get("type") in INTERACTIVE_TYPES
    ]


def describe(components: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for item in interactive(components):
        c = item.component
        name = c.get("label") or c.get("placeholder") or (c.get("emoji") or {}).get("name")
        state = " (disabled)" if c.get("disabled") else ""
        parts.append(f"row {item.row}: {name!r} [{c.get('custom_id')}]{state}")
    return "; ".join(parts) or "no components"


def find(
    components: Sequence[Mapping[str, Any]],
    *,
    types: Sequence[int],
    label: str | None = None,
    row: int | None = None,
    custom_id: str | None = None,
) -> Located:
    """The one component a person means: matched by label (button label, select placeholder or
    emoji name), row and/or custom_id. Ambiguity or absence is a test error, not a guess."""
    found = [item for item in interactive(components) if item.type in types]
    if custom_id is not None:
        found = [item for item in found if item.component.get("custom_id") == custom_id]
    if row is not None:
        found = [item for item in found if item.row == row]
    if label is not None:
        found = [item for item in found if label in _names(item.component)]
    if len(found) != 1:
        what = f"label={label!r} row={row!r} custom_id={custom_id!r}"
        problem = "no component" if not found else f"{len(found)} components"
        raise ComponentError(
            f"{problem} matching {what}; the message shows: {describe(components)}"
        )
    return found[0]


def _names(component: Mapping[str, Any]) -> set[str]:
    emoji = component.get("emoji") or {}
    return {
        str(n)
        for n in (component.get("label"), component.get("placeholder"), emoji.get("name"))
        if n
    }


def choose_options(select: Mapping[str, Any], choices: Sequence[str]) -> list[str]:
    """Values of a string select's options chosen by label or value, within min/max values."""
    options = select.get("options", [])
    values = []
    for choice in choices:
        match = [o for o in options if choice in (o.get("label"), o.get("value"))]
        if len(match) != 1:
            labels = [o.get("label") for o in options]
            raise ComponentError(
                f"select {select.get('custom_id')!r} has no option {choice!r}: {labels}"
            )
        values.append(str(match[0]["value"]))
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high or len(set(values)) != len(values):
        raise ComponentError(
            f"select {select.get('custom_id')!r} takes {low}..{high} distinct values, got {values}"
        )
    return values


def modal_submission(modal: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The `components` of a MODAL_SUBMIT for `modal` filled with `values` (keyed by a field's
    label or custom_id), with the client's checks: required fields, lengths, known keys."""
    used: set[str] = set()

    def fill(component: Mapping[str, Any], label: str | None) -> dict[str, Any]:
        custom_id = component["custom_id"]
        key = label if label in values else custom_id
        if key not in values:
            if component.get("required", True):
                raise ComponentError(f"modal field {label or custom_id!r} is required")
            raw: Any = [] if component["type"] != TEXT_INPUT else component.get("value") or ""
        else:
            used.add(key)
            raw = values[key]
        out: dict[str, Any] = {"type": component["type"], "custom_id": custom_id}
        if "id" in component:
            out["id"] = component["id"]
        if component["type"] == TEXT_INPUT:
            text = str(raw)
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if text and not low <= len(text) <= high:
                raise ComponentError(
                    f"modal field {label or custom_id!r} takes {low}..{high} characters"
                )
            out["value"] = text
        elif component["type"] == STRING_SELECT:
            out["values"] = choose_options(component, [raw] if isinstance(raw, str) else list(raw))
        else:
            raise ComponentError(f"modal component type {component['type']} is not scripted yet")
        return out

    submitted: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        if top["type"] == ACTION_ROW:
            row = [fill(c, c.get("label")) for c in top["components"]]
            submitted.append({"type": ACTION_ROW, "components": row})
        elif top["type"] == LABEL:
            submitted.append({"type": LABEL, "component": fill(top["component"], top.get("label"))})
    unknown = set(values) - used
    if unknown:
        raise ComponentError(f"the modal has no fields {sorted(unknown)}")
    return submitted


class PayloadErrors:
    """Collects Discord's form-body errors (code 50035) for one message payload."""

    def __init__(self) -> None:
        self.errors: dict[str, dict[str, list[dict[str, str]]]] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, {"_errors": []})["_errors"].append(
            {"code": "BASE_TYPE_BAD", "message": message}
        )


def check_message(payload: Mapping[str, Any], errors: PayloadErrors) -> None:
    """Discord's limits on a message body: content, embeds and components."""
    content = payload.get("content") or ""
    if len(content) > 2000:
        errors.add("content", "Must be 2000 or fewer in length.")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        errors.add("embeds", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(embed, f"embeds.{i}", errors)
    if total > 6000:
        errors.add("embeds", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    if int(payload.get("flags") or 0) & COMPONENTS_V2:
        if content or embeds:
            errors.add("content", "Cannot send content or embeds with components v2")
    else:
        _check_rows(components, errors)
    seen: set[str] = set()
    for item in interactive(components):
        _check_interactive(item.component, f"components.{item.row}", seen, errors)


_EMBED_LIMITS = {"title": 256, "description": 4096}


def _check_embed(embed: Mapping[str, Any], path: str, errors: PayloadErrors) -> int:
    size = 0
    for key, limit in _EMBED_LIMITS.items():
        text = embed.get(key) or ""
        size += len(text)
        if len(text) > limit:
            errors.add(f"{path}.{key}", f"Must be {limit} or fewer in length.")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add(f"{path}.fields", "Must be 25 or fewer in length.")
    for j, f in enumerate(fields):
        name, value = f.get("name") or "", f.get("value") or ""
        if not name or not value:
            errors.add(f"{path}.fields.{j}", "This field is required")
        if len(name) > 256 or len(value) > 1024:
            errors.add(f"{path}.fields.{j}", "Field name/value too long")
        size += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048 or len(author) > 256:
        errors.add(path, "Footer or author too long")
    return size + len(footer) + len(author)


def _check_rows(components: Sequence[Mapping[str, Any]], errors: PayloadErrors) -> None:
    if len(components) > 5:
        errors.add("components", "Must be 5 or fewer in length.")
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            errors.add(f"components.{i}", "Top-level components must be action rows")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children or len(children) > 5 or (selects and len(children) > 1):
            errors.add(f"components.{i}.components", "A row holds 1-5 buttons or one select menu")


def _check_interactive(
    component: Mapping[str, Any], path: str, seen: set[str], errors: PayloadErrors
) -> None:
    style = component.get("style")
    if component.get("type") == BUTTON and style in (LINK_STYLE, PREMIUM_STYLE):
        return
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        errors.add(f"{path}.custom_id", "custom_id must be 1-100 characters")
    elif custom_id in seen:
        errors.add(f"{path}.custom_id", f"Component custom id cannot be duplicated: {custom_id}")
    else:
        seen.add(custom_id)
    if len(component.get("label") or "") > 80:
        errors.add(f"{path}.label", "Must be 80 or fewer in length.")
    if component.get("type") == STRING_SELECT:
        options = component.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.add(f"{path}.options", "A select menu has 1-25 options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.add(f"{path}.options", "Select option values must be unique")
        if component.get("max_values", 1) > max(len(options), 1):
            errors.add(f"{path}.max_values", "max_values exceeds the number of options")
