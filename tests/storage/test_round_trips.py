"""A hand's settlement on PostgreSQL crosses the network few times: each statement is a round
trip there (SQLite's run in one thread hop already)."""

from typing import Any

import asyncpg
import pytest

from bot.storage import HandRecord, PlayerHandResult, Storage, Transfer
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
    monkeypatch.undo()
    assert done.applied
    assert [(h.hand_no, h.results) for h in await storage.history.match_hands(match)] == [
        (1, results)]


async def test_a_transaction_that_sends_nothing_costs_no_round_trip(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    sent = _requests(monkeypatch)
    for write in (True, False):
        async with storage._core.db.transaction(write=write):
            pass
    assert sent == []
