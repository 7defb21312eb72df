"""What the table commands and controls take from an interaction: the table service, the
table of this channel, and whether the member may run any table here (Manage Server)."""

from typing import Any

import discord

from bot.tables import TableService
from cogs.common.interactions import Refusal

NO_TABLE = "There is no table in this channel. Open one with /ofc create."


def tables_of(interaction: discord.Interaction[Any]) -> TableService:
    return interaction.client.tables  # type: ignore[no-any-return]


def table_here(interaction: discord.Interaction[Any]) -> int:
    """The live table of the channel (or thread) the command was used in."""
    table = tables_of(interaction).table_for_channel(interaction.channel_id or 0)
    if table is None:
        raise Refusal(NO_TABLE)
    return table


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """R12 tables are the server's: Manage Server may start or cancel anyone's table."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def name_of(user: discord.abc.User) -> str:
    return user.display_name
