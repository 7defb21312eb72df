"""The bot as the cogs see it. `Interaction` is `discord.Interaction[OFCBot]`, so
`interaction.client.storage` and `.tables` are typed; bot/app.py is imported for type
checking only (it loads the cogs by name, so a runtime import would be a cycle)."""

from typing import TYPE_CHECKING, Any, TypeAlias

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.app import OFCBot

Interaction: TypeAlias = discord.Interaction["OFCBot"]
Tree: TypeAlias = app_commands.CommandTree["OFCBot"]
SlashCommand: TypeAlias = app_commands.Command[Any, ..., Any]
Group: TypeAlias = app_commands.Group  # a subcommand group, e.g. /ofc-admin season
Member: TypeAlias = discord.Member | discord.User  # a member as a slash option
