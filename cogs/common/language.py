"""Which language a message is in (bot.i18n), so each reader reads their own:

- an answer to a command or a click: the interaction's locale (the member's Discord language);
- a player's DM: the locale they last used the bot in, remembered at every command and click
  (`remember`, before the command runs: kept in memory at once, so a DM that follows already
  knows it, and written to the database in the background, never delaying an answer);
- a server's public table messages (lobby, table, showdown, notices, tournament standings):
  the language `/ofc-admin settings language:` chose, else the server's preferred locale
  (Server Settings -> Community -> Server Primary Language), else English.
"""

import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import locale_of
from bot.process.batches import Batches
from bot.storage import Storage
from cogs.common.client import Interaction

if TYPE_CHECKING:
    from bot.app import OFCBot

log = logging.getLogger(__name__)
_SEEN = "ofc_locales"  # on the client: user id -> the Discord locale code last seen
_WRITES = "ofc_locale_writes"  # on the client: the locales to write (LocaleWrites)


def lang(interaction: Interaction) -> str:
    """The language of an answer to `interaction`."""
    return locale_of(interaction.locale)


def _seen(client: discord.Client) -> dict[int, str]:
    seen: dict[int, str] = client.__dict__.setdefault(_SEEN, {})
    return seen


async def remember(interaction: Interaction) -> None:
    """Keep the member's locale for their DMs: in memory now, in the database (when it
    changed, or is first seen in this process) in the background, so a busy database never
    delays the answer."""
    code = str(interaction.locale)
    user = interaction.user.id
    seen = _seen(interaction.client)
    if seen.get(user) == code:
        return
    seen[user] = code
    writes: LocaleWrites = interaction.client.__dict__.setdefault(
        _WRITES, LocaleWrites(interaction.client.storage))
    writes.add(user, code, interaction.created_at.timestamp())


class LocaleWrites:
    """The locales to write, in batches (bot.process.batches): a hundred members first seen at once
    (tables opening together) were a hundred commits ahead of the tables' own."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.batches = Batches(self._write)

    def add(self, user: int, code: str, now: float) -> None:
        self.batches.add((user, code, now))

    async def _write(self, batch: list[tuple[int, str, float]]) -> None:
        latest = {user: (user, code, now) for user, code, now in batch}  # a member's last counts
        try:
            await self.storage.preferences.set_locales(list(latest.values()))
        except Exception:  # best effort (a closing database): the memory has them
            log.warning("could not keep the locales of %s", sorted(latest), exc_info=True)


async def player_locale(bot: "OFCBot", user_id: int) -> str:
    """The language of a DM to `user_id`: the locale they last used the bot in."""
    code = _seen(bot).get(user_id)
    if code is None:
        code = (await bot.storage.preferences.preferences(user_id)).locale
    return locale_of(code)


async def server_locale(bot: "OFCBot", guild_id: int) -> str:
    """The language of a server's public table messages."""
    chosen = (await bot.storage.settings.guild_settings(guild_id)).language
    if chosen is not None:
        return locale_of(chosen)
    guild = bot.get_guild(guild_id)
    return locale_of(guild.preferred_locale if guild is not None else None)
