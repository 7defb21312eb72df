"""The `cogs.tables` extension: live tables on Discord.

- lobby.py: `/ofc create`, `join`, `leave`, `start`, `cancel`, `practice` and the lobby buttons;
- presenter.py: the TablePresenter cog: the service's events turned into the lobby, table,
  showdown and DM messages, through one outbox per table (outbox.py); `/ofc table`;
- prompts.py: a seat's prompt by DM, and the channel told once when no DM reaches it;
- hands.py: the "My hand" messages that follow their seat's hand;
- unpostable.py: the tables closed because their channel is gone or refuses the bot;
- controls.py: a seat's prompt and placement controls, what each click does; `/ofc hand`;
- ids.py: the custom_ids of those components; embeds.py: what the messages say.
"""

from typing import TYPE_CHECKING

from cogs.common import images
from cogs.common.answers import install_error_handler
from cogs.common.client import SlashCommand
from cogs.common.group import attach, detach
from cogs.common.translator import install as install_translator
from cogs.tables import controls, ids, lobby, presenter

if TYPE_CHECKING:
    from bot.app import OFCBot

COMMANDS: tuple[SlashCommand, ...] = (*lobby.COMMANDS, controls.hand, presenter.table)


async def setup(bot: "OFCBot") -> None:
    install_error_handler(bot.tree)
    await install_translator(bot.tree)
    images.use(bot.workers)  # this bot's worker processes draw the images
    attach(bot.tree, COMMANDS)
    bot.add_dynamic_items(*presenter.COMPONENTS)
    bot.table_of_component = ids.table_of  # a sharded bot routes DM clicks by their table
    await bot.add_cog(presenter.TablePresenter(bot))


async def teardown(bot: "OFCBot") -> None:
    images.release(bot.workers)
    detach(COMMANDS)
    bot.remove_dynamic_items(*presenter.COMPONENTS)
