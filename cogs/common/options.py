"""The table options of RULES.md as slash command options, defined once: their types, ranges,
choices and help. `/ofc create`, `/ofc-admin settings`, `/ofc score` and `/ofc solve` take theirs
with `@table_options(...)`.

Choices and ranges come from bot.engine.rules (CHOICES, BOUNDS), so a command offers exactly
what the engine accepts; every value is still validated by TableRules, since a client may send
anything.
"""

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate

from discord import app_commands
from discord.app_commands import locale_str

from bot.engine.rules import BOUNDS, CHOICES, TableRules
from bot.storage import Storage
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, storage_of

# A choice named by a number ("1-6") reads the same in every language; the others translate.
CHOICE: dict[str, list[app_commands.Choice[str]]] = {
    name: [app_commands.Choice(name=app_commands.locale_str(value, fixed=value[0].isdigit()),
                               value=value) for value in values]
    for name, values in CHOICES.items()
}


def _whole(name: str) -> Any:
    """A whole-number option as a slash command range (BOUNDS holds its limits)."""
    low, high = BOUNDS[name]
    return app_commands.Range[int, low, high]


# Every table option: its type as a slash option and its help (a command string, translated
# by cogs/common/translator.py), by RULES.md section. An option left out takes this server's
# default (`/ofc-admin settings`), else RULES.md's.
TABLE_OPTIONS: dict[str, tuple[Any, locale_str]] = {
    "variant": (str, locale_str(
        "turbo: 5/4/4, 4 seats · lowball: 2-7 middle · joker: 2 wild")),
    "seats": (_whole("seats"), locale_str("Players at the table: 2-3 (turbo 2-4)")),
    "buy_in": (_whole("buy_in"), locale_str(
        "chips each player brings from the wallet (default 200)")),
    "point_value": (_whole("point_value"), locale_str("chips per point (default 1)")),
    "scoring": (str, locale_str("1-6: 1 a row, 6 for all 3 · 2-4: 2, or 4 for all 3")),
    "royalties": (str, locale_str(
        "bonus for strong rows: american or russian table, or none")),
    "fantasy": (str, locale_str(
        "QQ+ on top: 14 cards; progressive: QQ 14 … trips 17")),
    "fantasy_stay_full_house_middle": (
        bool, locale_str("a full house in the middle also stays in Fantasyland")),
    "button_moves_on_fantasy": (bool, locale_str("move the button before a Fantasyland hand")),
    "order": (str, locale_str("sequential (one at a time) or simultaneous")),
    "format": (str, locale_str(
        "match (one hand per player), hands (a number of hands), cash")),
    "hands": (_whole("hands"), locale_str("hands to play in the 'hands' format (default 20)")),
    "turn_seconds": (_whole("turn_seconds"), locale_str("seconds for each street (default 60)")),
    "fantasy_turn_seconds": (
        _whole("fantasy_turn_seconds"),
        locale_str("seconds for a Fantasyland hand (default 180)")),
    "time_bank_seconds": (
        _whole("time_bank_seconds"),
        locale_str("extra seconds per match once a turn runs out (default 120)")),
    "hints": (str, locale_str(
        "on: a Suggest button fills your cards with the strong computer's choice")),
    "fantasy_deal": (str, locale_str(
        "first: Fantasyland is set before the others play; last: after, seeing their boards")),
    "clock": (str, locale_str(
        "per_street: turn_seconds for each street; per_hand: all of it for the whole hand")),
    "time_bank_refill_seconds": (
        _whole("time_bank_refill_seconds"),
        locale_str("seconds after which a time bank is full again, 0 never (cash: 3600)")),
}

Callback = Callable[Concatenate[Interaction, ...], Coroutine[Any, Any, None]]


def given(**options: Any) -> dict[str, Any]:
    """The options a member filled in (Discord passes None for the others)."""
    return {name: value for name, value in options.items() if value is not None}


# What the server settles once for all its tables (`/ofc-admin settings`) rather than each
# table's host: the seeds' house rules of timing and of the Fantasyland deal. Left off
# `/ofc create`, they also keep `/ofc` inside Discord's size of one command.
SERVER_ONLY = ("fantasy_deal", "clock", "time_bank_refill_seconds")
AT_A_TABLE = tuple(name for name in TABLE_OPTIONS if name not in SERVER_ONLY)


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
