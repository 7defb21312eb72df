"""One table's traffic to Discord: new messages in order, message edits coalesced.

The service calls its listener under the table's lock, so the listener only queues work here.
`post` jobs run one at a time in the order queued, in two lanes that do not wait on each
other: people's (DM prompts and their edits, results by DM) and the channel's (showdowns with
their image, notices, standings), so a person's next prompt never waits behind a channel post
that Discord is slow to take (a 429, an image still drawing). `refresh` jobs
(the lobby and table messages) are coalesced per key: the first runs at once, then at most
one every `interval` seconds, and a job reads the table's state when it runs, so the latest
state wins and a busy table never trips Discord's per-channel rate limit (5 edits / 5 s).
A running refresh job that reads the state afresh (the table image, drawn once a worker is
free) calls `caught_up(key)`: the changes queued until then are in what it shows, so the
refresh they asked for is dropped rather than drawn again.

A job runs only while `may_send()` says so (the process's lease on its shards, by its own
clock): a process paused past its lease, then resumed, does not send what it had queued from
its stale state before it learns its shards were taken over and stops.

`when_idle(then)` calls `then` once nothing is queued or running any more: the presenter
drops a closed table's outbox then.
"""

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[object]]  # what a job returns is not used
PEOPLE, CHANNEL = "people", "channel"  # the lanes of `post`


class Outbox:
    def __init__(self, interval: float, may_send: Callable[[], bool]) -> None:
        self.interval = interval
        self.may_send = may_send
        self._withheld = False  # told the log once
        self._posts: dict[str, deque[Job]] = {}  # lane -> its jobs, while it has some
        self._posters: dict[str, asyncio.Task[None]] = {}
        self._wanted: dict[str, Job] = {}  # refresh key -> its job, while one is due
        self._refreshers: dict[str, asyncio.Task[None]] = {}
        self._idle: Callable[[], None] | None = None

    def post(self, job: Job, lane: str = PEOPLE) -> None:
        self._posts.setdefault(lane, deque()).append(job)
        if lane not in self._posters:
            self._posters[lane] = asyncio.create_task(self._run_posts(lane))

    def refresh(self, key: str, job: Job) -> None:
        self._wanted[key] = job
        if key not in self._refreshers:
            self._refreshers[key] = asyncio.create_task(self._run_refresh(key))

    def caught_up(self, key: str) -> None:
        """The running `key` job now shows the state as it is: forget the refresh wanted."""
        if key in self._refreshers:
            self._wanted.pop(key, None)

    def when_idle(self, then: Callable[[], None]) -> None:
        """Call `then` once nothing is queued or running (at once if nothing is)."""
        self._idle = then
        self._check_idle()

    async def _run_posts(self, lane: str) -> None:
        jobs = self._posts[lane]
        while jobs:
            await self._run(jobs.popleft())
        del self._posts[lane], self._posters[lane]
        self._check_idle()

    async def _run_refresh(self, key: str) -> None:
        while key in self._wanted:
            await self._run(self._wanted.pop(key))
            await asyncio.sleep(self.interval)
        del self._refreshers[key]
        self._check_idle()

    def _check_idle(self) -> None:
        if self._idle is not None and not self.busy:
            then, self._idle = self._idle, None
            then()

    async def settled(self, lane: str) -> None:
        """Wait until `lane` has run every job queued on it (from another lane's job)."""
        task = self._posters.get(lane)
        if task is not None:
            await asyncio.shield(task)  # a cancelled waiter leaves the lane running

    @property
    def busy(self) -> bool:
        return bool(self._posters) or bool(self._refreshers)

    async def drain(self) -> None:
        """Wait until everything queued so far (and queued meanwhile) has been sent."""
        while self.busy:
            await asyncio.gather(*self._posters.values(), *self._refreshers.values())

    def cancel(self) -> None:
        for task in (*self._posters.values(), *self._refreshers.values()):
            task.cancel()

    async def _run(self, job: Job) -> None:
        if not self.may_send():
            if not self._withheld:
                self._withheld = True
                log.warning("not sending a table's messages: this process's lease on its "
                            "shards has run out")
            return
        # One failed message (a deleted channel, a network error) must not stop the others.
        try:
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sending a table message failed")
