"""Split brain in the table service, on a fake clock: a process paused past its lease (its
clock stood still, so it still believes it holds its shard) resumes after another process
took the shard over and played. Its next action is refused by the fence: nothing of it is
written, the player is told the table is moving, and the process learns it lost the shard
at once, without waiting for its next renewal."""

import asyncio

import pytest

from bot.storage import Storage
from bot.tables import FakeClock, TableError
from bot.tables.runtime import NOT_HELD
from tests.cluster.test_fencing import books
from tests.cluster.test_service import GUILD1, LEASE, Process, open_match, to_act
from tests.tables.driver import ALICE, BOB, act, play


async def test_a_resumed_process_writes_nothing_and_stops(storage: Storage, database: str,
                                                          clock: FakeClock) -> None:
    other = await Storage.open(database)
    paused_clock = FakeClock(clock.now())  # the paused process's time does not move
    paused, successor = Process(other, paused_clock, 1), Process(storage, clock, 1)
    try:
        await paused.start()
        table = await open_match(paused.service, GUILD1, 11)
        await act(paused.service, table, to_act(paused, table))

        await clock.advance(LEASE)  # past the paused process's lease: the successor claims
        assert await successor.start() == [table]
        await act(successor.service, table, to_act(successor, table))
        await successor.service.idle()
        written = books(database)

        assert paused.keeper.held()  # what it believes, resuming
        with pytest.raises(TableError, match=str(NOT_HELD)):
            await act(paused.service, table, to_act(paused, table))
        assert books(database) == written
        assert not paused.keeper.held()
        while not paused.lost:  # its heartbeat wakes on the refusal, not on its clock
            await asyncio.sleep(0)
        assert paused.lost == [paused.keeper.fenced] and "Shard 1 of 2 was taken over" \
            in paused.lost[0]
        with pytest.raises(TableError, match=str(NOT_HELD)):  # and acts no more
            await act(paused.service, table, to_act(paused, table))

        await play(successor.service, clock, table, [ALICE, BOB])
    finally:
        for process in (paused, successor):
            if process.heartbeat is not None:
                await process.stop()
        await other.close()
