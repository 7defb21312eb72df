"""Many coroutines on one storage, two storages and two processes on one database (R12: no
chip lost, no overdraft), on SQLite and on PostgreSQL.

On SQLite, aiosqlite interleaves coroutines between statements; these tests fail (with "cannot
start a transaction within a transaction", lost chips or double payments) if a transaction does
not hold the storage lock from BEGIN to COMMIT. On PostgreSQL transactions run at once, on a
pool of connections and in several processes; they fail the same way if a read-then-write does
not hold its row lock.
"""

import asyncio
import multiprocessing
import random

from bot.storage import DailyNotReady, InsufficientChips, Storage
from tests.storage import buyers
from tests.storage.audit import audit
from tests.storage.conftest import ADMIN, ALICE, BOB, CHANNEL, GUILD


async def test_200_concurrent_buy_ins_and_claims_never_overdraw_nor_lose_a_chip(
    storage: Storage, table: int
) -> None:
    calls = [storage.tables.buy_in(table, ALICE, 10, key=f"in:{i}", now=1.0) for i in range(150)]
    calls += [storage.wallets.claim_daily(GUILD, ALICE, now=1.0) for _ in range(40)]
    calls += [
        storage.wallets.grant(GUILD, ALICE, 5, reason="bonus", actor_id=ADMIN, now=1.0,
                              key=f"g:{i}")
        for i in range(10)
    ]
    random.Random(4).shuffle(calls)
    results = await asyncio.gather(*calls, return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, InsufficientChips | DailyNotReady) for e in errors), errors
    # a buy-in was refused only when the wallet really held less than 10 at that moment
    assert all(e.available < 10 for e in errors if isinstance(e, InsufficientChips))
    assert sum(isinstance(e, DailyNotReady) for e in errors) == 39  # one claim per cooldown
    bought = 150 - sum(isinstance(e, InsufficientChips) for e in errors)
    # 1000 start + 200 daily + 10 x 5 granted = 1250 chips, 10 per buy-in: at most 125 fit
    balance = (await storage.wallets.wallet(GUILD, ALICE, now=2.0)).balance
    stack = (await storage.tables.table(table)).stacks.get(ALICE, 0)
    assert stack == 10 * bought
    assert balance + stack == 1250
    entries = await storage.wallets.ledger(GUILD, ALICE, limit=1000)
    assert sum(e.amount for e in entries) == balance
    assert len(entries) == 1 + 1 + 10 + bought


async def test_two_concurrent_settlements_of_one_hand_pay_once(
    storage: Storage, table: int
) -> None:
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=0.0)
    first, second = await asyncio.gather(
        storage.tables.settle_hand(table, 1, [(BOB, ALICE, 60)], key=f"{table}:1:settle", now=1.0),
        storage.tables.settle_hand(table, 1, [(BOB, ALICE, 60)], key=f"{table}:1:settle", now=1.0),
    )
    assert sorted([first.applied, second.applied]) == [False, True]
    assert first.stacks == second.stacks == {ALICE: 160, BOB: 40}


async def test_two_storages_on_one_database_never_overdraw(database: str) -> None:
    one = await Storage.open(database)
    two = await Storage.open(database)
    try:
        table = await one.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
        calls = [
            store.tables.buy_in(table, ALICE, 25, key=f"in:{i}", now=1.0)
            for i, store in enumerate([one, two] * 30)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert all(isinstance(e, InsufficientChips) for e in errors), errors
        assert len(errors) == 20  # 1000 chips pay exactly 40 buy-ins of 25
        assert (await two.wallets.wallet(GUILD, ALICE, now=2.0)).balance == 0
        assert (await one.tables.table(table)).stacks == {ALICE: 1000}
    finally:
        await one.close()
        await two.close()
    assert audit(database) == []


def test_200_buy_ins_from_two_processes_at_once_never_overdraw(database: str) -> None:
    async def opened() -> int:
        store = await Storage.open(database)
        try:
            return await store.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
        finally:
            await store.close()

    table = asyncio.run(opened())
    spawn = multiprocessing.get_context("spawn")  # two fresh interpreters: two real clients
    start = spawn.Barrier(2)
    pipes = [spawn.Pipe(duplex=False) for _ in range(2)]
    workers = [spawn.Process(target=buyers.run,
                             args=(database, table, ALICE, 100, f"p{n}", start, pipes[n][1]))
               for n in range(2)]
    for worker in workers:
        worker.start()
    results = [pipe.recv() for pipe, _ in pipes]
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    # The wallet is created by whichever process touches it first: 1,000 chips, 100 buy-ins.
    assert sum(applied for applied, _ in results) == 100
    assert all(available < 10 for _, refused in results for available in refused)
    assert sum(len(refused) for _, refused in results) == 100

    async def figures() -> tuple[int, dict[int, int], int]:
        store = await Storage.open(database)
        try:
            entries = await store.wallets.ledger(GUILD, ALICE, limit=1000)
            return ((await store.wallets.wallet(GUILD, ALICE, now=2.0)).balance,
                    (await store.tables.table(table)).stacks, len(entries))
        finally:
            await store.close()

    assert asyncio.run(figures()) == (0, {ALICE: 1000}, 1 + 100)
    assert audit(database) == []
