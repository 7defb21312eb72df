"""`/ofc preferences`: a player's own choices, kept across servers: the four-colour
deck in their images, and whether their cards and controls come by DM or only through
"My hand" in the table's channel."""

import discord
from discord import app_commands

from bot.i18n import Text, t
from bot.storage import UNCHANGED, Preferences
from cogs.common.answers import send
from cogs.common.client import Interaction
from cogs.common.format import INFO
from cogs.common.interactions import in_time, now_of, storage_of
from cogs.common.language import lang

CONTROLS = [
    app_commands.Choice(name="by direct message", value="dm"),
    app_commands.Choice(name="in the channel, with My hand", value="channel"),
]
WHERE = {"dm": Text("by direct message"),
         "channel": Text("in the table's channel: press **My hand**")}


def preferences_text(loc: str, prefs: Preferences) -> str:
    deck = Text("four colours (♠ black, ♥ red, ♦ blue, ♣ green)") if prefs.four_colour \
        else Text("two colours (♠ ♣ black, ♥ ♦ red)")
    return t(loc, "Cards: {deck}.\nYour cards and controls come {where}.", deck=deck,
             where=WHERE[prefs.controls])


@app_commands.command(name="preferences",
                      description="Your own choices: the four-colour deck, DMs or My hand")
@app_commands.describe(
    four_colour="Show diamonds blue and clubs green in your images",
    controls="Where your cards and placement buttons come",
)
@app_commands.choices(controls=CONTROLS)
async def preferences(interaction: Interaction, four_colour: bool | None = None,
                      controls: str | None = None) -> None:
    storage = storage_of(interaction)
    user = interaction.user.id
    if four_colour is None and controls is None:
        prefs = await in_time(interaction, storage.preferences.preferences(user), ephemeral=True)
    else:
        prefs = await in_time(interaction, storage.preferences.set_preferences(
            user, now=now_of(interaction),
            four_colour=UNCHANGED if four_colour is None else four_colour,
            controls=UNCHANGED if controls is None else controls), ephemeral=True)
    loc = lang(interaction)
    await send(interaction, ephemeral=True, embed=discord.Embed(
        title=t(loc, "Your preferences"), colour=INFO, description=preferences_text(loc, prefs)))
