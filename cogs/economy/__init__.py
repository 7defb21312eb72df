"""The `cogs.economy` extension: wallets (wallets.py), history and statistics (past_play.py),
the coach (review.py), rating seasons (seasons.py), and their embeds (embeds.py),
R12. The players' commands go under `/ofc`, the grant and `season start` under `/ofc-admin`."""

from typing import TYPE_CHECKING

from cogs.common.answers import install_error_handler
from cogs.common.client import Group, SlashCommand
from cogs.common.group import admin, attach, detach
from cogs.common.translator import install as install_translator
from cogs.economy import past_play, review, seasons, wallets

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (*wallets.COMMANDS, *past_play.COMMANDS, review.review)
ITEMS = (*past_play.MENUS, review.ReviewButton)
ADMIN: tuple[SlashCommand | Group, ...] = (*wallets.ADMIN, seasons.season)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    await install_translator(bot.tree)
    attach(bot.tree, COMMANDS)
    attach(bot.tree, ADMIN, admin)
    bot.add_dynamic_items(*ITEMS)


async def teardown(bot: "OFCBot") -> None:
    detach(COMMANDS)
    detach(ADMIN, admin)
    bot.remove_dynamic_items(*ITEMS)
