"""The `cogs.tools` extension: player tools under `/ofc`: score (score.py, score_input.py),
solve (solve.py), rules (rules.py, rules_words.py) and the server's settings (settings.py);
their embeds (embeds.py) and the engine views their images are drawn from (engine_views.py)."""

from typing import TYPE_CHECKING

from cogs.common import images
from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.common.group import attach, detach
from cogs.tools import rules, score, settings, solve

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (score.score, solve.solve, rules.rules, settings.settings)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    images.use(bot.workers)  # this bot's worker processes draw the images
    attach(bot.tree, COMMANDS)


async def teardown(bot: "OFCBot") -> None:
    images.release(bot.workers)
    detach(COMMANDS)
