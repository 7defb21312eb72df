"""The load run (ofc bench): many tables playing at once through the Discord double.

    python -m tests.e2e.load_run [--tables 50] [--think 1.0] [--ai-delay S] [--stub-rendering]
                                 [--computer easy|strong] [--json]

Each table has its own text channel, two scripted members and one computer seat (easy, or
strong with `--computer strong`: a strong seat thinks up to its 1 s budget every street)
(format `hands`, one hand, no Fantasyland, so every table plays the same length). The members
open the table (/ofc create, Join, Add computer, Start) and play every street by clicking
their DM buttons (tests/e2e/flows.py), waiting `think` seconds after each change they see
before the next click (people take longer). All tables start together.

The bot is bot/app.py's OFCBot with its default settings (real clock, table edits coalesced
every 1.5 s, computer players pausing 1.5 s and thinking off the event loop) on a fresh SQLite
file, in its OWN process, connected to the double over TCP as to Discord: the double and the
hundred scripted members use the driver's process, so they do not eat into the bot's event
loop, and the figures are the bot's. Images are rendered for real when rendering/ provides the
functions (else, or with --stub-rendering, a 1x1 PNG).

Measured in the double, per interaction (slash commands and clicks):
- ack: INTERACTION_CREATE dispatched -> the bot's callback recorded (Discord allows 3 s:
  by default the double refuses a later callback, as Discord does, which is an error; with
  `deadline` longer, as the tests run it on a machine busy with other work, a late callback is
  accepted and counted in `late_callbacks`);
- done: dispatched -> the bot's first follow-up or edit of the response (what the member
  waits for: the redrawn prompt), or the callback when it sends nothing more.
Errors: exceptions in a table's flow (an unanswered interaction, a wait that timed out),
refusals shown to members, ERROR lines or tracebacks logged by the bot, unknown routes,
tables whose showdown does not add up by the rules or whose wallets disagree (checked after
the measurement with /ofc balance, tests/e2e/flows.check_wallets).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ("easy", "strong")  # the one computer seat of every table: its level
STARTUP_SECONDS = 30.0


@dataclass
class LoadReport:
    tables: int
    computer: str  # the level of each table's computer seat
    think_seconds: float
    rendering: str  # "real" | "stub"
    interactions: int
    interaction_p50_ms: float
    interaction_p99_ms: float
    interaction_max_ms: float
    interaction_done_p50_ms: float
    interaction_done_p99_ms: float
    seconds: float
    bot_cpu_seconds: float  # the bot process's CPU time while the tables played (Linux)
    # the same with its worker processes (images, computers' decisions): the bot's whole cost
    bot_tree_cpu_seconds: float
    driver_cpu_seconds: float  # the double's and the members' (this process)
    # CPU per interaction, in ms: what a click costs, however busy the machine (wall times
    # grow with the load; CPU time much less)
    bot_cpu_ms_per_interaction: float = 0.0
    bot_tree_cpu_ms_per_interaction: float = 0.0  # the bot with its worker processes
    late_callbacks: int = 0  # callbacks later than Discord's 3 s (accepted under `deadline`)
    errors: list[str] = field(default_factory=list)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (share 0.99 -> p99); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.5)))
    return round(ordered[rank - 1], 2)


# ------------------------------------------------------------------ the driver
async def load_run(tables: int = 50, *, think: float = 1.0, ai_delay: float | None = None,
                   stub_rendering: bool = False, computer: str = "easy",
                   deadline: float | None = None) -> LoadReport:
    """Start the double and the bot process, play `tables` tables at once, report. The double
    refuses a callback later than `deadline` seconds (by default Discord's 3 s)."""
    from tests.e2e.discord_double import DISCORD_DEADLINE, DiscordDouble
    from tests.e2e.discord_double.model import MANAGE_GUILD
    from tests.e2e.flows import check_wallets, open_table, play_out, seats_of

    async with DiscordDouble() as double:
        double.reaction_time = think
        double.state.interaction_deadline = DISCORD_DEADLINE if deadline is None else deadline
        channels = [double.add_text_channel(f"table-{n + 1}") for n in range(tables)]
        # Each host has Manage Server: computers play with the house's chips (R12).
        croupier = double.add_role("Croupier", MANAGE_GUILD)
        pairs = [(double.add_member(f"host{n + 1}", roles=(croupier,)),
                  double.add_member(f"guest{n + 1}")) for n in range(tables)]
        answered = _record_answers(double)
        with tempfile.TemporaryDirectory() as folder:
            bot = await _start_bot(double, Path(folder) / "load.sqlite3", ai_delay,
                                   stub_rendering)
            log_lines: list[str] = []
            reading = asyncio.create_task(_read_lines(bot, log_lines))
            try:
                await _wait_ready(double)
                rendering = log_lines[0] if log_lines else "unknown"
                started, cpu, bot_cpu = time.monotonic(), time.process_time(), _cpu(bot)
                tree_cpu = _tree_cpu(bot.pid)

                async def play(number: int) -> None:
                    host, guest = pairs[number]
                    table = await open_table(double, host, guest, channel=channels[number],
                                             computers=(computer,), seater=host,
                                             timeout=30.0, seats=3,
                                             format="hands", hands=1, fantasy="off")
                    await play_out(double, table, seats_of((host, guest)), timeout=60.0)

                outcomes = await asyncio.gather(*(play(n) for n in range(tables)),
                                                return_exceptions=True)
                seconds = time.monotonic() - started
                cpu, bot_cpu = time.process_time() - cpu, _cpu(bot) - bot_cpu
                tree_cpu = _tree_cpu(bot.pid) - tree_cpu
                measured = list(double.state.interactions.values())
                errors = [f"table {n + 1}: {type(o).__name__}: {o}"
                          for n, o in enumerate(outcomes) if isinstance(o, BaseException)]
                errors += _refusals([m for pair in pairs for m in pair])
                for number, channel in enumerate(channels):
                    if outcomes[number] is None:
                        try:
                            await check_wallets(double, pairs[number], channel=channel,
                                                computers=(f"Computer 1 ({computer})",))
                        except AssertionError as error:
                            errors.append(f"table {number + 1}: settlement: {error}")
            finally:
                await _stop_bot(bot)
                await reading
    errors += [line for line in log_lines if "ERROR" in line or "Traceback" in line]
    errors += [f"unknown route {r.method} {r.path}" for r in double.unexpected]
    errors += [f"driver: {line}" for line in double.errors.lines()]
    acks, done = [], []
    for interaction in measured:
        if not interaction.answered.is_set():
            errors.append(f"not answered: {interaction.description}")
            continue
        acks.append((interaction.answered_at - interaction.created) * 1000)
        done.append((answered.get(interaction.id, interaction.answered_at)
                     - interaction.created) * 1000)
    return LoadReport(
        tables=tables, computer=computer, think_seconds=think, rendering=rendering,
        interactions=len(measured),
        interaction_p50_ms=percentile(acks, 0.5), interaction_p99_ms=percentile(acks, 0.99),
        interaction_max_ms=round(max(acks, default=0.0), 2),
        interaction_done_p50_ms=percentile(done, 0.5),
        interaction_done_p99_ms=percentile(done, 0.99),
        seconds=round(seconds, 2), bot_cpu_seconds=round(bot_cpu, 2),
        bot_tree_cpu_seconds=round(tree_cpu, 2),
        driver_cpu_seconds=round(cpu, 2),
        bot_cpu_ms_per_interaction=per_interaction(bot_cpu, len(measured)),
        bot_tree_cpu_ms_per_interaction=per_interaction(tree_cpu, len(measured)),
        late_callbacks=len(double.state.late()), errors=errors)


def per_interaction(cpu_seconds: float, interactions: int) -> float:
    """CPU ms per interaction; 0 for none."""
    return round(cpu_seconds * 1000 / interactions, 2) if interactions else 0.0


def _cpu(process: asyncio.subprocess.Process) -> float:
    """CPU seconds (user + system) a process has used so far; 0 where /proc is missing."""
    fields = _stat(process.pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / _TICKS


_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _tree_cpu(root: int) -> float:
    """CPU seconds of a process and all its living descendants (its worker processes)."""
    children: dict[int, list[int]] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / _TICKS
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += used.get(pid, 0.0)
        todo += children.get(pid, [])
    return total


def _record_answers(double: Any) -> dict[int, float]:
    """Interaction id -> when the bot first followed its callback up (a follow-up message or
    an edit of the response)."""
    state = double.state
    first: dict[int, float] = {}
    followup, edit = state.followup, state.edit_webhook_message

    async def on_followup(interaction: Any, *args: Any) -> Any:
        first.setdefault(interaction.id, time.monotonic())
        return await followup(interaction, *args)

    async def on_edit(interaction: Any, *args: Any) -> Any:
        first.setdefault(interaction.id, time.monotonic())
        return await edit(interaction, *args)

    state.followup, state.edit_webhook_message = on_followup, on_edit
    return first


def _refusals(members: Sequence[Any]) -> list[str]:
    """Every ephemeral embed a member got while playing: a refusal (in normal play there is
    none; the table's own answers are plain text)."""
    return [f"{member.name} was told: {message.embed.get('description')}"
            for member in members for message in member.ephemerals()
            if message.embed is not None]


async def _start_bot(double: Any, database: Path, ai_delay: float | None,
                     stub_rendering: bool) -> asyncio.subprocess.Process:
    arguments = ["--serve-bot", double.api_url, double.gateway_url, double.token,
                 str(double.guild.id), str(database)]
    if ai_delay is not None:
        arguments += ["--ai-delay", str(ai_delay)]
    if stub_rendering:
        arguments.append("--stub-rendering")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.load_run", *arguments, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def _read_lines(process: asyncio.subprocess.Process, lines: list[str]) -> None:
    assert process.stdout is not None
    async for raw in process.stdout:
        lines.append(raw.decode(errors="replace").rstrip())


async def _wait_ready(double: Any) -> None:
    """The bot is connected and has synced its commands to the guild."""
    await double.wait_until(
        lambda: double.gateway.ready_sessions and double.state.commands.get(double.guild.id),
        timeout=STARTUP_SECONDS, what="the bot process to connect and sync")


async def _stop_bot(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()


# ------------------------------------------------------------------ the bot process
def serve_bot(api_url: str, gateway_url: str, token: str, guild_id: int, database: str,
              ai_delay: float | None, stub_rendering: bool) -> None:
    """Run OFCBot against the double at these URLs until SIGTERM. First line printed: which
    rendering it uses."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    import rendering
    from bot.app import OFCBot, quiet_collector
    from bot.config import Settings
    from cogs.common import images

    real = all(hasattr(rendering, f) for f in ("table_png", "private_png", "showdown_png"))
    if stub_rendering or not real:
        png = _one_pixel_png()

        async def stub(*args: object, **options: object) -> bytes:  # no worker draws it
            return png

        images.render = images.render_newest = stub
    print("real" if real and not stub_rendering else "stub", flush=True)
    Route.BASE = api_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    discord.utils.setup_logging(level=logging.WARNING)

    async def main() -> None:
        settings = Settings(token=token, database=database, dev_guild=guild_id)
        if ai_delay is not None:
            settings = replace(settings, ai_delay_seconds=ai_delay)
        bot = OFCBot(settings)
        bot._connection.guild_ready_timeout = 0.05  # the double sends its one guild at once
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        async with bot:
            await bot.start(token)

    quiet_collector()  # as `ofc-bot` runs (bot/app.py run)
    asyncio.run(main())


def _one_pixel_png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (1, 1)).save(out, "PNG")
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.load_run",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a member waits after a change before clicking")
    parser.add_argument("--ai-delay", type=float, default=None,
                        help="seconds a computer pauses before acting (default: the bot's)")
    parser.add_argument("--stub-rendering", action="store_true",
                        help="1x1 PNG images instead of rendering/'s")
    parser.add_argument("--computer", choices=LEVELS, default="easy",
                        help="the level of each table's computer seat")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--serve-bot", nargs=5, metavar=("API", "GATEWAY", "TOKEN", "GUILD",
                                                        "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_bot:
        api, gateway, token, guild, database = args.serve_bot
        serve_bot(api, gateway, token, int(guild), database, args.ai_delay, args.stub_rendering)
        return 0
    from bot.app import quiet_collector

    quiet_collector()  # the double's pauses are not the bot's: keep them out of the figures
    report = asyncio.run(load_run(args.tables, think=args.think, ai_delay=args.ai_delay,
                                  stub_rendering=args.stub_rendering, computer=args.computer))
    if args.json:
        print(json.dumps(asdict(report)))
    else:
        for key, value in asdict(report).items():
            if key != "errors":
                print(f"{key:26} {value}")
        print(f"{'errors':26} {len(report.errors)}")
        for line in report.errors[:20]:
            print(f"  {line}")
    return 1 if report.errors else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
