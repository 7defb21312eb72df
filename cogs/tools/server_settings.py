"""`/ofc-admin settings`: this server's chips, default table options, and the language of its
public table messages (Manage Server)."""

import functools
from typing import Any

from discord import app_commands

from bot.engine.errors import RuleError
from bot.engine.rules import TableRules
from bot.engine.text import excerpt, joined
from bot.i18n import LANGUAGE_NAMES, LOCALES, Text
from bot.storage.validate import MAX_CHIPS
from cogs.common.answers import UNCHANGED, Refusal, manage_server, send
from cogs.common.client import Interaction
from cogs.common.interactions import guild_id_of, in_time, now_of, storage_of
from cogs.common.language import lang, server_locale
from cogs.common.options import given, table_options
from cogs.tools import embeds

AUDIT_SHOWN = 5
RESETS = [
    app_commands.Choice(name="starting chips", value="starting_chips"),
    app_commands.Choice(name="daily chips", value="daily_chips"),
    app_commands.Choice(name="table options", value="table_options"),
    app_commands.Choice(name="language", value="language"),
    app_commands.Choice(name="everything", value="all"),
]
RESET_FIELDS: dict[str, Any] = {"starting_chips": None, "daily_chips": None, "table_options": {},
                                "language": None}
# Each language in its own words, the same in every language (cogs/common/translator.py).
LANGUAGES = [app_commands.Choice(name=app_commands.locale_str(LANGUAGE_NAMES[code], fixed=True),
                                 value=code) for code in LOCALES]


def _set(options: dict[str, Any], afresh: bool, stored: dict[str, Any]) -> dict[str, Any]:
    """The server's default table options once `options` are set over `stored` (over none
    when `afresh`: reset first), checked as a table's would be; a refusal names the first bad
    one."""
    merged = {**({} if afresh else stored), **options}
    try:
        checked = TableRules.from_mapping(merged)
    except RuleError as error:
        raise Refusal(joined([error.text, UNCHANGED])) from error
    return {name: getattr(checked, name) for name in merged}


@app_commands.command(name="settings",
             description="This server's chips, default table options and language (Manage Server)")
@app_commands.describe(
    starting_chips="Chips in a new wallet", daily_chips="Chips of one /ofc daily claim",
    language="The language of the lobby, table and showdown messages (default: the server's)",
    reset="Put a setting back to the bot's default first",
)
@manage_server
@app_commands.choices(reset=RESETS, language=LANGUAGES)
@table_options()
async def settings(
    interaction: Interaction,
    starting_chips: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
    daily_chips: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
    language: str | None = None, *,
    reset: str | None = None, options: dict[str, Any],
) -> None:
    guild_id = guild_id_of(interaction)
    storage = storage_of(interaction)
    before = await in_time(interaction, storage.settings.guild_settings(guild_id),
                           ephemeral=True)
    if reset is not None and reset != "all" and reset not in RESET_FIELDS:
        raise Refusal(Text("'{reset}' is not a setting that can be reset.", reset=excerpt(reset)))
    if language is not None and language not in LOCALES:
        raise Refusal(Text("'{language}' is not a language of this bot.",
                           language=excerpt(language)))
    update: dict[str, Any] = {
        field: default for field, default in RESET_FIELDS.items() if reset in (field, "all")
    }
    update |= given(starting_chips=starting_chips, daily_chips=daily_chips, language=language)
    if options:
        change = functools.partial(_set, options, "table_options" in update)
        change(before.table_options)  # a bad option is refused at once, before any write
        # ...and the change is made to the options stored when it is written, checked again
        # there: another admin's change made meanwhile is kept, or clashes and is refused.
        update["table_options"] = change
    after = before
    if update:
        after = await in_time(interaction, storage.settings.update_guild_settings(
            guild_id, actor_id=interaction.user.id, now=now_of(interaction), **update),
            ephemeral=True)
    changed = [embeds.SETTINGS[name] for name in RESET_FIELDS
               if getattr(before, name) != getattr(after, name)]
    defaults = (storage.defaults.starting_chips, storage.defaults.daily_chips)
    server_default = await server_locale(interaction.client, guild_id) \
        if after.language is None else after.language
    audit = await in_time(interaction, storage.settings.settings_audit(
        guild_id, limit=AUDIT_SHOWN), ephemeral=True)
    await send(interaction, ephemeral=True, embed=embeds.settings(
        lang(interaction), after, defaults, TableRules.from_mapping(after.table_options),
        audit, changed, server_default))
