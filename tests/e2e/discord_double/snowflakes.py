"""Discord snowflake ids: milliseconds since the Discord epoch, worker, process, increment.

Generated from the wall clock so that `discord.utils.snowflake_time(id)` gives a sensible
creation time, and strictly increasing so that ids sort like Discord's. `ahead_ms` moves that
clock forward (never back): a test's way to let hours pass for Discord, whose interaction ids
are the bot's clock for commands.
"""

from __future__ import annotations

import datetime
import time

DISCORD_EPOCH_MS = 1_420_070_400_000
_INCREMENT_BITS = 12


class Snowflakes:
    """A generator of unique, increasing snowflakes for one double."""

    def __init__(self, worker: int = 1, process: int = 1) -> None:
        self._worker = worker
        self._process = process
        self._last_ms = 0
        self._increment = 0
        self.ahead_ms = 0

    def next(self, shard: int = 0, shard_count: int = 1) -> int:
        """The next id; with a shard, the next whose millisecond puts it on that shard of
        `shard_count` (Discord's `(id >> 22) % shard_count`: for a guild's id)."""
        ms = max(int(time.time() * 1000) + self.ahead_ms - DISCORD_EPOCH_MS, self._last_ms)
        ms += (shard - ms) % shard_count
        if ms > self._last_ms:
            self._last_ms, self._increment = ms, 0
        else:
            self._increment += 1
            if self._increment >> _INCREMENT_BITS:
                # More than 4096 ids in one millisecond: borrow a later one (of that shard).
                self._last_ms, self._increment = self._last_ms + shard_count, 0
        return (
            (self._last_ms << 22) | (self._worker << 17) | (self._process << 12) | self._increment
        )


def snowflake_time(snowflake: int) -> datetime.datetime:
    """The creation time encoded in a snowflake (UTC)."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def iso_time(snowflake: int) -> str:
    """The ISO-8601 timestamp Discord puts in a message created with this id."""
    return snowflake_time(snowflake).isoformat()


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()
