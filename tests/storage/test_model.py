"""Random sequences of money operations against a plain-Python model of R12.

The model: a wallet starts at 1000 chips on first use; a buy-in moves chips from the wallet
(a computer's from nowhere) to the stack and is refused beyond the wallet; a cash-out moves
the whole stack back; a settlement applies transfers in order and is refused whole if a stack
would go below zero; a refused operation changes nothing; a repeated key changes nothing.
"""

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import (
    InsufficientChips,
    InvalidInput,
    NotSeated,
    Storage,
    StorageError,
)
from tests.backends import BACKENDS, postgres_of
from tests.storage.audit import audit
from tests.storage.conftest import ADMIN, ALICE, BOB, BOT, CHANNEL, GUILD

PLAYERS = (ALICE, BOB, BOT)
HUMANS = (ALICE, BOB)

OPS = st.one_of(
    st.tuples(st.just("buy_in"), st.sampled_from(PLAYERS), st.integers(-5, 700)),
    st.tuples(st.just("cash_out"), st.sampled_from(PLAYERS)),
    st.tuples(
        st.just("settle"),
        st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS),
                           st.integers(0, 300)), max_size=3),
    ),
    st.tuples(st.just("grant"), st.sampled_from(HUMANS), st.integers(1, 300)),
    st.tuples(st.just("correct"), st.sampled_from(HUMANS),
              st.integers(-900, 300).filter(bool)),
    st.tuples(st.just("replay"), st.integers(0, 40)),
)


class Model:
    def __init__(self) -> None:
        self.wallets: dict[int, int] = {}
        self.stacks: dict[int, int] = {}

    def balance(self, user: int) -> int:
        return self.wallets.get(user, 1000)

    def expect(self, op: tuple[Any, ...]) -> type[StorageError] | None:
        """Apply `op` to the model; the error storage must raise, or None."""
        kind = op[0]
        if kind == "buy_in":
            _, user, amount = op
            if amount <= 0:
                return InvalidInput
            if user > 0:
                if amount > self.balance(user):
                    return InsufficientChips
                self.wallets[user] = self.balance(user) - amount
            self.stacks[user] = self.stacks.get(user, 0) + amount
        elif kind == "cash_out":
            user = op[1]
            if user not in self.stacks:
                return NotSeated
            stack = self.stacks.pop(user)
            if user > 0:
                self.wallets[user] = self.balance(user) + stack
        elif kind == "settle":
            transfers = op[1]
            if any(a == b for a, b, _ in transfers):
                return InvalidInput
            after = dict(self.stacks)
            for payer, payee, chips in transfers:
                if payer not in after or payee not in after:
                    return NotSeated
                if after[payer] < chips:
                    return InsufficientChips
                after[payer] -= chips
                after[payee] += chips
            self.stacks = after
        else:  # grant or correct
            _, user, amount = op
            if self.balance(user) + amount < 0:
                return InsufficientChips
            self.wallets[user] = self.balance(user) + amount
        return None


async def _call(storage: Storage, table: int, op: tuple[Any, ...], key: str) -> bool:
    kind = op[0]
    if kind == "buy_in":
        return (await storage.tables.buy_in(table, op[1], op[2], key=key, now=1.0)).applied
    if kind == "cash_out":
        return (await storage.tables.cash_out(table, op[1], key=key, now=1.0)).applied
    if kind == "settle":
        return (await storage.tables.settle_hand(table, 1, op[1], key=key, now=1.0)).applied
    call = storage.wallets.grant if kind == "grant" else storage.wallets.correct
    return (await call(GUILD, op[1], op[2], reason="model", actor_id=ADMIN, now=1.0,
                       key=key)).applied


async def _run(path: str, ops: list[tuple[Any, ...]]) -> None:
    storage = await Storage.open(path)
    try:
        table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
        model = Model()
        applied: list[tuple[tuple[Any, ...], str]] = []
        for number, op in enumerate(ops):
            if op[0] == "replay":
                if applied:
                    old, key = applied[op[1] % len(applied)]
                    assert await _call(storage, table, old, key) is False
            else:
                error = model.expect(op)
                key = f"k{number}"
                if error is None:
                    assert await _call(storage, table, op, key) is True
                    applied.append((op, key))
                else:
                    try:
                        await _call(storage, table, op, key)
                    except StorageError as refused:
                        assert type(refused) is error, (op, refused)
                    else:
                        raise AssertionError(f"{op} should raise {error.__name__}")
            assert (await storage.tables.table(table)).stacks == model.stacks
            for user in HUMANS:
                row = await storage.wallets.rank_of(GUILD, user)
                assert (row and row.balance) == model.wallets.get(user), (op, user)
    finally:
        await storage.close()
    assert audit(path) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_storage_behaves_like_the_model(backend: str, request: pytest.FixtureRequest) -> None:
    postgres = postgres_of(request) if backend == "postgresql" else None

    async def on_a_fresh_database(ops: list[tuple[Any, ...]]) -> None:
        if postgres is not None:
            await _run(await postgres.empty("model"), ops)
            return
        with tempfile.TemporaryDirectory() as folder:
            await _run(str(Path(folder) / "model.sqlite3"), ops)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(OPS, max_size=25))
    def check(ops: list[tuple[Any, ...]]) -> None:
        asyncio.run(on_a_fresh_database(ops))

    check()
