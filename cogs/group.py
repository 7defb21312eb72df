"""The one `/ofc` slash command group every cog adds its subcommands to.

Each extension attaches its subcommands in `setup` with `ofc.add_command(command,
override=True)` (not `@ofc.command` at import: loading an extension runs its module again,
while this module and its group are imported once), then calls `install(bot.tree)`, which adds
the group to the tree once, however many extensions load.
"""

from discord import app_commands

ofc = app_commands.Group(
    name="ofc",
    description="Open-Face Chinese Poker Pineapple",
    guild_only=True,  # wallets, tables and settings are per server (R12)
)


def install(tree: app_commands.CommandTree) -> None:
    """Add the `/ofc` group to the command tree unless an extension already did."""
    if tree.get_command(ofc.name) is None:
        tree.add_command(ofc)
