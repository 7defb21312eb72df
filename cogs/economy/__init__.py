"""The `cogs.economy` extension: wallets (wallets.py), history and statistics (history.py), and
their embeds (embeds.py), R12."""

from typing import TYPE_CHECKING

from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.economy import history, wallets

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (*wallets.COMMANDS, *history.COMMANDS)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    for command in COMMANDS:
        bot.tree.add_command(command)
    bot.add_dynamic_items(*history.MENUS)


async def teardown(bot: "OFCBot") -> None:
    for command in COMMANDS:
        bot.tree.remove_command(command.name)
    bot.remove_dynamic_items(*history.MENUS)
