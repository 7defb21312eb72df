"""PostgreSQL through asyncpg: a pool of connections, one per transaction at a time.

Unlike SQLite's one connection, transactions of one process run at once here, as do other
processes' (sharded bots on one database). Writes run at READ COMMITTED, and every
read-then-write takes its row lock first (`for_update`, `lock_table`; see the storage
modules), so two buy-ins on one wallet wait for each other instead of both spending the same
chips. Rows are locked in one order (a table, then wallets by user id; a tournament, then a
wallet), so two transactions never wait for each other. Reads run at REPEATABLE READ, READ
ONLY: several statements see one snapshot, as SQLite's BEGIN gives.
"""

import contextlib
import functools
import inspect
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from decimal import Decimal
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage import catalog, guard
from bot.storage.backend import Accept, Dialect, Row, closed_on_failure, describe
from bot.storage.errors import DatabaseInUse, StorageError
from bot.storage.migrations import migrate as migrate_to_latest

POOL_SIZE = 10
CONNECT_TIMEOUT_S = 10.0
# A sharded process frozen in the middle of a transaction (a long pause, a frozen virtual
# machine) would hold its row locks, its lease's among them (fencing.py), until it resumed:
# the process taking its shards over would wait for it. PostgreSQL ends such a transaction
# once it has waited this long on the process instead, far above any wait of the bot's own
# transactions between two statements. Frozen between two messages of one statement (asyncpg
# streams an executemany's rows), the session is running that statement, not idle, and no
# server setting ends it (a statement timeout is not acted on while the server reads from
# the client): a table lock ends such sessions itself (`PostgresConnection.past_frozen`).
IDLE_IN_TRANSACTION_MS = 10_000
# How long one try at a table lock waits before looking for frozen sessions in its way.
LOCK_TRY_MS = 1_000
# Sharded processes' sessions go by this name, so that only theirs are ever ended.
APPLICATION_NAME = "ofc-bot"
_FROZEN = """
    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND usename = current_user
      AND application_name = ? AND pid <> pg_backend_pid() AND state = 'active'
      AND wait_event IN ('ClientRead', 'ClientWrite')
      AND state_change < clock_timestamp() - make_interval(secs => ?)"""
# Any fixed number: the lock a bot holds on its database for its whole life (`exclusive`).
_BOT_LOCK = 0x0FC_B07
_BEGIN_WRITE = "BEGIN ISOLATION LEVEL READ COMMITTED"
_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_PLACEHOLDER = re.compile(r"'[^']*'|\?")


@functools.lru_cache(maxsize=1024)
def _pieces(sql: str) -> tuple[str, ...]:
    """The text around each `?` placeholder (none is inside a quoted string)."""
    pieces, start = [], 0
    for match in _PLACEHOLDER.finditer(sql):
        if match.group() == "?":
            pieces.append(sql[start:match.start()])
            start = match.end()
    return (*pieces, sql[start:])


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...`."""
    first, *rest = _pieces(sql)
    return first + "".join(f"${number}{piece}" for number, piece in enumerate(rest, 1))


def _inlined(sql: str, params: Sequence[int]) -> str:
    """The statement with its whole-number parameters written in (bracketed: `- (-1)` is not
    a comment): one that can travel as text, with the BEGIN before it."""
    first, *rest = _pieces(sql)
    return first + "".join(f"({value:d}){piece}" for value, piece in zip(params, rest,
                                                                        strict=True))


def _plain(value: object) -> object:
    # PostgreSQL sums bigints as numeric; the schema has no numeric column, so every Decimal
    # read is a sum of whole numbers.
    return int(value) if isinstance(value, Decimal) else value


def _changed(status: str) -> int:
    """The row count of a command tag: 'INSERT 0 1', 'UPDATE 3', 'DELETE 0'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def _as_it_is(conn: object) -> None:
    """A connection going back to the pool: `transaction` has already ended its transaction
    (asyncpg's own clean-up before this rolls back one left open by a cancelled statement), and
    storage sets no session state (no SET, LISTEN or session lock), so asyncpg's reset query, a
    round trip per transaction, has nothing to undo."""


class PostgresConnection:
    """`backend.Connection` over one asyncpg connection inside a transaction.

    The transaction's BEGIN (`begin`, when not sent yet) waits for its first statement, and
    travels with it in one round trip when that statement can go as text: a simple query has
    no parameters and returns only its row count, so this is for a statement whose parameters
    are all whole numbers and whose rows are not wanted, such as the table's row lock that
    starts every money operation. Any other first statement sends the BEGIN on its own first.
    """

    dialect: Dialect = "postgresql"
    for_update = " FOR NO KEY UPDATE"
    for_share = " FOR SHARE"

    def __init__(self, conn: "asyncpg.Connection[Any] | PoolConnectionProxy[Any]",
                 begin: str = "") -> None:
        self.raw = conn
        self._begin = begin

    @property
    def begun(self) -> bool:
        """Whether the transaction has reached the server (a statement was sent)."""
        return not self._begin

    async def _send_begin(self) -> None:
        if self._begin:
            begin, self._begin = self._begin, ""
            await self.raw.execute(begin)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        if self._begin:  # only a transaction's first statement can carry its BEGIN
            whole = [value for value in params if type(value) is int]  # not bool: True is 1
            if len(whole) == len(params):
                begin, self._begin = self._begin, ""
                return _changed(await self.raw.execute(f"{begin}; {_inlined(sql, whole)}"))
        await self._send_begin()
        return _changed(await self.raw.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        batch = list(rows)
        if batch:
            await self._send_begin()
            await self.raw.executemany(numbered(sql), batch)

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        await self._send_begin()
        records = await self.raw.fetch(numbered(sql), *params)
        return [tuple(_plain(value) for value in record) for record in records]

    async def together(self, *statements: Awaitable[Any]) -> list[Any]:
        results: list[Any] = []
        for index, statement in enumerate(statements):  # one statement at a time
            try:
                results.append(await statement)
            except BaseException:
                # The transaction is aborted: the rest could only fail. Closed, never run.
                for rest in statements[index + 1:]:
                    if inspect.iscoroutine(rest):
                        rest.close()
                raise
        return results

    async def lock_table(self, table: str) -> None:
        # EXCLUSIVE: also waits for the transactions holding a row of it FOR SHARE (a
        # claim of shards waits for the fenced writes under way), and stops new ones.
        await self.past_frozen(f"LOCK TABLE {table} IN EXCLUSIVE MODE")

    async def past_frozen(self, statement: str) -> None:
        """Run `statement` (no parameters), waiting for its locks a try at a time; between
        tries, end the sharded processes' sessions that have been frozen in the middle of a
        statement for as long as an idle transaction may last (their transactions roll back,
        nothing of them is written), which would otherwise hold those locks forever. A claim
        of the shards of a frozen process gets through this way."""
        while True:
            # A savepoint: a try that times out undoes itself, its lock timeout with it.
            await self.execute(f"SAVEPOINT frozen; SET LOCAL lock_timeout = {LOCK_TRY_MS}")
            try:
                await self.execute(statement)
            except asyncpg.LockNotAvailableError:
                await self.execute("ROLLBACK TO SAVEPOINT frozen")
                await self.execute(_FROZEN, (APPLICATION_NAME, IDLE_IN_TRANSACTION_MS / 1000))
                continue
            await self.execute("SET LOCAL lock_timeout = DEFAULT; RELEASE SAVEPOINT frozen")
            return


class PostgresDatabase:
    dialect: Dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, holder: asyncpg.Connection | None,
                 alone: bool = False) -> None:
        self._pool = pool
        self._holder = holder  # the connection holding the bot's lock (exclusive open)
        self._alone = alone  # the lock is held exclusively
        self.observer: Callable[[bool, float], None] | None = None

    @property
    def single_process(self) -> bool:
        return self._alone

    @classmethod
    async def open(cls, url: str, *, exclusive: bool = False, shared: bool = False,
                   accept: Accept = "any", migrate: bool = True) -> "PostgresDatabase":
        """Connect, migrate, and with `exclusive` (the bot) hold a session lock until close,
        so a second bot on the same database stops at once (DatabaseInUse). `shared` (one
        process of sharded bots) holds it shared: the fleet's processes together, each owning
        its shards by lease (leases.py), while a bot that wants it alone is refused.
        `accept`: which databases it takes (backend.Accept); any other is refused (NotOurs)
        instead of migrated. Without `migrate` (the audit) it is left at its version."""
        where = describe(url)
        holder = None
        try:
            if exclusive or shared:
                holder = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
                take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
                if not await holder.fetchval(f"SELECT {take}({_BOT_LOCK})"):
                    raise DatabaseInUse(
                        f"Database {where} is in use by another ofc-bot: run one bot per "
                        "database, or sharded processes (--shard-count) only")
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT_S, reset=_as_it_is,
                server_settings={"idle_in_transaction_session_timeout":
                                 str(IDLE_IN_TRANSACTION_MS),
                                 "application_name": APPLICATION_NAME} if shared else None)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
            if holder is not None:
                await holder.close()
            raise StorageError(f"Cannot connect to PostgreSQL at {where}: {e}") from e
        except BaseException:
            if holder is not None:
                await holder.close()
            raise
        database = cls(pool, holder, alone=holder is not None and not shared)
        async with closed_on_failure(database.close, asyncpg.PostgresError, where), \
                database.transaction() as conn:
            if accept != "any":
                guard.refuse_unless_ours(where, await catalog.held(conn), accept)
            if migrate:
                await migrate_to_latest(conn)
        return database

    async def close(self) -> None:
        await self._pool.close()
        if self._holder is not None:
            await self._holder.close()
            self._holder = None

    async def at_once(self, sql: str, params: Sequence[object]) -> bool:
        """Run one statement as its own transaction: the server commits it as it ends, one
        round trip where BEGIN, the statement and COMMIT take three. False when it refused
        itself, by dividing by zero (SQL's one way to undo all of a statement: it raises
        nothing else), or lost a deadlock: nothing of it was written."""
        async with self._pool.acquire() as raw:
            began = time.perf_counter()
            try:
                await raw.execute(numbered(sql), *params)
            except (asyncpg.DivisionByZeroError, asyncpg.DeadlockDetectedError):
                return False
            if self.observer is not None:
                self.observer(True, time.perf_counter() - began)
        return True

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[PostgresConnection]:
        """BEGIN (sent with the first statement), COMMIT on success, ROLLBACK on any
        exception; a transaction that sent nothing costs no round trip."""
        async with self._pool.acquire() as raw:
            began = time.perf_counter()
            conn = PostgresConnection(raw, _BEGIN_WRITE if write else _BEGIN_READ)
            try:
                yield conn
            except BaseException:
                if raw.is_in_transaction():
                    # Keep the error that ended the transaction: the pool's reset rolls back
                    # whatever this could not (a statement cancelled mid-flight).
                    with contextlib.suppress(Exception):
                        await raw.execute("ROLLBACK")
                raise
            if conn.begun:
                await raw.execute("COMMIT")
            if self.observer is not None:
                self.observer(write, time.perf_counter() - began)
