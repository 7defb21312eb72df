"""The running event loop's clock held still, moved only by the test: the loop's timers (the
bot's, discord.py's, the double's) fire when the test says so, however busy the machine;
sockets and threads go on as ever. `with held_loop_clock() as clock: ... clock.advance(s)`."""

import asyncio
import contextlib
from collections.abc import Iterator


class HeldClock:
    """The loop's clock, standing still unless `advance`d."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextlib.contextmanager
def held_loop_clock() -> Iterator[HeldClock]:
    loop = asyncio.get_running_loop()
    clock = HeldClock(loop.time())
    loop.time = clock.time  # type: ignore[method-assign]
    try:
        yield clock
    finally:
        del loop.time  # the class's own clock again
