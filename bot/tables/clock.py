"""Time for the table service: the real clock, and a fake one tests drive by hand.

The service never reads time or sleeps any other way, so a test can play a whole match with
its timers (R10 turn deadlines, lobby expiry, the pause between hands) in no real time.
"""

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Epoch seconds."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The wall clock and asyncio's sleep."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that moves only when told: `await clock.advance(seconds)` wakes every sleeper
    whose time has come, earliest first, with `now()` reading its wake time."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        await future

    def next_wake(self) -> float | None:
        """When the earliest sleeper still waiting wakes (None: nobody sleeps)."""
        while self._sleepers and self._sleepers[0][2].done():  # cancelled sleepers
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking the sleepers due on the way, one at a time, each given
        a turn of the event loop to resume before time moves on."""
        target = self._now + seconds
        while (wake := self.next_wake()) is not None and wake <= target:
            _, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, wake)
            future.set_result(None)
            await asyncio.sleep(0)
        self._now = max(self._now, target)

    async def advance_to_next(self) -> bool:
        """Jump to the next sleeper's wake time and wake it; False when nobody sleeps."""
        wake = self.next_wake()
        if wake is None:
            return False
        await self.advance(max(0.0, wake - self._now))
        return True
