"""Table options as slash command options: their choices and ranges, and the rules they make.

Choices and ranges come from bot.engine.rules (CHOICES, BOUNDS), so a command offers exactly
what the engine accepts; every value is still validated by TableRules, since a client may send
anything.
"""

from typing import Any

from discord import app_commands

from bot.engine.rules import BOUNDS, CHOICES, TableRules
from bot.storage import Storage
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, storage_of

CHOICE: dict[str, list[app_commands.Choice[str]]] = {
    name: [app_commands.Choice(name=value, value=value) for value in values]
    for name, values in CHOICES.items()
}
# The whole-number options as slash command ranges (BOUNDS holds each one's limits).
Hands = app_commands.Range[int, *BOUNDS["hands"]]
Seats = app_commands.Range[int, *BOUNDS["seats"]]
PointValue = app_commands.Range[int, *BOUNDS["point_value"]]
BuyIn = app_commands.Range[int, *BOUNDS["buy_in"]]
TurnSeconds = app_commands.Range[int, *BOUNDS["turn_seconds"]]
FantasyTurnSeconds = app_commands.Range[int, *BOUNDS["fantasy_turn_seconds"]]
TimeBankSeconds = app_commands.Range[int, *BOUNDS["time_bank_seconds"]]


def given(**options: Any) -> dict[str, Any]:
    """The options a member filled in (Discord passes None for the others)."""
    return {name: value for name, value in options.items() if value is not None}


async def server_rules(storage: Storage, guild_id: int) -> TableRules:
    """The server's default table rules (`/ofc settings`), RULES.md's defaults elsewhere."""
    settings = await storage.guild_settings(guild_id)
    return TableRules.from_mapping(settings.table_options)


async def chosen_rules(interaction: Interaction, **options: Any) -> TableRules:
    """The server's default rules with the options the member filled in (RuleError names a
    bad one)."""
    base = await server_rules(storage_of(interaction), guild_id_of(interaction))
    return base.with_options(given(**options))
