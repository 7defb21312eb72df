"""A hand's settlement on PostgreSQL crosses the network few times: each statement is a round
trip there (SQLite's run in one thread hop already). A table's first settlement in a process
reads its stacks (four round trips); the next ones are one statement, checked against the
stacks the last one left, and fall back to reading them whenever that check fails."""

from typing import Any

import asyncpg
import pytest

from bot.storage import (
    HandRecord,
    InsufficientChips,
    InvalidInput,
    PlayerHandResult,
    Storage,
    TableClosed,
    Transfer,
    WriteFenced,
)
from tests.backends import is_postgres
from tests.storage.conftest import ALICE, BOB, BOT


def _requests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What goes to a PostgreSQL server from now on, one request (and its answer) each."""
    sent: list[str] = []
    for name in ("execute", "executemany", "fetch", "fetchval", "fetchrow"):
        original = getattr(asyncpg.Connection, name)

        async def counted(self: asyncpg.Connection, sql: str, *args: Any,
                          _original: Any = original, **options: Any) -> Any:
            sent.append(sql)
            return await _original(self, sql, *args, **options)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    return sent


@pytest.mark.parametrize("fenced", [False, True], ids=["alone", "fenced"])
async def test_a_settlement_is_four_round_trips_on_postgresql(
        storage: Storage, table: int, database: str, monkeypatch: pytest.MonkeyPatch,
        fenced: bool) -> None:
    # Its rows are checked on both databases; SQLite's statements cost one thread hop together.
    for user in (ALICE, BOB, BOT):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=1.0)
    if fenced:  # a sharded process: its lease is checked in the statement reading the stacks
        lease = await storage.leases.claim_shards("me", 1, [0], now=1.0, seconds=30)
        storage.fence_writes(1, lease[0].token, lambda reason: None)
    sent = _requests(monkeypatch)
    transfers = [Transfer(ALICE, BOB, 7), Transfer(BOB, BOT, 3), Transfer(BOT, ALICE, 2)]
    done = await storage.tables.settle_hand(table, 1, transfers, key="s1", now=2.0,
                                            snapshot='{"hand": 1}')
    # BEGIN with the table's row lock; its stacks read and the key claimed; every write; COMMIT.
    assert len(sent) == 4 or not is_postgres(database), sent
    assert done.applied and done.stacks == {ALICE: 95, BOB: 104, BOT: 101}
    monkeypatch.undo()
    assert (await storage.tables.table(table)).state_json == '{"hand": 1}'
    async with storage._core.db.transaction(write=False) as conn:
        moves = await conn.fetch(
            "SELECT user_id, amount, stack_after, counterparty, hand_no, op_key, created_at "
            "FROM stack_moves WHERE kind = 'settle' ORDER BY id")
    assert moves == [  # in the order paid (R6), each transfer's payer then payee
        (ALICE, -7, 93, BOB, 1, "s1", 2.0), (BOB, 7, 107, ALICE, 1, "s1", 2.0),
        (BOB, -3, 104, BOT, 1, "s1", 2.0), (BOT, 3, 103, BOB, 1, "s1", 2.0),
        (BOT, -2, 101, ALICE, 1, "s1", 2.0), (ALICE, 2, 95, BOT, 1, "s1", 2.0)]
    again = await storage.tables.settle_hand(table, 1, transfers, key="s1", now=3.0)
    assert not again.applied and again.stacks == done.stacks

    # The next hand: one statement, its own transaction, on the stacks the last one left.
    sent = _requests(monkeypatch)
    second = await storage.tables.settle_hand(table, 2, [Transfer(BOB, ALICE, 10)], key="s2",
                                              now=4.0, snapshot='{"hand": 2}')
    assert len(sent) == 1 or not is_postgres(database), sent
    assert second.applied and second.stacks == {ALICE: 105, BOB: 94, BOT: 101}
    repeat = await storage.tables.settle_hand(table, 2, [Transfer(BOB, ALICE, 10)], key="s2",
                                              now=5.0, snapshot='{"hand": 3}')
    monkeypatch.undo()
    assert not repeat.applied and repeat.stacks == second.stacks
    assert (await storage.tables.table(table)).state_json == '{"hand": 2}'
    assert (await storage.tables.table(table)).stacks == second.stacks
    async with storage._core.db.transaction(write=False) as conn:
        moves = await conn.fetch(
            "SELECT user_id, amount, stack_after, counterparty, hand_no, op_key, created_at "
            "FROM stack_moves WHERE kind = 'settle' AND hand_no = 2 ORDER BY id")
    assert moves == [(BOB, -10, 94, ALICE, 2, "s2", 4.0), (ALICE, 10, 105, BOB, 2, "s2", 4.0)]
    assert (await storage.audit()).ok


async def test_a_hand_record_adds_three_round_trips_on_postgresql(
        storage: Storage, table: int, database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=1.0)
    match = await storage.history.record_match_start(table, "{}", [ALICE, BOB], now=1.0)
    results = (PlayerHandResult(ALICE, -4, -4), PlayerHandResult(BOB, 4, 4))
    sent = _requests(monkeypatch)
    done = await storage.tables.settle_hand(table, 1, [Transfer(ALICE, BOB, 4)], key="s1",
                                            now=2.0, hand=HandRecord(match, 1, "{}", results))
    # The settlement's four; the hand (its match's row checked and held), its players, its
    # results.
    assert len(sent) == 4 + 3 or not is_postgres(database), sent
    assert done.applied
    sent.clear()  # the next hand's, all in one statement
    second = (PlayerHandResult(ALICE, 6, 6, royalties=2, fantasy_entered=True),
              PlayerHandResult(BOB, -6, -6, fouled=True, scoops=1))
    done = await storage.tables.settle_hand(table, 2, [Transfer(BOB, ALICE, 6)], key="s2",
                                            now=3.0, hand=HandRecord(match, 2, "{}", second))
    assert len(sent) == 1 or not is_postgres(database), sent
    monkeypatch.undo()
    assert done.applied and done.stacks == {ALICE: 102, BOB: 98}
    assert [(h.hand_no, h.results) for h in await storage.history.match_hands(match)] == [
        (1, results), (2, second)]


async def test_a_transaction_that_sends_nothing_costs_no_round_trip(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    sent = _requests(monkeypatch)
    for write in (True, False):
        async with storage._core.db.transaction(write=write):
            pass
    assert sent == []


async def _settled_once(storage: Storage, table: int) -> None:
    """Alice and Bob seated with 100 each, a first hand settled: the stacks are known."""
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=1.0)
    await storage.tables.settle_hand(table, 1, [Transfer(ALICE, BOB, 4)], key="s1", now=2.0)


async def test_stacks_another_process_moved_are_read_before_the_settlement(
        storage: Storage, table: int, database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    await _settled_once(storage, table)  # known here: Alice 96, Bob 104
    other = await Storage.open(database)  # another process: its buy-ins are unknown here
    await other.tables.buy_in(table, ALICE, 50, key="more:alice", now=3.0)
    sent = _requests(monkeypatch)
    # More than the 96 known, less than the 146 she has: judged on the stacks read.
    done = await storage.tables.settle_hand(table, 2, [Transfer(ALICE, BOB, 140)], key="s2",
                                            now=4.0)
    assert len(sent) == 4 or not is_postgres(database), sent
    assert done.applied and done.stacks == {ALICE: 6, BOB: 244}
    monkeypatch.undo()
    await other.tables.buy_in(table, BOB, 10, key="more:bob", now=5.0)
    await other.close()
    sent = _requests(monkeypatch)
    done = await storage.tables.settle_hand(table, 3, [Transfer(BOB, ALICE, 5)], key="s3",
                                            now=6.0)
    # The statement found Bob's stack was not 244: it wrote nothing, and the stacks were read.
    assert len(sent) == 1 + 4 or not is_postgres(database), sent
    monkeypatch.undo()
    assert done.applied and done.stacks == {ALICE: 11, BOB: 249}
    assert (await storage.tables.table(table)).stacks == done.stacks
    async with storage._core.db.transaction(write=False) as conn:
        moves = await conn.fetch("SELECT user_id, stack_after FROM stack_moves "
                                 "WHERE kind = 'settle' AND hand_no > 1 ORDER BY id")
    assert moves == [(ALICE, 6), (BOB, 244), (BOB, 249), (ALICE, 11)]
    assert (await storage.audit()).ok


async def test_a_settlement_refused_on_known_stacks_is_judged_on_the_stacks_read(
        storage: Storage, table: int, database: str) -> None:
    await _settled_once(storage, table)
    with pytest.raises(InsufficientChips):
        await storage.tables.settle_hand(table, 2, [Transfer(ALICE, BOB, 97)], key="s2",
                                         now=3.0)
    match = await storage.history.record_match_start(table, "{}", [ALICE, BOB], now=3.0)
    await storage.history.record_match_end(match, [BOB], now=3.5)
    over = HandRecord(match, 2, "{}", (PlayerHandResult(ALICE, -1, -1),
                                       PlayerHandResult(BOB, 1, 1)))
    await storage.tables.settle_hand(table, 1, [Transfer(ALICE, BOB, 0)], key="s1b", now=3.6)
    with pytest.raises(InvalidInput, match="is over"):
        await storage.tables.settle_hand(table, 2, [Transfer(ALICE, BOB, 1)], key="s2",
                                         now=4.0, hand=over)
    await storage.tables.settle_hand(table, 3, [Transfer(ALICE, BOB, 0)], key="s3", now=5.0)
    other = await Storage.open(database)  # another process closes the table
    for user in (ALICE, BOB):
        await other.tables.cash_out(table, user, key=f"out:{user}", now=5.5)
    assert await other.tables.close_table(table, now=6.0)
    await other.close()
    with pytest.raises(TableClosed):
        await storage.tables.settle_hand(table, 4, [Transfer(ALICE, BOB, 0)], key="s4", now=7.0)
    assert (await storage.audit()).ok
    async with storage._core.db.transaction(write=False) as conn:
        rows = await conn.fetch("SELECT count(*) FROM stack_moves WHERE kind = 'settle'")
    assert rows == [(2,)]  # hand 1's two rows: nothing of the refused ones


async def test_a_known_table_of_a_shard_taken_over_is_not_settled(
        storage: Storage, table: int, database: str) -> None:
    lease = await storage.leases.claim_shards("me", 1, [0], now=1.0, seconds=30)
    storage.fence_writes(1, lease[0].token, lambda reason: None)
    await _settled_once(storage, table)
    other = await Storage.open(database)  # this process paused past its lease: taken over
    await other.leases.claim_shards("new", 1, [0], now=40.0, seconds=30)
    await other.close()
    with pytest.raises(WriteFenced):
        await storage.tables.settle_hand(table, 2, [Transfer(ALICE, BOB, 1)], key="s2",
                                         now=41.0)
    assert (await storage.tables.table(table)).stacks == {ALICE: 96, BOB: 104}
