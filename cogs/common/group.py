"""The one `/ofc` slash command group every cog adds its subcommands to.

An extension attaches its subcommands in `setup` with `attach(bot.tree, COMMANDS)` and takes
them off in `teardown` with `detach(COMMANDS)`; not with `@ofc.command` at import, because
loading an extension runs its module again while this module, and so the group, is imported
once: the fresh commands must replace the ones an earlier run attached.
"""

from collections.abc import Iterable

from discord import app_commands

from cogs.common.client import SlashCommand, Tree

ofc = app_commands.Group(
    name="ofc",
    description="Open-Face Chinese Poker Pineapple",
    guild_only=True,  # wallets, tables and settings are per server (R12)
)



def install(tree: Tree) -> None:
    """Add the `/ofc` group to the command tree unless an extension already did."""
    if tree.get_command(ofc.name) is None:
        tree.add_command(ofc)


def attach(tree: Tree, commands: Iterable[SlashCommand]) -> None:
    """Put `commands` under `/ofc` (replacing same-named ones) and the group on the tree."""
    for command in commands:
        ofc.add_command(command, override=True)
    install(tree)


def detach(commands: Iterable[SlashCommand]) -> None:
    """Take `commands` off `/ofc`, unless a newer load of their module replaced them."""
    for command in commands:
        if ofc.get_command(command.name) is command:
            ofc.remove_command(command.name)
