"""What the economy and tool commands take from an interaction, and how they refuse.

The bot object (bot/app.py) carries the services as `client.storage` (bot.storage.Storage) and
`client.tables` (bot.tables.TableService). A command's clock is the moment Discord created the
interaction (its snowflake), so a test's interaction double fixes the time exactly.
"""

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord

from bot.engine.errors import RuleError
from bot.storage import Storage, StorageError

REFUSED = discord.Colour.red()


class Refusal(Exception):
    """A command refused for a reason its invoker can read; nothing was changed."""


def storage_of(interaction: discord.Interaction[Any]) -> Storage:
    return interaction.client.storage  # type: ignore[no-any-return]


def now_of(interaction: discord.Interaction[Any]) -> float:
    return interaction.created_at.timestamp()


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise Refusal("This command works in a server, not in direct messages.")
    return interaction.guild_id


def require_manage_guild(interaction: discord.Interaction[Any]) -> None:
    """The runtime half of the Manage Server rule (default_permissions is only the default
    Discord shows: a server can change it, and subcommands cannot carry it at all)."""
    permissions = interaction.permissions
    if not (permissions.manage_guild or permissions.administrator):
        raise Refusal("Only members with the Manage Server permission can do that.")


def require_human(member: discord.abc.User) -> None:
    if member.bot:
        raise Refusal(f"{member.mention} is a bot: bots have no wallet.")


def about(interaction: discord.Interaction[Any],
          member: discord.abc.User | None) -> tuple[int, discord.abc.User]:
    """The server and the member a command is about (by default the invoker), never a bot."""
    guild_id = guild_id_of(interaction)
    target = member or interaction.user
    require_human(target)
    return guild_id, target


async def send(interaction: discord.Interaction[Any], *, ephemeral: bool,
               **content: Any) -> None:
    """The first answer to an interaction, or a follow-up once it was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **content)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **content)


@contextlib.asynccontextmanager
async def refusing(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Turn a refused input (Refusal, the engine's RuleError, storage's StorageError) into
    one ephemeral embed naming the problem. Those errors are raised before anything changes."""
    try:
        yield
    except (Refusal, RuleError, StorageError) as error:
        embed = discord.Embed(description=str(error), colour=REFUSED)
        await send(interaction, ephemeral=True, embed=embed)
