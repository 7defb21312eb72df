"""The table options of RULES.md as slash command options, read from their declarations
(bot.engine.rules, `OPTIONS`): their types, ranges, choices and help. `/ofc create`,
`/ofc-admin settings`, `/ofc score` and `/ofc solve` take theirs with `@table_options(...)`.

A command offers exactly what the engine accepts, and the bot checks each value against what
the command publishes (cogs/common/bounds.py) before TableRules validates it again, since a
client may send anything.
"""

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate

from discord import app_commands
from discord.app_commands import locale_str

from bot.engine.options import Option
from bot.engine.rules import OPTIONS, TableRules
from bot.storage import Storage
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, storage_of

# A choice named by a number ("1-6") reads the same in every language; the others translate.
CHOICE: dict[str, list[app_commands.Choice[str]]] = {
    o.name: [app_commands.Choice(name=app_commands.locale_str(value, fixed=value[0].isdigit()),
                                 value=value) for value in o.choices]
    for o in OPTIONS.values() if o.choices
}


def _slash_type(declared: Option) -> Any:
    """An option's type as a slash option: a whole number as a range of its bounds."""
    if declared.bounds is None:
        return declared.kind
    low, high = declared.bounds
    return app_commands.Range[int, low, high]


# Every table option a command sets: its type as a slash option and its help (a command
# string, translated by cogs/common/translator.py). An option left out takes this server's
# default (`/ofc-admin settings`), else RULES.md's.
TABLE_OPTIONS: dict[str, tuple[Any, locale_str]] = {
    o.name: (_slash_type(o), locale_str(o.help)) for o in OPTIONS.values() if o.place != "fixed"
}

Callback = Callable[Concatenate[Interaction, ...], Coroutine[Any, Any, None]]


def given(**options: Any) -> dict[str, Any]:
    """The options a member filled in (Discord passes None for the others)."""
    return {name: value for name, value in options.items() if value is not None}


# What the server settles once for all its tables (`/ofc-admin settings`) rather than each
# table's host (declared `place="server"`): the seeds' house rules of timing and of the
# Fantasyland deal. Left off `/ofc create`, they also keep `/ofc` inside Discord's size of
# one command.
SERVER_ONLY = tuple(o.name for o in OPTIONS.values() if o.place == "server")
AT_A_TABLE = tuple(o.name for o in OPTIONS.values() if o.place == "table")


def table_options(*names: str) -> Callable[[Callback], Callback]:
    """Give a slash command callback the table options `names` (all of them when none are
    named), optional, after its own positional parameters and before its keyword-only ones,
    with their help and choices. The callback receives those the member filled in as its
    keyword argument `options` (a dict, for TableRules or the service)."""
    chosen = names or tuple(TABLE_OPTIONS)

    def decorate(func: Callback) -> Callback:
        own = [p for p in inspect.signature(func).parameters.values() if p.name != "options"]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=TABLE_OPTIONS[name][0] | None)
                 for name in chosen]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]

        @functools.wraps(func)
        async def callback(interaction: Interaction, *args: Any, **kwargs: Any) -> None:
            options = given(**{name: kwargs.pop(name, None) for name in chosen})
            await func(interaction, *args, options=options, **kwargs)

        callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [*positional, *added, *keyword])
        app_commands.describe(**{name: TABLE_OPTIONS[name][1] for name in chosen})(callback)
        choices = {name: CHOICE[name] for name in chosen if name in CHOICE}
        if choices:
            app_commands.choices(**choices)(callback)
        return callback

    return decorate


async def server_rules(storage: Storage, guild_id: int) -> TableRules:
    """The server's default table rules (`/ofc-admin settings`), RULES.md's defaults elsewhere."""
    settings = await storage.settings.guild_settings(guild_id)
    return TableRules.from_mapping(settings.table_options)


async def chosen_rules(interaction: Interaction, options: dict[str, Any]) -> TableRules:
    """The server's default rules with the options the member filled in (RuleError names a
    bad one)."""
    base = await server_rules(storage_of(interaction), guild_id_of(interaction))
    return base.with_options(options)
