"""Start-up checks of the database (refused at start): one bot per file, SQLite's quick_check, and a
read-only file refused at open rather than at the first write."""

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseReadOnly,
    Storage,
    StorageError,
)
from tests.backends import postgres_of
from tests.storage.conftest import ALICE, CHANNEL, GUILD


async def filled(path: Path) -> None:
    """A closed database (its WAL checkpointed into the file) with rows in every table."""
    store = await Storage.open(path)
    try:
        for number in range(40):
            await store.tables.create_table(GUILD, CHANNEL + number, '{"hand": 0}', now=0.0)
            await store.wallets.grant(GUILD, ALICE + number, 5, reason="test", actor_id=1, now=1.0)
    finally:
        await store.close()


def damage(path: Path, table: str) -> int:
    """Overwrite bytes of the b-tree page holding `table`'s rows; returns the page number."""
    with sqlite3.connect(path) as conn:
        page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                            (table,)).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(path, "r+b") as file:
        file.seek((page - 1) * size + 8)  # past the page header: the cell pointers
        file.write(b"\xa5" * 56)
    return int(page)


async def test_a_second_exclusive_open_of_the_file_is_refused(db_path: Path) -> None:
    first = await Storage.open(db_path, exclusive=True)
    try:
        with pytest.raises(DatabaseInUse) as refused:
            await Storage.open(db_path, exclusive=True)
        assert str(refused.value) == (
            f"Database {db_path} is in use by another ofc-bot (pid {os.getpid()}): run one "
            f"bot per database (lock file {os.path.realpath(db_path)}.lock)")
        await first.wallets.wallet(GUILD, ALICE, now=0.0)  # the first one is untouched
        alias = db_path.with_name("alias.sqlite3")
        alias.symlink_to(db_path)  # the same file by another name: the same lock
        with pytest.raises(DatabaseInUse):
            await Storage.open(alias, exclusive=True)
    finally:
        await first.close()
    again = await Storage.open(db_path, exclusive=True)  # closed: the lock is free again
    await again.close()


async def test_a_second_exclusive_open_of_a_postgres_database_is_refused(
        request: pytest.FixtureRequest) -> None:
    url = await postgres_of(request).empty("tests")
    first = await Storage.open(url, exclusive=True)
    try:
        with pytest.raises(DatabaseInUse,
                           match=r"is in use by another ofc-bot: run one bot per database, "
                                 r"or sharded processes \(--shard-count\) only$"):
            await Storage.open(url, exclusive=True)
        await first.wallets.wallet(GUILD, ALICE, now=0.0)  # the first one is untouched
        await (await Storage.open(url)).close()  # a tool (ofc audit) may still open it
    finally:
        await first.close()
    again = await Storage.open(url, exclusive=True)  # closed: the lock is free again
    await again.close()


@pytest.mark.parametrize("table", ["ledger", "live_tables"])
async def test_a_damaged_page_stops_the_start(tmp_path: Path, table: str) -> None:
    path = tmp_path / f"{table}.sqlite3"
    await filled(path)
    page = damage(path, table)
    with pytest.raises(DatabaseDamaged) as refused:
        await Storage.open(path, exclusive=True)
    message = str(refused.value)
    assert message.startswith(f"Database {path} is damaged: SQLite's quick_check found: "
                              f"On tree page {page} ")
    assert message.endswith("Restore it from a backup")
    # The lock is not kept by a failed open.
    with pytest.raises(DatabaseDamaged):
        await Storage.open(path, exclusive=True)


async def test_a_read_only_database_fails_at_open_not_at_the_first_write(
        db_path: Path) -> None:
    await filled(db_path)
    # SQLite's own read-only mode works whoever runs the tests, root included.
    with pytest.raises(DatabaseReadOnly) as refused:
        await Storage.open(f"file:{db_path}?mode=ro")
    assert str(refused.value) == (
        f"Database file:{db_path}?mode=ro cannot be written: attempt to write a readonly "
        "database")


async def test_a_folder_named_as_the_database_is_said_to_be_one(tmp_path: Path) -> None:
    # SQLite said only "unable to open database file", after a lock file was made beside it.
    folder = tmp_path / "data"
    folder.mkdir()
    for accept in ("ours or empty", "any"):
        with pytest.raises(StorageError) as refused:
            await Storage.open(folder, exclusive=True, accept=accept)
        assert str(refused.value) == (f"{folder} is a folder, not a database file: name the "
                                      f"file itself, for example {folder / 'ofc.sqlite3'}")
    assert sorted(tmp_path.iterdir()) == [folder]  # nothing made beside it
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files anyway")
async def test_a_read_only_file_or_folder_fails_at_open(tmp_path: Path) -> None:
    path = tmp_path / "data" / "ofc.sqlite3"
    path.parent.mkdir()
    await filled(path)
    path.chmod(stat.S_IRUSR)
    with pytest.raises(DatabaseReadOnly, match="is read-only"):
        await Storage.open(path)
    path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    path.parent.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StorageError, match="read-only"):
            await Storage.open(path)
    finally:
        path.parent.chmod(stat.S_IRWXU)


ROOT = Path(__file__).resolve().parents[2]


def ofc_bot(database: Path | str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m bot` (== `ofc-bot`) with a token, on `database`: it stops at the
    database checks, before connecting to Discord."""
    env = {**os.environ, "DISCORD_TOKEN": "not.a.token", "OFC_DATABASE": str(database),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


async def test_ofc_bot_refuses_a_database_another_bot_holds(database: str,
                                                            tmp_path: Path) -> None:
    running = await Storage.open(database, exclusive=True)  # the first bot
    try:
        done = ofc_bot(database, tmp_path)
    finally:
        await running.close()
    assert done.returncode == 2
    held = (": run one bot per database, or sharded processes (--shard-count) only"
            if database.startswith("postgresql") else
            f" (pid {os.getpid()}): run one bot per database (lock file {database}.lock)")
    assert done.stderr.splitlines() == [
        f"ofc-bot: Database {database} is in use by another ofc-bot{held}."]


async def test_ofc_bot_refuses_a_damaged_database(tmp_path: Path) -> None:
    path = tmp_path / "ofc.sqlite3"
    await filled(path)
    damage(path, "ledger")
    done = ofc_bot(path, tmp_path)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"ofc-bot: Database {path} is damaged: SQLite's quick_check found: ")


def test_ofc_bot_names_a_postgres_server_it_cannot_reach(tmp_path: Path) -> None:
    url = f"postgresql://ofc:secret@/ofc?host={tmp_path}&port=5432"  # no server there
    done = ofc_bot(url, tmp_path)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(
        f"ofc-bot: Cannot connect to PostgreSQL at postgresql://ofc:***@/ofc?host={tmp_path}")
    assert "secret" not in done.stderr


async def test_a_new_database_and_its_wal_are_readable_by_the_bot_only(tmp_path: Path) -> None:
    """The file holds every live hand's deck (the next cards) and each player's dealt cards
    and discards (R7): under the usual umask (022) it would be readable by every account on
    the machine. A database the bot creates, and the -wal and -shm SQLite makes beside it with
    the database's permissions, are its owner's alone."""
    path = tmp_path / "ofc.sqlite3"
    before = os.umask(0o022)
    try:
        store = await Storage.open(path)
        try:
            await store.tables.create_table(GUILD, CHANNEL, '{"hand": 0}', now=0.0)
            files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
            modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
        finally:
            await store.close()
    finally:
        os.umask(before)
    assert modes == {f.name: 0o600 for f in files}
