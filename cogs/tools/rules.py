"""`/ofc rules`: the rules in force at a table here, in words (cogs/tools/rules_words.py), for
everyone at it; with no table, this server's defaults in one line, for the asker only."""

from discord import app_commands

from bot.i18n import Text
from bot.storage.validate import MAX_CHIPS
from cogs.common.answers import Refusal, send
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, in_time, storage_of, tables_of
from cogs.common.language import lang
from cogs.common.options import server_rules
from cogs.tools import embeds


@app_commands.command(name="rules",
                      description="The rules in force at a table here, or this server's")
@app_commands.describe(table="A table's number (default: the table in this channel)")
async def rules(interaction: Interaction,
                table: app_commands.Range[int, 1, MAX_CHIPS] | None = None) -> None:
    guild_id = guild_id_of(interaction)
    service = tables_of(interaction)
    table_id = table or service.table_for_channel(interaction.channel_id or 0)
    if table_id is None:
        in_force = await in_time(interaction, server_rules(storage_of(interaction), guild_id),
                                 ephemeral=True)
        await send(interaction, ephemeral=True, embed=embeds.server_rules(
            lang(interaction), in_force))
        return
    lobby = service.lobby(table_id)
    if lobby.guild_id != guild_id:
        raise Refusal(Text("There is no table #{n} in this server.", n=table_id))
    in_force = lobby.rules
    channel = f"<#{lobby.thread_id or lobby.channel_id}>"
    where = Text("Table #{n} in {channel}, a tournament's: its chips are lent for it, and "
                 "its points count in the tournament's standings.", n=table_id,
                 channel=channel) if lobby.lent else \
        Text("Table #{n} in {channel}.", n=table_id, channel=channel)
    await send(interaction, ephemeral=False,
               embed=embeds.rules(lang(interaction), in_force, where))
