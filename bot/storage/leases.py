"""Shard leases: one owning process per gateway shard, so no table runs in two processes.

A process claims all its shards in one transaction at start, renews them on a heartbeat, and
releases them when it stops. A lease not renewed by `expires_at` (its owner died or hung) is
free to claim: the replacement then restores that shard's tables.

The claim is refused (ShardsTaken, nothing written) when another owner's unexpired lease is
on one of the shards asked for, or on any shard of another shard count: processes that split
the servers differently would each think some server theirs. On a database this process
holds alone (SQLite opened `exclusive`: the bot's lock file), every other lease is a dead
process's, so a restart after a crash takes its shards over at once.

`now` is the caller's clock (epoch seconds) as everywhere in storage; processes on several
machines need their clocks in step to well under the lease time (NTP does that). On
PostgreSQL claims and renewals lock the table, so two processes starting at once are served
one after the other; SQLite's BEGIN IMMEDIATE does the same.

Each claim takes a new fencing token, greater than every earlier claim's (the one row of
`lease_tokens`), and writes it on its leases; a renewal keeps it. The claiming process hands
it to `fence_writes`, and from then on its writes of tables are refused once another claim
has taken their shard (fencing.py).
"""

import time
from collections.abc import Sequence

from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import Part
from bot.storage.errors import InvalidInput, LeaseLost, ShardsTaken
from bot.storage.records import ShardLease

_COLUMNS = "shard_id, shard_count, owner, address, acquired_at, expires_at, token"


def _owner(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise InvalidInput("A lease owner is a non-empty name of at most 200 characters.")
    return value


def _ids(count: object, ids: Sequence[int]) -> tuple[int, list[int]]:
    shard_count = validate.count("shard count", count)
    if shard_count < 1 or not ids:
        raise InvalidInput("A claim names at least one shard of at least one.")
    for shard in ids:
        if validate.count("shard id", shard) >= shard_count:
            raise InvalidInput(f"Shard {shard} does not exist among {shard_count}.")
    return shard_count, sorted(set(ids))


def _seconds(value: object) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise InvalidInput("A lease lasts a positive number of seconds.")
    return float(value)


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S UTC", time.gmtime(at))


async def _leases(conn: Connection) -> list[ShardLease]:
    rows = await conn.fetch(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")
    return [ShardLease(int(r[0]), int(r[1]), str(r[2]), r[3], float(r[4]), float(r[5]),
                       int(r[6])) for r in rows]


class ShardLeases(Part):
    """The shard leases of the processes of a fleet (`storage.leases`)."""

    async def claim_shards(self, owner: str, shard_count: int, shard_ids: Sequence[int], *,
                           now: float, seconds: float,
                           address: str | None = None) -> list[ShardLease]:
        """Take the leases of `shard_ids` (of `shard_count`) for `owner` until `now +
        seconds`, all or none; returns them. ShardsTaken when another live owner has one."""
        owner = _owner(owner)
        count, ids = _ids(shard_count, shard_ids)
        until = now + _seconds(seconds)
        async with self._db.transaction() as conn:
            # Claims read every lease then write: one at a time (two processes starting at
            # once on PostgreSQL would each see the other's shards free).
            await conn.lock_table("shard_leases")
            for lease in await _leases(conn):
                alive = lease.expires_at > now and not self._db.single_process
                if lease.owner == owner or not alive:
                    continue
                if lease.shard_count != count:
                    raise ShardsTaken(
                        f"Another ofc-bot ({lease.owner}) runs shard {lease.shard_id} of "
                        f"{lease.shard_count} until {_clock(lease.expires_at)}: every process "
                        f"must use the same --shard-count (this one: {count})")
                if lease.shard_id in ids:
                    raise ShardsTaken(
                        f"Shard {lease.shard_id} of {count} is run by another ofc-bot "
                        f"({lease.owner}) whose lease ends at {_clock(lease.expires_at)}: stop "
                        "that process, or if it died, start again once its lease has ended")
            ((token,),) = await conn.fetch(
                "INSERT INTO lease_tokens (id, token) VALUES (1, 1) ON CONFLICT (id) DO UPDATE "
                "SET token = lease_tokens.token + 1 RETURNING token")
            # Leases of an older shard count are all expired here: a reshard starts clean.
            await conn.execute("DELETE FROM shard_leases WHERE shard_count <> ?", (count,))
            await conn.executemany(
                "INSERT INTO shard_leases (shard_id, shard_count, owner, address, acquired_at, "
                "expires_at, token) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (shard_id) DO "
                "UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner, "
                "address = excluded.address, acquired_at = excluded.acquired_at, "
                "expires_at = excluded.expires_at, token = excluded.token",
                [(shard, count, owner, address, now, until, token) for shard in ids])
            return [lease for lease in await _leases(conn) if lease.shard_id in ids]

    async def renew_shards(self, owner: str, shard_ids: Sequence[int], *, now: float,
                           seconds: float) -> float:
        """Extend `owner`'s leases to `now + seconds`; returns that time. LeaseLost (nothing
        renewed) when one of them is no longer `owner`'s."""
        owner = _owner(owner)
        ids = sorted(set(shard_ids))
        if not ids:
            raise InvalidInput("A renewal names at least one shard.")
        until = now + _seconds(seconds)
        async with self._db.transaction() as conn:
            await conn.lock_table("shard_leases")  # not while a claim decides
            held = {lease.shard_id: lease for lease in await _leases(conn)}
            for shard in ids:
                lease = held.get(shard)
                if lease is None or lease.owner != owner:
                    who = "nobody" if lease is None else f"another ofc-bot ({lease.owner})"
                    raise LeaseLost(f"The lease of shard {shard} passed to {who}: this process "
                                    "no longer runs its tables")
            await conn.execute(
                f"UPDATE shard_leases SET expires_at = ? WHERE owner = ? AND shard_id IN "
                f"({', '.join('?' * len(ids))})", (until, owner, *ids))
        return until

    async def release_shards(self, owner: str) -> None:
        """Give up `owner`'s leases (a clean stop): a replacement may start at once."""
        owner = _owner(owner)
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))

    async def shard_leases(self) -> list[ShardLease]:
        """Every lease, expired ones included, by shard."""
        async with self._db.transaction(write=False) as conn:
            return await _leases(conn)
