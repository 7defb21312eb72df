"""Both storage backends in the tests: a fresh SQLite file, or a fresh PostgreSQL database.

One PostgreSQL server per test session (tests/pgserver.py: the installed binaries, a temporary
folder, a unix socket; as the `postgres` user under root), started the first time a test asks
for it. A template database is migrated once; each test gets its own copy (CREATE DATABASE ...
TEMPLATE, a fraction of a second), dropped after the test. Without the binaries, the
PostgreSQL half of each test skips and says why.

Queries here use plain sqlite3 / asyncpg, never the code under test: `Reader` runs the
independent checks (tests/storage/audit.py) against either backend.
"""

import asyncio
import itertools
import os
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from bot.storage import Storage
from tests.pgserver import TempServer, Unavailable

T = TypeVar("T")
BACKENDS = ("sqlite", "postgresql")
TEMPLATE = "ofc_template"


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith("postgresql://")


# The tables in the order they were created (the migrations' order: each row's foreign keys
# are in an earlier table), and the identity sequences that number new rows.
_TABLES = ("SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = "
           "c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public' "
           "AND c.relname <> 'schema_version' ORDER BY c.oid")
_NUMBERED = ("SELECT table_name, column_name, pg_get_serial_sequence(table_name, column_name) "
             "FROM information_schema.columns WHERE table_schema = 'public' "
             "AND is_identity = 'YES'")


@dataclass
class Postgres:
    """The session's server (or why there is none) and its reusable databases."""

    server: TempServer | None
    reason: str = ""
    urls: dict[str, str] = field(default_factory=dict)

    async def empty(self, name: str) -> str:
        """Database `name` at the newest schema with no rows: made from the template the first
        time, emptied (rows deleted, numbering back at 1, any connection left closed) after.
        Much quicker than a new database per test."""
        assert self.server is not None
        if name not in self.urls:
            self.urls[name] = await self.server.create_database(name, template=TEMPLATE)
            return self.urls[name]
        conn = await asyncpg.connect(self.urls[name])
        try:
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = $1 AND pid <> pg_backend_pid()", name)
            tables = [t for (t,) in await conn.fetch(_TABLES)]
            sequences = [q for (_, _, q) in await conn.fetch(_NUMBERED)]
            await conn.execute("; ".join(
                [f"DELETE FROM {table}" for table in reversed(tables)]
                + [f"SELECT setval('{sequence}', 1, false)" for sequence in sequences]))
        finally:
            await conn.close()
        return self.urls[name]


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a loop of its own, whether or not a loop is running here."""
    result: list[T] = []
    failure: list[BaseException] = []

    def main() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def start_postgres() -> Postgres:
    try:
        server = TempServer()
        server.start()
    except Unavailable as why:
        return Postgres(None, f"PostgreSQL tests skipped: {why}")

    async def template() -> None:
        await (await Storage.open(await server.create_database(TEMPLATE))).close()

    try:
        run_async(template())
    except BaseException:
        server.stop()
        raise
    return Postgres(server)


def postgres_of(request: pytest.FixtureRequest) -> Postgres:
    """The session's server; the test skips, saying why, when there is none (fails when
    OFC_TEST_POSTGRES=required, as in CI: there, a skip would hide half the suite)."""
    postgres: Postgres = request.getfixturevalue("postgres")
    if postgres.server is None:
        if os.environ.get("OFC_TEST_POSTGRES") == "required":
            pytest.fail(f"{postgres.reason} (OFC_TEST_POSTGRES=required)")
        pytest.skip(postgres.reason)
    return postgres


@asynccontextmanager
async def fresh_database(kind: str, request: pytest.FixtureRequest,
                         tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of `kind` at the newest schema (SQLite: a file not yet created)."""
    if kind == "sqlite":
        yield str(tmp_path / "ofc.sqlite3")
    else:
        yield await postgres_of(request).empty("tests")


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Each test of a package whose conftest imports this runs on SQLite and on PostgreSQL."""
    async with fresh_database(request.param, request, tmp_path) as target:
        yield target


_MARK = re.compile(r"\?")


def _numbered(sql: str) -> str:
    """PostgreSQL's `$1, $2...` for `?` (the tests' SQL has no `?` in a string)."""
    count = itertools.count(1)
    return _MARK.sub(lambda _: f"${next(count)}", sql)


class Reader:
    """Plain queries with `?` placeholders on an SQLite file or a PostgreSQL URL; rows as
    tuples of Python values (PostgreSQL's numeric sums as ints). All of them in one
    transaction, so they see one state of the database (another process may be committing
    meanwhile); `write`s are committed at the end."""

    def __init__(self, target: str | Path) -> None:
        self.target = str(target)
        self.postgres = is_postgres(target)
        self._sqlite: sqlite3.Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._conn: asyncpg.Connection | None = None

    def __enter__(self) -> "Reader":
        if not self.postgres:
            self._sqlite = sqlite3.connect(self.target, isolation_level=None)
            self._sqlite.execute("BEGIN")
            return self
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._on_loop(asyncpg.connect(self.target))
        self._on_loop(self._conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ"))
        return self

    def __exit__(self, *exc: object) -> None:
        end = "ROLLBACK" if exc[0] is not None else "COMMIT"
        if self._sqlite is not None:
            self._sqlite.execute(end)
            self._sqlite.close()
        if self._loop is not None and self._thread is not None:
            if self._conn is not None:
                self._on_loop(self._conn.execute(end))
                self._on_loop(self._conn.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    def _on_loop(self, coroutine: Coroutine[Any, Any, T]) -> T:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def __call__(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        if self._sqlite is not None:
            return [tuple(row) for row in self._sqlite.execute(sql, params)]
        assert self._conn is not None
        records = self._on_loop(self._conn.fetch(_numbered(sql), *params))
        return [tuple(int(v) if isinstance(v, Decimal) else v for v in r) for r in records]

    def write(self, sql: str, params: Sequence[object] = ()) -> None:
        """Change the database behind the code's back (tests that corrupt a copy)."""
        self.write_many(sql, [params])

    def write_many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if self._sqlite is not None:
            self._sqlite.executemany(sql, rows)
            return
        assert self._conn is not None
        self._on_loop(self._conn.executemany(_numbered(sql), rows))


Rows = dict[str, tuple[str, list[tuple[Any, ...]]]]  # table -> (its columns, its rows)


def copy_now(source: str, destination: Path) -> str | Rows:
    """A copy of `source` as it is now, while it stays in use: an SQLite file through SQLite's
    backup (at `destination`); a PostgreSQL database's rows (see `usable`)."""
    if not is_postgres(source):
        with sqlite3.connect(source) as src, sqlite3.connect(destination) as dst:
            src.backup(dst)
        return str(destination)
    rows: Rows = {}
    with Reader(source) as read:
        for (table,) in read(_TABLES):
            columns = ", ".join(name for (name,) in read(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                "'public' AND table_name = ? ORDER BY ordinal_position", (table,)))
            rows[table] = (columns, read(f"SELECT {columns} FROM {table}"))
    return rows


async def usable(copy: str | Rows, postgres: Postgres | None) -> str:
    """Where a copy can be opened: the SQLite file, or the rows put in the reusable database
    `copy` (one copy at a time)."""
    if isinstance(copy, str):
        return copy
    assert postgres is not None
    url = await postgres.empty("copy")
    conn = await asyncpg.connect(url)
    try:
        for table, (columns, rows) in copy.items():
            if rows:
                marks = ", ".join(f"${n}" for n in range(1, len(rows[0]) + 1))
                await conn.executemany(
                    f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
        for table, column, sequence in await conn.fetch(_NUMBERED):
            await conn.execute(f"SELECT setval('{sequence}', coalesce((SELECT max({column}) "
                               f"FROM {table}), 0) + 1, false)")
    finally:
        await conn.close()
    return url
