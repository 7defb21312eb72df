"""A PostgreSQL database backed up and restored by the commands of docs/admins/backup.md, run
as written (`pg_dump`, `pg_restore`: the installed server's own), on the tests' throwaway
server: the restored database holds every row the dump holds, and a restore into a database
that is not empty, or over the database itself when it fails, changes nothing."""

import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main as ofc_bot
from bot.storage import Storage
from tests.backends import Postgres, Reader, postgres_of, run_async
from tests.pgserver import binaries
from tests.storage.audit import audit
from tests.tables.driver import GUILD, populated

PAGE = Path(__file__).parents[2] / "docs" / "admins" / "backup.md"
# The page's URLs, longest first: each stands for a database of the throwaway server.
DOCS_URL = "postgresql://ofc@db.example.com/"
DATABASES = ("ofc_restored", "ofc")


def _commands() -> dict[str, str]:
    """The page's pg_dump and pg_restore lines, by what they do."""
    lines = [line.strip() for line in PAGE.read_text().splitlines()]
    found = {}
    for line in lines:
        if line.startswith("pg_dump "):
            found["dump"] = line
        elif line.startswith("pg_restore ") and "--clean" not in line:
            found["restore"] = line
    # The restore over the database itself is given in the text, between backquotes.
    [over] = re.findall(r"`(pg_restore [^`]*--clean[^`]*)`", PAGE.read_text().replace("\n", " "))
    found["over"] = over
    return found


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[tuple[Postgres, dict[str, str]]]:
    """The session's server with the page's two databases, `ofc` holding a played bot's
    rows and `ofc_restored` new and empty (as `createdb` makes it); their URLs."""
    postgres = postgres_of(request)
    assert postgres.server is not None
    names = {name: f"docs_{name}" for name in DATABASES}
    urls = {name: run_async(postgres.server.create_database(real))
            for name, real in names.items()}
    try:
        yield postgres, urls
    finally:
        for real in names.values():
            run_async(postgres.server.drop_database(real))


def _run(command: str, urls: dict[str, str], folder: Path, dump: Path) -> int:
    """`command` as the page writes it, through the shell, with the page's URLs and dump
    file name standing for the throwaway ones; its exit status."""
    for name in DATABASES:
        command = command.replace(f"'{DOCS_URL}{name}'", shlex.quote(urls[name]))
    command = re.sub(r"ofc-[0-9-]+\.dump|FILE$", dump.name, command)
    environment = {**os.environ, "PATH": f"{binaries()}:{os.environ['PATH']}"}
    done = subprocess.run(["sh", "-c", command], cwd=folder, env=environment,
                          capture_output=True, text=True, check=False)
    return done.returncode


def _contents(target: str) -> dict[str, list[tuple[Any, ...]]]:
    with Reader(target) as query:
        names = [n for (n,) in query(
            "SELECT name FROM sqlite_master WHERE type = 'table'" if not query.postgres else
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {name: sorted(query(f"SELECT * FROM {name}"), key=repr) for name in names}


def _dumped(urls: dict[str, str], tmp_path: Path) -> Path:
    """The page's pg_dump of `ofc`, once a bot has played in it; the dump file."""
    run_async(populated(urls["ofc"]))
    assert _run(_commands()["dump"], urls, tmp_path, tmp_path / "none") == 0
    [dump] = tmp_path.glob("ofc-*.dump")
    return dump


async def _granted(url: str) -> None:
    storage = await Storage.open(url)
    try:
        await storage.wallets.grant(GUILD, 42, 10, reason="later", actor_id=1, now=9e3)
    finally:
        await storage.close()


def test_a_dump_restores_into_a_new_database_row_for_row(
        server: tuple[Postgres, dict[str, str]], tmp_path: Path) -> None:
    _, urls = server
    dump = _dumped(urls, tmp_path)
    assert _run(_commands()["restore"], urls, tmp_path, dump) == 0
    assert _contents(urls["ofc_restored"]) == _contents(urls["ofc"])
    assert audit(urls["ofc_restored"]) == []


def test_a_restored_database_moves_into_sqlite_row_for_row(
        server: tuple[Postgres, dict[str, str]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """pg_restore makes the tables in the dump's order, not the migrations': `migrate-db`
    still copies every row of each after the rows its foreign keys name."""
    _, urls = server
    dump = _dumped(urls, tmp_path)
    assert _run(_commands()["restore"], urls, tmp_path, dump) == 0
    copy = tmp_path / "back.sqlite3"
    assert ofc_bot(["migrate-db", "--from", urls["ofc_restored"], "--to", f"sqlite:{copy}"]) \
        == 0, capsys.readouterr().err
    copied, original = _contents(str(copy)), _contents(urls["ofc"])
    del copied["schema_version"], original["schema_version"]  # each migrated its own
    assert copied == original


def test_a_restore_into_a_database_that_is_not_empty_changes_nothing(
        server: tuple[Postgres, dict[str, str]], tmp_path: Path) -> None:
    _, urls = server
    dump = _dumped(urls, tmp_path)

    run_async(_granted(urls["ofc_restored"]))  # a bot started there already
    before = _contents(urls["ofc_restored"])
    assert _run(_commands()["restore"], urls, tmp_path, dump) != 0
    assert _contents(urls["ofc_restored"]) == before


def test_a_restore_over_the_database_brings_back_the_dump_or_changes_nothing(
        server: tuple[Postgres, dict[str, str]], tmp_path: Path) -> None:
    _, urls = server
    dump = _dumped(urls, tmp_path)
    dumped = _contents(urls["ofc"])
    run_async(_granted(urls["ofc"]))  # the bot went on after the dump
    assert _contents(urls["ofc"]) != dumped
    assert _run(_commands()["over"], urls, tmp_path, dump) == 0
    assert _contents(urls["ofc"]) == dumped
    assert audit(urls["ofc"]) == []
    # A restore that fails half-way (here: a table the dump does not know holds a row that
    # names one it drops) leaves the database as it was.
    run_async(_granted(urls["ofc"]))
    with Reader(urls["ofc"]) as query:
        query.write("CREATE TABLE notes (ledger_id BIGINT REFERENCES ledger (id))")
        query.write("INSERT INTO notes VALUES (1)")
    before = _contents(urls["ofc"])
    assert _run(_commands()["over"], urls, tmp_path, dump) != 0
    assert _contents(urls["ofc"]) == before
