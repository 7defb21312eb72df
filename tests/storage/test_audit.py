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
# What the audit must say of each, worked by hand. Before: wallets 900 + 900 (two starts of
# 1,000 less a buy-in of 100 each), stacks Alice 90, Bob 115, the computer 95 (100 each, then
# Alice pays Bob 10, the computer pays him 5), 2,100 chips in from outside (two starts, and
# the house's 100 for the computer).
EXPECTED = {
    "wallet": [f"wallet {GUILD}/{ALICE}: balance 901, ledger sum 900, last balance_after 900",
               "wallets 1801 + stacks 300 + pools 0 != granted 2100"],
    "stack": ["stack {table}/" f"{BOB}: 114, its moves sum to 115",
              "wallets 1800 + stacks 299 + pools 0 != granted 2100"],
    "granted": ["table {table}/" f"{BOT}: ledger moved 0 to the table, stack moves show 100",
                "wallets 1800 + stacks 300 + pools 0 != granted 2000"],
    # Bob's two settlement rows are the positive ones: his moves now sum to 125.
    "creates": ["stack {table}/" f"{BOB}: 115, its moves sum to 125",
                "settlement s creates 10 chips"],
    # Alice's start and buy-in rows are left without their wallet.
    "without a wallet": ["wallets 900 + stacks 300 + pools 0 != granted 2100",
                         "2 ledger rows of humans without a wallet"],
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
    assert audit(database) == [p.format(table=table) for p in EXPECTED[what]]
