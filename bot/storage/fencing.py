"""Fencing: a write of a table's state or chips lands only while its writer still owns the
table's shard, checked in the write's own transaction.

A process's lease can run out while it is paused (a long garbage collection, a frozen
virtual machine, SIGSTOP): another process takes its shards over and plays on, and the first
one, when it resumes, still believes it holds them until its next check. So each claim of
shards gets a token greater than every earlier claim's (leases.py: the `lease_tokens`
counter) and stores it on its leases; the bot gives its token to storage (`fence_writes`),
and every fenced write reads the lease of its table's shard in its transaction: if that
lease no longer carries the writer's token (taken over, released, or resharded), the write
raises WriteFenced and nothing is written. On PostgreSQL the lease row is read FOR SHARE, so
a takeover waits for the writes already past the check to commit, and a write waits for a
takeover in progress and then sees its new token: no write lands after a takeover.

Fenced: creating a table, its snapshots and message ids, buy-ins, cash-outs, settlements,
closing and refunds, its matches' start, hands and end; a tournament's snapshot, pool moves
and sanctions. Storage opened without a fence (the command line tools, the tests of
storage) writes unchecked.
"""

from collections.abc import Callable, Collection
from dataclasses import dataclass

from bot.sharding import SHARD_OF_GUILD, shard_of
from bot.storage.backend import Connection
from bot.storage.errors import WriteFenced


@dataclass(frozen=True, slots=True)
class Fence:
    """This process's claim: its shard count and token. `refused(reason)` is told of every
    refused write (the bot then stops, as when its lease is lost)."""

    shard_count: int
    token: int
    refused: Callable[[str], None]


# The leases of the fence's shard count that still carry its token.
_OURS = "SELECT shard_id FROM shard_leases WHERE shard_count = ? AND token = ? AND shard_id "


async def stale_guilds(conn: Connection, fence: Fence, guild_ids: Collection[int]) -> set[int]:
    """The servers among `guild_ids` whose shard's lease no longer carries the fence's
    token; the leases that still do are held (FOR SHARE) until the transaction ends."""
    shards = sorted({shard_of(guild, fence.shard_count) for guild in guild_ids})
    if not shards:
        return set()
    rows = await conn.fetch(
        f"{_OURS}IN ({', '.join('?' * len(shards))}) ORDER BY shard_id{conn.for_share}",
        (fence.shard_count, fence.token, *shards))
    ours = {int(shard) for (shard,) in rows}
    return {guild for guild in guild_ids if shard_of(guild, fence.shard_count) not in ours}


def table_lease(fence: Fence, table_id: int, for_share: str) -> tuple[str, tuple[int, ...]]:
    """A query (and its parameters) of the lease of a table's shard, held like stale_guilds'
    (`for_share`): one row while that lease carries the fence's token, none when stale_guilds
    would name the table's server. For a statement that reads the table anyway (one round
    trip instead of two)."""
    return (f"{_OURS}= (SELECT {SHARD_OF_GUILD} FROM live_tables WHERE id = ?){for_share}",
            (fence.shard_count, fence.token, fence.shard_count, table_id))


def refusal(fence: Fence, guild_id: int) -> WriteFenced:
    """The error of a refused write to `guild_id`'s tables, the fence's owner told."""
    shard = shard_of(guild_id, fence.shard_count)
    error = WriteFenced(
        f"Shard {shard} of {fence.shard_count} was taken over by another ofc-bot (this "
        f"process's lease token {fence.token} is no longer its lease's): nothing was written, "
        "this process no longer runs its tables")
    fence.refused(str(error))
    return error
