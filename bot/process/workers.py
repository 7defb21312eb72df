"""Worker processes for CPU work: computer decisions, Fantasyland solves, image rendering.

The event loop's process does I/O and bookkeeping only; `Workers.run(fn, *args)` runs `fn`
(a module-level function or a bound method of a picklable object) in a pool of worker
processes and awaits its result.

- People first: a priority queue sits in front of the pool. At most `size` tasks are handed
  to the pool at once (one per process), so a task waits in this queue, not in the pool's
  FIFO, and the next free process takes the most urgent one: what a person waits for after
  their own click (PERSON: their prompt's image, a solve), then the images the channel
  watches (CHANNEL: the table and the showdown, whose message is edited at most every 1.5 s
  anyway), then a computer's decision (COMPUTER), each first come first served. When tables
  end their hands together, their showdown images no longer hold up the players' prompts.
- A process kept for people: with two processes or more, computers' decisions (up to a second
  of playouts each) never take the last one, so a click's image waits at most for an image,
  never for a computer thinking.
- The newest state: `run_newest` reads its arguments when a process takes the task up, not
  when it is asked for. A table image waits behind people's prompts; the states the table
  went through meanwhile are never drawn, only the one it is in when a process is free.
- Deadlines: a task given a `budget` (seconds of wall time from the moment it is asked for)
  is called with `seconds=` the time left when a process takes it up, so queueing counts
  against the budget and the caller never waits much longer than it.
- A worker that dies (killed, out of memory) breaks the pool: a new pool replaces it, and each
  task the dead pool held is tried once more; a task whose second try dies too is answered
  with `WorkerError`. Nothing is lost and nothing hangs.
- Processes start by `forkserver` (or `spawn` where there is none), never by forking the
  event loop's process with its threads, and off the event loop: the pool's first task makes
  the standard library start every process and wait for the fork server to import the
  preloaded modules (0.4 s measured), which on the loop stalled every table at once. `start()`
  does it on a thread before the bot connects; a pool replaced after a worker died starts the
  same way.
- Workers die with the bot: each worker watches the process that started its pool and ends
  itself within moments of that process ending, however it ended (SIGKILL, out of memory).
  The fork server and the standard library's resource tracker then see every holder of their
  pipes gone and exit too, so nothing is left under init holding the bot's stdout open (a
  supervisor waiting on that pipe would hang). A worker's parent is the fork server, not the
  bot, so `prctl(PR_SET_PDEATHSIG)` would watch the wrong process: the watch is the sentinel
  multiprocessing already gives every child (`parent_process()`), a pipe whose other end only
  the bot holds; it works the same under `spawn` and on any Unix.
- `size=0` runs every task in this process on a thread, in order of asking (no processes):
  for tests that watch the render functions in their own process, and for machines where
  processes cannot be started.

`close()` fails the tasks still queued with WorkerError, stops the processes and waits for
them to exit.
"""

import asyncio
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PERSON = 0  # a person is waiting: their prompt's image, "Best arrangement", /ofc solve
CHANNEL = 1  # an image of the channel's table message: the table, the showdown
COMPUTER = 2  # a computer's decision: it has a budget, and people go first
MIN_SECONDS = 0.05  # a task whose budget ran out while queued still gets this long
TRIES = 2  # a task whose worker died is tried once more on a new pool
ORPHANED = 70  # a worker's exit status when its bot is gone (not 0: its work was left unfinished)


class WorkerError(RuntimeError):
    """A task could not be run: its worker died twice, or the pool is shut down."""


@dataclass(order=True)
class _Task:
    priority: int
    number: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    deadline: float | None = field(compare=False)  # time.monotonic() the budget ends
    future: asyncio.Future[Any] = field(compare=False)
    read: Callable[[], tuple[Any, ...]] | None = field(compare=False, default=None)

    def kwargs(self) -> dict[str, float]:
        if self.deadline is None:
            return {}
        return {"seconds": max(MIN_SECONDS, self.deadline - time.monotonic())}


class Workers:
    def __init__(self, size: int, *, initializer: Callable[[], None] | None = None,
                 preload: Sequence[str] = ()) -> None:
        """`size` processes (0: inline); each runs `initializer()` first; `preload` names
        modules the fork server imports once, so that new workers start with them loaded."""
        self.size = size
        if size < 0:
            raise ValueError("the number of worker processes cannot be negative")
        self._initializer = initializer
        self._preload = list(preload)
        self._queue: list[_Task] = []
        self._numbers = itertools.count()
        self._running = 0
        self._computers = 0  # of them, computers' decisions
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[ProcessPoolExecutor] | None = None  # the current pool's
        self._runners: set[asyncio.Task[None]] = set()
        self._closed = False
        self.replaced = 0  # pools replaced after a worker died (for tests and logs)

    @property
    def _computer_room(self) -> int:
        """Processes computers' decisions may hold at once: all but one kept for people."""
        return max(1, self.size - 1)

    @property
    def inline(self) -> bool:
        return self.size == 0

    async def start(self) -> None:
        """Start the processes now (they are otherwise started by the first task), without
        blocking the event loop; return once they take tasks."""
        if not self.inline and not self._closed:
            await self._current_pool()

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = PERSON,
                  budget: float | None = None) -> T:
        """`fn(*args)` in a worker process (with `seconds=` the budget left, when given)."""
        if self._closed:
            raise WorkerError("The worker processes are shut down.")
        loop = asyncio.get_running_loop()
        deadline = None if budget is None else time.monotonic() + budget
        task = _Task(priority, next(self._numbers), fn, args, deadline, loop.create_future())
        if self.inline:
            return await asyncio.to_thread(fn, *args, **task.kwargs())
        heapq.heappush(self._queue, task)
        self._pump()
        result: T = await task.future
        return result

    async def run_newest(self, fn: Callable[..., T], read: Callable[[], tuple[Any, ...]], *,
                         priority: int = CHANNEL) -> T:
        """`fn(*read())`, with `read()` called (on the event loop) when a process takes the
        task up: what changed while it was queued is drawn once, as it is then."""
        if self._closed:
            raise WorkerError("The worker processes are shut down.")
        if self.inline:
            return await asyncio.to_thread(fn, *read())
        task = _Task(priority, next(self._numbers), fn, (), None,
                     asyncio.get_running_loop().create_future(), read)
        heapq.heappush(self._queue, task)
        self._pump()
        result: T = await task.future
        return result

    def queued(self) -> int:
        """Tasks waiting for a free process."""
        return len(self._queue)

    def running(self) -> int:
        """Tasks handed to the processes and not yet answered."""
        return self._running

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and diagnostics)."""
        pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    async def close(self) -> None:
        """Answer queued tasks with WorkerError, stop the processes, wait for them to exit."""
        if self._closed:
            return
        self._closed = True
        for task in self._queue:
            if not task.future.done():
                task.future.set_exception(WorkerError("The worker processes are shut down."))
        self._queue.clear()
        if self._starting is not None:  # a pool being started is stopped once it is up
            await asyncio.gather(self._starting, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(stop_pool, pool)
        if self._runners:
            await asyncio.gather(*self._runners, return_exceptions=True)

    # ------------------------------------------------------------------ inside
    def _pump(self) -> None:
        while self._queue and self._running < self.size and not self._closed:
            if self._queue[0].priority == COMPUTER and self._computers >= self._computer_room:
                return  # the first queued is a computer's, so all are: they wait
            task = heapq.heappop(self._queue)
            if task.future.done():  # its caller gave up (cancelled) while it waited
                continue
            if task.read is not None:
                try:
                    task.args = task.read()
                except Exception as error:
                    task.future.set_exception(error)
                    continue
            self._running += 1
            self._computers += task.priority == COMPUTER
            runner = asyncio.get_running_loop().create_task(self._execute(task))
            self._runners.add(runner)
            runner.add_done_callback(self._runners.discard)

    async def _execute(self, task: _Task) -> None:
        try:
            result = await self._attempts(task)
        except BaseException as error:  # the caller hears of every failure
            if not task.future.done():
                task.future.set_exception(error)
            if not isinstance(error, Exception):
                raise
        else:
            if not task.future.done():
                task.future.set_result(result)
        finally:
            self._running -= 1
            self._computers -= task.priority == COMPUTER
            if not self._closed:
                self._pump()

    async def _attempts(self, task: _Task) -> Any:
        for attempt in range(1, TRIES + 1):
            if self._closed:
                raise WorkerError("The worker processes are shut down.")
            pool = submitted = None
            try:
                pool = await self._current_pool()
                submitted = pool.submit(task.fn, *task.args, **task.kwargs())
                return await asyncio.wrap_future(submitted)
            except asyncio.CancelledError:
                # A pool stopped or let go cancels the tasks still queued in it: that is a
                # failure the caller must hear of, not the caller's own cancellation.
                if submitted is None or not submitted.cancelled() or _cancelling():
                    raise
                if self._closed:
                    raise WorkerError("The worker processes are shut down.") from None
            except BrokenProcessPool:  # a worker died, or a new pool's first one did
                if self._closed:
                    raise WorkerError("The worker processes are shut down.") from None
                if pool is not None:
                    self._replace(pool)
                log.warning("a worker process died running %s (try %d of %d)",
                            _named(task.fn), attempt, TRIES)
            except RuntimeError as error:  # submit after shutdown
                if self._closed:
                    raise WorkerError("The worker processes are shut down.") from error
                raise
        raise WorkerError("The computer could not finish this task; please try again.")

    async def _current_pool(self) -> ProcessPoolExecutor:
        """The pool, started on a thread if there is none yet (the tasks asking meanwhile
        wait for the same start; a caller cancelled does not cancel it)."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._start_pool())
        return await asyncio.shield(self._starting)

    async def _start_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(max_workers=self.size, mp_context=_context(self._preload),
                                   initializer=functools.partial(exit_with_parent,
                                                                 self._initializer))
        try:
            await asyncio.to_thread(_started, pool, self.size)
        except BaseException:
            self._starting = None  # the next task tries a new pool
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        self._pool = pool
        return pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A worker died: the next task gets a new pool (the broken one is let go)."""
        if self._pool is broken:
            self._pool, self._starting = None, None
            self.replaced += 1
            broken.shutdown(wait=False, cancel_futures=True)


def _started(pool: ProcessPoolExecutor, size: int) -> None:
    """Start the pool's processes and wait until they have run a first task. (A task starts
    one when no process is idle: `size` of them asked at once start them all, unless one
    already finished; a process still missing starts at a later task, quickly, as the fork
    server is up.)"""
    for done in [pool.submit(_nothing) for _ in range(size)]:
        done.result()


def _cancelling() -> bool:
    """Whether the running asyncio task is being cancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _nothing() -> None:
    """The task that starts a pool."""


def exit_with_parent(then: Callable[[], None] | None = None) -> None:
    """A pool's initializer: start the watch that ends this worker process when the process
    that started the pool ends; then run `then()`, the pool's own initializer. Ctrl+C is
    ignored: a terminal sends it to every process of the bot's group, and the bot stops its
    workers itself once its stop gets there (each would otherwise print a KeyboardInterrupt
    traceback, or cut the task it runs short)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_gone, args=(parent,), name="parent-watch",
                         daemon=True).start()
    if then is not None:
        then()


def _exit_when_gone(parent: Any) -> None:
    parent.join()  # returns once the parent's end of the sentinel pipe is closed: it is gone
    os._exit(ORPHANED)  # now, even mid-task: nobody is left to take the result


def _context(preload: list[str]) -> Any:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    if preload:
        context.set_forkserver_preload(preload)  # used if the fork server is not yet running
    return context


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: running tasks are abandoned (their callers get WorkerError)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join(5)


def _named(fn: Callable[..., Any]) -> str:
    """A task's function by name only: its arguments (a partial's too) may hold players'
    hidden cards (R7), and the logs are the operator's, often shared."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    return getattr(fn, "__qualname__", type(fn).__qualname__)
