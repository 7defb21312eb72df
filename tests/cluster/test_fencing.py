"""Fencing in storage (bot/storage/fencing.py), on SQLite and on PostgreSQL: each claim's
token is greater than every earlier one's, and once another process has claimed a shard,
every write of its tables' state or chips by the old owner is refused and writes nothing,
while the new owner's writes, and the old owner's on the shards it still holds, land."""

import asyncio
import contextlib
import struct
import urllib.parse
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest

from bot.storage import (
    HandRecord,
    LeaseLost,
    SanctionRecord,
    ShardLease,
    Storage,
    WriteFenced,
    postgres,
    tables,
)
from tests.backends import Reader, is_postgres
from tests.cluster.test_leases import T0, guild_on
from tests.storage.audit import audit

# What a process writes for its tables (leases and their token counter are the leases' own).
BOOKS = ("live_tables", "table_seats", "stack_moves", "ledger", "wallets", "operations",
         "matches", "match_players", "hands", "hand_results", "tournaments", "pool_moves",
         "tournament_sanctions")


def books(database: str) -> dict[str, list[tuple[Any, ...]]]:
    with Reader(database) as read:
        return {table: sorted(read(f"SELECT * FROM {table}"), key=repr) for table in BOOKS}


async def test_every_claim_takes_a_greater_token_and_a_renewal_keeps_it(
        storage: Storage) -> None:
    tokens = [(await storage.leases.claim_shards("a", 2, [0, 1], now=T0, seconds=30))[0].token]
    assert await storage.leases.renew_shards("a", [0, 1], now=T0 + 10, seconds=30) == T0 + 40
    assert {le.token for le in await storage.leases.shard_leases()} == {tokens[0]}
    leases = storage.leases
    tokens.append((await leases.claim_shards("b", 2, [1], now=T0 + 40, seconds=30))[0].token)
    await storage.leases.release_shards("b")  # the counter does not go back with the leases gone
    tokens.append((await leases.claim_shards("c", 2, [1], now=T0 + 41, seconds=30))[0].token)
    tokens.append((await leases.claim_shards("d", 3, [2], now=T0 + 80, seconds=30))[0].token)
    assert tokens == sorted(set(tokens)) and tokens[0] >= 1
    assert {(le.shard_id, le.token) for le in await storage.leases.shard_leases()} == {
        (2, tokens[-1])}


async def test_once_a_shard_is_taken_over_the_old_owner_writes_nothing_of_its_tables(
        database: str) -> None:
    old, new = await Storage.open(database), await Storage.open(database)
    told: list[str] = []
    guild, kept = guild_on(1, 2), guild_on(0, 2)  # shard 1 is taken over; shard 0 stays old's
    try:
        lease = await old.leases.claim_shards("old", 2, [0, 1], now=T0, seconds=30)
        old.fence_writes(2, lease[0].token, told.append)
        table = await old.tables.create_table(guild, 5, '{"v": 1}', now=T0)
        other = await old.tables.create_table(guild, 6, '{"v": 1}', now=T0)
        mine = await old.tables.create_table(kept, 7, '{"v": 1}', now=T0)
        for user in (11, 12):
            await old.tables.buy_in(table, user, 100, key=f"in:{user}", now=T0)
        match = await old.history.record_match_start(table, "{}", [11, 12], now=T0)
        tournament = await old.tournaments.create_tournament(guild, 5, '{"t": 1}', now=T0)
        await old.tournaments.tournament_move(tournament, 11, 50, "buy_in", key="t:in", now=T0)
        assert told == []

        # old is paused past its lease; new claims shard 1 and plays on
        taken = await new.leases.claim_shards("new", 2, [1], now=T0 + 31, seconds=30)
        assert taken[0].token > lease[0].token
        new.fence_writes(2, taken[0].token, told.append)
        await new.tables.settle_hand(table, 1, [(11, 12, 30)], key="settle:1", now=T0 + 32,
                                     snapshot='{"v": "new"}')
        before = books(database)

        refused = {
            "create_table": old.tables.create_table(guild, 8, "{}", now=T0 + 33),
            "save_snapshot": old.tables.save_snapshot(table, '{"v": "old"}', now=T0 + 33),
            "set_table_messages": old.tables.set_table_messages(table, now=T0 + 33,
                                                                table_message_id=99),
            "buy_in": old.tables.buy_in(table, 13, 100, key="in:13", now=T0 + 33),
            "cash_out": old.tables.cash_out(table, 11, key="out:11", now=T0 + 33),
            "settle_hand": old.tables.settle_hand(table, 1, [(12, 11, 30)], key="settle:old",
                                                  now=T0 + 33),
            "refund_table": old.tables.refund_table(table, "old thinks so", now=T0 + 33),
            "close_table": old.tables.close_table(other, now=T0 + 33),
            "record_match_start": old.history.record_match_start(other, "{}", [11], now=T0 + 33),
            "record_match_end": old.history.record_match_end(match, [11], now=T0 + 33),
            "record_hand": old.history.record_hand(HandRecord(match, 2, "{}", ()), now=T0 + 33),
            "create_tournament": old.tournaments.create_tournament(guild, 5, "{}", now=T0 + 33),
            "save_tournament": old.tournaments.save_tournament(tournament, '{"t": 2}', now=T0 + 33),
            "tournament_move": old.tournaments.tournament_move(tournament, 11, 50, "prize",
                                                               key="t:out", now=T0 + 33),
            "record_sanctions": old.tournaments.record_sanctions(
                tournament, [("t:warn", SanctionRecord(11, "warning", 0, "late", 1, 12, False))],
                now=T0 + 33, snapshot='{"t": 3}'),
        }
        for name, write in refused.items():
            with pytest.raises(WriteFenced, match=r"Shard 1 of 2 was taken over by another "
                                                  r"ofc-bot .*nothing was written"):
                await write
            assert books(database) == before, name
        assert len(told) == len(refused)
        assert issubclass(WriteFenced, LeaseLost)  # the table service says: table moving

        # a group commit refuses the fenced entry only; old still runs shard 0's tables
        results = await old.tables.save_snapshots(
            [(mine, '{"v": 2}', False), (table, '{"v": "old"}', True)], now=T0 + 34)
        assert results[0] is None and isinstance(results[1], WriteFenced)
        assert (await old.tables.table(mine)).state_json == '{"v": 2}'
        await old.tables.save_snapshot(mine, '{"v": 3}', now=T0 + 34)
        assert (await old.tables.table(table)).state_json == '{"v": "new"}'
        assert len(told) == len(refused) + 1
        # the new owner goes on writing
        await new.tables.save_snapshot(table, '{"v": "new 2"}', now=T0 + 35)
        await new.tables.cash_out(table, 11, key="out:11", now=T0 + 35)
    finally:
        await old.close()
        await new.close()
    assert audit(database) == []


async def test_a_released_or_resharded_lease_fences_its_old_owner_too(database: str) -> None:
    storage = await Storage.open(database)
    told: list[str] = []
    guild = guild_on(0, 1)
    try:
        lease = await storage.leases.claim_shards("a", 1, [0], now=T0, seconds=30)
        storage.fence_writes(1, lease[0].token, told.append)
        table = await storage.tables.create_table(guild, 5, "{}", now=T0)
        await storage.leases.release_shards("a")  # nobody owns the shard: nobody may write it
        with pytest.raises(WriteFenced):
            await storage.tables.save_snapshot(table, '{"v": 1}', now=T0 + 1)
        lease = await storage.leases.claim_shards("a", 1, [0], now=T0 + 2, seconds=30)
        storage.fence_writes(1, lease[0].token, told.append)
        await storage.tables.save_snapshot(table, '{"v": 2}', now=T0 + 2)
        await storage.leases.claim_shards("b", 2, [0, 1], now=T0 + 40, seconds=30)  # a reshard
        with pytest.raises(WriteFenced, match="Shard 0 of 1"):
            await storage.tables.save_snapshot(table, '{"v": 3}', now=T0 + 41)
        assert (await storage.tables.table(table)).state_json == '{"v": 2}' and len(told) == 2
    finally:
        await storage.close()


@dataclass
class Takeover:
    """An old owner of shard 0 of 1, fencing its writes, with a table there; a new process
    about to claim the shard while a write of the old owner is past its check."""

    database: str
    old: Storage
    new: Storage
    table: int = 0
    checked: asyncio.Event = field(default_factory=asyncio.Event)  # the write is past it
    finish: asyncio.Event = field(default_factory=asyncio.Event)  # the write may commit
    tasks: list["asyncio.Task[Any]"] = field(default_factory=list)

    async def claim_during(self, writing: "asyncio.Task[Any]") -> list[ShardLease]:
        """Claim the shard once `writing` is past its check; return the claim's leases once
        it has waited for the lease table's lock (it must not get it before) and the write
        was let go."""
        await self.checked.wait()
        claim = asyncio.create_task(
            self.new.leases.claim_shards("new", 1, [0], now=T0 + 31, seconds=30))
        self.tasks += [writing, claim]
        watcher = await asyncpg.connect(self.database)
        try:
            while not await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE 'LOCK TABLE shard_leases%'"):
                assert not claim.done(), claim
                await asyncio.sleep(0.01)
        finally:
            await watcher.close()
        self.finish.set()
        return await claim


@contextlib.asynccontextmanager
async def takeover(database: str) -> AsyncIterator[Takeover]:
    if not is_postgres(database):
        pytest.skip("SQLite runs one write transaction at a time: nothing can come between")
    taking = Takeover(database, await Storage.open(database), await Storage.open(database))
    try:
        lease = await taking.old.leases.claim_shards("old", 1, [0], now=T0, seconds=30)
        taking.old.fence_writes(1, lease[0].token, lambda reason: None)
        taking.table = await taking.old.tables.create_table(guild_on(0, 1), 5, "{}", now=T0)
        yield taking
    finally:
        taking.finish.set()  # a failure must not leave a connection held: close would wait
        await asyncio.gather(*taking.tasks, return_exceptions=True)
        await taking.old.close()
        await taking.new.close()


async def test_on_postgresql_a_takeover_waits_for_a_write_already_past_the_fence(
        database: str) -> None:
    """The lease is read FOR SHARE: a claim cannot commit between a write's check and its
    commit, so what a process wrote before losing its shard was written while it owned it."""
    async with takeover(database) as taking:
        old = taking.old

        async def slow_write() -> None:
            async with old._core.db.transaction() as conn:
                await old._core.fenced(conn, guild_on(0, 1))
                taking.checked.set()
                await taking.finish.wait()  # paused between its check and its commit
                await conn.execute("UPDATE live_tables SET state_json = ? WHERE id = ?",
                                   ('{"v": "old"}', taking.table))

        writing = asyncio.create_task(slow_write())
        assert (await taking.claim_during(writing))[0].owner == "new"
        await writing
        with pytest.raises(WriteFenced):
            await old.tables.save_snapshot(taking.table, '{"v": "old again"}', now=T0 + 32)
        assert (await taking.new.tables.table(taking.table)).state_json == '{"v": "old"}'


async def test_on_postgresql_a_takeover_waits_for_a_settlement_past_the_fence(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A settlement checks its lease in the statement that reads its stacks: the lease is
    held from there to its commit all the same."""
    async with takeover(database) as taking:
        old, table = taking.old, taking.table
        for user in (11, 12):
            await old.tables.buy_in(table, user, 100, key=f"in:{user}", now=T0)
        match = await old.history.record_match_start(table, "{}", [11, 12], now=T0)
        real = tables.insert_hand

        async def slow_hand(*args: Any, **options: Any) -> bool:
            taking.checked.set()
            await taking.finish.wait()  # paused between its check and its commit
            return await real(*args, **options)

        monkeypatch.setattr(tables, "insert_hand", slow_hand)
        writing = asyncio.create_task(old.tables.settle_hand(
            table, 1, [(11, 12, 30)], key="settle:1", now=T0 + 1, snapshot='{"v": "old"}',
            hand=HandRecord(match, 1, "{}", ())))
        assert (await taking.claim_during(writing))[0].owner == "new"
        assert (await writing).applied
        assert (await taking.new.tables.table(table)).stacks == {11: 70, 12: 130}


async def test_on_postgresql_a_frozen_transaction_of_a_sharded_process_does_not_hold_on(
        database: str) -> None:
    """A sharded process frozen mid-transaction would keep its lease row locked (the
    takeover would wait for it): its sessions let PostgreSQL end a transaction idle 10 s."""
    if not is_postgres(database):
        pytest.skip("SQLite: a frozen process's transaction holds the file's lock until the "
                    "process is killed, and one file is run by one process in any case")
    shared, alone = await Storage.open(database, shared=True), await Storage.open(database)
    try:
        for storage, expected in ((shared, "10s"), (alone, "0")):
            async with storage._core.db.transaction(write=False) as conn:
                assert await conn.fetch("SHOW idle_in_transaction_session_timeout") == [
                    (expected,)]
    finally:
        await shared.close()
        await alone.close()


class FrozenSession:
    """A sharded process's PostgreSQL session frozen in the middle of a statement, spoken in
    the wire protocol itself so that it stops exactly there: its transaction holds its lease
    row FOR SHARE (as every fenced write does), then a Parse comes without a Sync, and the
    server waits for the rest, the statement running, not idle (no server timeout ends it)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, database: str, application: str) -> "FrozenSession":
        url = urllib.parse.urlsplit(database)
        query = dict(urllib.parse.parse_qsl(url.query))
        socket = f"{query['host']}/.s.PGSQL.{query['port']}"
        session = cls(*await asyncio.open_unix_connection(socket))
        names = {"user": url.username or "", "database": url.path.lstrip("/"),
                 "application_name": application}
        body = b"".join(f"{k}\0{v}\0".encode() for k, v in names.items()) + b"\0"
        session.writer.write(struct.pack("!ii", 8 + len(body), 196608) + body)
        await session.until(b"Z")
        return session

    def send(self, kind: bytes, body: bytes = b"") -> None:
        self.writer.write(kind + struct.pack("!i", 4 + len(body)) + body)

    async def until(self, wanted: bytes) -> None:
        """Read the server's messages up to one of kind `wanted`; ConnectionError with the
        server's words at an error."""
        while True:
            kind, size = struct.unpack("!ci", await self.reader.readexactly(5))
            body = await self.reader.readexactly(size - 4)
            if kind == b"E":
                raise ConnectionError(body.decode(errors="replace"))
            if kind == wanted:
                return

    async def freeze_holding_lease(self, shard: int) -> None:
        self.send(b"Q", f"BEGIN; SELECT token FROM shard_leases WHERE shard_id = {shard} "
                        "FOR SHARE; UPDATE wallets SET balance = balance + 1;\0".encode())
        await self.until(b"Z")
        self.send(b"P", b"\0SELECT 1\0\0\0")  # Parse, unnamed, no parameter types
        self.send(b"H")  # Flush: the reply now, and the statement goes on waiting for a Bind
        await self.until(b"1")  # ParseComplete


async def test_on_postgresql_a_claim_ends_a_session_frozen_in_the_middle_of_a_statement(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process frozen between two protocol messages of one statement holds its lease row
    locked beyond any server timeout: the claim of its shards ends that session once it has
    been frozen as long as an idle transaction may be (here 1 s), and goes through; the
    frozen transaction's writes roll back. A session of another program is never ended."""
    if not is_postgres(database):
        pytest.skip("SQLite: a frozen process's transaction holds the file's lock until the "
                    "process is killed, and one file is run by one process in any case")
    monkeypatch.setattr(postgres, "IDLE_IN_TRANSACTION_MS", 1_000)
    old, new = await Storage.open(database, shared=True), await Storage.open(database,
                                                                            shared=True)
    try:
        await old.leases.claim_shards("old", 2, [0, 1], now=T0, seconds=30)
        await old.wallets.grant(guild_on(0, 2), 11, 100, reason="test", actor_id=1, now=T0)
        wallets = books(database)["wallets"]
        other = await FrozenSession.open(database, "psql")
        frozen = await FrozenSession.open(database, postgres.APPLICATION_NAME)
        await frozen.freeze_holding_lease(0)
        async with asyncio.timeout(60):  # a deadline for what does come, never measured
            leases = await new.leases.claim_shards("new", 2, [0, 1], now=T0 + 31, seconds=30)
            assert {lease.owner for lease in leases} == {"new"}
            with pytest.raises(ConnectionError, match="terminating connection due to "
                               "administrator command"):
                await frozen.until(b"Z")
        assert books(database)["wallets"] == wallets
        other.send(b"Q", b"SELECT 1\0")
        await other.until(b"Z")  # still connected
    finally:
        await old.close()
        await new.close()
