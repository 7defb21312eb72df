"""`/ofc help`: what the game is, how to open a table and play, and every command grouped by
purpose, for the asker only, in pages turned with Previous / Next.

The commands' descriptions are read from the bot's command tree, so the help lists exactly
what Discord offers; a command no section names still appears, under "More".
"""

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.i18n import Slash, Text, t
from bot.i18n.catalogue import lookup
from cogs.common.answers import BadId, PersistentItem, send
from cogs.common.client import Interaction, Tree
from cogs.common.format import INFO, add_lines
from cogs.common.language import lang
from cogs.common.permissions import needed_line

GAME = Text(
    "**Open-Face Chinese Poker, Pineapple**: each player builds three poker hands face up, "
    "a **top** row of 3 cards, a **middle** of 5 and a **bottom** of 5. The bottom must be at "
    "least as strong as the middle, and the middle as the top, or the board **fouls** and "
    "loses every line.\n"
    "The first street deals 5 cards to place; each of the next four deals 3: place 2, discard "
    "1. At showdown each row is compared with the same row of every opponent for points; "
    "**royalties** pay for strong rows, and queens or better on top earn **Fantasyland**: the "
    "next hand dealt all at once, in secret.")
PLAY = (
    Text("1. {create} in a channel opens a table (options left out take the server's "
         "defaults) and seats you: your buy-in leaves your wallet.",
         create=Slash("ofc create")),
    Text("2. Others press **Join** (or {join}); a member with Manage Server can fill a seat "
         "with **Add computer** (it plays with the house's chips).",
         join=Slash("ofc join")),
    Text("3. The host presses **Start**."),
    Text("4. Your cards come by DM: click where each card goes (**Top**, **Middle**, "
         "**Bottom**, **Discard**), then **Confirm**. DMs closed? Press **My hand** on the "
         "table message."),
    Text("5. After each hand the showdown shows every row, royalty and chip moved; at the end "
         "every stack goes back to its wallet."),
    Text("New to the game? {practice} deals you a few hands against the computer for play "
         "chips, with **Suggest** to show its choice; {review} then goes over your hands.",
         practice=Slash("ofc practice"), review=Slash("ofc review")),
)
# The commands by purpose, by their names under the bot's groups.
SECTIONS: tuple[tuple[Text, tuple[str, ...]], ...] = (
    (Text("Tables"), ("ofc create", "ofc join", "ofc leave", "ofc start", "ofc cancel",
                      "ofc table", "ofc hand", "ofc practice")),
    (Text("Chips and history"), ("ofc balance", "ofc daily", "ofc leaderboard", "ofc history",
                                 "ofc stats", "ofc review")),
    (Text("Tools"), ("ofc rules", "ofc score", "ofc solve", "ofc preferences", "ofc help")),
    (Text("Tournaments"), tuple(f"ofc tournament {name}" for name in (
        "create", "join", "leave", "computer", "start", "warn", "penalty", "time", "standings",
        "cancel"))),
)
ADMIN_SECTION = (Text("For server admins (Manage Server)"),
                 ("ofc-admin settings", "ofc-admin grant", "ofc-admin correct",
                  "ofc-admin season start"))


def _commands(tree: Tree) -> Iterator[tuple[str, str]]:
    """(qualified name, description) of every slash command of the tree, subcommands
    included."""
    def walk(command: Any) -> Iterator[tuple[str, str]]:
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                yield from walk(child)
        elif isinstance(command, app_commands.Command):
            yield command.qualified_name, command.description
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        yield from walk(command)


def _line(loc: str, name: str, description: str) -> str:
    """'`/ofc create`: Open a table ...', as the reader's Discord shows the command."""
    said = lookup(loc, description, context="command description") or description
    return f"`{Slash(name).localized(loc)}`: {said}"


def _section(loc: str, embed: discord.Embed, title: Text, names: tuple[str, ...],
             described: dict[str, str]) -> None:
    lines = [_line(loc, name, described.pop(name)) for name in names if name in described]
    if lines:
        add_lines(loc, embed, t(loc, title), lines)


def pages(loc: str, tree: Tree) -> list[discord.Embed]:
    """The help, page by page: the game and how to play; the players' commands; the admins'
    commands and what the bot needs in a channel."""
    described = dict(_commands(tree))
    game = discord.Embed(title=t(loc, "OFC Pineapple: the game"), description=t(loc, GAME),
                         colour=INFO)
    add_lines(loc, game, t(loc, "Open a table and play"), [t(loc, step) for step in PLAY])
    players = discord.Embed(title=t(loc, "OFC Pineapple: commands"), colour=INFO)
    for title, names in SECTIONS:
        _section(loc, players, title, names, described)
    admins = discord.Embed(title=t(loc, "OFC Pineapple: for server admins"), colour=INFO,
                           description=t(loc, "Hidden by Discord from members without Manage "
                                              "Server."))
    _section(loc, admins, *ADMIN_SECTION, described)
    add_lines(loc, admins, t(loc, "What the bot needs in a table's channel"), [
        t(loc, "{permissions}. {create} checks them and names any that is missing.",
          permissions=needed_line(), create=Slash("ofc create"))])
    if described:  # a command no section names
        add_lines(loc, players, t(loc, "More"),
                  [_line(loc, name, text) for name, text in described.items()])
    shown = [game, players, admins]
    for number, page in enumerate(shown, start=1):
        page.set_footer(text=t(loc, "Page {n}/{total}", n=number, total=len(shown)))
    return shown


Button = discord.ui.Button[discord.ui.View]


class HelpPage(PersistentItem, discord.ui.DynamicItem[Button],
               template=r"ofc:help:(?P<page>[0-9]{1,2}):(?P<way>prev|next)"):
    """Previous / Next under the help: shows page `page` (the custom_id names the page it
    goes to, so it keeps working after a restart)."""

    async def clicked(self, interaction: Interaction) -> None:
        match = type(self).__discord_ui_compiled_template__.fullmatch(self.custom_id)
        loc = lang(interaction)
        shown = pages(loc, interaction.client.tree)
        if match is None or int(match["page"]) >= len(shown):
            raise BadId(self.custom_id)
        page = int(match["page"])
        await interaction.response.edit_message(embed=shown[page],
                                                view=turner(loc, page, len(shown)))


def turner(loc: str, page: int, count: int) -> discord.ui.View:
    """Previous / Next for page `page` of `count`, disabled at either end."""
    view = discord.ui.View(timeout=None)
    for label, target, way, disabled in ((Text("Previous"), max(page - 1, 0), "prev", page == 0),
                                         (Text("Next"), min(page + 1, count - 1), "next",
                                          page == count - 1)):
        view.add_item(HelpPage(discord.ui.Button(
            label=t(loc, label), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"ofc:help:{target}:{way}")))
    return view


@app_commands.command(name="help", description="How to play, and every command of this bot")
async def help_command(interaction: Interaction) -> None:
    loc = lang(interaction)
    shown = pages(loc, interaction.client.tree)
    await send(interaction, ephemeral=True, embed=shown[0], view=turner(loc, 0, len(shown)))


COMPONENTS = (HelpPage,)
