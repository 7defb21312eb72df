"""The one aiosqlite connection, its settings, and the lock that keeps transactions whole."""

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import IO, Any

import aiosqlite

from bot.storage import guard
from bot.storage.errors import StorageError
from bot.storage.migrations import migrate
from bot.storage.sql import fetchall

BUSY_TIMEOUT_MS = 5000


async def run_together(*statements: Awaitable[Any]) -> list[Any]:
    """Await several statements queued back to back; return their results in order.

    aiosqlite runs a connection's statements in the order they were queued, so queueing
    several before waiting costs one thread round trip instead of one each (the hot path of
    a settlement). All of them run; then the first error in argument order, if any, is
    raised and the caller's transaction rolls back.
    """
    results = await asyncio.gather(*statements, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


class Database:
    """One connection shared by every coroutine of the process.

    aiosqlite runs each statement on the connection's thread in the order they were queued,
    but coroutines interleave between statements: without a lock, one coroutine's UPDATE could
    land inside another's BEGIN ... COMMIT (and be rolled back with it, or read its
    uncommitted writes). So every unit of work, reads included, holds `_lock` from BEGIN to
    COMMIT; other processes are kept out by SQLite's own locks (BEGIN IMMEDIATE, busy_timeout).
    """

    def __init__(self, conn: aiosqlite.Connection, lock: IO[str] | None = None) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._file_lock = lock  # `<database>.lock`, held until close (exclusive open)
        # Told (write?, seconds) after every committed transaction: operators' metrics.
        self.observer: Callable[[bool, float], None] | None = None

    @classmethod
    async def open(cls, path: str | Path, *, exclusive: bool = False) -> "Database":
        """Open (creating if needed) the file, set WAL, foreign keys and busy timeout, migrate.

        Start-up checks, each a StorageError naming the file: `exclusive` holds the lock file
        `<database>.lock` until close, so a second bot on the file stops at once
        (DatabaseInUse); SQLite's quick_check (DatabaseDamaged); a write in a transaction
        rolled back (DatabaseReadOnly), so a read-only file fails now, not at the first
        write. `path` may be an SQLite `file:` URI (`?mode=ro`)."""
        file = guard.file_of(path)
        lock = guard.acquire_lock(file) if exclusive else None
        try:
            guard.check_access(file)
            return cls(await cls._connect(path), lock)
        except BaseException:
            guard.release_lock(lock)
            raise

    @staticmethod
    async def _connect(path: str | Path) -> aiosqlite.Connection:
        try:
            conn = await aiosqlite.connect(path, isolation_level=None,
                                           uri=str(path).startswith("file:"))
        except sqlite3.Error as e:
            raise StorageError(f"Cannot open database {path}: {e}") from e
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await guard.quick_check(conn, path)
            mode = await fetchall(conn, "PRAGMA journal_mode = WAL")
            if mode[0][0] != "wal":
                raise StorageError(f"Database {path} cannot use WAL (journal mode {mode[0][0]})")
            # FULL: a commit reported to a player survives a power cut, not only a crash.
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn)
            await guard.probe_write(conn, path)
        except sqlite3.DatabaseError as e:
            await conn.close()
            raise StorageError(f"Cannot use database {path}: {e}") from e
        except BaseException:
            await conn.close()
            raise
        return conn

    @property
    def single_process(self) -> bool:
        """This process holds the file's lock: no other process can be using the database."""
        return self._file_lock is not None

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()
            guard.release_lock(self._file_lock)
            self._file_lock = None

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock for one transaction; commit on success, roll back on any exception.

        `write=False` takes a read snapshot (BEGIN DEFERRED) so multi-statement queries see
        one consistent state.
        """
        async with self._lock:
            try:
                # Inside the try: a task cancelled while awaiting BEGIN has still begun the
                # transaction on aiosqlite's thread, and must end it before the lock goes.
                began = time.perf_counter()
                await self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._conn
                await self._conn.execute("COMMIT")
                if self.observer is not None:
                    self.observer(write, time.perf_counter() - began)
            except BaseException:
                # Statements run in queue order on aiosqlite's thread, so this ROLLBACK runs
                # before any later BEGIN even if we are cancelled while awaiting it. It fails
                # harmlessly when the COMMIT itself went through, SQLite already rolled back,
                # or BEGIN never ran.
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._conn.execute("ROLLBACK")
                raise
