"""The independent audit the other tests rely on does notice tampering."""

import pytest

from bot.storage import Storage
from tests.backends import Reader
from tests.storage.audit import audit
from tests.storage.conftest import ALICE, BOB, BOT, CHANNEL, GUILD

TAMPERING = {
    "wallet": "UPDATE wallets SET balance = balance + 1 WHERE user_id = {ALICE}",
    "stack": "UPDATE table_seats SET stack = stack - 1 WHERE user_id = {BOB}",
    "granted": "DELETE FROM ledger WHERE kind = 'house'",
    "creates": "UPDATE stack_moves SET amount = amount + 5 WHERE kind = 'settle' AND amount > 0",
    "without a wallet": "DELETE FROM wallets WHERE user_id = {ALICE}",
}


@pytest.mark.parametrize("what", TAMPERING)
async def test_the_audit_finds_tampering(database: str, what: str) -> None:
    storage = await Storage.open(database)
    table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
    for user in (ALICE, BOB, BOT):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=0.0)
    await storage.tables.settle_hand(table, 1, [(ALICE, BOB, 10), (BOT, BOB, 5)], key="s", now=1.0)
    await storage.close()
    assert audit(database) == []
    with Reader(database) as query:
        query.write(TAMPERING[what].format(ALICE=ALICE, BOB=BOB))
    problems = audit(database)
    assert any(what in p for p in problems), problems
