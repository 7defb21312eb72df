"""Message components and modals as the Discord client sees them: finding a button or a select
the way a person would (by its label, in a given row), and filling a modal in."""

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
THUMBNAIL = 11
GALLERY = 12
FILE = 13
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
