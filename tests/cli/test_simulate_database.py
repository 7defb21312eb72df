"""`ofc simulate --database`: the same simulation through the table service on the
database given, SQLite or PostgreSQL, which keeps what was played."""

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage.backend import describe
from tests.backends import Reader
from tests.storage.audit import audit


def _played(out: str) -> dict[str, object]:
    """The report without its timings."""
    report = json.loads(out)
    for player in report["players"]:
        del player["decision_ms"], player["decision_max_ms"]
    return dict(report)


def test_matches_play_on_the_database_given(database: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "2", "--hands", "3", "--seed", "2", "--ai", "easy",
            "--json"]
    assert main([*argv, "--database", database]) == 0
    on_database = _played(capsys.readouterr().out)
    assert main(argv) == 0  # a throwaway file: the same seed, the same play
    assert _played(capsys.readouterr().out) == on_database
    assert on_database["hands"] == 3
    with Reader(database) as query:
        assert query("SELECT count(*) FROM hands")[0][0] == 3
        assert query("SELECT DISTINCT status FROM live_tables") == [("closed",)]
        assert query("SELECT count(*) FROM ledger WHERE kind = 'house'")[0][0] == 4
    assert audit(database) == []


def test_a_tournament_plays_on_the_database_given(
        database: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--tournament", "--players", "3", "--seed", "4", "--hands", "1",
                 "--ai", "easy", "--json", "--database", database]) == 0
    assert len(json.loads(capsys.readouterr().out)["placings"]) == 3
    with Reader(database) as query:
        assert query("SELECT status, pool FROM tournaments") == [("finished", 0)]
    assert audit(database) == []


def test_a_database_it_cannot_use_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://ofc@/ofc?host={tmp_path}&port=5432"
    assert main(["simulate", "--hands", "1", "--database", url]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("ofc simulate: Cannot connect to PostgreSQL at ")


@pytest.mark.parametrize("command", [["simulate", "--hands", "1"], ["audit"]])
def test_a_url_of_another_database_is_named_not_taken_for_a_file(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # a file "mysql:" would land here
    assert main([*command, "--database", "mysql://ofc:secret@db/ofc"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.endswith(": A database is an SQLite file or a postgresql:// URL, not a mysql:// "
                         "URL.")
    assert list(tmp_path.iterdir()) == []
    assert describe("mysql://ofc:secret@db/ofc") == "mysql://..."  # logs never show its password


@pytest.mark.parametrize("mode", [["--hands", "1"], ["--tournament", "--players", "3",
                                                      "--hands", "1"]])
def test_another_program_s_database_is_left_as_it_was(
        mode: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped --database naming another program's SQLite file: the run wrote the bot's
    tables into it and played there (`ofc audit` refuses such a file: so does this)."""
    path = tmp_path / "notes.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('mine')")
        conn.commit()
    before = path.read_bytes()
    assert main(["simulate", *mode, "--ai", "easy", "--database", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"ofc simulate: {path} is not a database of this bot, nor "
                                "empty (it holds notes): give the bot's database or an empty "
                                "one."]
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite3"]


def test_an_empty_file_is_played_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file (a `touch`) holds nothing to spoil: it is taken, as the refusal of another
    program's database advises ("give the bot's database or an empty one"), and docs/cli.md
    says (it said such a file was refused)."""
    path = tmp_path / "played.sqlite3"
    path.touch()
    assert main(["simulate", "--hands", "1", "--ai", "easy", "--database", str(path)]) == 0
    assert capsys.readouterr().out.startswith("1 deal per seating\n")
    with Reader(str(path)) as query:
        assert query("SELECT count(*) FROM hands")[0][0] == 1
    assert audit(str(path)) == []
