"""The `cogs.tables` extension: live tables on Discord (lobby, play, the table and DM
messages, the placement controls)."""

from discord.ext import commands

from cogs.tables import lobby, play


async def setup(bot: commands.Bot) -> None:
    await lobby.setup(bot)
    await play.setup(bot)


async def teardown(bot: commands.Bot) -> None:
    await play.teardown(bot)
    await lobby.teardown(bot)
