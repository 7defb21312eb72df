"""SQLite: the one aiosqlite connection, its settings, and the lock that keeps transactions
whole."""

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import aiosqlite

from bot.storage import guard
from bot.storage.backend import AtOnce, Dialect, Row, closed_on_failure
from bot.storage.errors import StorageError
from bot.storage.migrations import LATEST, migrate, version_of

BUSY_TIMEOUT_MS = 5000


class SQLiteConnection:
    """`backend.Connection` over aiosqlite: the SQL is SQLite's already."""

    dialect: Dialect = "sqlite"
    for_update = ""
    for_share = ""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        cursor = await self.raw.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self.raw.executemany(sql, rows)

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return [tuple(row) for row in await self.raw.execute_fetchall(sql, params)]

    async def together(self, *statements: Awaitable[Any]) -> list[Any]:
        # aiosqlite runs a connection's statements in the order they were queued, so queueing
        # several before waiting costs one thread round trip instead of one each (the hot path
        # of a settlement).
        results = await asyncio.gather(*statements, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return results

    async def lock_table(self, table: str) -> None:
        """Nothing to do: BEGIN IMMEDIATE holds the whole database's write lock."""


class SQLiteDatabase:
    """One connection shared by every coroutine of the process.

    aiosqlite runs each statement on the connection's thread in the order they were queued,
    but coroutines interleave between statements: without a lock, one coroutine's UPDATE could
    land inside another's BEGIN ... COMMIT (and be rolled back with it, or read its
    uncommitted writes). So every unit of work, reads included, holds `_lock` from BEGIN to
    COMMIT; other processes are kept out by SQLite's own locks (BEGIN IMMEDIATE, busy_timeout).
    """

    dialect: Dialect = "sqlite"
    at_once: AtOnce | None = None  # a transaction is one thread hop already

    def __init__(self, conn: aiosqlite.Connection, lock: IO[str] | None = None) -> None:
        self._conn = SQLiteConnection(conn)
        self._lock = asyncio.Lock()
        self._file_lock = lock  # `<database>.lock`, held until close (exclusive open)
        # Told (write?, seconds) after every committed transaction: operators' metrics.
        self.observer: Callable[[bool, float], None] | None = None

    @classmethod
    async def open(cls, path: str | Path, *, exclusive: bool = False,
                   migrate: bool = True) -> "SQLiteDatabase":
        """Open (creating if needed) the file, set WAL, foreign keys and busy timeout, migrate.

        Start-up checks, each a StorageError naming the file: `exclusive` holds the lock file
        `<database>.lock` until close, so a second bot on the file stops at once
        (DatabaseInUse); SQLite's quick_check (DatabaseDamaged); a write in a transaction
        rolled back (DatabaseReadOnly), so a read-only file fails now, not at the first
        write. `path` may be an SQLite `file:` URI (`?mode=ro`). Without `migrate` (the
        audit) the file is only read: not migrated, nor turned to WAL, nor required to be
        writable (a backup on a read-only mount is audited); only an older bot's is probed,
        since its audit migrates it in a transaction then rolled back."""
        file = guard.file_of(path)
        guard.check_not_folder(file)
        lock = guard.acquire_lock(file) if exclusive else None
        try:
            if migrate:
                guard.check_access(file)
                if not str(path).startswith("file:"):
                    _create_owner_only(file)
            return cls(await cls._connect(path, migrate), lock)
        except BaseException:
            guard.release_lock(lock)
            raise

    @staticmethod
    async def _connect(path: str | Path, migrate: bool) -> aiosqlite.Connection:
        opening = asyncio.ensure_future(aiosqlite.connect(
            path, isolation_level=None, uri=str(path).startswith("file:")))
        try:
            conn = await asyncio.shield(opening)
        except asyncio.CancelledError:
            # Cancelled (Ctrl+C) while aiosqlite's thread opens the file: that thread would
            # report to a closed event loop (a traceback at exit) and keep the file open.
            with contextlib.suppress(Exception):
                await (await opening).close()
            raise
        except sqlite3.Error as e:
            raise StorageError(f"Cannot open database {path}: {e}") from e
        async with closed_on_failure(conn.close, sqlite3.DatabaseError, str(path)):
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await guard.quick_check(conn, path)
            await conn.execute("PRAGMA foreign_keys = ON")
            if not migrate:
                # Only read, but an older bot's database is audited migrated in a transaction
                # then rolled back: that takes a write, refused here as the bot's would be.
                if await version_of(SQLiteConnection(conn)) < LATEST:
                    await guard.probe_write(conn, path)
                return conn
            mode = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            if mode[0][0] != "wal":
                raise StorageError(f"Database {path} cannot use WAL (journal mode {mode[0][0]})")
            # FULL: a commit reported to a player survives a power cut, not only a crash.
            await conn.execute("PRAGMA synchronous = FULL")
            await migrate_file(conn)
            await guard.probe_write(conn, path)
        return conn

    @property
    def single_process(self) -> bool:
        """This process holds the file's lock: no other process can be using the database."""
        return self._file_lock is not None

    async def close(self) -> None:
        async with self._lock:
            await self._conn.raw.close()
            guard.release_lock(self._file_lock)
            self._file_lock = None

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[SQLiteConnection]:
        """Hold the lock for one transaction; commit on success, roll back on any exception.

        `write=False` takes a read snapshot (BEGIN DEFERRED) so multi-statement queries see
        one consistent state.
        """
        raw = self._conn.raw
        async with self._lock:
            try:
                # Inside the try: a task cancelled while awaiting BEGIN has still begun the
                # transaction on aiosqlite's thread, and must end it before the lock goes.
                began = time.perf_counter()
                await raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._conn
                await raw.execute("COMMIT")
                if self.observer is not None:
                    self.observer(write, time.perf_counter() - began)
            except BaseException:
                # Statements run in queue order on aiosqlite's thread, so this ROLLBACK runs
                # before any later BEGIN even if we are cancelled while awaiting it. It fails
                # harmlessly when the COMMIT itself went through, SQLite already rolled back,
                # or BEGIN never ran.
                with contextlib.suppress(sqlite3.OperationalError):
                    await raw.execute("ROLLBACK")
                raise


def _create_owner_only(file: Path) -> None:
    """A new database file readable by its owner only: it will hold every live hand's deck
    and the players' dealt cards and discards (R7), and SQLite gives its -wal and -shm files
    the same permissions. An existing file is left as it is."""
    try:
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as error:
        raise StorageError(f"Cannot open database {file}: {error.strerror}") from error


async def migrate_file(conn: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring an SQLite file up to `target` (default: the newest) in one write transaction;
    the version reached. The version is read inside the transaction, so two processes
    starting at once cannot both apply the same migration."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        reached = await migrate(SQLiteConnection(conn), target)
        await conn.execute("COMMIT")
    except BaseException:
        # A COMMIT the disk refused (full) was rolled back by SQLite itself: this ROLLBACK's
        # "no transaction is active" would then hide why.
        with contextlib.suppress(sqlite3.OperationalError):
            await conn.execute("ROLLBACK")
        raise
    return reached
