"""Health and metrics for operators: the bot serves /health and Prometheus /metrics; scraped
during a whole match through the double, the counters move with the play, and the gauges say
what is live. /health says 503 while the gateway connection is down, and 200 again once it is
back. The bot serves a socket the test bound already (a free port found first and bound by the
bot later could be taken in between); that it binds OFC_METRICS_HOST:OFC_METRICS_PORT itself,
and says so when it cannot, is tests/e2e/test_start_stop.py's."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import settings_for
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.gateway import IDENTIFY, RESUME
from tests.e2e.flows import open_table, play_out, play_until, seats_of


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    """A socket listening on a port of 127.0.0.1, bound before the bot starts."""
    with socket.create_server(("127.0.0.1", 0)) as bound:
        yield bound


def port_of(bound: socket.socket) -> int:
    return int(bound.getsockname()[1])


async def scrape(port: int) -> tuple[dict[tuple[str, tuple[tuple[str, str], ...]], float],
                                     int, dict[str, Any]]:
    """(every sample by name and labels, /health's status, /health's JSON)."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            text = await response.text()
        async with session.get(f"http://127.0.0.1:{port}/health") as response:
            status, health = response.status, await response.json()
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    return samples, status, health


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


async def test_metrics_move_during_a_match(double: DiscordDouble, alice: Member, bob: Member,
                                           clock: FakeClock, database: Path,
                                           listening: socket.socket) -> None:
    port = port_of(listening)
    bot = OFCBot(settings_for(double, database), clock=clock, metrics_sockets=[listening])
    await double.start_client(bot)
    try:
        before, status, health = await scrape(port)
        assert status == 200 and health["status"] == "ok"
        assert health["lease_held"] and health["shards"] == [0] and health["live_tables"] == 0
        assert value(before, "ofc_live_tables") == 0
        assert value(before, "ofc_shard_owned", shard="0") == 1
        assert 0 < value(before, "ofc_shard_lease_seconds_left") <= 30
        assert value(before, "ofc_worker_queue_depth") == 0

        table = await open_table(double, alice, bob, format="hands", hands=1, fantasy="off")
        seats = seats_of((alice, bob))
        await play_until(double, table, seats,
                         lambda: True if any(len(s.done) >= 2 for s in seats) else None)
        during, status, health = await scrape(port)
        assert status == 200 and health["live_tables"] == 1
        assert value(during, "ofc_live_tables") == 1
        assert value(during, "ofc_interactions_total", kind="command") >= 1  # /ofc create
        clicks = value(during, "ofc_interactions_total", kind="component")
        assert clicks >= 4  # Join, Start, and a street's placements and Confirm
        answered = value(during, "ofc_interaction_seconds_count", kind="component")
        assert 0 < answered <= clicks
        assert value(during, "ofc_interaction_seconds_bucket", kind="component",
                     le="+Inf") == answered
        writes = value(during, "ofc_db_transaction_seconds_count", mode="write")
        assert writes > value(before, "ofc_db_transaction_seconds_count", mode="write")
        assert value(during, "ofc_db_transaction_seconds_sum", mode="write") > 0

        await play_out(double, table, seats)
        after, _, health = await scrape(port)
        assert value(after, "ofc_live_tables") == 0 and health["live_tables"] == 0
        assert value(after, "ofc_interactions_total", kind="component") > clicks
        assert value(after, "ofc_db_transaction_seconds_count", mode="write") > writes
    finally:
        await double.stop_client(bot)


async def test_health_is_503_while_the_gateway_is_down(double: DiscordDouble, clock: FakeClock,
                                                       database: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       listening: socket.socket) -> None:
    # discord.py keeps is_ready() set while it reconnects: /health must look at the socket.
    port = port_of(listening)
    bot = OFCBot(settings_for(double, database), clock=clock, metrics_sockets=[listening])
    await double.start_client(bot)
    try:
        assert (await scrape(port))[1] == 200
        receive = double.gateway._receive

        async def refused(conn: Any, payload: dict[str, Any]) -> Any:
            if payload.get("op") in (IDENTIFY, RESUME):  # Discord unreachable: no session
                await conn.ws.close(code=4000)
                return None
            return await receive(conn, payload)

        monkeypatch.setattr(double.gateway, "_receive", refused)
        await double.gateway.drop_connections()
        health = await wait_for_health(port, 503)
        assert health["status"] == "unavailable" and health["connected"] is False
        assert health["lease_held"]  # only the connection is missing

        monkeypatch.setattr(double.gateway, "_receive", receive)
        await wait_for_health(port, 200)  # it resumed
    finally:
        await double.stop_client(bot)


async def wait_for_health(port: int, status: int) -> dict[str, Any]:
    """/health's JSON once it answers `status` (a generous deadline: discord.py's reconnection
    waits grow, and the machine may be busy; not a timing assertion)."""
    for _ in range(600):
        _, answered, health = await scrape(port)
        if answered == status:
            return health
        await asyncio.sleep(0.1)
    raise AssertionError(f"/health never answered {status}")
