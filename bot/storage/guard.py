"""Start-up checks of the database file: one bot process per file, not damaged, writable.

Each failure is a StorageError whose message names the file and what is wrong, so the bot can
stop at start with one clear line instead of failing at the first write.
"""

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import aiosqlite

from bot.storage.backend import Accept
from bot.storage.errors import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseReadOnly,
    NotOurs,
    StorageError,
)


def lock_path(path: str | Path) -> Path:
    """Beside the file the path leads to: a symlink to the database takes the same lock."""
    return Path(f"{os.path.realpath(path)}.lock")


def acquire_lock(path: str | Path) -> IO[str]:
    """Hold an exclusive lock on `<database>.lock` until the returned file is closed (or the
    process ends: the kernel drops a flock with the process, so a crash leaves no stale lock).
    A second holder, in this process or another, gets DatabaseInUse."""
    lock = lock_path(path)
    try:
        handle = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 (held until close)
    except OSError as e:
        raise DatabaseReadOnly(f"Cannot create the lock file {lock}: {e.strerror}") from e
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise DatabaseInUse(
            f"Database {path} is in use by another ofc-bot{who}: run one bot per database "
            f"(lock file {lock})") from None
    handle.truncate(0)
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def release_lock(handle: IO[str] | None) -> None:
    if handle is not None:
        with contextlib.suppress(OSError):
            handle.close()


def check_not_folder(path: str | Path) -> None:
    """A folder where the database file was meant: said so, before a lock file is made
    beside it (SQLite would only say it is "unable to open database file")."""
    if Path(path).is_dir():
        raise StorageError(f"{path} is a folder, not a database file: name the file itself, "
                           f"for example {Path(path) / 'ofc.sqlite3'}")


def check_ours(path: str | Path, accept: Accept) -> None:
    """Refuse, before opening would write the bot's tables into it, a file `accept` does not
    take: no file, or one that is no database of the bot (another program's; for "ours", an
    empty one too)."""
    check_not_folder(path)
    if not Path(path).is_file():
        if accept == "ours or empty":
            return
        raise StorageError(f"There is no database at {path}")
    try:
        with contextlib.closing(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro",
                                                uri=True)) as conn:
            held = [str(name) for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]
    except sqlite3.OperationalError:
        return  # it cannot be looked at (locked, unreadable): opening it says why
    except sqlite3.DatabaseError:  # not an SQLite file at all
        raise NotOurs(str(path)) from None
    refuse_unless_ours(str(path), held, accept)


def refuse_unless_ours(where: str, held: Sequence[str], accept: Accept) -> None:
    """NotOurs unless a database holding the tables `held` is one `accept` takes."""
    if "schema_version" in held or (accept == "ours or empty" and not held):
        return
    raise NotOurs(where, held if accept == "ours or empty" else ())


def check_access(path: str | Path) -> None:
    """The file, if it exists, and its folder must be writable (os.access: as root this
    passes; `probe_write` then tells)."""
    file = Path(path)
    folder = file.parent
    if file.exists() and not os.access(file, os.W_OK):
        raise DatabaseReadOnly(f"Database {path} is read-only: the bot needs to write to it")
    if not os.access(folder, os.W_OK):
        raise DatabaseReadOnly(
            f"The folder of database {path} is read-only: SQLite keeps its -wal and -shm "
            "files beside the database")


async def quick_check(conn: aiosqlite.Connection, path: str | Path) -> None:
    """SQLite's `PRAGMA quick_check`: DatabaseDamaged naming the first problem found. (A file
    SQLite cannot read at all raises sqlite3.DatabaseError: "file is not a database".)"""
    found = [str(r[0]) for r in await conn.execute_fetchall("PRAGMA quick_check")]
    if found == ["ok"]:
        return
    problems = [line for text in found for line in text.splitlines()
                if line and not line.startswith("*** in database")]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    first = problems[0] if problems else "no result"
    raise DatabaseDamaged(
        f"Database {path} is damaged: SQLite's quick_check found: {first}{more}. Restore it "
        "from a backup")


async def probe_write(conn: aiosqlite.Connection, path: str | Path) -> None:
    """Write in a transaction that is rolled back: DatabaseReadOnly when SQLite cannot (a
    read-only file or mount, `mode=ro`, an immutable file...), whoever runs the bot."""
    try:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            await conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (-1, 0)")
        finally:
            with contextlib.suppress(sqlite3.OperationalError):
                await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as e:
        raise DatabaseReadOnly(f"Database {path} cannot be written: {e}") from e


def file_of(path: str | Path) -> Path:
    """The file of a path or of an SQLite `file:` URI (`file:ofc.sqlite3?mode=ro`)."""
    text = str(path)
    if text.startswith("file:"):
        return Path(text[len("file:"):].split("?", 1)[0])
    return Path(text)
