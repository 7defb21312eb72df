"""Two processes (two `Storage` opened on one database) take turns, at random, at the money
of two tables: buy-ins, cash-outs, settlements (some too large for a stack, some with their
hand's record), repeats of earlier keys, keys reused elsewhere, matches started and ended by
either, one process's operation between two settlements of the table's process, and now and
then one operation from each at the same time. A model in plain Python computes from the
rules what every call must return and what the stacks must then be (RULES.md R6 and R12:
transfers in order, a stack never below zero or nothing moves, a repeated key changes
nothing). On PostgreSQL a process settles a table in one statement on the stacks its last
settlement there left (`Tables._settled_at_once`): the other process's operations in between
must make that statement write nothing and the settlement read the table, so both ways are
counted and must both occur. The draws are seeded: every run is the same run."""

import asyncio
import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import asyncpg
import pytest

from bot.storage import (
    HandRecord,
    InsufficientChips,
    InvalidInput,
    KeyConflict,
    NotSeated,
    PlayerHandResult,
    Settlement,
    StackMove,
    Storage,
    StorageError,
    TableClosed,
    Transfer,
)
from bot.storage import tables as tables_module
from bot.storage.backend import Connection
from bot.storage.postgres import PostgresDatabase
from tests.backends import is_postgres
from tests.storage.conftest import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD

SEED = 20_261_127
STEPS = 200
PLAYERS = (ALICE, BOB, CAROL, BOT)
STARTING = 1000  # a wallet's chips on first use (the bot's default)
FIRST_STATE = '{"hand": 0}'

Result = StackMove | Settlement
Expected = Result | type[StorageError]
# table, user, amount, stack_after, counterparty, hand number
MoveRow = tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class Op:
    """One money operation, as a call to `storage.tables` makes it."""

    kind: str  # buy_in, cash_out or settle
    table: int
    key: str
    user: int = 0
    amount: int = 0
    transfers: tuple[Transfer, ...] = ()
    hand_no: int = 0
    hand: HandRecord | None = None
    snapshot: str | None = None


async def _call(storage: Storage, op: Op, now: float) -> Result:
    tables = storage.tables
    if op.kind == "buy_in":
        return await tables.buy_in(op.table, op.user, op.amount, key=op.key, now=now)
    if op.kind == "cash_out":
        return await tables.cash_out(op.table, op.user, key=op.key, now=now)
    return await tables.settle_hand(op.table, op.hand_no, op.transfers, key=op.key, now=now,
                                    snapshot=op.snapshot, hand=op.hand)


async def _outcome(storage: Storage, op: Op, now: float) -> Result | type[StorageError]:
    try:
        return await _call(storage, op, now)
    except StorageError as refused:
        return type(refused)


@dataclass
class Model:
    """What the database must hold, computed from the rules alone."""

    stacks: dict[int, dict[int, int]]  # table -> user -> stack
    states: dict[int, str]  # table -> its snapshot
    wallets: dict[int, int] = field(default_factory=dict)  # humans who used theirs
    keys: dict[str, Op] = field(default_factory=dict)  # each applied key, its first use
    closed: set[int] = field(default_factory=set)
    running: dict[int, int] = field(default_factory=dict)  # table -> its unfinished match
    matches: dict[int, list[int]] = field(default_factory=dict)  # table -> its matches
    hands: dict[int, dict[int, tuple[PlayerHandResult, ...]]] = field(default_factory=dict)
    moves: dict[str, list[MoveRow]] = field(default_factory=dict)  # settle key -> its rows

    def wallet(self, user: int) -> int:
        return self.wallets.get(user, STARTING)

    def apply(self, op: Op) -> Expected:
        """The result `op` must return (or the error it must raise), its effects applied."""
        first = self.keys.get(op.key)
        if first is not None:
            if (first.kind, first.table) != (op.kind, op.table):
                return KeyConflict
            stacks = self.stacks[op.table]
            if op.kind == "settle":
                return Settlement(False, dict(stacks))
            return StackMove(False, 0, stacks.get(op.user, 0),
                             self.wallets[op.user] if op.user > 0 else None)
        if op.table in self.closed:
            return TableClosed
        done = {"buy_in": self._buy_in, "cash_out": self._cash_out,
                "settle": self._settle}[op.kind](op)
        if not isinstance(done, type):
            self.keys[op.key] = op
        return done

    def _buy_in(self, op: Op) -> Expected:
        if op.user > 0:
            if op.amount > self.wallet(op.user):
                return InsufficientChips
            self.wallets[op.user] = self.wallet(op.user) - op.amount
        stacks = self.stacks[op.table]
        stacks[op.user] = stacks.get(op.user, 0) + op.amount
        return StackMove(True, op.amount, stacks[op.user],
                         self.wallets[op.user] if op.user > 0 else None)

    def _cash_out(self, op: Op) -> Expected:
        stacks = self.stacks[op.table]
        if op.user not in stacks:
            return NotSeated
        stack = stacks.pop(op.user)
        if op.user > 0:
            self.wallets[op.user] = self.wallet(op.user) + stack
        return StackMove(True, stack, 0, self.wallets[op.user] if op.user > 0 else None)

    def _settle(self, op: Op) -> Expected:
        stacks = dict(self.stacks[op.table])
        rows: list[MoveRow] = []
        for payer, payee, chips in op.transfers:
            if payer not in stacks or payee not in stacks:
                return NotSeated
            if stacks[payer] < chips:
                return InsufficientChips
            if chips:
                stacks[payer] -= chips
                stacks[payee] += chips
                rows += [(op.table, payer, -chips, stacks[payer], payee, op.hand_no),
                         (op.table, payee, chips, stacks[payee], payer, op.hand_no)]
        if op.hand is not None:
            match = op.hand.match_id
            if match not in self.matches[op.table] or self.running.get(op.table) != match:
                return InvalidInput  # another table's match, or one that is over
            # A hand recorded already stays as it was; the chips move all the same.
            self.hands[match].setdefault(op.hand_no, op.hand.results)
        self.stacks[op.table] = stacks
        if op.snapshot is not None:
            self.states[op.table] = op.snapshot
        self.moves[op.key] = rows
        return Settlement(True, dict(stacks))


class Run:
    """The random steps, each checked against the model as it ends."""

    def __init__(self, stores: Sequence[Storage], tables: Sequence[int]) -> None:
        self.stores = stores
        self.tables = tables
        self.rng = random.Random(SEED)
        self.model = Model({t: {} for t in tables}, {t: FIRST_STATE for t in tables},
                           matches={t: [] for t in tables})
        self.hand_no = dict.fromkeys(tables, 0)
        self.now = 1.0
        self.count = 0
        self.concurrent = 0  # pairs of operations run at the same time

    def _key(self, kind: str) -> str:
        self.count += 1
        return f"{kind}:{self.count}"

    def _clock(self) -> float:
        self.now += 1.0
        return self.now

    def _other(self, table: int) -> int:
        return self.tables[1 - self.tables.index(table)]

    def _store(self, table: int) -> Storage:
        """Mostly the process that runs the table (as a bot process does), else the other."""
        home = self.tables.index(table)
        return self.stores[home if self.rng.random() < 0.75 else 1 - home]

    def new_op(self, table: int | None = None) -> Op:
        """A new operation (a new key) of a random kind, at `table` or a random one."""
        rng = self.rng
        table = rng.choice(self.tables) if table is None else table
        stacks = self.model.stacks[table]
        kind = rng.choices(["buy_in", "cash_out", "settle"], [3, 1, 6])[0]
        if kind == "buy_in":
            return Op(kind, table, self._key(kind), user=rng.choice(PLAYERS),
                      amount=rng.choice([rng.randint(1, 300), rng.randint(300, 1100)]))
        if kind == "cash_out":
            seated = sorted(stacks)
            user = rng.choice(seated) if seated and rng.random() < 0.9 else rng.choice(PLAYERS)
            return Op(kind, table, self._key(kind), user=user)
        return self._settlement(table)

    def _empty_settlement(self, table: int) -> Op:
        """A settlement that moves nothing: it tells its process the table's stacks."""
        self.hand_no[table] += 1
        return Op("settle", table, self._key("settle"), hand_no=self.hand_no[table])

    def _settlement(self, table: int) -> Op:
        """Random transfers among the seated (now and then someone not seated), some more than
        the payer holds by then; often with the hand's record: of the table's newest match
        (running or over), now and then of the other table's, or a hand recorded already."""
        rng, stacks = self.rng, self.model.stacks[table]
        seated = sorted(stacks) if len(stacks) >= 2 and rng.random() < 0.95 else list(PLAYERS)
        left = dict(stacks)
        transfers = []
        for _ in range(rng.randint(0, 3)):
            payer, payee = rng.sample(seated, 2)
            have = max(left.get(payer, 0), 0)
            chips = rng.choice([0, rng.randint(1, 20), rng.randint(0, max(have // 2, 1)),
                                have, have + rng.randint(1, 40)])
            transfers.append(Transfer(payer, payee, chips))
            left[payer] = have - chips
            left[payee] = left.get(payee, 0) + chips
        self.hand_no[table] += 1
        hand_no = self.hand_no[table]
        hand = None
        matches = self.model.matches[table]
        if matches and rng.random() < 0.6:
            match = matches[-1]
            if rng.random() < 0.1:  # a hand of the other table's match
                other = self.model.matches[self._other(table)]
                match = other[-1] if other else match
            recorded = sorted(self.model.hands[match])
            if recorded and rng.random() < 0.15:  # that hand was recorded already
                hand_no = rng.choice(recorded)
            net = {user: 0 for user in stacks}
            for payer, payee, chips in transfers:
                net[payer] = net.get(payer, 0) - chips
                net[payee] = net.get(payee, 0) + chips
            hand = HandRecord(match, hand_no, f'{{"hand": {hand_no}}}',
                              tuple(PlayerHandResult(user, chips, chips)
                                    for user, chips in sorted(net.items())))
        snapshot = f'{{"table": {table}, "hand": {hand_no}}}' if rng.random() < 0.5 else None
        return Op("settle", table, self._key("settle"), transfers=tuple(transfers),
                  hand_no=hand_no, hand=hand, snapshot=snapshot)

    def old_op(self) -> Op | None:
        """A key applied before: as it was (a repeat), or for another table (a conflict)."""
        if not self.model.keys:
            return None
        op = self.model.keys[self.rng.choice(sorted(self.model.keys))]
        if self.rng.random() < 0.8:
            return op
        return Op("settle", self._other(op.table), op.key, transfers=(), hand_no=1)

    async def one(self, op: Op, store: Storage | None = None) -> None:
        expected = self.model.apply(op)
        got = await _outcome(store or self._store(op.table), op, self._clock())
        assert got == expected, (op, got, expected)

    def _orders(self, first: Op, second: Op) -> list[tuple[Model, tuple[Expected, ...]]]:
        """The model and results after each order of the two, when both orders apply both,
        leave the same stacks and wallets (so the steps drawn next do not hang on which ran
        first: the run stays the same from one time to the next) and their results tell
        which order ran; else none."""
        orders = []
        for ops in ((first, second), (second, first)):
            model = copy.deepcopy(self.model)
            done = [model.apply(op) for op in ops]
            if any(isinstance(result, type) for result in done):
                return []
            orders.append((model, tuple(done if ops[0] is first else done[::-1])))
        (one, results), (other, reversed_results) = orders
        if (one.stacks, one.wallets) != (other.stacks, other.wallets) or (
                results == reversed_results and one != other):
            return []
        return orders

    async def two_at_once(self) -> None:
        """One operation from each process at the same time, often at the same table: the
        results must be those of one order or the other. (Drawn again while an order would
        refuse one of them, or the results would not tell the order; at last run one after
        the other.)"""
        for _ in range(8):
            old = self.old_op() if self.rng.random() < 0.2 else None
            first = old or self.new_op()
            second = self.new_op(first.table if self.rng.random() < 0.7 else None)
            orders = self._orders(first, second)
            if orders:
                break
        else:
            await self.one(first, self.stores[0])
            await self.one(second, self.stores[1])
            return
        a, b = self.stores
        got = tuple(await asyncio.gather(_outcome(a, first, self._clock()),
                                         _outcome(b, second, self._clock())))
        for model, results in orders:
            if got == results:
                self.model = model
                self.concurrent += 1
                return
        raise AssertionError((first, second, got, [r for _, r in orders]))

    async def match_step(self) -> None:
        table = self.rng.choice(self.tables)
        if table in self.model.closed:
            return
        running = self.model.running.get(table)
        store = self._store(table)
        if running is None or self.rng.random() < 0.3:
            match = await store.history.record_match_start(
                table, "{}", sorted(self.model.stacks[table]), now=self._clock())
            if running is None:
                assert match not in self.model.hands, match
                self.model.running[table] = match
                self.model.matches[table].append(match)
                self.model.hands[match] = {}
            assert match == self.model.running[table]
            return
        # The match ends, by the process that does not run the table, just after the one that
        # does settled there (so it knows the stacks); ending it again does nothing. A hand of
        # it that then comes to the table is refused: nothing moves, nothing is recorded.
        home = self.tables.index(table)
        await self.one(self._empty_settlement(table), self.stores[home])
        assert await self.stores[1 - home].history.record_match_end(
            running, [], now=self._clock(), cancelled=True)
        assert not await store.history.record_match_end(running, [], now=self._clock(),
                                                        cancelled=True)
        del self.model.running[table]
        self.hand_no[table] += 1
        late = HandRecord(running, self.hand_no[table], "{}", ())
        await self.one(Op("settle", table, self._key("settle"), hand_no=late.hand_no,
                          hand=late), self.stores[home])

    async def intrusion(self) -> None:
        """The process that runs a table settles there, the other moves the table's chips
        (often seating a player), and the first settles again: on stacks that are no longer
        the ones it knows."""
        rng, table = self.rng, self.rng.choice(self.tables)
        if table in self.model.closed:
            return
        home = self.tables.index(table)
        await self.one(self._settlement(table), self.stores[home])
        unseated = [user for user in PLAYERS if user not in self.model.stacks[table]]
        op = (Op("buy_in", table, self._key("buy_in"), user=rng.choice(unseated),
                 amount=rng.randint(1, 100))
              if unseated and rng.random() < 0.5 else self.new_op(table))
        await self.one(op, self.stores[1 - home])
        await self.one(self._settlement(table), self.stores[home])

    async def step(self) -> None:
        roll = self.rng.random()
        if roll < 0.1:
            op = self.old_op()
            if op is not None:
                await self.one(op)
        elif roll < 0.16:
            await self.match_step()
        elif roll < 0.28:
            await self.two_at_once()
        elif roll < 0.38:
            await self.intrusion()
        else:
            await self.one(self.new_op())
        await self.check()

    async def check(self) -> None:
        for store in self.stores:
            for table in self.tables:
                live = await store.tables.table(table)
                assert live.stacks == self.model.stacks[table], (table, live.stacks)
                assert live.state_json == self.model.states[table], table

    async def close(self, table: int, snapshot: str | None) -> None:
        """The other process empties and closes a table whose process knows its stacks (none:
        it settled there once the seats were empty); that one's next settlement is refused,
        and repeats there change nothing, quietly."""
        first, second = self.stores
        await self.one(self._empty_settlement(table), first)
        for user in sorted(self.model.stacks[table]):
            await self.one(Op("cash_out", table, self._key("out"), user=user), second)
        await self.one(self._empty_settlement(table), first)
        assert await second.tables.close_table(table, now=self._clock())
        self.model.closed.add(table)
        await self.check()
        late = replace(self._empty_settlement(table), snapshot=snapshot)
        assert await _outcome(first, late, self._clock()) is TableClosed
        for op in [op for op in self.model.keys.values() if op.table == table][-3:]:
            await self.one(op, first)
        await self.check()

    async def check_rows(self) -> None:
        """Each applied settlement's stack movements, in the order paid, and every hand."""
        async with self.stores[0]._core.db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT op_key, table_id, user_id, amount, stack_after, counterparty, hand_no "
                "FROM stack_moves WHERE kind = 'settle' ORDER BY id")
        written: dict[str, list[MoveRow]] = {}
        for key, *row in rows:
            written.setdefault(key, []).append(tuple(row))  # type: ignore[arg-type]
        assert written == {key: moved for key, moved in self.model.moves.items() if moved}
        for match, hands in self.model.hands.items():
            recorded = await self.stores[1].history.match_hands(match)
            assert [(h.hand_no, h.results) for h in recorded] == sorted(hands.items())


@pytest.fixture
def at_once_outcomes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each one-statement settlement on PostgreSQL: written (True) or undone (False)."""
    outcomes: list[bool] = []
    original = PostgresDatabase.at_once

    async def counted(self: PostgresDatabase, sql: str, params: Sequence[object]) -> bool:
        done = await original(self, sql, params)
        outcomes.append(done)
        return done

    monkeypatch.setattr(PostgresDatabase, "at_once", counted)
    return outcomes


async def test_two_processes_interleaving_a_tables_money_agree_with_the_model(
        storage: Storage, database: str, at_once_outcomes: list[bool]) -> None:
    other = await Storage.open(database)
    try:
        tables = [await storage.tables.create_table(GUILD, CHANNEL, FIRST_STATE, now=0.0)
                  for _ in range(2)]
        run = Run([storage, other], tables)
        for _ in range(STEPS):
            await run.step()
        await run.close(tables[0], None)
        await run.close(tables[1], '{"closed": true}')
        await run.check_rows()
        for store in (storage, other):
            assert (await store.audit()).ok
    finally:
        await other.close()
    assert run.concurrent >= 10  # the draws found pairs to run at the same time
    if is_postgres(database):  # the one statement both wrote settlements and undid itself
        assert True in at_once_outcomes and False in at_once_outcomes, at_once_outcomes


async def test_a_seat_taken_while_the_one_statement_waits_is_in_the_stacks_returned(
        storage: Storage, database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process seats a player while this one's one-statement settlement waits for the
    table's row: the settlement, ordered after that buy-in, returns every seat's stack."""
    if not is_postgres(database):
        pytest.skip("SQLite runs one writer at a time: no statement waits inside another")
    table = await storage.tables.create_table(GUILD, CHANNEL, FIRST_STATE, now=0.0)
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=1.0)
    await storage.tables.settle_hand(table, 1, [Transfer(ALICE, BOB, 4)], key="s1", now=2.0)
    other = await Storage.open(database)
    watcher = await asyncpg.connect(database)
    seated, resume = asyncio.Event(), asyncio.Event()
    save_state = tables_module._save_state

    async def paused(conn: Connection, table_id: int, state: str | None, now: float) -> None:
        seated.set()  # the buy-in's last write: its seat is inserted, not yet committed
        await resume.wait()
        await save_state(conn, table_id, state, now)

    try:
        monkeypatch.setattr(tables_module, "_save_state", paused)
        buy_in = asyncio.create_task(
            other.tables.buy_in(table, CAROL, 50, key="in:carol", now=3.0))
        await seated.wait()
        settle = asyncio.create_task(
            storage.tables.settle_hand(table, 2, [Transfer(BOB, ALICE, 10)], key="s2", now=4.0))
        while not await watcher.fetchval(  # the statement waits for the buy-in's lock
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"):
            await asyncio.sleep(0.01)
        resume.set()
        await buy_in
        done = await settle
    finally:
        await watcher.close()
        await other.close()
    assert done.applied
    assert (await storage.tables.table(table)).stacks == {ALICE: 106, BOB: 94, CAROL: 50}
    assert done.stacks == {ALICE: 106, BOB: 94, CAROL: 50}
