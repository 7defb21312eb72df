"""The `cogs.tools` extension: player tools under `/ofc`: score (score.py, score_input.py),
solve (solve.py), rules (rules.py, rules_words.py), the server's settings (settings.py) and a
player's own preferences (preferences.py);
their embeds (embeds.py) and the engine views their images are drawn from (engine_views.py)."""

from typing import TYPE_CHECKING

from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.common.group import attach, detach
from cogs.tools import preferences, rules, score, settings, solve

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (score.score, solve.solve, rules.rules, settings.settings,
                                      preferences.preferences)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    attach(bot.tree, COMMANDS)


async def teardown(bot: "OFCBot") -> None:
    detach(COMMANDS)
