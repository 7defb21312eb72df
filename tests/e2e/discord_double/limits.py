"""Discord's documented limits that its OpenAPI schemas leave out (or state more loosely), as
Discord answers them: a form-body error (code 50035) naming each field.

Messages: content 2,000 characters (the schema allows 4,000, which only people with Nitro
get); embeds' 6,000 characters in all and their title, description, field, footer and author
lengths; at most 5 action rows of 1-5 buttons or one select; custom_ids 1-100 characters and
unique within the message; labels 80, placeholders 150, select options 25 with unique values;
with components v2, 40 components and 4,000 characters of text in all.

Application commands: names 1-32 lowercase letters, digits, `-`, `_` or `'`; descriptions
1-100; 25 options, required before optional; 25 choices with names 1-100 and string values up
to 100; localizations only for Discord's locales; and the size of a command (every name,
description and choice value, each counted at its longest localization) at most 8,000.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .components import (
    ACTION_ROW,
    BUTTON,
    COMPONENTS_V2,
    LINK_STYLE,
    PREMIUM_STYLE,
    SELECT_TYPES,
    STRING_SELECT,
    interactive,
    walk,
)
from .openapi import Problem, spec

COMMAND_SIZE_LIMIT = 8000
TEXT_DISPLAY = 10
CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP, STRING_OPTION = 1, 2, 3


class PayloadErrors:
    """Discord's form-body errors (code 50035) for one request body, nested by field as
    Discord nests them: {"components": {"0": {"custom_id": {"_errors": [...]}}}}."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: str, message: str) -> None:
        node = self.errors
        for key in (k for k in path.split(".") if k):
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_BAD", "message": message})


def problems_of(errors: Mapping[str, Any], prefix: str = "") -> list[Problem]:
    """Discord's nested form-body errors as one problem per field (dotted path)."""
    found = []
    for key, value in errors.items():
        if key == "_errors":
            found += [Problem(prefix or "body", e["message"]) for e in value]
        else:
            found += problems_of(value, f"{prefix}.{key}" if prefix else key)
    return found


# -- messages ----------------------------------------------------------------------------------


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
        _check_layout(components, errors)
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
        if len(name) > 256:
            errors.add(f"{path}.fields.{j}.name", "Must be 256 or fewer in length.")
        if len(value) > 1024:
            errors.add(f"{path}.fields.{j}.value", "Must be 1024 or fewer in length.")
        size += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048:
        errors.add(f"{path}.footer.text", "Must be 2048 or fewer in length.")
    if len(author) > 256:
        errors.add(f"{path}.author.name", "Must be 256 or fewer in length.")
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


def _check_layout(components: Sequence[Mapping[str, Any]], errors: PayloadErrors) -> None:
    """Components v2: 40 components in all (rows, containers and sections count), and 4,000
    characters of text displays in all."""
    every = list(walk(components))
    if len(every) > 40:
        errors.add("components", f"A message holds at most 40 components, not {len(every)}")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > 4000:
        errors.add("components", f"Text displays hold at most 4000 characters, not {text}")


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
    if len(component.get("placeholder") or "") > 150:
        errors.add(f"{path}.placeholder", "Must be 150 or fewer in length.")
    if component.get("type") == STRING_SELECT:
        options = component.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.add(f"{path}.options", "A select menu has 1-25 options")
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                if len(option.get(key) or "") > 100:
                    errors.add(f"{path}.options.{k}.{key}", "Must be 100 or fewer in length.")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.add(f"{path}.options", "Select option values must be unique")
        if component.get("max_values", 1) > max(len(options), 1):
            errors.add(f"{path}.max_values", "max_values exceeds the number of options")


# -- application commands ----------------------------------------------------------------------


def check_commands(commands: Sequence[Mapping[str, Any]], errors: PayloadErrors) -> None:
    """A bulk overwrite: each command's limits, and no two commands of one name and type."""
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        check_command(command, errors, f"{i}.")
        key = (str(command.get("name")), int(command.get("type") or CHAT_INPUT))
        if key in seen:
            errors.add(f"{i}.name", "Application command names must be unique")
        seen.add(key)


def check_command(command: Mapping[str, Any], errors: PayloadErrors, path: str = "") -> None:
    """One command's limits; the whole command at most COMMAND_SIZE_LIMIT characters."""
    chat_input = int(command.get("type") or CHAT_INPUT) == CHAT_INPUT
    _check_named(command, errors, path, chat_input)
    _check_options(command.get("options") or [], errors, f"{path}options", chat_input)
    size = command_size(command)
    if size > COMMAND_SIZE_LIMIT:
        errors.add(
            path.rstrip("."),
            f"Application command exceeds maximum size ({COMMAND_SIZE_LIMIT}): {size}",
        )


def command_size(command: Mapping[str, Any]) -> int:
    """Discord's size of a command: the characters of every name, description and choice
    value of the command, its options and their choices, each field counted at its longest
    localization (the default text included)."""
    size = _longest(command, "name") + _longest(command, "description")
    for choice in command.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in command.get("options") or [])


def _longest(node: Mapping[str, Any], key: str) -> int:
    texts = [node.get(key) or "", *(node.get(f"{key}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def _texts(node: Mapping[str, Any], key: str) -> Iterable[tuple[str, str]]:
    """(field path suffix, text) of a field and each of its localizations."""
    yield key, node.get(key) or ""
    for locale, text in (node.get(f"{key}_localizations") or {}).items():
        yield f"{key}_localizations.{locale}", text


def _check_named(
    node: Mapping[str, Any], errors: PayloadErrors, path: str, chat_input: bool
) -> None:
    """Name and description of a command or an option, with their localizations."""
    locales = spec().locales
    for key in ("name", "description"):
        unknown = set(node.get(f"{key}_localizations") or {}) - locales
        for locale in sorted(unknown):
            errors.add(f"{path}{key}_localizations.{locale}", "Invalid locale")
    for where, name in _texts(node, "name"):
        if not 1 <= len(name) <= 32:
            errors.add(path + where, "Must be between 1 and 32 in length.")
        if chat_input and not _command_name(name):
            errors.add(path + where, f"Invalid command name {name!r}: lowercase, no spaces")
    for where, text in _texts(node, "description"):
        if chat_input and not 1 <= len(text) <= 100:
            errors.add(path + where, "Must be between 1 and 100 in length.")


def _command_name(name: str) -> bool:
    """Discord's `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, in lowercase where a
    letter has a lowercase form (marks allowed for Devanagari and Thai)."""
    allowed = all(
        c in "-_'" or c.isalnum() or unicodedata.category(c).startswith("M") for c in name
    )
    return allowed and name == name.lower()


def _check_options(
    options: Sequence[Mapping[str, Any]], errors: PayloadErrors, path: str, chat_input: bool
) -> None:
    if len(options) > 25:
        errors.add(path, "Must be 25 or fewer in length.")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        errors.add(path, "Option names must be unique")
    optional_seen = False
    for i, option in enumerate(options):
        at = f"{path}.{i}."
        _check_named(option, errors, at, chat_input)
        kind = int(option.get("type") or 0)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(option.get("options") or [], errors, f"{at}options", chat_input)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(f"{at}required", "Required options must be placed before optional")
        else:
            optional_seen = True
        _check_choices(option, errors, at, kind)


def _check_choices(
    option: Mapping[str, Any], errors: PayloadErrors, at: str, kind: int
) -> None:
    choices = option.get("choices") or []
    if len(choices) > 25:
        errors.add(f"{at}choices", "Must be 25 or fewer in length.")
    if choices and option.get("autocomplete"):
        errors.add(f"{at}autocomplete", "Autocomplete cannot be set with choices")
    for j, choice in enumerate(choices):
        for where, name in _texts(choice, "name"):
            if not 1 <= len(name) <= 100:
                errors.add(f"{at}choices.{j}.{where}", "Must be between 1 and 100 in length.")
        for locale in sorted(set(choice.get("name_localizations") or {}) - spec().locales):
            errors.add(f"{at}choices.{j}.name_localizations.{locale}", "Invalid locale")
        value = choice.get("value")
        if kind == STRING_OPTION and len(str(value)) > 100:
            errors.add(f"{at}choices.{j}.value", "Must be 100 or fewer in length.")
