"""Computer decisions in worker processes (bot/process/workers.py) through the table service: a
worker killed mid-decision, the pool shut down mid-hand; the hand always goes on."""

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.process.workers import Workers
from bot.storage import Storage
from bot.tables import FakeClock, Placed, ServiceSettings, TableService

from .driver import ALICE, CHANNEL, GUILD, Recorder, act, fresh_service, play
from .gated import GatedPlayers

THINK = ServiceSettings(ai_delay_seconds=0, next_hand_seconds=0, ai_in_thread=True,
                        ai_seconds=30)


def gated(storage: Storage, clock: FakeClock, gate: Path,
          seconds: float) -> tuple[Workers, TableService]:
    """A pool of one worker and a service whose computers wait for `gate` in it."""
    workers = Workers(1)
    return workers, TableService(storage, clock, GatedPlayers(str(gate), seconds=seconds),
                                 THINK, workers)


async def deciding(service: TableService,
                   workers: Workers) -> tuple[int, Recorder, list[int]]:
    """A table of Alice and a strong computer, dealt: returns once a worker process is busy
    with the computer's first decision."""
    recorder = Recorder()
    service.add_listener(recorder)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1}, seed=3)).table_id
    await service.add_computer(table, ALICE, "strong", is_admin=True)
    await service.start(table, ALICE)
    while True:  # however long the worker takes to start (pytest-timeout guards a hang)
        if service.private_view(table, ALICE).to_act:
            await act(service, table, ALICE)  # sequential order: Alice may be first
        if workers.running() and workers.pids():
            break
        await asyncio.sleep(0.01)
    assert not [e for e in recorder.of(Placed) if e.player_id < 0]  # held at its gate
    return table, recorder, workers.pids()


def computer_placed(recorder: Recorder) -> int:
    return sum(1 for e in recorder.of(Placed) if e.player_id < 0)


async def test_a_worker_killed_mid_decision_is_replaced_and_the_computer_still_acts(
        storage: Storage, clock: FakeClock, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    workers, service = gated(storage, clock, gate, seconds=2)
    try:
        table, recorder, pids = await deciding(service, workers)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        gate.touch()  # the retried decision may now finish
        await service.idle()
        assert computer_placed(recorder) == 1 and workers.replaced == 1
        await play(service, clock, table, [ALICE])
        assert computer_placed(recorder) == 5  # R7: five streets
    finally:
        await service.close()
        await workers.close()


async def test_the_pool_shut_down_mid_hand_places_the_computer_by_r10(
        storage: Storage, clock: FakeClock, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    workers, service = gated(storage, clock, gate, seconds=30)
    try:
        table, recorder, _ = await deciding(service, workers)
        await workers.close()  # while the decision waits at its gate
        gate.touch()
        await service.idle()  # answered with an error, not hung
        assert computer_placed(recorder) == 1
        assert "placing by R10" in caplog.text
        await play(service, clock, table, [ALICE])
        assert computer_placed(recorder) == 5
        assert table not in service.live_tables()  # the hand settled, the match ended
    finally:
        await service.close()
        await workers.close()


async def test_a_stop_while_a_computer_thinks_leaves_its_turn_to_the_restarted_bot(
        storage: Storage, clock: FakeClock, tmp_path: Path) -> None:
    # The bot's stop: the table service first (its computer turns cancelled), then the pool.
    # Nothing is placed for the computer by R10; the restarted bot asks it again.
    gate = tmp_path / "gate"
    workers, service = gated(storage, clock, gate, seconds=30)
    try:
        table, recorder, _ = await deciding(service, workers)
        await service.close()
    finally:
        await workers.close()
    assert computer_placed(recorder) == 0
    gate.touch()
    resumed, later, again = fresh_service(storage, clock.now() + 60)
    assert await resumed.restore() == [table]
    await resumed.idle()
    assert [(e.player_id < 0, e.auto) for e in again.of(Placed)][:1] == [(True, False)]
    await play(resumed, later, table, [ALICE])
    assert table not in resumed.live_tables()
    await resumed.close()

