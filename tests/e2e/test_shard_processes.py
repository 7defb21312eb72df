"""Two real `ofc-bot` processes (shard 0 and shard 1 of 2) on one PostgreSQL database,
connected to the Discord double as to Discord.

Members in a server of each shard play whole matches by their DM buttons (Discord sends every
DM click to shard 0's process, which hands shard 1's to its process). Shard 1's process is
killed (SIGKILL) mid-hand: a replacement is refused (exit 2, one line: the dead process's
lease has not run out), while shard 0's table plays on to its end; once the lease has expired a
replacement starts, restores shard 1's table and its members finish their match. Every wallet
agrees with the showdowns; then `ofc audit` passes on the database, and so does the tests'
independent audit.

The test holds the dead process's lease itself while the first replacement asks for it: it
renews the lease on the dead owner's behalf, as its heartbeat would have, so the refusal does
not depend on the replacement starting within what was left of the lease (a busy machine
takes longer to start a process than any lease the test could afford to wait out).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.backends import postgres_of
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.flows import check_wallets, open_table, play_out, play_until, seats_of
from tests.storage.audit import assert_audited

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 30  # far above a heartbeat's delay on a busy machine
TIMEOUT = 60.0


class BotProcess:
    """`ofc-bot --sync --shard-count 2 --shards N` in a process of its own."""

    def __init__(self, double: DiscordDouble, database: str, shard: int, log: Path) -> None:
        self.double, self.shard, self.log = double, shard, log
        self.env = {**os.environ, "DISCORD_TOKEN": double.token, "OFC_DATABASE": database,
                    "OFC_AI_DELAY_SECONDS": "0", "OFC_NEXT_HAND_SECONDS": "0",
                    "OFC_TABLE_EDIT_SECONDS": "0", "OFC_WORKERS": "0",
                    "OFC_SHARD_LEASE_SECONDS": str(LEASE_SECONDS), "OFC_LOG_LEVEL": "WARNING"}
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        out = self.log.open("a")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.bot_process", self.double.api_url,
            self.double.gateway_url, "--", "--sync", "--shard-count", "2", "--shards",
            str(self.shard), "--env-file", os.devnull,
            cwd=ROOT, env=self.env, stdout=out, stderr=asyncio.subprocess.STDOUT)
        out.close()

    def connected(self) -> bool:
        """Its shard's gateway session is live and the commands are synced."""
        return any(s.shard == (self.shard, 2) and s.socket is not None and s.sent
                   for s in self.double.gateway.sessions.values()) \
            and bool(self.double.state.commands.get(None))

    async def ready_or_exit(self) -> int | None:
        """None once connected; the exit status if it stopped first."""
        assert self.process is not None
        process = self.process
        await self.double.wait_until(lambda: self.connected() or process.returncode is not None,
                                     timeout=TIMEOUT, what=f"shard {self.shard}'s process")
        return process.returncode if process.returncode is not None and \
            not self.connected() else None

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        for session in self.double.gateway.sessions.values():  # the socket drops with it
            if session.shard == (self.shard, 2):
                await self.double.wait_until(lambda s=session: s.socket is None,
                                             timeout=TIMEOUT, what="the dead socket")

    async def stop(self) -> int:
        if self.process is None or self.process.returncode is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), TIMEOUT)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


class DeadOwner:
    """Shard 1's lease after its owner was killed, held by the test: renewed as the dead
    process's heartbeat would have (`hold`), then left to run out (`let_expire`)."""

    def __init__(self, database: str) -> None:
        self.database = database

    async def _renew(self, seconds: float) -> None:
        storage = await Storage.open(self.database, shared=True)
        try:
            lease = next(lease for lease in await storage.leases.shard_leases()
                         if lease.shard_id == 1)
            await storage.leases.renew_shards(lease.owner, [1], now=time.time(), seconds=seconds)
        finally:
            await storage.close()

    async def hold(self) -> None:
        await self._renew(3600)

    async def let_expire(self) -> None:
        await self._renew(1)


@pytest.fixture
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    yield await postgres_of(request).empty("e2e_shards")


async def test_two_processes_a_crash_and_a_takeover(database: str, tmp_path: Path) -> None:
    async with DiscordDouble(shard_count=2, watched_loggers=()) as double:
        double.reaction_time = 0.05
        guild1 = double.add_guild("Shard one", shard=1)
        channel1 = double.add_text_channel("ofc-table", guild=guild1)
        first = (double.add_member("alice"), double.add_member("bob"))
        second = (double.add_member("carol", guild=guild1),
                  double.add_member("dan", guild=guild1))
        zero = BotProcess(double, database, 0, tmp_path / "zero.log")
        one = BotProcess(double, database, 1, tmp_path / "one.log")
        try:
            for process in (zero, one):
                await process.start()
                assert await process.ready_or_exit() is None, process.output()

            table0 = await open_table(double, *first, timeout=TIMEOUT, format="hands",
                                      hands=2, fantasy="off")
            table1 = await open_table(double, *second, channel=channel1, timeout=TIMEOUT,
                                      format="hands", hands=2, fantasy="off")
            seats0, seats1 = seats_of(first), seats_of(second)
            await play_until(double, table1, seats1,  # mid-hand: one street confirmed
                             lambda: True if any(s.done for s in seats1) else None,
                             timeout=TIMEOUT)

            await one.kill()
            dead = DeadOwner(database)
            await dead.hold()  # the lease is live when the replacement asks, however slow
            replacement = BotProcess(double, database, 1, tmp_path / "early.log")
            try:
                await replacement.start()
                assert await replacement.ready_or_exit() == 2
            finally:
                await dead.let_expire()
            refusal = replacement.output().strip().splitlines()
            assert len(refusal) == 1 and refusal[0].startswith(
                "ofc-bot: Shard 1 of 2 is run by another ofc-bot"), refusal

            # shard 0's table never pauses: it plays to its end while shard 1 has no process
            await play_out(double, table0, seats0, timeout=TIMEOUT)
            await check_wallets(double, first)

            one = BotProcess(double, database, 1, tmp_path / "one-again.log")
            while True:  # the real condition: refused until the dead lease has run out
                await one.start()
                status = await one.ready_or_exit()
                if status is None:
                    break
                assert status == 2, one.output()
                await asyncio.sleep(0.5)

            await play_out(double, table1, seats1, timeout=TIMEOUT)  # resumed where it was
            await check_wallets(double, second, channel=channel1)
        finally:
            codes = [await process.stop() for process in (zero, one)]
        assert codes == [0, 0], zero.output() + one.output()
        for log in (zero, one):
            assert "Traceback" not in log.output() and " ERROR " not in log.output(), \
                log.output()
    await assert_audited(database)
