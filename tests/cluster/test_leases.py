"""Shard leases in storage: one owner per shard, all or none, expiry, renewal,
release; SQL filtering of tables by shard; and the same rules between two real processes."""

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.sharding import ShardPlan, shard_of
from bot.storage import DatabaseInUse, InvalidInput, LeaseLost, ShardsTaken, Storage

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_000_000.0


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A server id on `shard` of `count` (Discord's rule: the id's timestamp bits)."""
    guild = ((n * count + shard) << 22) + 12345
    assert shard_of(guild, count) == shard
    return guild


async def test_a_claim_takes_every_shard_asked_until_its_expiry(storage: Storage) -> None:
    leases = await storage.leases.claim_shards("a", 4, [1, 2], now=T0, seconds=30, address="x:1")
    assert [(le.shard_id, le.shard_count, le.owner, le.address, le.expires_at)
            for le in leases] == [(1, 4, "a", "x:1", T0 + 30), (2, 4, "a", "x:1", T0 + 30)]
    assert await storage.leases.shard_leases() == leases


async def test_a_second_owner_is_refused_any_shard_already_held_and_gets_none(
        storage: Storage) -> None:
    await storage.leases.claim_shards("a", 4, [0, 1], now=T0, seconds=30)
    with pytest.raises(ShardsTaken, match=r"Shard 1 of 4 is run by another ofc-bot \(a\)"):
        await storage.leases.claim_shards("b", 4, [1, 2], now=T0 + 29, seconds=30)
    assert {le.shard_id: le.owner for le in await storage.leases.shard_leases()} == {0: "a", 1: "a"}
    # the shards nobody holds are free
    await storage.leases.claim_shards("b", 4, [2, 3], now=T0 + 29, seconds=30)
    assert {le.shard_id: le.owner for le in await storage.leases.shard_leases()} == {
        0: "a", 1: "a", 2: "b", 3: "b"}


async def test_processes_must_agree_on_the_shard_count(storage: Storage) -> None:
    await storage.leases.claim_shards("a", 2, [0], now=T0, seconds=30)
    with pytest.raises(ShardsTaken, match="same --shard-count"):
        await storage.leases.claim_shards("b", 3, [2], now=T0 + 1, seconds=30)
    # once a's lease expires, the new count starts clean: a's old row is gone
    await storage.leases.claim_shards("b", 3, [2], now=T0 + 30, seconds=30)
    assert [(le.shard_id, le.shard_count, le.owner) for le in await storage.leases.shard_leases()] \
        == [(2, 3, "b")]


async def test_an_expired_lease_is_taken_over_and_its_old_owner_cannot_renew(
        storage: Storage) -> None:
    await storage.leases.claim_shards("a", 2, [0, 1], now=T0, seconds=30)
    assert await storage.leases.renew_shards("a", [0, 1], now=T0 + 10, seconds=30) == T0 + 40
    with pytest.raises(ShardsTaken):
        await storage.leases.claim_shards("b", 2, [1], now=T0 + 39.9, seconds=30)
    await storage.leases.claim_shards("b", 2, [1], now=T0 + 40, seconds=30)
    with pytest.raises(LeaseLost, match=r"shard 1 passed to another ofc-bot \(b\)"):
        await storage.leases.renew_shards("a", [0, 1], now=T0 + 41, seconds=30)
    # a refused renewal renews nothing, not even the shard still a's
    assert {le.shard_id: le.expires_at for le in await storage.leases.shard_leases()} == {
        0: T0 + 40, 1: T0 + 70}


async def test_an_owner_whose_lease_ran_out_unclaimed_may_renew_it(storage: Storage) -> None:
    await storage.leases.claim_shards("a", 1, [0], now=T0, seconds=30)
    assert await storage.leases.renew_shards("a", [0], now=T0 + 100, seconds=30) == T0 + 130


async def test_a_released_lease_is_free_at_once(storage: Storage) -> None:
    await storage.leases.claim_shards("a", 2, [0, 1], now=T0, seconds=30)
    await storage.leases.release_shards("a")
    assert await storage.leases.shard_leases() == []
    await storage.leases.claim_shards("b", 2, [0, 1], now=T0 + 1, seconds=30)
    with pytest.raises(LeaseLost, match="passed to another"):
        await storage.leases.renew_shards("a", [0], now=T0 + 2, seconds=30)


async def test_bad_claims_are_refused_with_a_reason(storage: Storage) -> None:
    for args, message in (((2, [2]), "does not exist"), ((2, []), "at least one"),
                          ((0, [0]), "at least one")):
        with pytest.raises(InvalidInput, match=message):
            await storage.leases.claim_shards("a", *args, now=T0, seconds=30)
    with pytest.raises(InvalidInput, match="positive number of seconds"):
        await storage.leases.claim_shards("a", 1, [0], now=T0, seconds=0)
    with pytest.raises(InvalidInput, match="owner"):
        await storage.leases.claim_shards("", 1, [0], now=T0, seconds=30)
    assert await storage.leases.shard_leases() == []


async def test_a_database_held_alone_takes_a_dead_process_lease_over_at_once(
        database: str) -> None:
    """A bot holding the database alone (SQLite's lock file, PostgreSQL's exclusive lock):
    any other lease there is a crashed process's."""
    shared = await Storage.open(database)
    await shared.leases.claim_shards("crashed", 1, [0], now=T0, seconds=30)
    await shared.close()
    alone = await Storage.open(database, exclusive=True)
    try:
        await alone.leases.claim_shards("restarted", 1, [0], now=T0 + 1, seconds=30)
        assert [le.owner for le in await alone.leases.shard_leases()] == ["restarted"]
    finally:
        await alone.close()


async def test_tables_and_tournaments_are_read_by_shard(storage: Storage) -> None:
    ids = {}
    for shard in range(3):
        for n in (1, 2):
            guild = guild_on(shard, 3, n)
            ids[guild] = await storage.tables.create_table(guild, 7 + n, '{"s": 1}', now=T0)
            await storage.tournaments.create_tournament(guild, 9 + n, '{"s": 1}', now=T0)
    plan = ShardPlan(3, (0, 2))
    tables = await storage.tables.live_tables(plan)
    assert sorted(t.guild_id for t in tables) == sorted(g for g in ids if plan.owns(g))
    assert len(tables) == 4
    tournaments = await storage.tournaments.open_tournaments(plan)
    assert sorted(t.guild_id for t in tournaments) == sorted(g for g in ids if plan.owns(g))
    every = ShardPlan(3, (0, 1, 2))
    tables = storage.tables
    assert len(await tables.live_tables()) == len(await tables.live_tables(every)) == 6


# ------------------------------------------------------------------ two real processes
def claim(path: str, count: int, ids: str, seconds: float,
          hold: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cluster.claim", str(path), str(count), ids, str(seconds),
         *(["--hold"] if hold else [])],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    return process.stdout.readline().strip()


async def test_two_processes_one_owner_per_shard(database: str) -> None:
    await (await Storage.open(database)).close()  # migrated before the processes race
    holder = claim(database, 2, "0-1", 60, hold=True)
    try:
        assert first_line(holder).startswith("claimed ")
        second = claim(database, 2, "1", 60)
        out, err = second.communicate(timeout=120)
        assert second.returncode == 2, err
        assert out.startswith("refused: Shard 1 of 2 is run by another ofc-bot")
        assert holder.stdin is not None
        holder.stdin.close()  # a clean stop releases the leases
        assert first_line(holder) == "released"
        assert holder.wait(timeout=120) == 0
        again = claim(database, 2, "1", 60)
        out, err = again.communicate(timeout=120)
        assert again.returncode == 0 and out.startswith("claimed "), err
    finally:
        holder.kill()
        holder.wait()


async def test_a_killed_owner_lease_is_claimable_exactly_once_it_expires(
        database: str) -> None:
    await (await Storage.open(database)).close()
    holder = claim(database, 2, "0", 2.0, hold=True)
    try:
        expires_at = float(first_line(holder).split()[2])
    finally:
        holder.kill()  # SIGKILL: it never releases
        holder.wait()
    attempts = []
    while True:  # the real condition: a replacement gets in once the dead lease expired
        started = time.time()
        process = claim(database, 2, "0", 2.0)
        out, _ = process.communicate(timeout=120)
        attempts.append((started, process.returncode))
        if process.returncode == 0:
            break
        assert process.returncode == 2 and "lease ends at" in out
        assert started < expires_at, "refused after the dead owner's lease had expired"
        await asyncio.sleep(0.2)
    assert time.time() >= expires_at


async def test_sharded_processes_hold_postgresql_together_and_a_lone_bot_is_refused(
        database: str) -> None:
    """PostgreSQL: the fleet's processes share the database (the leases say who runs what);
    a bot that wants it alone is refused while they run, and they while it runs. An SQLite
    file has one process in any case."""
    first = await Storage.open(database, shared=True)
    try:
        if not database.startswith("postgresql"):
            with pytest.raises(DatabaseInUse):
                await Storage.open(database, shared=True)
            return
        second = await Storage.open(database, shared=True)
        await second.close()
        with pytest.raises(DatabaseInUse, match="sharded processes"):
            await Storage.open(database, exclusive=True)
    finally:
        await first.close()
    alone = await Storage.open(database, exclusive=True)
    try:
        with pytest.raises(DatabaseInUse):
            await Storage.open(database, shared=True)
    finally:
        await alone.close()
