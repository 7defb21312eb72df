"""Schema migrations: from an empty file and from every older version; refusing newer ones."""

import json
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.cli import main as ofc_cli
from bot.storage import SCHEMA_VERSION, SchemaTooNew, Storage, StorageError, migrations
from bot.storage.postgres import PostgresConnection
from bot.storage.sqlite import migrate_file
from tests.backends import Reader, postgres_of, run_async
from tests.storage.conftest import ALICE, GUILD


def _schema(path: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return set(conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY 1")]


async def _file_at(path: Path, version: int) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate_file(conn, version) == version


async def _money_survives(target: str, version: int) -> None:
    """Money exists from version 1: a wallet put in at `version` survives the upgrade."""
    if version >= 1:
        with Reader(target) as query:
            query.write("INSERT INTO wallets VALUES (?, ?, 1234, NULL, 0)", (GUILD, ALICE))
            query.write("INSERT INTO ledger (guild_id, user_id, amount, balance_after, kind, "
                        "created_at) VALUES (?, ?, 1234, 1234, 'start', 0)", (GUILD, ALICE))
    store = await Storage.open(target)
    try:
        expected = 1234 if version >= 1 else 1000
        assert (await store.wallets.wallet(GUILD, ALICE, now=1.0)).balance == expected
    finally:
        await store.close()


async def test_an_empty_file_reaches_the_newest_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await Storage.open(path)
    await store.close()
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    # opening again applies nothing twice
    store = await Storage.open(path)
    await store.close()
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))


async def test_the_connection_enforces_foreign_keys(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "fk.sqlite3")
    try:
        async with store._core.db.transaction() as conn:
            pragmas = [
                (await conn.fetch(f"PRAGMA {name}"))[0][0]
                for name in ("foreign_keys", "busy_timeout", "synchronous")
            ]
            with pytest.raises(sqlite3.IntegrityError):
                await conn.execute(
                    "INSERT INTO table_seats (table_id, user_id, stack) VALUES (42, 1, 1)"
                )
        assert pragmas == [1, 5000, 2]  # synchronous 2 = FULL
    finally:
        await store.close()


@pytest.mark.parametrize("version", range(SCHEMA_VERSION + 1))
async def test_every_older_version_reaches_the_newest_schema(tmp_path: Path, version) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    await (await Storage.open(fresh)).close()
    old = tmp_path / f"v{version}.sqlite3"
    await _file_at(old, version)
    assert _versions(old) == list(range(1, version + 1))
    await _money_survives(str(old), version)
    assert _versions(old) == list(range(1, SCHEMA_VERSION + 1))
    assert _schema(old) == _schema(fresh)


async def test_a_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await (await Storage.open(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 0)", (SCHEMA_VERSION + 4,))
    before = _schema(path)
    with pytest.raises(SchemaTooNew) as refused:
        await Storage.open(path)
    assert str(refused.value) == (
        f"database schema version {SCHEMA_VERSION + 4} is newer than this bot "
        f"({SCHEMA_VERSION}); upgrade the bot"
    )
    assert _schema(path) == before
    assert _versions(path)[-1] == SCHEMA_VERSION + 4


async def test_a_failing_migration_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.sqlite3"
    await (await Storage.open(path)).close()
    broken = (*migrations.MIGRATIONS, "CREATE TABLE half_done (a);\nTHIS IS NOT SQL;\n")
    monkeypatch.setattr(migrations, "MIGRATIONS", broken)
    monkeypatch.setattr(migrations, "LATEST", len(broken))
    with pytest.raises(StorageError):
        await Storage.open(path)
    assert _versions(path) == list(range(1, SCHEMA_VERSION + 1))
    assert "half_done" not in {name for name, _ in _schema(path)}


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"these are not the tables you are looking for" * 100)
    with pytest.raises(StorageError, match="Cannot use database"):
        await Storage.open(path)


def test_statements_split_scripts_where_sqlite_would() -> None:
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT ';');\n"
        "CREATE TABLE b (\n    y INTEGER\n);\n"
    )
    assert list(migrations.statements(script)) == [
        "-- a comment; with a semicolon\nCREATE TABLE a (x TEXT DEFAULT ';');",
        "CREATE TABLE b (\n    y INTEGER\n);",
    ]
    with pytest.raises(ValueError, match="incomplete"):
        list(migrations.statements("CREATE TABLE c (z"))


# PostgreSQL: the same numbered migrations, translated (migrations.postgres_ddl).
_SQL_TYPES = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text"}


def _sqlite_columns(path: Path) -> dict[str, list[tuple[str, str, bool]]]:
    """table -> [(column, its type as PostgreSQL names it, nullable)]."""
    with sqlite3.connect(path) as conn:
        tables = [t for (t,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: [(name, _SQL_TYPES[kind], not (notnull or pk))
                    for _, name, kind, notnull, _, pk in conn.execute(f"PRAGMA table_info({t})")]
                for t in tables}


def _sqlite_indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {n for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}


async def _postgres_columns(url: str) -> dict[str, list[tuple[str, str, bool]]]:
    conn = await asyncpg.connect(url)
    try:
        columns: dict[str, list[tuple[str, str, bool]]] = {}
        for table, name, kind, nullable in await conn.fetch(
                "SELECT table_name, column_name, data_type, is_nullable FROM "
                "information_schema.columns WHERE table_schema = 'public' "
                "ORDER BY table_name, ordinal_position"):
            columns.setdefault(table, []).append((name, kind, nullable == "YES"))
        return columns
    finally:
        await conn.close()


async def _postgres_indexes(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        return {n for (n,) in await conn.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
            "AND indexname NOT LIKE '%_pkey'")}
    finally:
        await conn.close()


async def _postgres_at(url: str, version: int) -> None:
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            assert await migrations.migrate(PostgresConnection(conn), version) == version
    finally:
        await conn.close()


async def _postgres_versions(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [v for (v,) in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")]
    finally:
        await conn.close()


async def test_postgres_reaches_the_same_schema_from_every_version(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    server = postgres_of(request).server
    assert server is not None
    fresh = tmp_path / "fresh.sqlite3"
    await (await Storage.open(fresh)).close()
    for version in range(SCHEMA_VERSION + 1):
        name = f"migrations_{version}"
        url = await server.create_database(name)
        try:
            await _postgres_at(url, version)
            assert await _postgres_versions(url) == list(range(1, version + 1))
            await _money_survives(url, version)
            assert await _postgres_versions(url) == list(range(1, SCHEMA_VERSION + 1))
            assert await _postgres_columns(url) == _sqlite_columns(fresh)
            assert await _postgres_indexes(url) == _sqlite_indexes(fresh)
        finally:
            await server.drop_database(name)


async def test_postgres_refuses_a_newer_database_and_rolls_back_a_failing_migration(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    server = postgres_of(request).server
    assert server is not None
    url = await server.create_database("migrations_newer")
    try:
        await (await Storage.open(url)).close()
        broken = (*migrations.MIGRATIONS, "CREATE TABLE half_done (a INTEGER);\nNOT SQL;\n")
        monkeypatch.setattr(migrations, "MIGRATIONS", broken)
        monkeypatch.setattr(migrations, "LATEST", len(broken))
        with pytest.raises(StorageError, match="Cannot use database"):
            await Storage.open(url)
        assert "half_done" not in await _postgres_columns(url)
        monkeypatch.undo()
        conn = await asyncpg.connect(url)
        await conn.execute("INSERT INTO schema_version VALUES ($1, 0)", SCHEMA_VERSION + 4)
        await conn.close()
        with pytest.raises(SchemaTooNew):
            await Storage.open(url)
        assert await _postgres_versions(url) == [*range(1, SCHEMA_VERSION + 1),
                                                 SCHEMA_VERSION + 4]
    finally:
        await server.drop_database("migrations_newer")


def test_the_postgres_dialect_of_a_migration() -> None:
    assert migrations.postgres_ddl(
        "CREATE TABLE t (\n    id INTEGER PRIMARY KEY,\n    n INTEGER NOT NULL,\n"
        "    at REAL,\n    interval_s REAL\n) WITHOUT ROWID;") == (
        "CREATE TABLE t (\n    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,\n"
        "    n BIGINT NOT NULL,\n    at DOUBLE PRECISION,\n    interval_s DOUBLE PRECISION\n);")


def test_auditing_an_older_database_leaves_it_at_its_version(
        tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`ofc audit` of a backup an older bot made (to check it before going back to that
    version) audits it as this bot reads it, and leaves it at its version: migrated, the
    older bot would refuse it as newer."""
    older = SCHEMA_VERSION - 1
    path = tmp_path / "backup.sqlite3"
    run_async(_file_at(path, older))
    server = postgres_of(request).server
    assert server is not None
    url = run_async(server.create_database("audit_older"))
    try:
        run_async(_postgres_at(url, older))
        for target in (str(path), url):
            run_async(_money_survives_unmigrated(target))
            assert ofc_cli(["audit", "--database", target, "--json"]) == 0
            report = json.loads(capsys.readouterr().out)
            assert report["ok"] and report["totals"]["wallets"] == 1234, report
            with Reader(target) as query:
                assert query("SELECT max(version) FROM schema_version") == [(older,)]
        assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.sqlite3"]
    finally:
        run_async(server.drop_database("audit_older"))


async def _money_survives_unmigrated(target: str) -> None:
    """A wallet and its ledger row put in as the older bot would."""
    with Reader(target) as query:
        query.write("INSERT INTO wallets VALUES (?, ?, 1234, NULL, 0)", (GUILD, ALICE))
        query.write("INSERT INTO ledger (guild_id, user_id, amount, balance_after, kind, "
                    "created_at) VALUES (?, ?, 1234, 1234, 'start', 0)", (GUILD, ALICE))


async def test_an_older_database_that_cannot_be_written_is_refused_at_open(
        tmp_path: Path) -> None:
    """Its audit migrates it in a transaction then rolled back, which takes a write: on a
    read-only file that write failed in the middle of the audit, an sqlite3 error where a
    StorageError names the file (SQLite's read-only mode: root cannot write either)."""
    path = tmp_path / "backup.sqlite3"
    await _file_at(path, SCHEMA_VERSION - 1)
    with pytest.raises(StorageError, match="cannot be written: attempt to write a readonly"):
        storage = await Storage.open(f"file:{path}?mode=ro", migrate=False)
        await storage.close()
    assert _versions(path)[-1] == SCHEMA_VERSION - 1


class _FullDisk:
    """An SQLite connection whose COMMIT fails as on a full disk: SQLite rolls the
    transaction back itself, then reports the error (seen on a full tmpfs)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *params: object) -> object:
        if sql == "COMMIT":
            await self._conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return await self._conn.execute(sql, *params)

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


async def test_a_migration_the_disk_refused_says_so(tmp_path: Path) -> None:
    """The ROLLBACK after a COMMIT SQLite had rolled back failed in turn ("cannot rollback -
    no transaction is active"), and that error was the one reported: `ofc simulate
    --database` or the bot on a full disk said nothing of the disk."""
    path = tmp_path / "ofc.sqlite3"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError, match=r"^database or disk is full$"):
            await migrate_file(_FullDisk(conn))  # type: ignore[arg-type]
    assert not _schema(path)  # nothing was kept
