"""Per-guild settings for `/ofc-admin settings`: starting chips, daily chips, default table options.

Storage checks only the shape (table options: a JSON object of option name -> value); the
caller validates names and values with bot.engine.rules.TableRules before saving. Every change
is audited: who, when, which field, old and new value.
"""

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import UNCHANGED, Core, Part, Unchanged
from bot.storage.errors import InvalidInput
from bot.storage.preferences import MAX_LOCALE
from bot.storage.records import GuildSettings, SettingsChange

# New table options made from the stored ones, as read under the settings' lock: a change to
# some options that leaves the others as they are when it is written (raising: refused).
OptionsChange = Callable[[dict[str, Any]], dict[str, Any]]


def _options(value: object) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise InvalidInput("Table options must be a mapping of option names to values.")
    try:
        return dict(json.loads(json.dumps(value)))
    except (TypeError, ValueError) as e:
        raise InvalidInput(f"Table options must be plain JSON values: {e}") from e


async def _load(conn: Connection, guild_id: int) -> GuildSettings:
    rows = await conn.fetch(
        "SELECT starting_chips, daily_chips, table_options_json, language FROM guild_settings "
        "WHERE guild_id = ?",
        (guild_id,),
    )
    if not rows:
        return GuildSettings(None, None, {})
    start, daily, options, language = rows[0]
    return GuildSettings(start, daily, json.loads(options), language)


def _copy(kept: GuildSettings) -> GuildSettings:
    """Settings kept in memory as a caller may change them (their options are a dict)."""
    return replace(kept, table_options=dict(kept.table_options))


class ServerSettings(Part):
    """A server's settings (`storage.settings`), kept in memory once read."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        self._guild_settings: dict[int, GuildSettings] = {}

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A guild's overrides (None / {} where it uses the bot's defaults).

        Read from the database once, then from memory: every table message and every new
        table reads them, and a read waits its turn behind the commits of every table. Only
        `update_guild_settings` changes them, and a server's commands all reach the one
        process that serves it (its shard's, docs/admins/sharding.md), which keeps what it
        writes."""
        guild_id = validate.snowflake("guild id", guild_id)
        found = self._guild_settings.get(guild_id)
        if found is None:
            async with self._db.transaction(write=False) as conn:
                found = await _load(conn, guild_id)
            self._guild_settings[guild_id] = found
        return _copy(found)

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        actor_id: int,
        now: float,
        starting_chips: int | Unchanged | None = UNCHANGED,
        daily_chips: int | Unchanged | None = UNCHANGED,
        table_options: dict[str, Any] | OptionsChange | Unchanged = UNCHANGED,
        language: str | Unchanged | None = UNCHANGED,
    ) -> GuildSettings:
        """Change some settings (None: back to the bot's default; {} clears the options;
        `language` None: the server's preferred locale).

        `table_options` replaces the stored options, or, as an OptionsChange, is applied to
        them inside the transaction, so that two admins changing different options at once
        both keep theirs, and a check of the result sees what is really stored.
        Starting chips apply to wallets created afterwards. Returns the new settings.
        """
        guild_id = validate.snowflake("guild id", guild_id)
        actor_id = validate.snowflake("actor id", actor_id)
        given: dict[str, Any] = {}
        for name, value in (("starting_chips", starting_chips), ("daily_chips", daily_chips)):
            if value is not UNCHANGED:
                given[name] = None if value is None else validate.chips(value, allow_zero=True)
        if table_options is not UNCHANGED and not callable(table_options):
            given["table_options"] = _options(table_options)
        if language is not UNCHANGED:
            if language is not None and (not isinstance(language, str)
                                         or not 0 < len(language) <= MAX_LOCALE):
                raise InvalidInput("A language is a locale code such as en-US.")
            given["language"] = language
        async with self._db.transaction() as conn:
            await conn.lock_table("guild_settings")  # read, then written from what was read
            old = await _load(conn, guild_id)
            if callable(table_options):
                given["table_options"] = _options(table_options(dict(old.table_options)))
            new = replace(old, **given)
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, starting_chips, daily_chips, "
                "table_options_json, language, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET starting_chips = excluded.starting_chips, "
                "daily_chips = excluded.daily_chips, "
                "table_options_json = excluded.table_options_json, "
                "language = excluded.language, updated_at = excluded.updated_at",
                (guild_id, new.starting_chips, new.daily_chips,
                 json.dumps(new.table_options, sort_keys=True), new.language, now),
            )
            await conn.executemany(
                "INSERT INTO guild_settings_audit (guild_id, actor_id, field, old_json, "
                "new_json, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (guild_id, actor_id, name, json.dumps(getattr(old, name), sort_keys=True),
                     json.dumps(value, sort_keys=True), now)
                    for name, value in given.items()
                    if getattr(old, name) != value
                ],
            )
        self._guild_settings[guild_id] = new  # committed: what the next read returns
        return _copy(new)

    async def settings_audit(self, guild_id: int, limit: int = 20) -> list[SettingsChange]:
        """The latest settings changes of a guild, newest first."""
        guild_id = validate.snowflake("guild id", guild_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT actor_id, field, old_json, new_json, changed_at FROM guild_settings_audit "
                "WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, validate.count("limit", limit)),
            )
        return [
            SettingsChange(actor, field, json.loads(old), json.loads(new), at)
            for actor, field, old, new, at in rows
        ]
