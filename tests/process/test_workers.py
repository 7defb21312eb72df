"""The worker pool (bot/process/workers.py): real processes, killed workers, shutdown and
priorities."""

import asyncio
import functools
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import rendering
from bot.ai.players import AIPlayers
from bot.process import workers as workers_module
from bot.process.workers import CHANNEL, COMPUTER, PERSON, WorkerError, Workers
from rendering import samples
from tests.process import tasks


class Hold:
    """A task that keeps a worker busy until `release()`: its marker file names the pid."""

    def __init__(self, workers: Workers, folder: Path, priority: int = PERSON) -> None:
        self.marker, self.gate = folder / "started", folder / "release"
        self.task = asyncio.ensure_future(workers.run(tasks.held, str(self.marker),
                                                      str(self.gate), priority=priority))

    async def started(self) -> int:
        return int(await wait_for_file(self.marker))

    def release(self) -> None:
        self.gate.write_text("go")


async def wait_for_file(path: Path) -> str:
    """However long a worker takes to get there (pytest-timeout guards a hang)."""
    while not path.exists() or not path.read_text():
        await asyncio.sleep(0.02)
    return path.read_text()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not yet reaped) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_tasks_run_in_other_processes_and_errors_come_back() -> None:
    workers = Workers(2)
    try:
        pids = set(await asyncio.gather(*(workers.run(tasks.pid) for _ in range(4))))
        assert os.getpid() not in pids
        with pytest.raises(ValueError, match="no such card"):
            await workers.run(tasks.fail)
        assert await workers.run(tasks.nap, 0, "ok") == "ok"
    finally:
        await workers.close()
    assert not any(alive(p) for p in pids)  # no process outlives close()


async def test_the_processes_start_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting a pool waits for the fork server to import its modules: on the event loop's
    thread that stalled every table. Here the start waits for the loop to run meanwhile, which
    it never could on the loop's own thread."""
    loop_ran = threading.Event()
    real = workers_module._started

    def started(pool: object, size: int) -> None:
        if not loop_ran.wait(20):
            raise AssertionError("the pool was started on the event loop's thread")
        real(pool, size)  # type: ignore[arg-type]

    monkeypatch.setattr(workers_module, "_started", started)
    workers = Workers(2)
    try:
        asyncio.get_running_loop().call_soon(loop_ran.set)
        await workers.start()
        pids = workers.pids()
        assert 1 <= len(pids) <= 2 and all(alive(pid) for pid in pids)  # before any task
        assert await workers.run(tasks.pid) in pids
    finally:
        await workers.close()


async def test_a_worker_killed_mid_task_is_replaced_and_the_task_retried(
        tmp_path: Path) -> None:
    workers = Workers(1)
    try:
        hold = Hold(workers, tmp_path)
        first = await hold.started()
        hold.marker.unlink()
        os.kill(first, 9)
        assert int(await wait_for_file(hold.marker)) != first  # tried again, on a new worker
        hold.release()
        second = await hold.task  # retried on a new pool, not lost
        assert second != first and workers.replaced == 1
        assert await workers.run(tasks.pid) == second  # the new pool keeps working
    finally:
        await workers.close()


async def test_a_task_whose_worker_dies_twice_is_answered_with_an_error() -> None:
    workers = Workers(1)
    try:
        with pytest.raises(WorkerError):
            await workers.run(tasks.die)
        assert workers.replaced == 2
        assert await workers.run(tasks.nap, 0, "still here") == "still here"
    finally:
        await workers.close()


async def test_a_task_whose_worker_died_is_logged_by_name_without_its_arguments(
        caplog: pytest.LogCaptureFixture) -> None:
    """The coach's review runs as a partial holding the whole hand's history (every player's
    discards, R7); a worker dying under it is logged at WARNING, where the operator (often
    sharing the logs) reads it: the task is named, its cards are not."""
    history = {"deck": ["Ah", "Kd"], "discards": ["7c"]}
    workers = Workers(1)
    try:
        with caplog.at_level("WARNING", logger=workers_module.__name__), \
                pytest.raises(WorkerError):
            await workers.run(functools.partial(tasks.die_holding, history, 42))
    finally:
        await workers.close()
    logged = [r.getMessage() for r in caplog.records if "died" in r.getMessage()]
    assert len(logged) == 2 and all("die_holding" in line for line in logged)
    assert not any(card in line for line in logged for card in ("Ah", "Kd", "7c"))


async def test_a_task_still_queued_in_the_stopped_pool_is_answered_with_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pool's one process is busy with a task given to it directly, so the next task waits
    # inside the pool, and stopping the pool cancels it there rather than breaking it.
    workers = Workers(1)
    await workers.start()
    assert workers._pool is not None
    marker, gate = tmp_path / "started", tmp_path / "release"
    workers._pool.submit(tasks.held, str(marker), str(gate))
    await wait_for_file(marker)
    queued = asyncio.ensure_future(workers.run(tasks.pid))
    for _ in range(10):  # a few turns of the loop: handed to the pool, waiting in it
        await asyncio.sleep(0)

    def cancel_then_stop(pool: Any) -> None:  # the cancel first, then the processes' end
        processes = list(pool._processes.values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
            process.join()

    monkeypatch.setattr(workers_module, "stop_pool", cancel_then_stop)
    await workers.close()
    gate.touch()
    with pytest.raises(WorkerError):
        await queued


async def test_shutdown_mid_task_answers_running_and_queued_tasks(tmp_path: Path) -> None:
    workers = Workers(1)
    hold = Hold(workers, tmp_path)  # never released: running when the pool shuts down
    queued = asyncio.ensure_future(workers.run(tasks.pid, priority=COMPUTER))
    pid = await hold.started()
    await workers.close()
    for task in (hold.task, queued):
        with pytest.raises(WorkerError):
            await task
    assert not alive(pid)
    with pytest.raises(WorkerError):
        await workers.run(tasks.pid)


async def test_a_persons_render_goes_ahead_of_queued_computer_decisions(
        tmp_path: Path) -> None:
    workers = Workers(1)
    order = tmp_path / "order"
    try:
        hold = Hold(workers, tmp_path)
        await hold.started()  # the one process is busy: everything else queues
        computers = [asyncio.ensure_future(workers.run(tasks.log_order, str(order), f"c{n}",
                                                       priority=COMPUTER)) for n in range(3)]
        await asyncio.sleep(0)
        channel = asyncio.ensure_future(workers.run(tasks.log_order, str(order), "channel",
                                                    priority=CHANNEL))
        await asyncio.sleep(0)
        person = asyncio.ensure_future(workers.run(tasks.log_order, str(order), "person",
                                                   priority=PERSON))
        await asyncio.sleep(0)
        assert workers.queued() == 5
        hold.release()
        await asyncio.gather(hold.task, person, channel, *computers)
        # a person's own prompt, then the channel's table image, then the computers
        assert order.read_text().split() == ["person", "channel", "c0", "c1", "c2"]
    finally:
        await workers.close()


async def test_a_budget_counts_the_time_spent_queueing() -> None:
    workers = Workers(1)
    try:
        busy = asyncio.ensure_future(workers.run(tasks.nap, 1.0))
        await asyncio.sleep(0)  # the 1 s task takes the one process
        left = await workers.run(tasks.budget, priority=COMPUTER, budget=3.0)
        await busy
        assert left <= 2.0  # it waited behind the 1 s task: its budget went on running
    finally:
        await workers.close()


async def test_size_zero_runs_tasks_in_this_process() -> None:
    workers = Workers(0)
    assert await workers.run(tasks.pid) == os.getpid()
    assert 0 < await workers.run(tasks.budget, budget=2.0) <= 2.0  # the budget reaches it
    await workers.close()


async def test_a_real_render_for_a_person_goes_ahead_of_real_computer_decisions(
        tmp_path: Path) -> None:
    """The bot's own work, not stand-ins: the private image a click redraws (rendering.png,
    as cogs/common/images.py sends it) and strong computer decisions (AIPlayers.decide, as
    the table service sends it), queued behind a busy pool."""
    match = samples.mid_hand(3)
    view = match.view_for(match.pending()[0])
    assert view.dealt  # the seat to act has a street to place
    players = AIPlayers(seconds=None, playouts=50)
    workers = Workers(1)
    try:
        hold = Hold(workers, tmp_path)
        await hold.started()  # the one process is busy: everything else queues
        computers = [asyncio.ensure_future(workers.run(players.decide, view, "strong", n,
                                                       priority=COMPUTER)) for n in range(3)]
        await asyncio.sleep(0)
        person = asyncio.ensure_future(workers.run(rendering.png, "private", view,
                                                   priority=PERSON))
        await asyncio.sleep(0)
        assert workers.queued() == 4
        hold.release()
        done, _ = await asyncio.wait([person, *computers], return_when=asyncio.FIRST_COMPLETED)
        assert done == {person}  # one process runs them in turn: the first done went first
        assert (await person).startswith(b"\x89PNG")
        for decision in await asyncio.gather(*computers):
            assert set(decision) == set(view.dealt)  # each a whole placement of the street
        await hold.task
    finally:
        await workers.close()


async def test_a_queued_table_image_draws_the_newest_state_only(tmp_path: Path) -> None:
    """A channel image waits behind people's prompts; the states the table goes through
    meanwhile replace the one it was asked for, and only the newest is drawn."""
    workers = Workers(1)
    order = tmp_path / "order"
    try:
        hold = Hold(workers, tmp_path)
        await hold.started()  # the one process is busy: the image queues
        state = ["street 1"]
        read: list[str] = []

        def newest() -> tuple[str, str]:
            read.append(state[0])
            return str(order), state[0]

        image = asyncio.ensure_future(workers.run_newest(tasks.log_order, newest))
        await asyncio.sleep(0)
        person = asyncio.ensure_future(workers.run(tasks.log_order, str(order), "person"))
        await asyncio.sleep(0)
        state[0] = "street 2"
        state[0] = "street 3"
        assert workers.queued() == 2 and read == []  # nothing read while it waits
        hold.release()
        assert await image == "street 3"
        await asyncio.gather(hold.task, person)
        assert order.read_text().split("\n")[:-1] == ["person", "street 3"]  # person first
        assert read == ["street 3"]  # the older states were never drawn
    finally:
        await workers.close()


async def test_computers_never_take_the_last_process(tmp_path: Path) -> None:
    """With two processes, a person's prompt is drawn at once while computers think: they
    queue for the one process they may use, not for the person's."""
    workers = Workers(2)
    try:
        computer = Hold(workers, tmp_path, COMPUTER)  # a computer thinking until released
        await computer.started()
        waiting = asyncio.ensure_future(workers.run(tasks.pid, priority=COMPUTER))
        await asyncio.sleep(0)
        assert workers.running() == 1 and workers.queued() == 1  # one process kept free
        assert await workers.run(tasks.nap, 0, "prompt") == "prompt"  # while it thinks
        assert not waiting.done()
        computer.release()
        await asyncio.gather(computer.task, waiting)
    finally:
        await workers.close()


def test_the_bots_workers_start_with_their_first_image_already_drawn() -> None:
    """The fork server draws it once (cogs.common.warm), and every worker forked from it
    inherits the caches: a new fork server in a new process, as the bot starts it."""
    script = ("import asyncio\n"
              "from bot.app import WORKER_MODULES\n"
              "from bot.process.workers import Workers\n"
              "from tests.process import tasks\n"
              "async def main():\n"
              "    workers = Workers(1, preload=WORKER_MODULES)\n"
              "    try:\n"
              "        print(await workers.run(tasks.palette_built))\n"
              "    finally:\n"
              "        await workers.close()\n"
              "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.stdout.split() == ["True"], done.stderr[-2000:]


async def test_ctrl_c_leaves_the_workers_to_the_bot() -> None:
    # A terminal's Ctrl+C reaches the workers too: they go on (no KeyboardInterrupt traceback
    # from each of them, no task cut short) and stop when the bot stops them.
    workers = Workers(1)
    try:
        first = await workers.run(tasks.interrupted)
        assert await workers.run(tasks.pid) == first  # the same process, still serving
    finally:
        await workers.close()
    assert not alive(first)
