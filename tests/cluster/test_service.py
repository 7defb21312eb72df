"""Sharded table services on a fake clock: each process restores, times and runs
only its own shards' tables; its lease keeps another process out; a process whose lease ran
out does nothing more; its replacement takes the shard over once the lease has expired and
finishes its tables, chips conserved (the storage fixture audits the file)."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.cluster.shard_lease import ShardKeeper
from bot.sharding import ShardPlan, shard_of
from bot.storage import ShardsTaken, Storage
from bot.tables import FakeClock, TableError, TableService
from bot.tables.lobby import OTHER_SHARD
from bot.tables.match_runner import FAST
from bot.tables.runtime import NOT_HELD
from tests.cluster.test_leases import guild_on
from tests.tables.driver import ALICE, BOB, QUICK_AI, act, play

LEASE = 30.0
GUILD0, GUILD1 = guild_on(0, 2), guild_on(1, 2)


class Process:
    """One bot process's table side: its own connection, lease and service."""

    def __init__(self, storage: Storage, clock: FakeClock, shard: int, count: int = 2) -> None:
        self.plan = ShardPlan(count, (shard,))
        self.storage = storage
        self.keeper = ShardKeeper(storage, self.plan, clock, seconds=LEASE)
        self.service = TableService(storage, clock, QUICK_AI, FAST, shards=self.plan,
                                    held=self.keeper.held)
        self.lost: list[str] = []
        self.heartbeat: asyncio.Task[None] | None = None

    async def start(self) -> list[int]:
        await self.keeper.claim()
        self.heartbeat = asyncio.create_task(self.keeper.keep(self.on_lost))
        return await self.service.restore()

    async def on_lost(self, reason: str) -> None:
        self.lost.append(reason)

    async def hang(self) -> None:
        """Stop renewing (a stalled or killed process); its service stays as it was."""
        assert self.heartbeat is not None
        self.heartbeat.cancel()
        await asyncio.gather(self.heartbeat, return_exceptions=True)

    async def stop(self) -> None:
        await self.hang()
        await self.service.close()


@pytest.fixture
async def processes(storage: Storage, database: str,
                    clock: FakeClock) -> AsyncIterator[list[Process]]:
    extra = [await Storage.open(database) for _ in range(2)]
    made = [Process(storage, clock, 0), Process(extra[0], clock, 1),
            Process(extra[1], clock, 1)]
    yield made
    for process in made:
        if process.heartbeat is not None:
            await process.stop()
    for store in extra:
        await store.close()


async def tick(process: Process, clock: FakeClock) -> None:
    """One second on, once the process has done what is due and its heartbeat is not behind
    (a renewal is a transaction: the clock waits for it rather than run past the lease)."""
    await process.service.idle()
    await clock.advance(1.0)
    async with asyncio.timeout(60):  # a deadline for what does come, never measured
        while process.keeper.expires_at - clock.now() <= 2 * LEASE / 3:
            await asyncio.sleep(0.01)


def to_act(process: Process, table: int) -> int:
    return next(p for p in (ALICE, BOB) if process.service.private_view(table, p).to_act)


async def open_match(service: TableService, guild: int, channel: int) -> int:
    table = (await service.create_table(guild, channel, ALICE, "Alice",
                                        {"format": "hands", "hands": 2}, seed=7)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    return table


async def test_each_process_runs_its_shards_and_a_replacement_resumes_a_dead_ones(
        processes: list[Process], clock: FakeClock) -> None:
    zero, one, replacement = processes
    assert await zero.start() == [] and await one.start() == []
    with pytest.raises(TableError, match=str(OTHER_SHARD)):
        await zero.service.create_table(GUILD1, 5, ALICE, "Alice")
    table0 = await open_match(zero.service, GUILD0, 10)
    table1 = await open_match(one.service, GUILD1, 11)
    first = next(p for p in (ALICE, BOB) if one.service.private_view(table1, p).to_act)
    await act(one.service, table1, first)  # mid-hand on shard 1

    with pytest.raises(ShardsTaken, match="Shard 1 of 2"):
        await replacement.keeper.claim()
    await one.hang()  # the owner of shard 1 stops renewing, its lease runs out
    expiry, start = one.keeper.expires_at, clock.now()
    while clock.now() < expiry:  # shard 0 plays on the while: its timers and heartbeat run
        for person in (ALICE, BOB):
            if zero.service.private_view(table0, person).to_act:
                await act(zero.service, table0, person)
        await zero.service.idle()
        await clock.advance(1.0)
        due = int((clock.now() - start) // (LEASE / 3))
        while zero.keeper.renewals < due:  # each renewal is a transaction: let it commit
            await asyncio.sleep(0.01)
    assert zero.keeper.held() and zero.keeper.renewals == 3
    assert not one.keeper.held()
    second = next(p for p in (ALICE, BOB) if one.service.private_view(table1, p).to_act)
    with pytest.raises(TableError, match=str(NOT_HELD)):  # the old owner acts no more
        await act(one.service, table1, second)

    assert await replacement.start() == [table1]  # only shard 1's table comes back
    assert table0 not in replacement.service.live_tables()
    await play(replacement.service, clock, table1, [ALICE, BOB])
    await play(zero.service, clock, table0, [ALICE, BOB])


async def test_after_a_reshard_each_table_comes_back_in_the_process_of_its_new_shard(
        processes: list[Process], database: str, clock: FakeClock) -> None:
    """Every process stopped cleanly (its lease released), then the fleet started again with
    another --shard-count: each process restores the tables of its new shards' servers,
    wherever they ran before, and plays them to their end. While a process of the old count
    still ran, the new count was refused."""
    zero, one, _ = processes
    moving, staying = (3 << 22) + 12345, (2 << 22) + 12345  # servers of shard 1, 0 of 2
    assert [shard_of(moving, 2), shard_of(moving, 3)] == [1, 0]
    assert [shard_of(staying, 2), shard_of(staying, 3)] == [0, 2]
    assert await zero.start() == [] and await one.start() == []
    moved = await open_match(one.service, moving, 11)
    kept = await open_match(zero.service, staying, 12)
    for process, table in ((one, moved), (zero, kept)):
        await act(process.service, table, to_act(process, table))

    stores = [await Storage.open(database) for _ in range(2)]
    try:
        first, third = Process(stores[0], clock, 0, 3), Process(stores[1], clock, 2, 3)
        await zero.stop()
        await zero.keeper.release()
        with pytest.raises(ShardsTaken, match="every process must use the same --shard-count"):
            await first.start()
        await one.stop()
        await one.keeper.release()
        assert await first.start() == [moved]
        assert await third.start() == [kept]
        await play(first.service, clock, moved, [ALICE, BOB])
        await play(third.service, clock, kept, [ALICE, BOB])
        await first.stop()
        await third.stop()
    finally:
        for store in stores:
            await store.close()


async def test_a_process_whose_clock_runs_behind_finds_its_lease_taken_and_stops(
        storage: Storage, database: str, clock: FakeClock) -> None:
    """By its own clock its lease still holds when another process, whose clock is right,
    claims the shard: its next renewal finds the shard taken, says by whom, and stops."""
    other = await Storage.open(database)
    behind = FakeClock(clock.now())
    late, replacement = Process(other, behind, 1), Process(storage, clock, 1)
    try:
        await late.start()
        await clock.advance(LEASE)
        await replacement.start()
        assert late.keeper.held()
        assert late.heartbeat is not None
        for _ in range(int(LEASE)):  # its next renewal finds the lease taken
            if late.heartbeat.done():
                break
            await behind.advance(1.0)
            await asyncio.sleep(0.01)
        assert late.lost == ["The lease of shard 1 passed to another ofc-bot "
                             f"({replacement.keeper.owner}): this process no longer runs its "
                             "tables"]
    finally:
        for process in (late, replacement):
            if process.heartbeat is not None:
                await process.stop()
        await other.close()


async def test_a_process_paused_past_its_lease_stops_without_renewing_it(
        processes: list[Process], clock: FakeClock) -> None:
    """Nobody claimed the shard while the process stood still; when it resumes, it renews
    nothing (a replacement may claim at once) and stops."""
    _, one, replacement = processes
    await one.start()
    await one.hang()
    expiry = one.keeper.expires_at
    await clock.advance(LEASE)
    one.heartbeat = asyncio.create_task(one.keeper.keep(one.on_lost))  # it wakes up again
    for _ in range(int(LEASE)):  # its next beat is a third of a lease away
        if one.heartbeat.done():
            break
        await clock.advance(1.0)
        await asyncio.sleep(0.01)
    assert one.lost == ["The lease of shard 1 of 2 ran out before it could be renewed: this "
                        "process no longer runs its tables"]
    assert [lease.expires_at for lease in await one.storage.leases.shard_leases()] == [expiry]
    await replacement.start()


async def test_the_heartbeat_keeps_its_cadence_when_the_clock_moves_during_a_renewal(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renewals come every third of the lease from the start, however long each one takes
    to come back: time that passes while one is under way does not push the next later."""
    keeper = ShardKeeper(storage, ShardPlan(1, (0,)), clock, seconds=LEASE)
    await keeper.claim()
    renew = storage.leases.renew_shards

    async def slow_renewal(*args: Any, **options: Any) -> float:
        until = await renew(*args, **options)
        await clock.advance(1.0)  # the clock moves on before the renewal is back
        return until

    async def renewed(count: int) -> None:
        async with asyncio.timeout(60):  # a deadline for what does come, never measured
            while keeper.renewals < count:
                await asyncio.sleep(0.01)

    monkeypatch.setattr(storage.leases, "renew_shards", slow_renewal)
    start = clock.now()
    heartbeat = asyncio.create_task(keeper.keep(lambda reason: asyncio.sleep(0)))
    try:
        await asyncio.sleep(0)  # the heartbeat's first wait has begun
        await clock.advance(LEASE / 3)
        await renewed(1)
        await clock.advance(start + 2 * LEASE / 3 - clock.now())  # its second beat, no later
        await renewed(2)
        assert keeper.expires_at == start + 2 * LEASE / 3 + LEASE
    finally:
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)


async def test_a_process_whose_renewal_does_not_come_back_in_time_stops(
        processes: list[Process], clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database stopped answering (a network cut brings no error either): the lease runs
    out while its renewal is under way, and a turn's timeout due then is refused. The
    process does not wait on the renewal: it stops when its lease runs out, and its
    replacement times the turn out."""
    _, one, replacement = processes
    asked = asyncio.Event()

    async def no_answer(*args: Any, **options: Any) -> float:
        asked.set()
        await asyncio.Event().wait()
        raise AssertionError("never answered")

    monkeypatch.setattr(one.storage.leases, "renew_shards", no_answer)
    await one.start()
    table = await open_match(one.service, GUILD1, 11)
    slow = next(p for p in (ALICE, BOB) if one.service.private_view(table, p).to_act)
    seat = one.service.private_view(table, slow)
    deadline, start = seat.view.table.seats[seat.seat].deadline, clock.now()
    assert deadline is not None and deadline > one.keeper.expires_at
    await clock.advance(LEASE / 3)
    await asked.wait()  # the first renewal is under way, and stays so
    await clock.advance(deadline - clock.now())
    await one.service.idle()
    assert not one.keeper.held() and one.service.private_view(table, slow).to_act
    async with asyncio.timeout(60):  # a deadline for what does come, never measured
        while not one.lost:
            await asyncio.sleep(0.01)
    assert one.lost == ["The lease of shard 1 of 2 ran out before it could be renewed: this "
                        "process no longer runs its tables"]

    await one.stop()
    assert await replacement.start() == [table]
    for _ in range(int(deadline - start)):  # its turn times out there, on the time it had
        if not replacement.service.private_view(table, slow).to_act:
            break
        await tick(replacement, clock)
    assert not replacement.service.private_view(table, slow).to_act



async def test_the_first_renewal_comes_a_third_of_a_lease_after_the_claim(
        storage: Storage, clock: FakeClock) -> None:
    """The bot claims its shards before connecting to Discord and starts its heartbeat once
    connected and set up, which takes a while on a busy machine: the heartbeat renews on the
    claim's cadence, at once if that is past, not a third of a lease after it started."""
    keeper = ShardKeeper(storage, ShardPlan(1, (0,)), clock, seconds=LEASE)
    await keeper.claim()
    claimed = clock.now()
    await clock.advance(LEASE * 5 / 6)  # connecting, loading, restoring
    lost: list[str] = []

    async def on_lost(reason: str) -> None:
        lost.append(reason)

    heartbeat = asyncio.create_task(keeper.keep(on_lost))
    try:
        async with asyncio.timeout(60):  # a deadline for what does come, never measured
            while keeper.renewals < 1 and not lost:
                await asyncio.sleep(0.01)
        assert lost == [] and keeper.expires_at == claimed + LEASE * 5 / 6 + LEASE
    finally:
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)
