"""The discord.py bot: opens storage, builds the table service, loads the cogs by name (each
adds its commands, persistent components and the tree's error handler), restores live tables;
closes it all down in order.

Commands are synced only when asked (discord.py's advice: a sync on every start gets rate
limited): `ofc-bot --sync` publishes them globally, OFC_DEV_GUILD copies them to one server
and syncs there at every start (instant, for development).
"""

import asyncio
import json
import logging
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.storage import Storage, StorageError
from bot.tables import Clock, ServiceSettings, SystemClock, TableService
from bot.tournaments import TournamentService
from bot.workers import Workers

log = logging.getLogger("bot")

# The extensions to load, by name (this module imports nothing of cogs/): each package of
# cogs/ has a `setup(bot)` that adds its commands, components and error handler.
EXTENSIONS = ("cogs.tables", "cogs.economy", "cogs.tools", "cogs.tournaments")
# What a worker process runs: imported once by the fork server, so new workers start warm.
WORKER_MODULES = ("bot.ai.players", "rendering")


class OFCBot(commands.Bot):
    """`storage` and `tables` (the TableService) are what the cogs work with."""

    storage: Storage
    tables: TableService
    tournaments: TournamentService  # set by cogs.tournaments (it opens the tables' threads)
    workers: Workers  # worker processes for computer decisions, solves and images

    def __init__(self, settings: Settings, *, sync_global: bool = False,
                 clock: Clock | None = None, extensions: Sequence[str] = EXTENSIONS,
                 storage: Storage | None = None) -> None:
        # Slash commands only: no prefix commands, so no message content intent (privileged).
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         intents=discord.Intents.default())
        self.settings = settings
        self.sync_global = sync_global
        self.clock = clock or SystemClock()
        self.extension_names = tuple(extensions)
        self.shutting_down = False
        if storage is not None:  # opened before connecting (run): start-up checks come first
            self.storage = storage

    async def setup_hook(self) -> None:
        await self.load_cogs()
        # (cogs.tournaments restored its tournaments first: their tables report to them)
        await self.tables.restore()  # the cogs listen already: prompts are re-sent
        await self._sync()

    async def load_cogs(self) -> None:
        """Storage, the table service and every extension (its commands and DynamicItems)."""
        settings = self.settings
        if not hasattr(self, "storage"):
            self.storage = await open_storage(settings)
        self.workers = Workers(settings.worker_count, preload=WORKER_MODULES)
        self.tables = TableService(
            self.storage, clock=self.clock, workers=self.workers, settings=ServiceSettings(
                lobby_idle_seconds=settings.lobby_idle_minutes * 60,
                ai_delay_seconds=settings.ai_delay_seconds,
                next_hand_seconds=settings.next_hand_seconds,
            ))
        for name in self.extension_names:
            await self.load_extension(name)  # each registers its commands and DynamicItems

    async def command_payload(self) -> list[dict[str, Any]]:
        """The command tree as `tree.sync()` sends it to Discord (global commands): discord.py
        asks the tree's translator (the extensions set cogs/common/translator.py's) for every
        name, description and choice in every Discord locale, giving each its
        `name_localizations` / `description_localizations`."""
        translator = self.tree.translator
        return [_localizable(await command.get_translated_payload(self.tree, translator)
                             if translator else command.to_dict(self.tree))
                for command in self.tree.get_commands()]

    async def _sync(self) -> None:
        if self.settings.dev_guild is not None:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development server %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (they may take up to an hour to show)",
                     len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop timers and computer turns, then the connection, the worker processes, and
        storage. The state of every table is saved after each action, so nothing is lost.
        Safe to call twice."""
        if self.shutting_down:
            return await super().close()
        self.shutting_down = True
        if hasattr(self, "tables"):
            await self.tables.close()
        await super().close()  # unloads the cogs (they finish pending messages), disconnects
        if hasattr(self, "workers"):
            await self.workers.close()
        if hasattr(self, "storage"):
            await self.storage.close()


def _localizable(payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` (a command, option or choice) and all it holds, each with its localization
    keys: `name_localizations` always, `description_localizations` where it has a
    description."""
    payload.setdefault("name_localizations", {})
    if "description" in payload:
        payload.setdefault("description_localizations", {})
    for key in ("options", "choices"):
        for inner in payload.get(key) or ():
            _localizable(inner)
    return payload


async def export_commands(path: str) -> int:
    """`ofc-bot --export-commands FILE`: the command tree exactly as it would be synced, as
    JSON in FILE (`-`: standard output), without connecting to Discord. The extensions are
    loaded against a throwaway database; the exit status is 0."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database=str(Path(folder) / "export.sqlite3"))
        bot = OFCBot(settings)
        try:
            await bot.load_cogs()
            payload = await bot.command_payload()
        finally:
            await bot.close()
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    if path == "-":
        sys.stdout.write(text)
    else:
        Path(path).write_text(text, encoding="utf-8")
    return 0


async def update_catalogues() -> int:
    """`ofc-bot --update-catalogues`: collect every text to translate (the templates in the
    code, the slash commands' names, descriptions and choices) into bot/i18n/po/messages.pot
    and merge it into each language's catalogue; prints what each still lacks."""
    from bot.i18n.extract import code_templates, update

    with tempfile.TemporaryDirectory() as folder:
        bot = OFCBot(Settings(database=str(Path(folder) / "catalogues.sqlite3")))
        try:
            await bot.load_cogs()
            await bot.command_payload()  # the translator records every command string
            asked = getattr(bot.tree.translator, "asked", {})
        finally:
            await bot.close()
    found = code_templates()
    if found.unreadable:
        for place in found.unreadable:
            print(f"ofc-bot: {place}: a text built at run time cannot be translated; give "
                  "t() or Text() a literal template with fields", file=sys.stderr)
        return 2
    messages: dict[tuple[str | None, str], str | None] = {key: None for key in asked}
    messages.update(found.messages)
    for locale, missing in update(messages, found.where).items():
        print(f"{locale}: {len(messages)} texts, {missing} without a translation")
    return 0


async def open_storage(settings: Settings) -> Storage:
    """The bot's database: one bot process per file (its lock is held until close), checked
    by SQLite's quick_check and a rolled-back write (bot.storage.guard)."""
    return await Storage.open(settings.database, starting_chips=settings.starting_chips,
                              daily_chips=settings.daily_chips, exclusive=True)


def run(settings: Settings, *, sync_global: bool = False) -> int:
    """Run the bot until interrupted; the exit status for `ofc-bot`: 2 with one line on
    stderr when the database is unusable (in use by another bot, damaged, read-only...)."""
    discord.utils.setup_logging(level=settings.log_level_number)

    async def main() -> None:
        storage = await open_storage(settings)  # before connecting to Discord
        async with OFCBot(settings, sync_global=sync_global, storage=storage) as bot:
            await bot.start(settings.token or "")

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN). Reset it in the Developer "
                  "Portal (Bot -> Reset Token) and put the new one in .env.")
        return 1
    except StorageError as error:
        print(f"ofc-bot: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        log.info("stopped")
    return 0
