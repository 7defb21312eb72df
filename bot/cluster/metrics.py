"""Health and Prometheus metrics for operators (`OFC_METRICS_PORT`, off by default).

    GET /health   JSON; 200 when the process is connected to Discord and holds its shards'
                  leases, 503 otherwise (a load balancer or supervisor can act on it)
    GET /metrics  Prometheus text format (prometheus_client)

Each bot has its own registry (several bots in one test process do not clash). What feeds
it: the bot's interaction hook (arrival) and its HTTP trace (Discord acknowledging the first
answer), storage's transaction observer, gauges read when scraped (live tables, the worker
queue, the leases). No discord import.
"""

import re
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.config import ConfigError

KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
# The interaction callback route: the first answer to an interaction.
_CALLBACK = re.compile(r"/interactions/(?P<id>[0-9]+)/[^/]+/callback$")
_PENDING_LIMIT = 10_000  # interactions never answered are forgotten past this many


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "ofc_interactions", "Interactions received, by kind", ["kind"], registry=r)
        self.latency = Histogram(
            "ofc_interaction_seconds",
            "From an interaction's arrival to Discord accepting the bot's first answer",
            ["kind"], registry=r,
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0))
        self.transactions = Histogram(
            "ofc_db_transaction_seconds", "Database transactions, BEGIN to COMMIT",
            ["mode"], registry=r,
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
        self.live_tables = Gauge("ofc_live_tables", "Tables open in this process", registry=r)
        self.worker_queue = Gauge(
            "ofc_worker_queue_depth", "Tasks waiting for a free worker process", registry=r)
        self.worker_running = Gauge(
            "ofc_worker_running", "Tasks running in the worker processes", registry=r)
        self.shard_owned = Gauge(
            "ofc_shard_owned", "1 while this process holds the shard's lease", ["shard"],
            registry=r)
        self.lease_left = Gauge(
            "ofc_shard_lease_seconds_left", "Seconds before this process's lease runs out",
            registry=r)
        self.relayed = Counter(
            "ofc_relayed_interactions", "DM clicks handed to or from another process",
            ["direction"], registry=r)
        self._arrived: dict[int, tuple[str, float]] = {}
        for kind in KINDS.values():  # every series from the start, at 0 (not absent)
            self.interactions.labels(kind)
            self.latency.labels(kind)
        for mode in ("write", "read"):
            self.transactions.labels(mode)
        for direction in ("in", "out"):
            self.relayed.labels(direction)

    # ----------------------------------------------------------------- feeding
    def arrived(self, payload: dict[str, Any]) -> None:
        kind = KINDS.get(int(payload.get("type") or 0), "other")
        self.interactions.labels(kind).inc()
        if len(self._arrived) >= _PENDING_LIMIT:
            self._arrived.clear()
        self._arrived[int(payload["id"])] = (kind, time.monotonic())

    def answered(self, path: str) -> None:
        """A request the bot made succeeded: the first interaction callback ends a wait."""
        match = _CALLBACK.search(path)
        if match is None:
            return
        arrival = self._arrived.pop(int(match["id"]), None)
        if arrival is not None:
            kind, at = arrival
            self.latency.labels(kind).observe(time.monotonic() - at)

    def transaction(self, write: bool, seconds: float) -> None:
        self.transactions.labels("write" if write else "read").observe(seconds)

    # ----------------------------------------------------------------- serving
    async def serve(self, sockets: Sequence[socket.socket],
                    health: Callable[[], tuple[bool, dict[str, Any]]]) -> web.AppRunner:
        """Serve /health and /metrics on `sockets` (bound already, `listen`) until the
        returned runner is cleaned up (ConfigError: one cannot listen)."""

        async def get_health(request: web.Request) -> web.Response:
            ok, facts = health()
            return web.json_response({"status": "ok" if ok else "unavailable", **facts},
                                     status=200 if ok else 503)

        async def get_metrics(request: web.Request) -> web.Response:
            return web.Response(body=generate_latest(self.registry),
                                headers={"Content-Type": CONTENT_TYPE_LATEST})

        app = web.Application()
        app.router.add_get("/health", get_health)
        app.router.add_get("/metrics", get_metrics)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        for bound in sockets:
            try:
                await web.SockSite(runner, bound).start()
            except OSError as error:
                await runner.cleanup()
                host, port = bound.getsockname()[:2]
                raise _refused(host, port, error) from error
        return runner


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to `port` on every address `host` names, as aiohttp's TCPSite would
    bind them, for `Metrics.serve`. Bound by `ofc-bot` before it connects to Discord, so that
    a port taken or a host that is not this machine's is refused before anything else
    happens (ConfigError)."""
    bound: list[socket.socket] = []
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in dict.fromkeys(found):
            one = socket.socket(family, kind, proto)
            bound.append(one)
            one.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # its own address only, as asyncio binds it
                one.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            one.bind(address)
    except OSError as error:  # a port taken, a host name unknown or not this machine's
        for one in bound:
            one.close()
        raise _refused(host, port, error) from error
    return bound


def _refused(host: str, port: int, error: OSError) -> ConfigError:
    return ConfigError(f"cannot serve /health and /metrics on {host}:{port} "
                       f"(OFC_METRICS_HOST, OFC_METRICS_PORT): {error.strerror or error}")
