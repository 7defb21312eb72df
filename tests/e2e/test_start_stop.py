"""How the real `ofc-bot` starts and stops, on the default SQLite file, connected to the Discord
double.

A setting it finds unusable only once connecting (a token Discord refuses, a metrics port it
cannot listen on) is one line on stderr and exit status 2, like every other setting, and leaves
no lease held.

SIGTERM (systemd, docker stop) and Ctrl+C (SIGINT) stop it cleanly: it exits 0 having gone
through the whole stop, the last step of which, after the tables, the connection and the worker
processes, releases its shards' lease in the database (so the lease row is gone) and closes the
database; in the middle of its start too. A second signal while the stop is under way ends the
process at once, killed by that signal, as a crash would. Nothing here assumes the machine is
quick: the test waits (up to a generous deadline) for what must happen, and fails only if it
never does.
"""

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.e2e.discord_double import DiscordDouble

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 120.0  # seconds; far above what a busy machine needs, not a timing assertion


async def start_bot(folder: Path, api: str, gateway: str, token: str,
                    module: str = "tests.e2e.bot_process",
                    **settings: str) -> asyncio.subprocess.Process:
    """The bot in a process of its own, in `folder` (its database, by default, the
    ofc.sqlite3 there), its stderr piped."""
    env = {name: value for name, value in os.environ.items() if name != "OFC_DATABASE"}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=token, OFC_WORKERS="0",
               OFC_LOG_LEVEL="WARNING", **settings)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, api, gateway, "--", "--env-file", os.devnull, cwd=folder,
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


@contextlib.asynccontextmanager
async def running_bot(double: DiscordDouble, folder: Path, module: str = "tests.e2e.bot_process",
                      until: Callable[[], bool] | None = None,
                      **settings: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """The bot, once connected (or once `until()`); killed at the end if still running (only
    when the test failed)."""
    process = await start_bot(folder, double.api_url, double.gateway_url, double.token, module,
                              **settings)
    try:
        await double.wait_until(
            lambda: process.returncode is not None or (until() if until else any(
                s.socket is not None and s.sent for s in double.gateway.sessions.values())),
            timeout=DEADLINE, what="the bot's gateway session")
        assert process.returncode is None
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def stopped(process: asyncio.subprocess.Process) -> tuple[int, str]:
    """Its exit status and stderr, once it exited by itself."""
    _, err = await asyncio.wait_for(process.communicate(), DEADLINE)
    assert process.returncode is not None
    return process.returncode, err.decode()


def leases(database: Path) -> list[tuple[object, ...]]:
    if not database.exists():  # refused before opening it: nothing held
        return []
    with contextlib.closing(sqlite3.connect(database)) as conn:
        return conn.execute("SELECT shard_id, owner FROM shard_leases").fetchall()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_one_signal_stops_it_cleanly_and_it_exits(tmp_path: Path,
                                                         stop: signal.Signals) -> None:
    async with DiscordDouble(watched_loggers=()) as double, \
            running_bot(double, tmp_path) as bot:
        assert len(leases(tmp_path / "ofc.sqlite3")) == 1  # held while it runs
        bot.send_signal(stop)
        status, errors = await stopped(bot)
    assert status == 0, errors
    assert "Traceback" not in errors
    assert leases(tmp_path / "ofc.sqlite3") == []  # the stop went to its end


async def test_a_signal_during_the_start_stops_it_cleanly(tmp_path: Path) -> None:
    starting = tmp_path / "starting"
    async with DiscordDouble(watched_loggers=()) as double, \
            running_bot(double, tmp_path, "tests.e2e.stalled_start_process", starting.exists,
                        OFC_TEST_STARTING_FILE=str(starting)) as bot:
        bot.send_signal(signal.SIGTERM)
        status, errors = await stopped(bot)
    assert status == 0, errors
    assert "Traceback" not in errors
    assert leases(tmp_path / "ofc.sqlite3") == []


async def test_a_second_signal_during_the_stop_ends_it_at_once(tmp_path: Path) -> None:
    stopping = tmp_path / "stopping"
    async with DiscordDouble(watched_loggers=()) as double, \
            running_bot(double, tmp_path, "tests.e2e.stalled_stop_process",
                        OFC_TEST_STOPPING_FILE=str(stopping)) as bot:
        bot.send_signal(signal.SIGTERM)
        await double.wait_until(lambda: stopping.exists() or bot.returncode is not None,
                                timeout=DEADLINE, what="the stop under way")
        assert bot.returncode is None
        bot.send_signal(signal.SIGINT)
        status, errors = await stopped(bot)
    assert status == -signal.SIGINT, errors  # killed by it
    assert "stopping at once" in errors


async def refused_start(double: DiscordDouble, folder: Path, **settings: str) -> list[str]:
    """The bot's `ofc-bot: ...` lines on stderr, once it exited 2 at start without a
    traceback."""
    status, errors = await stopped(await start_bot(
        folder, double.api_url, double.gateway_url, settings.pop("DISCORD_TOKEN", double.token),
        **settings))
    assert status == 2, errors
    assert "Traceback" not in errors
    assert leases(folder / "ofc.sqlite3") == []  # nothing left held
    return [line for line in errors.splitlines() if line.startswith("ofc-bot: ")]


async def test_a_token_discord_refuses_is_one_line_and_exit_2(tmp_path: Path) -> None:
    refused = "bm90LWEtYm90.refused.token"
    async with DiscordDouble(watched_loggers=()) as double:
        lines = await refused_start(double, tmp_path, DISCORD_TOKEN=refused)
    assert lines == ["ofc-bot: Discord refused the token (DISCORD_TOKEN): reset it in the "
                     "Developer Portal (Bot -> Reset Token) and put the new one in .env."]
    assert refused not in "".join(lines)


async def test_a_metrics_port_taken_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with DiscordDouble(watched_loggers=()) as double:
            lines = await refused_start(double, tmp_path, OFC_METRICS_PORT=str(port))
            assert double.requests == []  # refused before the bot logged in to Discord
    assert len(lines) == 1
    assert lines[0].startswith(f"ofc-bot: cannot serve /health and /metrics on 127.0.0.1:{port} "
                               "(OFC_METRICS_HOST, OFC_METRICS_PORT): ")
    assert "address already in use" in lines[0].lower()


async def test_a_metrics_host_that_is_not_here_is_one_line_and_exit_2(tmp_path: Path) -> None:
    async with DiscordDouble(watched_loggers=()) as double:
        lines = await refused_start(double, tmp_path, OFC_METRICS_PORT="9",
                                    OFC_METRICS_HOST="host.invalid")
        assert double.requests == []
    assert len(lines) == 1
    assert lines[0].startswith("ofc-bot: cannot serve /health and /metrics on host.invalid:9 "
                               "(OFC_METRICS_HOST, OFC_METRICS_PORT): ")


async def test_discord_out_of_reach_at_start_is_one_line_and_exit_1(tmp_path: Path) -> None:
    # exit 1, not 2: nothing to fix in the settings, a supervisor should simply try again
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: the connection is refused
        status, errors = await stopped(await start_bot(
            tmp_path, f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/ws",
            "ZG91YmxlLWJvdA.double.token"))
    assert status == 1, errors
    assert "Traceback" not in errors
    lines = [line for line in errors.splitlines() if line.startswith("ofc-bot: ")]
    assert len(lines) == 1 and lines[0].startswith("ofc-bot: cannot reach Discord: "), errors
    assert leases(tmp_path / "ofc.sqlite3") == []
