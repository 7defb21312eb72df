"""Every slash option checked by the bot itself, whatever the client sent.

Discord's client keeps a member to what a command publishes (lengths, ranges, choices), but
discord.py does not check what it receives, and a modified client can send anything. So
before any command's checks and callback run, the command tree's global check
(cogs/common/answers.py) compares each option received with the very declaration the command
publishes (its `Range`, `Choice`, `min_length`/`max_length`, read from the command tree):
there is one declaration per option, and a value past it is refused here with a clear
reason, before anything is changed (cogs/common/answers.py raises it down the one error path).
A refusal names the option and its bounds; it quotes at most a short prefix of what was sent
(bot.engine.text.excerpt).
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.engine.text import Text, excerpt, series

SUBCOMMANDS = (Kind.subcommand.value, Kind.subcommand_group.value)
SNOWFLAKES = (Kind.user, Kind.channel, Kind.role, Kind.mentionable, Kind.attachment)
MAX_INTEGER = 2**53  # Discord's integer options: -2^53..2^53
MAX_TEXT = 6000  # Discord's most for a text option that declares no length


class OptionRefused(Exception):
    """An option's value is past what its command publishes; `text` says which and why."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


def refusal(command: object, data: Mapping[str, Any]) -> Text | None:
    """Why the options of an application command interaction's `data` are refused by the
    slash command invoked (`command`, the tree's), or None when they are all within it."""
    if not isinstance(command, app_commands.Command):
        return None  # a context menu, or a command this tree does not know
    try:
        check_options(command, received(data))
    except OptionRefused as refused:
        return refused.text
    return None


def received(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The options of the (sub)command invoked, from an interaction's `data`."""
    options: Sequence[Mapping[str, Any]] = data.get("options") or []
    while options and options[0].get("type") in SUBCOMMANDS:
        options = options[0].get("options") or []
    return list(options)


def check_options(command: app_commands.Command[Any, ..., Any],
                  options: Sequence[Mapping[str, Any]]) -> None:
    """Refuse (OptionRefused) unless every option received is one `command` publishes,
    each required one is there, and each value has the published type, length, range or
    choice."""
    published = {p.display_name: p for p in command.parameters}
    names = [str(option.get("name")) for option in options]
    for option, name in zip(options, names, strict=True):
        parameter = published.get(name)
        if parameter is None:
            raise OptionRefused(Text("The command has no option {option}.",
                                     option=f"`{excerpt(name)}`"))
        check_value(parameter, option.get("value"))
    for parameter in published.values():
        if parameter.required and parameter.display_name not in names:
            raise OptionRefused(Text("The option {option} is required.",
                                     option=f"`{parameter.display_name}`"))


def check_value(parameter: app_commands.Parameter, value: object) -> None:
    """One option's value against its published declaration."""
    option = f"`{parameter.display_name}`"
    kind = parameter.type
    if not _typed(kind, value):
        raise OptionRefused(Text("The option {option} does not take that kind of value.",
                                 option=option))
    if parameter.choices:
        if value not in [choice.value for choice in parameter.choices]:
            raise OptionRefused(Text("The option {option} takes one of its choices ({choices}).",
                                     option=option, choices=series(
                                         [str(choice.value) for choice in parameter.choices])))
        return
    if kind is Kind.string:
        assert isinstance(value, str)
        low, high = _bounds(parameter, 0, MAX_TEXT)
        if not low <= len(value) <= high:
            raise OptionRefused(Text("The option {option} takes {low} to {high} characters.",
                                     option=option, low=low, high=high))
    elif kind in (Kind.integer, Kind.number):
        assert isinstance(value, int | float)
        low, high = _bounds(parameter, -MAX_INTEGER, MAX_INTEGER)
        if not low <= value <= high:
            raise OptionRefused(Text("The option {option} takes a number from {low:,} to "
                                     "{high:,}.", option=option, low=low, high=high))


def _bounds(parameter: app_commands.Parameter, least: float,
            most: float) -> tuple[float, float]:
    """The option's published minimum and maximum (a length for text), Discord's own where
    it publishes none."""
    low, high = parameter.min_value, parameter.max_value
    return (least if low is None else low), (most if high is None else high)


def _typed(kind: Kind, value: object) -> bool:
    """Is `value` what Discord sends for an option of this kind?"""
    if kind is Kind.string:
        return isinstance(value, str)
    if kind is Kind.boolean:
        return isinstance(value, bool)
    if kind is Kind.integer:
        return isinstance(value, int) and not isinstance(value, bool) \
            and abs(value) <= MAX_INTEGER
    if kind is Kind.number:
        return isinstance(value, int | float) and not isinstance(value, bool) \
            and math.isfinite(value) and abs(value) <= MAX_INTEGER
    return kind in SNOWFLAKES and isinstance(value, str) and value.isdigit() \
        and value.isascii() and len(value) <= 20
