"""Rating seasons: `/ofc-admin season start [name]` closes the server's season, keeping its
board for `/ofc leaderboard season:`, and starts everyone again at the default rating."""

from discord import app_commands

from bot.i18n import Text
from cogs.common.answers import Refusal, manage_server, send
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, in_time, now_of, storage_of, written
from cogs.common.language import lang
from cogs.economy import embeds

MAX_NAME = 60  # storage's limit for a season's name

season = app_commands.Group(name="season", description="Rating seasons (Manage Server)")


@season.command(name="start", description="End this season's ratings and start a new season")
@app_commands.describe(name="The new season's name (default: Season and its number)")
@manage_server
async def start(interaction: Interaction,
                name: app_commands.Range[str, 1, MAX_NAME] | None = None) -> None:
    if name is not None:
        name = written(name, Text("A season's name needs a character other than a space. "
                                  "Nothing was changed."))
    # The interaction id as idempotency key: a redelivered start starts one season.
    started, applied = await in_time(interaction, storage_of(interaction).ratings.start_season(
        guild_id_of(interaction), name, now=now_of(interaction), key=f"season:{interaction.id}"),
        ephemeral=False)
    if not applied:
        raise Refusal(Text("This season was already started."))
    await send(interaction, ephemeral=False, embed=embeds.season_started(
        lang(interaction), started, interaction.user.mention))
