"""Split brain between two real `ofc-bot` processes on PostgreSQL, through the Discord double.

The first process runs both shards of two. In the middle of the first hand it stops (SIGSTOP)
just before saving the table's state: it has already found its lease held
(tests/e2e/paused_bot_process.py). The test then ends that lease in the database, as time
passing would (nothing here waits for a lease to run out, so nothing depends on the machine's
speed; if the pause caught another coroutine of it mid-transaction, its session is ended after
10 s, by PostgreSQL if idle, else by the lease table's lock, as a claim of its shards would
end it: bot/storage/postgres.py), and starts a second process,
which takes the shards over, restores the table and plays on with the members: the first hand is
settled, the second dealt. Then the first process resumes (SIGCONT) and goes on with its save,
believing its lease held: the fence refuses it, nothing of it lands (every row of the books is
as it was; without the fence its stale state of the first hand would replace the second hand's),
and it stops with exit status 1 saying why. The second process plays the match to its end: the
wallets agree with the showdowns, `ofc audit` and the tests' own audit pass.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.sharding import shard_of
from bot.storage.postgres import PostgresDatabase
from cogs.tables.ids import parse_step
from tests.backends import Reader, postgres_of
from tests.cluster.test_fencing import books
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.flows import (
    RESULT,
    Seat,
    action_of,
    check_wallets,
    open_table,
    play_out,
    play_until,
    ready,
    seats_of,
    title,
)
from tests.storage.audit import assert_audited

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0  # a deadline for events that do come; never what the test measures
LEASE_SECONDS = 600  # the longest allowed: no lease runs out by itself during the test


class Process:
    """`ofc-bot --sync --shard-count 2 --shards 0-1`: both shards in one process, on a
    database shared with another process of the bot (the one that takes over)."""

    def __init__(self, double: DiscordDouble, database: str, log: Path,
                 pause: Path | None = None) -> None:
        self.double, self.log = double, log
        self.env = {**os.environ, "DISCORD_TOKEN": double.token, "OFC_DATABASE": database,
                    "OFC_AI_DELAY_SECONDS": "0", "OFC_NEXT_HAND_SECONDS": "0",
                    "OFC_TABLE_EDIT_SECONDS": "0", "OFC_WORKERS": "0",
                    "OFC_SHARD_LEASE_SECONDS": str(LEASE_SECONDS), "OFC_LOG_LEVEL": "WARNING"}
        self.module = "tests.e2e.bot_process"
        if pause is not None:
            self.env["OFC_TEST_PAUSE_FILE"] = str(pause)
            self.module = "tests.e2e.paused_bot_process"
        self.sessions: set[str] = set()
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.sessions = set(self.double.gateway.sessions)  # any before it are not its own
        out = self.log.open("a")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", self.module, self.double.api_url, self.double.gateway_url,
            "--", "--sync", "--shard-count", "2", "--shards", "0-1", "--env-file",
            os.devnull, cwd=ROOT, env=self.env, stdout=out,
            stderr=asyncio.subprocess.STDOUT)
        out.close()
        await self.double.wait_until(self.connected, timeout=TIMEOUT,
                                     what=f"{self.log.stem}'s two shards connected")

    def connected(self) -> bool:
        assert self.process is not None
        assert self.process.returncode is None, self.output()
        mine = [s for key, s in self.double.gateway.sessions.items()
                if key not in self.sessions and s.socket is not None and s.sent]
        return {s.shard for s in mine} == {(0, 2), (1, 2)} \
            and bool(self.double.state.commands.get(None))

    def paused(self) -> bool:
        """Stopped by a signal (Linux: state T in /proc/PID/stat)."""
        assert self.process is not None
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        return stat.rpartition(")")[2].split()[0] == "T"

    async def stop(self) -> int:
        if self.process is None or self.process.returncode is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGCONT)  # a paused process takes SIGTERM only then
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), TIMEOUT)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


Versions = dict[int, int]  # DM message id -> how many versions of it there were


def versions(members: tuple[Member, ...]) -> Versions:
    return {m.id: len(m.history) for member in members for m in member.dms()}


@dataclass
class Current(Seat):
    """A member who reads only the prompts the second process sent or redrew: a DM as it
    stood at `stale` (the first process's) is out of date, and so is a prompt for a hand
    before the newest one offered. The first process, resumed, may still send the prompts it
    had on their way for the first hand (fencing guards the database, not what was already
    leaving for Discord), and one of them can reach the double after its exit is seen: by
    its hand, not by when it came, it is known as stale."""

    stale: Versions = field(default_factory=dict)

    def prompt(self) -> Message | None:
        prompts = [m for m in self.member.dms() if not m.ephemeral and RESULT not in title(m)
                   and len(m.history) > self.stale.get(m.id, -1)]
        newest = max((hand_of(m) for m in prompts), default=0)
        prompts = [m for m in prompts if hand_of(m) in (0, newest)]
        latest = prompts[-1] if prompts else None
        return latest if action_of(latest) not in self.done else None


def hand_of(prompt: Message) -> int:
    """The hand a prompt's controls act in; 0 for a prompt without controls (a record)."""
    action = action_of(prompt)
    return 0 if action is None else parse_step(action).turn.hand


def second_hand(seats: list[Seat]) -> bool | None:
    """A member's turn in the second hand has come (the first is settled): with turns in
    order, nothing more is written until that member acts."""
    prompts = [seat.prompt() for seat in seats]
    return any(ready(p) and parse_step(str(action_of(p))).turn.hand == 2 for p in prompts) \
        or None


def quiet_in_second_hand(database: str, members: tuple[Member, ...]) -> bool:
    """Every member's latest DM is their prompt of the second hand, and the table's saved
    state names them all: the second process writes nothing more until a member acts."""
    latest = [[m for m in member.dms() if not m.ephemeral][-1] for member in members]
    if not all(title(m).startswith("Hand 2") for m in latest):
        return False
    with Reader(database) as read:  # the DM prompts are in the changes since the snapshot
        ((state,),) = read("SELECT state_json || coalesce(changes_json, '') FROM live_tables")
    return all(str(m.id) in state for m in latest)


@pytest.fixture
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    yield await postgres_of(request).empty("e2e_fencing")


async def test_a_process_paused_past_its_lease_writes_nothing_once_resumed(
        database: str, tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("this test reads a process's state in /proc (Linux)")
    pause = tmp_path / "pause-at-the-next-save"
    async with DiscordDouble(shard_count=2, watched_loggers=()) as double:
        double.reaction_time = 0.05
        members = (double.add_member("alice"), double.add_member("bob"))
        first = Process(double, database, tmp_path / "first.log", pause)
        second = Process(double, database, tmp_path / "second.log")
        try:
            await first.start()
            table = await open_table(double, *members, timeout=TIMEOUT, format="hands",
                                     hands=2, fantasy="off", turn_seconds=3600)
            pause.touch()  # at the next save of the table's state
            playing = asyncio.create_task(play_out(double, table, seats_of(members),
                                                   timeout=TIMEOUT))
            await double.wait_until(lambda: first.paused() or playing.done(),
                                    timeout=TIMEOUT, what="the first process paused")
            assert not playing.done() and not pause.exists(), first.output()
            playing.cancel()  # the click being handled waits on the paused process
            await asyncio.gather(playing, return_exceptions=True)

            books_of = await PostgresDatabase.open(database)  # the lease ends, as time would
            try:
                async with books_of.transaction() as conn:
                    await conn.lock_table("shard_leases")  # as a claim does: past frozen sessions
                    ended = await conn.fetch(
                        "UPDATE shard_leases SET expires_at = 0 RETURNING token")
            finally:
                await books_of.close()

            stale = versions(members)
            await second.start()  # claims both shards, restores the table mid-hand
            seats = [Current(member, stale=stale) for member in members]
            await play_until(double, table, seats, lambda: second_hand(seats), timeout=TIMEOUT)
            await double.wait_until(lambda: quiet_in_second_hand(database, members),
                                    timeout=TIMEOUT, what="the second hand's prompts saved")
            written = books(database)

            resumed = first.process
            assert resumed is not None
            seen = versions(members)
            resumed.send_signal(signal.SIGCONT)
            await double.wait_until(
                lambda: resumed.returncode is not None or books(database) != written,
                timeout=TIMEOUT, what="the first process stopped or writing")
            assert books(database) == written  # nothing of the first process's landed
            assert await asyncio.wait_for(resumed.wait(), TIMEOUT) == 1, first.output()
            shard, (token,) = shard_of(double.guild.id, 2), {row[0] for row in ended}
            assert f"ofc-bot: Shard {shard} of 2 was taken over by another ofc-bot (this " \
                   f"process's lease token {token} is no longer its lease's)" \
                in first.output(), first.output()

            # What the first process had on its way to Discord still went (fencing guards the
            # database): stale prompts of the first hand.
            stale.update({m: n for m, n in versions(members).items() if seen.get(m) != n})
            await play_out(double, table, seats, timeout=TIMEOUT)
            await check_wallets(double, members)
        finally:
            codes = [await process.stop() for process in (first, second)]
        assert codes[1] == 0, second.output()
        assert "Traceback" not in second.output() and " ERROR " not in second.output(), \
            second.output()
    await assert_audited(database)
