"""`ofc audit` and `ofc-bot migrate-db` (SQLite to PostgreSQL) on databases played through the table
service: a clean audit on both backends, each check failing on a corrupted copy, and a whole
SQLite database copied into PostgreSQL, where its live table resumes."""

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as ofc_bot
from bot import cli
from bot.storage import Storage
from bot.storage import copy as copying
from tests.backends import Reader, copy_now, postgres_of, run_async, usable
from tests.storage.audit import audit
from tests.tables.driver import ALICE, GUILD, fresh_service, play, populated

# Each corruption and the checks it must break (the first word of each problem line).
CORRUPTIONS = {
    "wallet": ("UPDATE wallets SET balance = balance + 1 WHERE user_id = 102",
               {"wallet", "granted"}),
    "stack": ("UPDATE table_seats SET stack = stack + 3 WHERE user_id = 101",
              {"stack", "granted"}),
    "granted": ("UPDATE ledger SET amount = amount + 7 WHERE id = "
                "(SELECT min(id) FROM ledger WHERE kind = 'house')", {"granted"}),
    "pool": ("UPDATE tournaments SET pool = pool + 5", {"granted"}),
    "key reused by a wallet": (
        "UPDATE ledger SET op_key = 'grant:carol' WHERE id = "
        "(SELECT min(id) FROM ledger WHERE kind = 'daily')", {"key"}),
    "key reused by a stack": (
        "UPDATE stack_moves SET op_key = (SELECT min(op_key) FROM stack_moves "
        "WHERE kind = 'buy_in') WHERE id = (SELECT max(id) FROM stack_moves "
        "WHERE kind = 'buy_in')", {"key"}),
}


def _audit(database: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = cli.main(["audit", "--database", database, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_played_database_audits_clean(database: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    run_async(populated(database))
    assert audit(database) == []  # the independent audit agrees
    code, report = _audit(database, capsys)
    assert (code, report["ok"], report["problems"]) == (0, True, [])
    with Reader(database) as query:
        wallets = query("SELECT sum(balance) FROM wallets")[0][0]
        stacks = query("SELECT sum(stack) FROM table_seats")[0][0]
        ledger = query("SELECT count(*) FROM ledger")[0][0]
    assert report["totals"]["wallets"] == wallets and report["totals"]["stacks"] == stacks
    assert report["totals"]["pools"] == 100  # Bob's tournament buy-in
    assert report["rows"]["ledger"] == ledger and report["rows"]["tournament_sanctions"] == 1
    assert cli.main(["audit", "--database", database]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("ok: every wallet equals")


@pytest.mark.parametrize("corruption", CORRUPTIONS)
def test_each_check_fails_on_a_corrupted_copy(database: str, corruption: str, tmp_path: Path,
                                              request: pytest.FixtureRequest,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    run_async(populated(database))
    postgres = postgres_of(request) if database.startswith("postgresql") else None
    copy = run_async(usable(copy_now(database, tmp_path / "copy.sqlite3"), postgres))
    sql, broken = CORRUPTIONS[corruption]
    with Reader(copy) as query:
        query.write(sql)
    code, report = _audit(copy, capsys)
    assert code == 1 and not report["ok"]
    assert {problem.split(":")[0].split()[0] for problem in report["problems"]} == broken, report
    if corruption == "pool":  # every line says "granted": their figures tell them apart
        with Reader(copy) as query:
            (open_one, _), (over, _) = query("SELECT id, pool FROM tournaments ORDER BY id")
            wallets = query("SELECT sum(balance) FROM wallets")[0][0]
            stacks = query("SELECT sum(stack) FROM table_seats")[0][0]
        # Bob's buy-in of 100 and the finished one's buy-in and prize of 10 (0 left), each
        # pool 5 more than its moves; the 10 extra chips in all the granted ones do not hold.
        assert report["problems"] == [
            f"granted: the prize pool of tournament {open_one} holds 105, its moves sum to 100",
            f"granted: the prize pool of tournament {over} holds 5, its moves sum to 0",
            f"granted: wallets {wallets} + stacks {stacks} + prize pools 110 = "
            f"{wallets + stacks + 110}, but {wallets + stacks + 100} were granted"]
    assert _audit(database, capsys)[0] == 0  # the original is untouched


def test_an_unusable_database_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert cli.main(["audit", "--database", str(missing)]) == 2
    assert capsys.readouterr().err == f"ofc audit: There is no database at {missing}.\n"
    assert not missing.exists()  # not created by looking
    url = f"postgresql://ofc@/ofc?host={tmp_path}&port=5432"
    assert cli.main(["audit", "--database", url]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"ofc audit: Cannot connect to PostgreSQL at {url}: ")


def _contents(target: str) -> dict[str, list[tuple[Any, ...]]]:
    with Reader(target) as query:
        names = [n for (n,) in query(
            "SELECT name FROM sqlite_master WHERE type = 'table'" if not query.postgres else
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {name: sorted(query(f"SELECT * FROM {name}"), key=repr)
                for name in names if name != "schema_version"}


def test_migrate_db_copies_everything_and_the_live_table_resumes(
        db_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = str(db_path)
    live = run_async(populated(source))
    url = run_async(postgres_of(request).empty("migrate"))
    assert ofc_bot.main(["migrate-db", "--from", f"sqlite:{source}", "--to", url]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"copied {source} into {url}: ")
    assert "the same rows, totals and findings on both sides" in out
    original = _contents(source)
    assert _contents(url) == original  # every row of every table
    assert all(original[name] for name in original), "a table the test left empty"
    assert audit(url) == []
    assert _audit(url, capsys)[1]["totals"] == _audit(source, capsys)[1]["totals"]
    # Run again: the destination is no longer empty, so nothing is written.
    assert ofc_bot.main(["migrate-db", "--from", f"sqlite:{source}", "--to", url]) == 2
    assert "already holds data" in capsys.readouterr().err
    assert _contents(url) == original

    async def resume() -> None:
        storage = await Storage.open(url)
        try:
            service, clock, _ = fresh_service(storage, 10_000.0)
            assert await service.restore() == [live]
            await play(service, clock, live, [ALICE, 103])
            await service.close()
            # new rows: numbering moved on
            await storage.wallets.wallet(GUILD, 104, now=clock.now())
        finally:
            await storage.close()

    run_async(resume())
    assert audit(url) == []


def test_migrate_db_writes_nothing_when_the_copy_would_not_audit_alike(
        db_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run_async(populated(str(db_path)))
    url = run_async(postgres_of(request).empty("migrate"))
    real = copying._copy_rows

    async def lossy(source: Any, destination: Any) -> None:  # a copy losing a table's rows
        await real(source, destination)
        await destination.execute("DELETE FROM player_preferences")

    monkeypatch.setattr(copying, "_copy_rows", lossy)
    assert ofc_bot.main(["migrate-db", "--from", str(db_path), "--to", url]) == 2
    assert "does not audit as the original does (nothing was written)" in \
        capsys.readouterr().err
    assert not any(_contents(url).values())


def test_migrate_db_refuses_text_postgresql_cannot_hold_and_writes_nothing(
        db_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite stores the NUL character in text, PostgreSQL cannot (storage refuses it now,
    but an older bot's file may hold it): one line naming the rows and how to mend them, exit
    2, nothing written."""
    run_async(populated(str(db_path)))
    with Reader(db_path) as query:
        query.write("UPDATE ledger SET reason = 'wel' || char(0) || 'come' WHERE kind = 'grant'")
    url = run_async(postgres_of(request).empty("migrate"))
    assert ofc_bot.main(["migrate-db", "--from", str(db_path), "--to", url]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        "ofc-bot migrate-db: 1 row of ledger holds the NUL character in its reason, which "
        "PostgreSQL cannot store (nothing was written): remove it from the SQLite file first "
        "(SQLite's replace() cannot: the PostgreSQL page of the docs shows how).")
    assert not any(_contents(url).values())
    # The page's mend, run as written on the file, the table and the column named: then the
    # copy goes through, the reason without its NUL.
    page = (Path(__file__).parents[2] / "docs" / "admins" / "postgresql.md").read_text()
    [mend] = [block for block in page.split("```sh\n") if block.startswith("python3 - ")]
    mend = mend.split("```")[0].replace("ofc.sqlite3 ledger reason",
                                        f"{shlex.quote(str(db_path))} ledger reason", 1)
    done = subprocess.run(["sh", "-c", mend.replace("python3", sys.executable, 1)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert ofc_bot.main(["migrate-db", "--from", str(db_path), "--to", url]) == 0
    with Reader(url) as query:
        assert query("SELECT reason FROM ledger WHERE kind = 'grant'") == [("welcome",)]


def test_a_postgresql_database_that_is_not_the_bots_is_refused_untouched(
        request: pytest.FixtureRequest, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As an SQLite file that is no database of the bot: `ofc audit` of a mistyped database
    name, or of one whose restore failed, must not give it the bot's tables (and report
    their 0 chips as ok), nor must `migrate-db` copy from it."""
    server = postgres_of(request).server
    assert server is not None
    url = run_async(server.create_database("not_the_bots"))
    try:
        with Reader(url) as query:
            query.write("CREATE TABLE customers (id BIGINT)")
        described = url
        for command, program in (
                (["audit", "--database", url], cli.main),
                (["migrate-db", "--from", url, "--to", f"sqlite:{tmp_path / 'c.sqlite3'}"],
                 ofc_bot.main)):
            assert program(command) == 2
            [line] = capsys.readouterr().err.splitlines()
            assert line.endswith(f": {described} is not a database of this bot (it has no "
                                 "schema_version table)."), line
        with Reader(url) as query:
            assert query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == \
                [("customers",)]
        assert not (tmp_path / "c.sqlite3").exists()
    finally:
        run_async(server.drop_database("not_the_bots"))


def test_migrate_db_into_another_programs_database_writes_nothing(
        db_path: Path, request: pytest.FixtureRequest, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A destination holding another program's tables is not empty: refused untouched, the
    bot's tables not made there."""
    run_async(populated(str(db_path)))
    server = postgres_of(request).server
    assert server is not None
    url = run_async(server.create_database("another_program"))
    other = tmp_path / "other.sqlite3"
    try:
        with Reader(url) as query:
            query.write("CREATE TABLE customers (id BIGINT)")
        with Reader(other) as query:
            query.write("CREATE TABLE customers (id INTEGER)")
        for destination in (url, f"sqlite:{other}"):
            assert ofc_bot.main(["migrate-db", "--from", str(db_path), "--to",
                                 destination]) == 2
            [line] = capsys.readouterr().err.splitlines()
            assert line == (f"ofc-bot migrate-db: {destination.removeprefix('sqlite:')} is "
                            "not a database of this bot, nor empty (it holds customers): "
                            "give the bot's database or an empty one."), line
        with Reader(url) as query:
            assert query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == \
                [("customers",)]
        with Reader(other) as query:
            assert query("SELECT name FROM sqlite_master") == [("customers",)]
    finally:
        run_async(server.drop_database("another_program"))
