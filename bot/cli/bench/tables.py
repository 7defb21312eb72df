"""Table-service figures: placements applied through the service per second, persistence on
(every action saved with its chip movements), 20 tables at once: on a real SQLite file
(`service_actions_per_s`) and on PostgreSQL (`service_actions_per_s_pg`), one after the other
in the same run.

Each table seats two people who place by R10's rule the moment it is their turn, through
`TableService.place`, the path a Confirm click takes; hands go on to the match's end.

`db_writes_per_hand` / `db_reads_per_hand`: the database transactions one heads-up hand
costs when its two people play it with the DM buttons (one click per card drafted, then
Confirm), counted at storage's transaction observer. One table alone, so no snapshot save
shares a transaction with another table's (group commit): the most a hand can cost.
"""

import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bot.cli.bench.postgres import bench_database
from bot.engine.placement import auto_assignment
from bot.storage import Storage
from bot.tables import FakeClock, TableEvent, TableService
from bot.tables.match_runner import FAST

TABLES = 20
HANDS = 4  # per table: 20 placements a hand heads-up (5 streets x 2 seats)
GUILD = 1


class _Wakeup:
    """A listener that wakes a table's players when something happened at their table."""

    def __init__(self) -> None:
        self.events: dict[int, asyncio.Event] = {}

    def of(self, table: int) -> asyncio.Event:
        return self.events.setdefault(table, asyncio.Event())

    async def __call__(self, events: Sequence[TableEvent]) -> None:
        for event in events:
            self.of(event.table_id).set()


async def _table(service: TableService, wakeup: _Wakeup, number: int) -> int:
    """Open a heads-up table in its own channel and play it to the end; the placements."""
    players = (2 * number + 1, 2 * number + 2)
    table = (await service.create_table(GUILD, 1000 + number, players[0], "a",
                                        {"format": "hands", "hands": HANDS},
                                        seed=number)).table_id
    await service.join(table, players[1], "b")
    await service.start(table, players[0])
    placements = 0
    changed = wakeup.of(table)
    while table in service.live_tables():
        changed.clear()
        for pid in players:
            if pid not in service.seats(table).values():
                continue
            state = service.private_view(table, pid)
            if state.to_act:
                view = state.view
                await service.place(table, pid,
                                    auto_assignment(view.board, view.dealt, view.discard_count),
                                    hand_no=state.hand_no, street=state.street)
                placements += 1
        if not changed.is_set():
            await changed.wait()  # the next deal, or the other player's turn
    return placements


async def _measure(target: str) -> float:
    storage = await Storage.open(target)
    service = TableService(storage, FakeClock(), settings=FAST)
    wakeup = _Wakeup()
    service.add_listener(wakeup)
    try:
        start = time.perf_counter()
        placements = await asyncio.gather(*(_table(service, wakeup, n) for n in range(TABLES)))
        elapsed = time.perf_counter() - start
    finally:
        await service.close()
        await storage.close()
    return sum(placements) / elapsed


async def _by_buttons(service: TableService, table: int, players: tuple[int, ...]) -> None:
    """Each player whose turn it is drafts a card per click, then confirms."""
    for pid in players:
        state = service.private_view(table, pid)
        if not state.to_act:
            continue
        view = state.view
        turn = {"hand_no": state.hand_no, "street": state.street, "seat": state.seat}
        for card, row in auto_assignment(view.board, view.dealt, view.discard_count).items():
            if row != "discard":
                await service.set_draft(table, pid, card=card, row=row, **turn)
        await service.confirm(table, pid, **turn)


async def _transactions(folder: Path) -> tuple[float, float]:
    storage = await Storage.open(folder / "count.sqlite3")
    counted = {True: 0, False: 0}
    clock = FakeClock()
    service = TableService(storage, clock, settings=FAST)
    try:
        players = (1, 2)
        table = (await service.create_table(
            GUILD, 1, players[0], "a", {"format": "hands", "hands": HANDS, "fantasy": "off"},
            seed=1)).table_id
        await service.join(table, players[1], "b")
        await service.start(table, players[0])
        storage.observe_transactions(lambda write, _: counted.__setitem__(
            write, counted[write] + 1))  # from the first deal to the match's end
        while table in service.live_tables():
            await _by_buttons(service, table, players)
            await service.idle()
            await clock.advance(FAST.next_hand_seconds + 1)
    finally:
        await service.close()
        await storage.close()
    return counted[True] / HANDS, counted[False] / HANDS


def run(keys: set[str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, \
            bench_database("service_actions_per_s_pg" in keys) as postgres:
        targets = {"service_actions_per_s": str(Path(folder) / "bench.sqlite3"),
                   "service_actions_per_s_pg": postgres}
        results = {key: round(asyncio.run(_measure(target)), 1)
                   for key, target in targets.items() if key in keys and target is not None}
        if keys & {"db_writes_per_hand", "db_reads_per_hand"}:
            writes, reads = asyncio.run(_transactions(Path(folder)))
            results.update(db_writes_per_hand=round(writes, 1), db_reads_per_hand=round(reads, 1))
    return results
