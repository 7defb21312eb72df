"""A bot killed outright (SIGKILL: the kernel out of memory, a supervisor's last resort) leaves
no process behind: its worker process, the fork server and the resource tracker end with it,
and its stdout reaches its end, so a supervisor reading that pipe is not left waiting.

The real `ofc-bot` runs in a process group of its own, connected to the Discord double, with
one worker process. Nothing here assumes the machine is quick: the test waits (up to a
generous deadline) for what must happen, and fails only if it never does.
"""

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.discord_double import DiscordDouble

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 120.0  # seconds; far above what a busy machine needs, not a timing assertion


def group_members(group: int) -> list[int]:
    """The processes of a process group, zombies left out (they have ended; init reaps them)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended meanwhile
            continue
        state, _parent, process_group = stat.rsplit(")", 1)[1].split()[:3]
        if int(process_group) == group and state != "Z":
            found.append(int(entry.name))
    return found


def at_end(pipe: int) -> bool:
    """Whether a pipe (non-blocking) has reached its end: no process holds its other end."""
    try:
        while os.read(pipe, 65536):
            pass
    except BlockingIOError:  # no data now, and a writer is still there
        return False
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                    reason="reads the processes of a group from /proc (Linux)")
async def test_a_killed_bot_leaves_no_process_behind(tmp_path: Path) -> None:
    async with DiscordDouble(watched_loggers=()) as double:
        env = {**os.environ, "DISCORD_TOKEN": double.token,
               "OFC_DATABASE": str(tmp_path / "ofc.sqlite3"), "OFC_WORKERS": "1",
               "OFC_LOG_LEVEL": "WARNING"}
        # subprocess, not asyncio's: asyncio waits for the pipes to close before it reports
        # the exit, which is what a supervisor hanging on them looks like.
        bot = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.bot_process", double.api_url,
             double.gateway_url, "--", "--env-file", os.devnull],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        group = bot.pid  # the leader of its new session and group
        assert bot.stdout is not None
        output = bot.stdout.fileno()
        os.set_blocking(output, False)
        try:
            await double.wait_until(
                lambda: bot.poll() is not None or any(
                    s.socket is not None and s.sent for s in double.gateway.sessions.values()),
                timeout=DEADLINE, what="the bot's gateway session")
            assert bot.poll() is None
            # connected, so its workers are up (they start before it connects)
            helpers = set(group_members(group)) - {bot.pid}
            assert len(helpers) >= 3, helpers  # the fork server, a worker, the resource tracker

            bot.kill()
            bot.wait()
            for _ in range(int(DEADLINE / 0.2)):
                if not group_members(group) and at_end(output):
                    break
                await asyncio.sleep(0.2)
            assert group_members(group) == []
            assert at_end(output)
        finally:
            for pid in group_members(group):  # only when the test failed: ours to end
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            bot.stdout.close()
