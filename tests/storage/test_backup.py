"""`ofc-bot backup`: copies of the SQLite database taken while a table plays are whole.

Each copy, restored as an admin restores one (the file copied into place) and opened by a
fresh bot, resumes the table and plays it to the end the original reached; `ofc audit` and
the tests' own audit find its books right. Paths a backup must not be written to are refused
with one line and exit 2, and nothing is written.
"""

import asyncio
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Sequence
from pathlib import Path

import pytest

from bot.__main__ import main as ofc_bot
from bot.cli import main as ofc
from bot.storage import Storage
from bot.tables import MatchOver, ShowdownDone, TableEvent
from tests.backends import Reader
from tests.storage.audit import audit
from tests.tables.driver import ALICE, BOB, CHANNEL, GUILD, START, fresh_service, play

HANDS = 4


def back_up_now(path: Path, database: Path) -> int:
    """`ofc-bot backup PATH --database DATABASE`; its exit status."""
    try:
        return ofc_bot(["backup", str(path), "--database", str(database)])
    except SystemExit as stopped:  # argparse's refusal (on a bot without the command)
        return int(stopped.code or 0)


async def test_backups_taken_while_a_table_plays_restore_into_a_fresh_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "ofc.sqlite3"
    storage = await Storage.open(database, exclusive=True)  # held as the running bot holds it
    service, clock, recorder = fresh_service(storage, 1000.0)
    taken: list[tuple[Path, float]] = []  # each backup, and the clock when it was asked for
    running: list[asyncio.Task[int]] = []

    async def back_up(events: Sequence[TableEvent]) -> None:
        """After each showdown, a backup in a thread of its own while the table plays on;
        the one before must have finished (it ran while this hand was being played)."""
        if not any(isinstance(e, ShowdownDone) for e in events):
            return
        if running:
            assert await running[-1] == 0
        path = tmp_path / f"backup{len(taken)}.sqlite3"
        taken.append((path, clock.now()))
        running.append(asyncio.create_task(asyncio.to_thread(back_up_now, path, database)))

    service.add_listener(back_up)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": HANDS,
                                         "fantasy": "off"}, seed=7)).table_id
    await service.join(table, BOB, "Bob")
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    await service.start(table, ALICE)
    await play(service, clock, table, [ALICE, BOB])
    assert await asyncio.gather(*running) == [0] * HANDS
    final = recorder.of(MatchOver)[0].standings
    await service.close()
    await storage.close()
    assert capsys.readouterr().out.count("SQLite's quick_check ok") == HANDS
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]

    for number, (backup, now) in enumerate(taken):
        with Reader(backup) as query:
            hands = query("SELECT count(*) FROM hands")[0][0]
            [(status,)] = query("SELECT status FROM live_tables")
        assert hands >= number + 1, backup
        # Backup k is asked for at showdown k + 1 and finished by the listener of showdown
        # k + 2, before the commit of hand k + 3: the table is still playing there.
        if number + 3 <= HANDS:
            assert status == "open", backup
        restored = tmp_path / f"restored{number}" / "ofc.sqlite3"
        restored.parent.mkdir()
        shutil.copyfile(backup, restored)
        copy = await Storage.open(restored, exclusive=True)
        try:
            resumed, later, events = fresh_service(copy, now)
            if await resumed.restore() == [table]:
                await play(resumed, later, table, [ALICE, BOB])
                assert events.of(MatchOver)[0].standings == final, backup
            else:
                assert status == "closed", backup
            await resumed.close()
            assert (await copy.tables.table(table)).status == "closed"
            alice = next(s.net for s in final if s.player_id == ALICE)
            balance = (await copy.wallets.wallet(GUILD, ALICE, now=later.now())).balance
            assert balance == START + alice, backup
        finally:
            await copy.close()
        assert await asyncio.to_thread(ofc, ["audit", "--database", str(restored)]) == 0
        assert "\nok: " in capsys.readouterr().out
        assert audit(restored) == [], backup


@pytest.mark.parametrize("case", ["existing file", "folder", "no folder", "no database",
                                  "postgresql", "postgresql, its password a parameter"])
def test_a_backup_that_cannot_be_made_is_one_line_and_writes_nothing(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "ofc.sqlite3"
    database.write_bytes(b"")
    (tmp_path / "old.sqlite3").write_bytes(b"an earlier backup")
    path, target = {
        "existing file": ("old.sqlite3", str(database)),
        "folder": (".", str(database)),
        "no folder": ("missing/new.sqlite3", str(database)),
        "no database": ("new.sqlite3", str(tmp_path / "absent.sqlite3")),
        "postgresql": ("ofc.dump", "postgresql://ofc:secret@db.example/ofc"),
        "postgresql, its password a parameter": (
            "ofc.dump", "postgresql://ofc@db.example/ofc?password=secret&sslmode=require"),
    }[case]
    before = sorted(tmp_path.iterdir())
    assert ofc_bot(["backup", str(tmp_path / path), "--database", target]) == 2
    [line] = capsys.readouterr().err.splitlines()
    expected = {
        "existing file": "old.sqlite3 already exists: a backup never replaces a file",
        "folder": "is a folder: name the backup file",
        "no folder": "There is no folder ",
        "no database": "There is no database at ",
        "postgresql": "postgresql://ofc:***@db.example/ofc is a PostgreSQL database: run "
                      f"pg_dump --format=custom --file={tmp_path}/ofc.dump "
                      "postgresql://ofc@db.example/ofc to back it up.",
        "postgresql, its password a parameter":
            "postgresql://ofc@db.example/ofc?password=***&sslmode=require is a PostgreSQL "
            f"database: run pg_dump --format=custom --file={tmp_path}/ofc.dump "
            "'postgresql://ofc@db.example/ofc?sslmode=require' to back it up.",
    }[case]
    assert line.startswith("ofc-bot backup: ") and expected in line, line
    assert "secret" not in line
    assert sorted(tmp_path.iterdir()) == before
    assert (tmp_path / "old.sqlite3").read_bytes() == b"an earlier backup"


@pytest.mark.parametrize("url", ["postgresql://ofc:secret@db.example/ofc",
                                 "postgresql://ofc@db.example/ofc?password=secret&sslmode=require"])
def test_the_pg_dump_line_a_postgresql_database_gets_runs_as_printed(
        url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An admin copies the suggested command from the refusal: the sentence's last word must
    not be glued to the URL (a period after it would name another database, `ofc.`)."""
    assert ofc_bot(["backup", str(tmp_path / "ofc.dump"), "--database", url]) == 2
    [line] = capsys.readouterr().err.splitlines()
    words = shlex.split(line[line.index("pg_dump "):])
    assert words[:4] == ["pg_dump", "--format=custom", f"--file={tmp_path}/ofc.dump",
                         url.replace(":secret", "").replace("password=secret&", "")], line


def test_the_pg_dump_line_names_a_dump_not_an_sqlite_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """backup.md's cron line, run on a bot moved to PostgreSQL, names an SQLite file: the
    suggested pg_dump writes a dump (pg_restore's format), so it names it `.dump`, not a
    `.sqlite3` that the SQLite restore steps and `ofc audit` would take for a database."""
    url = "postgresql://ofc@db.example/ofc"
    assert ofc_bot(["backup", str(tmp_path / "ofc-2026-11-28-03.sqlite3"),
                    "--database", url]) == 2
    [line] = capsys.readouterr().err.splitlines()
    words = shlex.split(line[line.index("pg_dump "):])
    assert words[2] == f"--file={tmp_path}/ofc-2026-11-28-03.dump", line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="no /sys here (not Linux)")
def test_a_folder_it_cannot_write_in_is_one_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "ofc.sqlite3"
    database.write_bytes(b"")
    # sysfs takes no new files, whoever asks (root included)
    assert ofc_bot(["backup", "/sys/ofc-backup.sqlite3", "--database", str(database)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("ofc-bot backup: Cannot write in /sys: "), line


def test_the_upgrade_pages_backup_line_makes_a_backup_at_every_upgrade(
        tmp_path: Path) -> None:
    """docs/admins/upgrade.md's backup line, run as written at two upgrades (the clock says
    two different days), makes two backups: each names a new file."""
    page = Path(__file__).parents[2] / "docs" / "admins" / "upgrade.md"
    [line] = [s for s in page.read_text().splitlines() if s.startswith("ofc-bot backup ")]
    tools = _commands(tmp_path, {"ofc-bot": f'exec {sys.executable} -m bot "$@"',
                                 "date": 'echo "$UPGRADED_ON"'})  # the clock, held here
    folder = tmp_path / "bot"
    folder.mkdir()
    asyncio.run(_closed(Storage.open(folder / "ofc.sqlite3")))
    (folder / ".env").write_text("OFC_DATABASE=ofc.sqlite3\n")
    for day in ("2026-11-27", "2026-12-04"):
        environment = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}",
                       "UPGRADED_ON": day}
        done = subprocess.run(["sh", "-c", line], cwd=folder, env=environment,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    assert len(list(folder.glob("*before-upgrade*"))) == 2


def _commands(tmp_path: Path, scripts: dict[str, str]) -> Path:
    """A folder of shell commands to put first on PATH, each running its script."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, script in scripts.items():
        (tools / name).write_text(f"#!/bin/sh\n{script}\n")
        (tools / name).chmod(0o755)
    return tools


async def _closed(opening: Awaitable[Storage]) -> None:
    await (await opening).close()


# The commands as installed, running this tree's code.
_OFC_COMMANDS = {"ofc": f'exec {sys.executable} -m bot.cli "$@"',
                 "ofc-bot": f'exec {sys.executable} -m bot "$@"'}


def _restore_lines() -> list[str]:
    """The shell lines of backup.md's SQLite restore (steps 2 and 3), as the bot's user."""
    page = (Path(__file__).parents[2] / "docs" / "admins" / "backup.md").read_text()
    section = page.split("## Restoring an SQLite backup")[1].split("\n## ")[0]
    lines = [line.strip() for block in section.split("```sh")[1:]
             for line in block.split("```")[0].splitlines()]
    return [line.removeprefix("sudo -u ofc ").replace(".venv/bin/", "")
            for line in lines if line and not line.startswith("cd ")]


def test_a_second_restore_keeps_the_database_the_first_one_put_aside(tmp_path: Path) -> None:
    """backup.md's restore, run as written twice (the clock says two different days): each
    database it moves aside is kept, the first one as well."""
    tools = _commands(tmp_path, {**_OFC_COMMANDS, "date": 'echo "$RESTORED_ON"'})
    folder = tmp_path / "bot"
    (folder / "backups").mkdir(parents=True)
    lines = _restore_lines()
    [backup_name] = {word for line in lines for word in line.split()
                     if word.startswith("backups/")}

    async def played(path: Path, user: int) -> None:  # a database with a wallet of its own
        storage = await Storage.open(path)
        try:
            await storage.wallets.wallet(GUILD, user, now=1.0)
        finally:
            await storage.close()

    asyncio.run(played(folder / backup_name, ALICE))
    for user, day in ((BOB, "2026-11-27"), (BOB + 1, "2026-12-04")):
        asyncio.run(played(folder / "ofc.sqlite3", user))  # what the bot did since
        environment = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}",
                       "RESTORED_ON": day}
        done = subprocess.run(["sh", "-e", "-c", "\n".join(lines)], cwd=folder,
                              env=environment, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    put_aside = {}
    for path in folder.rglob("ofc.sqlite3"):
        if path.parent.name not in ("bot", "backups"):
            with Reader(path) as query:
                put_aside[path.parent.name] = query("SELECT user_id FROM wallets "
                                                    "ORDER BY user_id")
    # the database of before the first restore, and the first restore's, played on since
    assert sorted(put_aside.values()) == [[(ALICE,), (BOB + 1,)], [(BOB,)]]


def test_the_restore_done_while_the_bot_runs_moves_and_replaces_nothing(tmp_path: Path) -> None:
    """backup.md's restore, run as written with the bot not stopped: the database it holds,
    its -wal and its lock stay where they are (moved aside, the bot would play on unseen in
    the moved file, and its lock would no longer keep a second bot off the restored one), the
    backup is not copied over it, and the admin is told."""
    tools = _commands(tmp_path, _OFC_COMMANDS)
    folder = tmp_path / "bot"
    (folder / "backups").mkdir(parents=True)
    lines = _restore_lines()
    [backup_name] = {word for line in lines for word in line.split()
                     if word.startswith("backups/")}
    asyncio.run(_closed(Storage.open(folder / backup_name)))

    async def running_bot() -> None:
        storage = await Storage.open(folder / "ofc.sqlite3", exclusive=True)  # as the bot
        try:
            await storage.wallets.wallet(GUILD, ALICE, now=1.0)  # played since the backup
            environment = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}"}
            done = subprocess.run(["sh", "-c", "\n".join(lines)], cwd=folder,
                                  env=environment, capture_output=True, text=True,
                                  check=False)
            assert "Nothing moved: is the bot stopped?" in done.stdout
            assert "ofc.sqlite3 already exists" in done.stderr
            assert {p.name for p in folder.rglob("ofc.sqlite3*")} == {
                "ofc.sqlite3", "ofc.sqlite3-wal", "ofc.sqlite3-shm", "ofc.sqlite3.lock"}
            assert all(p.parent == folder for p in folder.rglob("ofc.sqlite3*"))
        finally:
            await storage.close()

    asyncio.run(running_bot())
    with Reader(folder / "ofc.sqlite3") as query:
        assert query("SELECT user_id FROM wallets") == [(ALICE,)]


def test_a_read_only_backup_is_audited_and_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit only reads (backup.md): a backup made read-only, or on a read-only mount, was
    refused as "read-only: the bot needs to write to it"."""
    database, kept = tmp_path / "ofc.sqlite3", tmp_path / "kept"
    assert ofc(["simulate", "--hands", "1", "--ai", "easy", "--database", str(database)]) == 0
    kept.mkdir()
    assert back_up_now(kept / "backup.sqlite3", database) == 0
    capsys.readouterr()
    backup = kept / "backup.sqlite3"
    before = backup.read_bytes()
    backup.chmod(0o444)
    kept.chmod(0o555)
    try:
        if os.access(backup, os.W_OK):
            pytest.skip("this user writes to read-only files anyway (root)")
        assert ofc(["audit", "--database", str(backup)]) == 0
        assert "\nok: " in capsys.readouterr().out
    finally:
        kept.chmod(0o755)
    assert backup.read_bytes() == before
    assert [p.name for p in kept.iterdir()] == ["backup.sqlite3"]
