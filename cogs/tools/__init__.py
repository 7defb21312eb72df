"""The `cogs.tools` extension: player tools under `/ofc`: score (score.py, score_input.py),
solve (solve.py), rules (rules.py, rules_words.py), help (guide.py, paged), a player's own
preferences (preferences.py), and the server's settings (server_settings.py) under `/ofc-admin`;
their embeds (embeds.py) and the engine views their images are drawn from (engine_views.py)."""

from typing import TYPE_CHECKING

from cogs.common import images
from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.common.group import admin, attach, detach
from cogs.common.translator import install as install_translator
from cogs.tools import guide, preferences, rules, score, server_settings, solve

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (score.score, solve.solve, rules.rules,
                                      preferences.preferences, guide.help_command)  # under /ofc
ADMIN: tuple[SlashCommand, ...] = (server_settings.settings,)  # under /ofc-admin


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    await install_translator(bot.tree)
    images.use(bot.workers)  # this bot's worker processes draw the images
    attach(bot.tree, COMMANDS)
    attach(bot.tree, ADMIN, admin)
    bot.add_dynamic_items(*guide.COMPONENTS)


async def teardown(bot: "OFCBot") -> None:
    images.release(bot.workers)
    detach(COMMANDS)
    detach(ADMIN, admin)
    bot.remove_dynamic_items(*guide.COMPONENTS)
