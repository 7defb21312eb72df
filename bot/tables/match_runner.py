"""Whole matches without anyone waiting: a fake clock jumped from timer to timer.

`ofc simulate` and the tests play computer players through the real service this way, with
persistence on, so what they measure is what the bot does.
"""

import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.tables import table_events as out
from bot.tables.clock import FakeClock
from bot.tables.seating import ComputerPlayers
from bot.tables.service import TableService
from bot.tables.tunables import ServiceSettings

# No pauses for people to follow, decisions on the event loop (nothing else runs meanwhile).
FAST = ServiceSettings(ai_delay_seconds=0.0, next_hand_seconds=0.0, ai_in_thread=False)
SIMULATION_HOST = 1  # the (seatless) host of simulated tables


@asynccontextmanager
async def simulation_storage(database: str | None) -> AsyncIterator[Storage]:
    """`database` (an SQLite file or a postgresql:// URL: `ofc simulate --database`), else a
    throwaway SQLite file, open for the simulation. A database of another program is refused
    untouched (NotOurs): the run would write the bot's tables into it."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(database or Path(folder) / "simulate.sqlite3",
                                     accept="ours or empty")
        try:
            yield storage
        finally:
            await storage.close()


class StuckTable(RuntimeError):
    """A table that has nothing due and is not over (a bug, or people who never act)."""


async def run_until_done(service: TableService, clock: FakeClock, table_id: int,
                         max_steps: int = 100_000) -> None:
    """Let computer turns run and jump the clock to each next timer until the table closes.
    People seated and not acting are placed for by R10 when their time runs out."""
    for _ in range(max_steps):
        await service.idle()
        if table_id not in service.live_tables():
            return
        if not await clock.advance_to_next():
            raise StuckTable(f"table {table_id} has nothing due and is not over")
    raise StuckTable(f"table {table_id} did not finish in {max_steps} steps")


@dataclass
class MatchResult:
    table_id: int
    standings: tuple[out.Standing, ...] = ()
    showdowns: list[out.ShowdownDone] = field(default_factory=list)
    events: list[out.TableEvent] = field(default_factory=list)


async def play_computer_match(storage: Storage, levels: Sequence[str],
                              options: Mapping[str, Any] | None = None, *, seed: int | None,
                              ai: ComputerPlayers | None = None, guild_id: int = 1,
                              channel_id: int = 1) -> MatchResult:
    """One match of computer players (seats in the order of `levels`) through a fresh
    service on a fake clock; returns its standings and every showdown."""
    clock = FakeClock()
    service = TableService(storage, clock, ai, FAST)
    seen: list[out.TableEvent] = []

    async def listen(events: Sequence[out.TableEvent]) -> None:
        seen.extend(events)

    service.add_listener(listen)
    try:
        lobby = await service.create_table(guild_id, channel_id, SIMULATION_HOST, "simulation",
                                           options, sit=False, seed=seed)
        for level in levels:
            await service.add_computer(lobby.table_id, SIMULATION_HOST, level, is_admin=True)
        await service.start(lobby.table_id, SIMULATION_HOST)
        await run_until_done(service, clock, lobby.table_id)
    finally:
        await service.close()
    result = MatchResult(lobby.table_id, events=seen)
    for event in seen:
        if isinstance(event, out.ShowdownDone):
            result.showdowns.append(event)
        elif isinstance(event, out.MatchOver):
            result.standings = event.standings
    return result
