"""The bot's two slash command groups, which every cog adds its subcommands to:

- `/ofc`: the game and the players' commands (tables, wallets, history, tools);
- `/ofc-admin`: what only members with Manage Server may run (settings, grants). It is a
  group of its own because Discord keeps `default_member_permissions` on top-level commands
  only: on this group Discord hides it from members, while the commands' own check
  (`answers.manage_server`) still refuses anyone else who sends one.

An extension attaches its subcommands in `setup` with `attach(bot.tree, COMMANDS)` and takes
them off in `teardown` with `detach(COMMANDS)`; not with `@ofc.command` at import, because
loading an extension runs its module again while this module, and so the group, is imported
once: the fresh commands must replace the ones an earlier run attached.
"""

from collections.abc import Iterable

import discord
from discord import app_commands

from cogs.common.client import Group, SlashCommand, Tree

# The groups' names are the bot's own: the same in every language (cogs/common/translator.py).
ofc = app_commands.Group(
    name=app_commands.locale_str("ofc", fixed=True),
    description="Open-Face Chinese Poker Pineapple",
    guild_only=True,  # wallets, tables and settings are per server (R12)
)

admin = app_commands.Group(
    name=app_commands.locale_str("ofc-admin", fixed=True),
    description="OFC for server admins: settings and chip grants (Manage Server)",
    guild_only=True,
    default_permissions=discord.Permissions(manage_guild=True),
)


def install(tree: Tree, group: app_commands.Group = ofc) -> None:
    """Add `group` to the command tree unless an extension already did."""
    if tree.get_command(group.name) is None:
        tree.add_command(group)


def attach(tree: Tree, commands: Iterable[SlashCommand | Group],
           group: app_commands.Group = ofc) -> None:
    """Put `commands` under `group` (replacing same-named ones) and the group on the tree."""
    for command in commands:
        group.add_command(command, override=True)
    install(tree, group)


def detach(commands: Iterable[SlashCommand | Group],
           group: app_commands.Group = ofc) -> None:
    """Take `commands` off `group`, unless a newer load of their module replaced them."""
    for command in commands:
        if group.get_command(command.name) is command:
            group.remove_command(command.name)
