"""The `cogs.economy` extension: wallets (wallets.py), history and statistics (history.py),
the coach (review.py, issue 18), and their embeds (embeds.py), R12. The players' commands go
under `/ofc`, the grant under `/ofc-admin`."""

from typing import TYPE_CHECKING

from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.common.group import admin, attach, detach
from cogs.economy import history, review, wallets

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (*wallets.COMMANDS, *history.COMMANDS, review.review)
ITEMS = (*history.MENUS, review.ReviewButton)
ADMIN: tuple[SlashCommand, ...] = wallets.ADMIN


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    attach(bot.tree, COMMANDS)
    attach(bot.tree, ADMIN, admin)
    bot.add_dynamic_items(*ITEMS)


async def teardown(bot: "OFCBot") -> None:
    detach(COMMANDS)
    detach(ADMIN, admin)
    bot.remove_dynamic_items(*ITEMS)
