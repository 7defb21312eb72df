"""A consistent copy of an SQLite database, taken while the bot runs (`ofc-bot backup`).

SQLite's online backup API copies every page in one step, inside one read transaction: the
copy is the database as it was at one commit. In WAL mode a reader does not block the writer,
so the bot goes on playing meanwhile. No bot lock is taken (the running bot holds it).

The copy is written beside PATH under a temporary name, checked (quick_check), flushed to
disk, and only then given its name, so PATH is never a half-written file; a file already at
PATH is never replaced. The copy is in SQLite's rollback-journal mode, one file that stands
alone (no -wal beside it); a bot started on it turns WAL back on.

PostgreSQL is backed up with its own tools: `pg_dump` (the refusal names the line to run).
"""

import os
import shlex
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.storage import guard
from bot.storage.backend import describe, is_postgres, sqlite_path, without_password
from bot.storage.errors import StorageError
from bot.storage.sqlite import BUSY_TIMEOUT_MS


class BackupRefused(StorageError):
    """No backup was made and nothing was written: the message says why."""


@dataclass(frozen=True)
class Backup:
    source: Path
    path: Path
    size: int  # bytes
    schema_version: int


def pg_dump_line(target: str, path: str | Path) -> str:
    """The command that backs up a PostgreSQL database into `path` (without the URL's
    password: pg_dump asks for it, or reads ~/.pgpass or PGPASSWORD). A `path` named as an
    SQLite file (the SQLite cron line, kept after a move to PostgreSQL) becomes `.dump`: the
    SQLite restore and `ofc audit` would take the file for a database."""
    if Path(path).suffix == ".sqlite3":
        path = Path(path).with_suffix(".dump")
    return (f"pg_dump --format=custom --file={shlex.quote(str(path))} "
            f"{shlex.quote(without_password(target))}")


def backup(target: str, destination: str | Path) -> Backup:
    """Copy the SQLite database `target` into the new file `destination`."""
    if is_postgres(target):
        # the command mid-sentence: the line's closing period is not glued to the URL
        raise BackupRefused(f"{describe(target)} is a PostgreSQL database: run "
                            f"{pg_dump_line(target, destination)} to back it up")
    source = Path(sqlite_path(target))
    guard.check_not_folder(source)
    if not source.is_file():
        raise BackupRefused(f"There is no database at {source}")
    path = Path(destination)
    _check_destination(path)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial",
                                    dir=path.parent)
    except OSError as error:
        raise BackupRefused(f"Cannot write in {path.parent}: {error.strerror}") from error
    os.close(fd)
    partial = Path(name)
    try:
        version = _copy(source, partial)
        _place(partial, path)
    except OSError as error:  # a full disk, a file system that refuses
        raise BackupRefused(f"Cannot write {path}: {error.strerror}") from error
    finally:
        partial.unlink(missing_ok=True)
    return Backup(source, path, path.stat().st_size, version)


def _check_destination(path: Path) -> None:
    if path.is_dir():
        raise BackupRefused(f"{path} is a folder: name the backup file, e.g. "
                            f"{path / 'ofc-YYYY-MM-DD.sqlite3'}")
    if path.exists() or path.is_symlink():
        raise BackupRefused(f"{path} already exists: a backup never replaces a file; name a new "
                            "one (e.g. with the date) or remove that one first")
    if not path.parent.is_dir():
        raise BackupRefused(f"There is no folder {path.parent}")


def _copy(source: Path, partial: Path) -> int:
    """Back `source` up into `partial`, check and flush the copy; its schema version."""
    # mode=rw: never create the source; the backup only reads it (read-only opening of a
    # WAL database would need write access to its -shm file anyway).
    uri = f"{source.resolve().as_uri()}?mode=rw"
    try:
        original = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            copy = sqlite3.connect(partial)
            try:
                original.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
                found = [str(row[0]) for row in copy.execute("PRAGMA quick_check")]
                if found != ["ok"]:
                    raise BackupRefused(f"The copy of {source} fails SQLite's quick_check "
                                        f"({found[0]}): the database itself may be damaged")
                ((version,),) = copy.execute("SELECT coalesce(max(version), 0) FROM "
                                             "schema_version")
            finally:
                copy.close()
        finally:
            original.close()
    except sqlite3.Error as error:
        raise BackupRefused(f"Cannot back up {source}: {error}") from error
    with open(partial, "rb") as written:
        os.fsync(written.fileno())
    return int(version)


def _place(partial: Path, path: Path) -> None:
    """Give the finished copy its name, never replacing a file that appeared meanwhile."""
    try:
        os.link(partial, path)
    except FileExistsError:
        _check_destination(path)  # refused: the file that is there now
        raise
    except OSError:  # a file system without hard links: a rename (checked just before)
        _check_destination(path)
        os.rename(partial, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the new name survives a power cut too
    finally:
        os.close(folder)
