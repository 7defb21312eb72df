"""The slash commands in every language: discord.py's `app_commands.Translator` over the bot's
catalogues (bot.i18n).

discord.py wraps every command and group name and description, option name and description,
and choice name in a `locale_str` and asks the tree's translator for each Discord locale when
it syncs (or exports) the commands; the answers become `name_localizations` and
`description_localizations`. Each string is looked up with a context naming what it is
("command name", "option description", "choice", ...), so a command called "table" and the
word "table" in a message are translated apart. A `locale_str(..., fixed=True)` (the group
names ofc and ofc-admin, the language names) is the same in every language.

Every string asked for is recorded in `asked`: `ofc-bot --update-catalogues` collects the
commands' strings for the catalogues that way.
"""

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ENGLISH, LOCALES
from bot.i18n.catalogue import lookup

CONTEXTS = {
    Where.command_name: "command name", Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name", Where.parameter_description: "option description",
    Where.choice_name: "choice", Where.other: "other",
}


class CatalogueTranslator(app_commands.Translator):
    def __init__(self) -> None:
        self.asked: dict[tuple[str, str], None] = {}  # (context, English), in order

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        code = str(locale.value)
        if code not in LOCALES:
            return None  # Discord shows the English default
        if string.extras.get("fixed") or code == ENGLISH:
            return string.message
        where = CONTEXTS[context.location]
        self.asked[where, string.message] = None
        return lookup(code, string.message, context=where)


async def install(tree: app_commands.CommandTree[Any]) -> None:
    """The tree's translator (each extension's setup calls it; set once)."""
    if not isinstance(tree.translator, CatalogueTranslator):
        await tree.set_translator(CatalogueTranslator())
