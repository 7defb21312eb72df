"""The discord.py bot: opens storage, builds the table service, loads the cogs by name (each
adds its commands, persistent components and the tree's error handler), restores live tables;
closes it all down in order.

Commands are synced only when asked (discord.py's advice: a sync on every start gets rate
limited): `ofc-bot --sync` publishes them globally, OFC_DEV_GUILD copies them to one server
and syncs there at every start (instant, for development).

Sharded (`ofc-bot --shard-count N --shards A-B`, past one process): the bot is discord.py's
AutoShardedBot with those shard ids (`make_bot`), holds the lease of its shards in the
database (bot/cluster/shard_lease.py) and runs only its shards' tables. Without flags it is the
plain Bot of one connection, as before. A sharded process that does not run every shard hands the
clicks in DMs that Discord sends to shard 0 to the process of their table (bot/cluster/relay.py,
`_on_interaction_payload`), the one place this module reads discord.py's internals: the
gateway's parser table, whose raw INTERACTION_CREATE payload is what gets forwarded.
"""

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord.ext import commands

from bot.cluster.metrics import Metrics, listen
from bot.cluster.relay import Relay, RelayError, RelayTLS, relay_key
from bot.cluster.shard_lease import ShardKeeper
from bot.config import ConfigError, Settings
from bot.i18n import Text, locale_of, t
from bot.process.workers import Workers
from bot.refusal import error_line
from bot.sharding import ShardPlan, shard_of
from bot.storage import Storage, StorageError, is_postgres
from bot.tables import Clock, ServiceSettings, SystemClock, TableService
from bot.tables.lobby import OTHER_SHARD
from bot.tables.runtime import NOT_HELD
from bot.tournaments import TournamentDirector

log = logging.getLogger("bot")

# The extensions to load, by name (this module imports nothing of cogs/): each package of
# cogs/ has a `setup(bot)` that adds its commands, components and error handler.
EXTENSIONS = ("cogs.tables", "cogs.economy", "cogs.tools", "cogs.tournaments")
# What a worker process runs: imported once by the fork server, so new workers start warm
# (cogs.common.warm also draws a first image there: the caches it builds are shared).
WORKER_MODULES = ("bot.ai.players", "bot.ai.review", "rendering", "cogs.common.warm")
# Gateway events: servers and their channels only (`where_of` names them); slash commands
# and clicks arrive whatever the intents.
INTENTS = discord.Intents(guilds=True)
_RECEIVED = "ofc_received"  # in Interaction.extras: when it was dispatched (loop time)


class OFCBot(commands.Bot):
    """`storage` and `tables` (the TableService) are what the cogs work with."""

    storage: Storage
    tables: TableService
    tournaments: TournamentDirector  # set by cogs.tournaments (it opens the tables' threads)
    workers: Workers  # worker processes for computer decisions, solves and images
    keeper: ShardKeeper  # this process's lease on its shards
    # The table a component id names, or None (set by cogs.tables): DM clicks are routed by it.
    table_of_component: Callable[[str], int | None] = staticmethod(lambda custom_id: None)

    def __init__(self, settings: Settings, *, sync_global: bool = False,
                 clock: Clock | None = None, extensions: Sequence[str] = EXTENSIONS,
                 storage: Storage | None = None, shards: ShardPlan | None = None,
                 keeper: ShardKeeper | None = None, relay: Relay | None = None,
                 metrics_sockets: Sequence[socket.socket] = (),
                 **client_options: Any) -> None:
        # No message events: the bot reads none, and every message it sends or edits would
        # come back to it to parse. No privileged intent (message content, members).
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         intents=INTENTS, **client_options)
        self.settings = settings
        self.sync_global = sync_global
        self.clock = clock or SystemClock()
        self.extension_names = tuple(extensions)
        self.shutting_down = False
        self._closing: asyncio.Task[None] | None = None
        self.shard_plan = shards or ShardPlan()
        self.relay = relay
        self.lease_lost: str | None = None  # why the bot stopped itself, if it did
        # Sockets bound already (run() binds OFC_METRICS_HOST:PORT before connecting) are
        # served instead of binding them at setup.
        self._metrics_sockets = list(metrics_sockets)
        self.metrics = (Metrics() if settings.metrics_port is not None
                        or self._metrics_sockets else None)
        self._heartbeat: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._metrics_runner: web.AppRunner | None = None
        self._guilds_of_tables: dict[int, int] = {}  # table -> server, for routing DM clicks
        self._relay_addresses: dict[int, str] = {}  # shard -> its owner's relay
        self._parse_interaction: Callable[[dict[str, Any]], None] | None = None
        if storage is not None:  # opened before connecting (run): start-up checks come first
            self.storage = storage
        if keeper is not None:  # claimed before connecting (run)
            self.keeper = keeper
        if self.metrics is not None:
            self.http.http_trace = self._answers_trace()

    async def setup_hook(self) -> None:
        await self._open_storage()
        if self.keeper.expires_at == 0:  # (run() claims before connecting)
            self.relay = await claim_shards(self.keeper, self.settings, self.relay)
        await self.load_cogs()  # tournaments are restored there: the shards are ours by now
        self._heartbeat = asyncio.create_task(self.keeper.keep(self._lost_lease))
        if self.relay is not None:
            self.relay.deliver = self._deliver_forwarded
            self.relay.refuse = self._refuse_forwarded
        if self.relay is not None or self.metrics is not None:
            self._hook_interactions()
        if self.metrics is not None:
            await self._serve_metrics()
        # (cogs.tournaments restored its tournaments first: their tables report to them)
        await self.tables.restore()  # the cogs listen already: prompts are re-sent
        await self._sync()

    async def load_cogs(self) -> None:
        """Storage, the table service and every extension (its commands and DynamicItems)."""
        settings = self.settings
        await self._open_storage()
        self.workers = Workers(settings.worker_count, preload=WORKER_MODULES)
        await self.workers.start()  # now, off the loop: not at the first table's first image
        self.tables = TableService(
            self.storage, clock=self.clock, workers=self.workers, settings=ServiceSettings(
                lobby_idle_seconds=settings.lobby_idle_minutes * 60,
                ai_delay_seconds=settings.ai_delay_seconds,
                next_hand_seconds=settings.next_hand_seconds,
            ), shards=self.shard_plan, held=self.keeper.held)
        if self.metrics is not None:
            self.storage.observe_transactions(self.metrics.transaction)
        for name in self.extension_names:
            await self.load_extension(name)  # each registers its commands and DynamicItems

    async def _open_storage(self) -> None:
        """Storage and the keeper of this process's lease, unless given (run() opens both
        before connecting)."""
        if not hasattr(self, "storage"):
            self.storage = await open_storage(self.settings, self.shard_plan)
        if not hasattr(self, "keeper"):
            self.keeper = ShardKeeper(self.storage, self.shard_plan, SystemClock(),
                                      seconds=self.settings.shard_lease_seconds)

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
        log.info("connected as %s to %d servers (%s)", self.user, len(self.guilds),
                 self.shard_plan.describe())

    # ----------------------------------------------------------------- the lease
    async def _lost_lease(self, reason: str) -> None:
        """Another process runs these shards now (or may): stop before doing anything more."""
        log.critical("%s", reason)
        self.lease_lost = reason
        await self.close()

    # ----------------------------------------------------------------- interactions
    def _hook_interactions(self) -> None:
        """See every INTERACTION_CREATE payload before discord.py parses it (metrics, DM
        routing, and the guard on servers of other shards)."""
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._on_interaction_payload

    def _on_interaction_payload(self, payload: dict[str, Any]) -> None:
        if self.metrics is not None:
            self.metrics.arrived(payload)
        guild = payload.get("guild_id")
        if guild is not None and not self.shard_plan.owns(int(guild)):
            # Discord sends a server's interactions to its shard: never, unless misconfigured
            log.warning("an interaction of server %s reached %s", guild, self.shard_plan.describe())
            self.spawn(self._refuse(payload, OTHER_SHARD))
            return
        table = self._table_clicked(payload) if guild is None and not self.shard_plan.every \
            else None
        if table is None:
            self._parse(payload)
        else:
            self.spawn(self._route_dm_click(payload, table))

    def _parse(self, payload: dict[str, Any]) -> None:
        assert self._parse_interaction is not None
        self._parse_interaction(payload)

    def _table_clicked(self, payload: dict[str, Any]) -> int | None:
        data = payload.get("data") or {}
        custom_id = data.get("custom_id") if payload.get("type") == 3 else None
        return None if not isinstance(custom_id, str) else self.table_of_component(custom_id)

    async def _route_dm_click(self, payload: dict[str, Any], table: int) -> None:
        """A click in a DM (Discord sends them all to shard 0): here if its table's server is
        ours, else to the relay of the process that holds its shard."""
        guild = await self._guild_of_table(table)
        if guild is None or self.shard_plan.owns(guild):
            self._parse(payload)  # an unknown table gets the usual refusal
            return
        shard = shard_of(guild, self.shard_plan.count)
        assert self.relay is not None
        for fresh in (False, True):
            address = await self._relay_address(shard, fresh)
            if address is None:
                break
            try:
                await self.relay.forward(address, payload)
            except RelayError as error:
                log.warning("could not hand a click on table %s to shard %s: %s", table, shard,
                            error)
                continue
            if self.metrics is not None:
                self.metrics.relayed.labels("out").inc()
            return
        await self._refuse(payload, NOT_HELD)

    async def _guild_of_table(self, table: int) -> int | None:
        guild = self._guilds_of_tables.get(table)
        if guild is None:
            try:
                guild = (await self.storage.tables.table(table)).guild_id
                self._guilds_of_tables[table] = guild
            except StorageError:
                return None
        return guild

    async def _relay_address(self, shard: int, fresh: bool) -> str | None:
        if fresh or shard not in self._relay_addresses:
            now = self.keeper.clock.now()
            self._relay_addresses.pop(shard, None)
            for lease in await self.storage.leases.shard_leases():
                if lease.expires_at > now and lease.address and lease.owner != self.keeper.owner:
                    self._relay_addresses[lease.shard_id] = lease.address
        return self._relay_addresses.get(shard)

    async def _deliver_forwarded(self, payload: dict[str, Any]) -> bool:
        """A click another process handed over: handled here as if our gateway had sent it;
        False (the sender looks again, then refuses it) when its table's server is not, or no
        longer, ours, or when this process is stopping: its components and its connection to
        Discord may be gone already, and nothing would answer the click."""
        table = self._table_clicked(payload)
        guild = None if table is None else await self._guild_of_table(table)
        if guild is None or not self.shard_plan.owns(guild) or not self.keeper.held() \
                or self.shutting_down:
            return False
        if self.metrics is not None:
            self.metrics.relayed.labels("in").inc()
            self.metrics.arrived(payload)
        self._parse(payload)
        return True

    async def _refuse_forwarded(self, payload: dict[str, Any]) -> None:
        await self._refuse(payload, NOT_HELD)

    async def _refuse(self, payload: dict[str, Any], reason: Text) -> None:
        interaction: discord.Interaction[OFCBot] = discord.Interaction(
            data=payload, state=self._connection)  # type: ignore[arg-type]
        try:
            await interaction.response.send_message(
                embed=discord.Embed(description=t(locale_of(payload.get("locale")), reason),
                                    colour=discord.Colour.red()),
                ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", payload.get("id"))

    def spawn(self, work: Any) -> None:
        """Run `work` in the background; cancelled when the bot closes."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ----------------------------------------------------------------- metrics
    def _answers_trace(self) -> aiohttp.TraceConfig:
        """Every request to Discord that succeeds is shown to the metrics: the first callback
        of an interaction ends its wait."""
        trace = aiohttp.TraceConfig()

        async def on_request_end(session: aiohttp.ClientSession, context: Any,
                                 params: aiohttp.TraceRequestEndParams) -> None:
            if self.metrics is not None and params.response.status < 400:
                self.metrics.answered(params.url.path)

        trace.on_request_end.append(on_request_end)
        return trace

    async def _serve_metrics(self) -> None:
        metrics = self.metrics
        assert metrics is not None
        metrics.live_tables.set_function(lambda: len(self.tables.live_tables()))
        metrics.worker_queue.set_function(self.workers.queued)
        metrics.worker_running.set_function(self.workers.running)
        for shard in self.shard_plan.ids:
            metrics.shard_owned.labels(str(shard)).set_function(
                lambda: 1.0 if self.keeper.held() else 0.0)
        metrics.lease_left.set_function(
            lambda: max(0.0, self.keeper.expires_at - self.keeper.clock.now()))
        if not self._metrics_sockets:
            assert self.settings.metrics_port is not None
            self._metrics_sockets = listen(self.settings.metrics_host, self.settings.metrics_port)
        self._metrics_runner = await metrics.serve(self._metrics_sockets, self.health)

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether this process serves its servers now, and the facts behind the answer."""
        connected = self.is_ready() and not self.is_closed() and self.gateway_open()
        held = self.keeper.held()
        return connected and held and not self.shutting_down, {
            "connected": connected, "shards": list(self.shard_plan.ids),
            "shard_count": self.shard_plan.count, "lease_held": held,
            "lease_seconds_left": round(max(0.0, self.keeper.expires_at
                                            - self.keeper.clock.now()), 1),
            "live_tables": len(self.tables.live_tables()), "owner": self.keeper.owner}

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py's close leaves its wait for the guilds after READY (2 s) running: a stop
        # in that wait must not have it dispatch `ready` with the loop gone (an AttributeError
        # logged as a traceback by a clean stop)
        if self.loop is discord.utils.MISSING:
            return
        if event_name == "interaction":
            # Dispatched as it is parsed, before any of its callbacks runs: Discord's 3 s run
            # from about here, however long a busy loop makes the callback wait to start.
            args[0].extras.setdefault(_RECEIVED, self.loop.time())
        super().dispatch(event_name, *args, **kwargs)

    def received_at(self, interaction: discord.Interaction[Any]) -> float:
        """When the bot received `interaction` (loop time): what its deadlines count from."""
        received: float = interaction.extras.setdefault(_RECEIVED, self.loop.time())
        return received

    def gateway_open(self) -> bool:
        """Whether the gateway connection is open now (discord.py keeps is_ready() set while
        it reconnects)."""
        return self.ws is not None and self.ws.open

    async def close(self) -> None:
        """Stop timers and computer turns, then the connection, the worker processes, the
        shards' leases (released: a replacement may start at once) and storage. The state of
        every table is saved after each action, so nothing is lost. The stop runs once, in a
        task of its own, and every call returns when it is done: a call from a task the stop
        cancels (a signal's, the heartbeat's) does not cut it short."""
        if self._closing is None:
            self.shutting_down = True
            self._closing = asyncio.get_running_loop().create_task(self._close())
        await asyncio.shield(self._closing)

    async def __aexit__(self, *exc_info: object) -> None:
        # discord.py's waits for its own part of the stop only; the process must not end
        # before the rest (the database's thread would keep it alive)
        await self.close()

    async def _close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if hasattr(self, "tables"):
            await self.tables.close()
        await super().close()  # unloads the cogs (they finish pending messages), disconnects
        others = list(self._background)
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        if self.relay is not None:
            await self.relay.close()
        if self._metrics_runner is not None:
            await self._metrics_runner.cleanup()
        for bound in self._metrics_sockets:  # (served ones are closed already: no harm)
            bound.close()
        if hasattr(self, "workers"):
            await self.workers.close()
        if hasattr(self, "storage"):
            if hasattr(self, "keeper") and self.lease_lost is None:
                try:
                    await self.keeper.release()
                except StorageError:
                    log.exception("could not release the shards' leases")
            await self.storage.close()


class ShardedOFCBot(OFCBot, commands.AutoShardedBot):
    """The bot as discord.py's AutoShardedBot: one gateway connection per shard of its
    plan (commands.Bot adds nothing of its own, so the MRO puts AutoShardedClient's
    connection handling under OFCBot)."""

    def gateway_open(self) -> bool:
        """Whether every shard's gateway connection is open now."""
        return bool(self.shards) and not any(shard.is_closed() for shard in self.shards.values())


def refuse(message: str) -> None:
    """`ofc-bot`'s one line on stderr when it cannot start or do what it was asked."""
    print(error_line("ofc-bot", message), file=sys.stderr)


def make_bot(settings: Settings, *, shards: ShardPlan | None = None, **options: Any) -> OFCBot:
    """The plain bot without shard flags (today's one connection), else an AutoShardedBot
    running exactly the plan's shard ids."""
    plan = shards or ShardPlan()
    if not plan.sharded:
        return OFCBot(settings, shards=plan, **options)
    return ShardedOFCBot(settings, shards=plan, shard_count=plan.count,
                         shard_ids=list(plan.ids), **options)


async def claim_shards(keeper: ShardKeeper, settings: Settings,
                       relay: Relay | None) -> Relay | None:
    """Claim the keeper's shards (ShardsTaken: another live process has one). A process that
    does not run every shard first opens its relay for DM clicks and publishes its address
    with the lease; returns the relay (None when not needed)."""
    if relay is None and not keeper.plan.every:
        tls = None if settings.relay_tls_cert is None or settings.relay_tls_key is None else \
            RelayTLS(settings.relay_tls_cert, settings.relay_tls_key, settings.relay_tls_ca)
        relay = Relay(relay_key(settings.token or ""), tls=tls)
        keeper.address = await relay.start(settings.relay_address)
    try:
        await keeper.claim()
    except BaseException:
        if relay is not None:
            await relay.close()
        raise
    return relay


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
    loaded against a throwaway database, with no worker processes (nothing is drawn); the
    exit status is 0, or 2 with one line when FILE cannot be written."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database=str(Path(folder) / "export.sqlite3"), workers=0)
        bot = OFCBot(settings)
        try:
            await bot.load_cogs()
            payload = await bot.command_payload()
        finally:
            await bot.close()
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        refuse(f"cannot write {path}: {error.strerror or error}")
        return 2
    return 0


async def update_catalogues() -> int:
    """`ofc-bot --update-catalogues`: collect every text to translate (the templates in the
    code, the slash commands' names, descriptions and choices) into bot/i18n/po/messages.pot
    and merge it into each language's catalogue; prints what each still lacks."""
    from bot.i18n.extract import code_templates, update

    with tempfile.TemporaryDirectory() as folder:
        bot = OFCBot(Settings(database=str(Path(folder) / "catalogues.sqlite3"), workers=0))
        try:
            await bot.load_cogs()
            await bot.command_payload()  # the translator records every command string
            asked = getattr(bot.tree.translator, "asked", {})
        finally:
            await bot.close()
    found = code_templates()
    if found.unreadable:
        for place in found.unreadable:
            refuse(f"{place}: a text built at run time cannot be translated; give t() or Text() "
                   "a literal template with fields")
        return 2
    messages: dict[tuple[str | None, str], str | None] = {key: None for key in asked}
    messages.update(found.messages)
    for locale, missing in update(messages, found.where).items():
        print(f"{locale}: {len(messages)} texts, {missing} without a translation")
    return 0


async def open_storage(settings: Settings, shards: ShardPlan | None = None) -> Storage:
    """The bot's database (OFC_DATABASE: an SQLite file or a postgresql:// URL), held for
    the bot until close: by this process alone, or, for sharded processes on PostgreSQL, by
    the fleet together (each shard then has its owner by lease); an SQLite file by one
    process in any case (a lock file beside it; PostgreSQL: an advisory lock). An SQLite
    file is checked by quick_check and a rolled-back write (bot.storage.guard)."""
    sharded = shards is not None and shards.sharded
    if shards is not None and not shards.every and not is_postgres(settings.database):
        # The file's lock keeps every other process out: the other shards' servers would
        # get no answer at all.
        raise StorageError(
            "--shards needs PostgreSQL: an SQLite file is used by one process, which runs "
            f"every shard (--shard-count {shards.count} without --shards)")
    return await Storage.open(settings.database, starting_chips=settings.starting_chips,
                              daily_chips=settings.daily_chips, exclusive=not sharded,
                              shared=sharded)


def quiet_collector() -> None:
    """Fewer and shorter pauses of Python's cyclic garbage collector, which stops the event
    loop while it runs: a full collection walks every object alive (pauses of 230 ms were
    measured in the bot at 50 tables, docs/maintainers/benchmarks.md). What is alive now (modules,
    settings) never dies: frozen, the collector skips it. The young generation is collected
    every 10,000 new container objects rather than 700: most die by reference count first."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def stop_on_signal(bot: OFCBot, started: asyncio.Task[Any], number: signal.Signals) -> None:
    """SIGTERM (systemd, docker stop) or Ctrl+C: stop cleanly, the leases released at once,
    by cancelling `started` (the task running the bot), so a start still under way (restoring
    tables, syncing commands) goes no further either. A second one during that stop ends the
    process there and then, killed by that signal as a crash would be: nothing is lost (every
    table is saved at each action), and the lease runs out by itself."""
    if bot.shutting_down or started.cancelling():
        log.warning("%s during the stop: stopping at once", number.name)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    log.info("%s: stopping", number.name)
    started.cancel()


def run(settings: Settings, *, sync_global: bool = False, shards: ShardPlan | None = None) -> int:
    """Run the bot until interrupted; the exit status for `ofc-bot`: 2 with one line on
    stderr when Discord refuses the token, the database is unusable (in use by another bot,
    damaged, read-only...), another live process holds one of its shards, or the relay or the
    metrics cannot listen; 1 when it lost its lease while running or could not reach
    Discord at start."""
    discord.utils.setup_logging(level=settings.log_level_number)
    plan = shards or ShardPlan()

    async def main() -> str | None:
        # Everything that can refuse a setting comes before connecting to Discord.
        metrics = ([] if settings.metrics_port is None
                   else listen(settings.metrics_host, settings.metrics_port))
        try:
            storage = await open_storage(settings, plan)
            keeper = ShardKeeper(storage, plan, SystemClock(),
                                 seconds=settings.shard_lease_seconds)
            try:
                relay = await claim_shards(keeper, settings, None)
            except BaseException:
                await storage.close()
                raise
        except BaseException:
            for bound in metrics:
                bound.close()
            raise
        quiet_collector()
        async with make_bot(settings, shards=plan, sync_global=sync_global, storage=storage,
                            keeper=keeper, relay=relay, metrics_sockets=metrics) as bot:
            loop, started = asyncio.get_running_loop(), asyncio.current_task()
            assert started is not None
            for number in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(number, stop_on_signal, bot, started, number)
            # a signal cancels the start: async with's exit then stops the bot
            with contextlib.suppress(asyncio.CancelledError):
                await bot.start(settings.token or "")
        return bot.lease_lost

    try:
        lost = asyncio.run(main())
        if lost is not None:
            refuse(lost)
            return 1
    except discord.LoginFailure:
        refuse("Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal "
               "(Bot -> Reset Token) and put the new one in .env")
        return 2
    except (StorageError, RelayError, ConfigError) as error:
        refuse(str(error))
        return 2
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError) as error:
        # at start only (once connected, discord.py reconnects by itself): an outage, for
        # the supervisor to try again
        refuse(f"cannot reach Discord: {error}")
        return 1
    except KeyboardInterrupt:
        log.info("stopped")
    return 0
