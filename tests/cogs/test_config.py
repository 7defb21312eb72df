"""Settings (bot/config.py) and start-up without a token (bot/__main__.py)."""

import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import NO_TOKEN_HELP, ConfigError, Settings, load_settings, read_dotenv
from cogs.common.permissions import NEEDED, THREADS

ROOT = Path(__file__).resolve().parents[2]
# The environment variable of each Settings field.
NAMES = {"token": "DISCORD_TOKEN", "database": "OFC_DATABASE", "dev_guild": "OFC_DEV_GUILD",
         "log_level": "OFC_LOG_LEVEL", "starting_chips": "OFC_STARTING_CHIPS",
         "daily_chips": "OFC_DAILY_CHIPS", "ai_delay_seconds": "OFC_AI_DELAY_SECONDS",
         "next_hand_seconds": "OFC_NEXT_HAND_SECONDS",
         "lobby_idle_minutes": "OFC_LOBBY_IDLE_MINUTES",
         "table_edit_seconds": "OFC_TABLE_EDIT_SECONDS", "workers": "OFC_WORKERS",
         "shard_lease_seconds": "OFC_SHARD_LEASE_SECONDS", "relay_address": "OFC_RELAY_ADDRESS",
         "relay_tls_cert": "OFC_RELAY_TLS_CERT", "relay_tls_key": "OFC_RELAY_TLS_KEY",
         "relay_tls_ca": "OFC_RELAY_TLS_CA",
         "metrics_port": "OFC_METRICS_PORT", "metrics_host": "OFC_METRICS_HOST"}


def test_dotenv_lines_comments_quotes_and_export(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# a comment\n\n"
        "DISCORD_TOKEN='abc.def'\n"
        'export OFC_DATABASE="my file.sqlite3"\n'
        "OFC_DAILY_CHIPS = 50  # per day\n"
        "OFC_LOG_LEVEL=debug\n"
        "EMPTY=\n")
    assert read_dotenv(env) == {"DISCORD_TOKEN": "abc.def", "OFC_DATABASE": "my file.sqlite3",
                                "OFC_DAILY_CHIPS": "50", "OFC_LOG_LEVEL": "debug",
                                "EMPTY": ""}
    assert read_dotenv(tmp_path / "missing.env") == {}


def test_a_line_that_is_not_key_value_is_named(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("OFC_DATABASE=x\nthis is not a setting\n")
    with pytest.raises(ConfigError, match="line 2"):
        read_dotenv(env)


def test_environment_wins_over_dotenv_and_defaults_fill_the_rest(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nOFC_STARTING_CHIPS=500\nOFC_DEV_GUILD=42\n")
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, dotenv=env)
    assert settings == Settings(token="from-env", starting_chips=500, dev_guild=42)
    assert settings.database == "ofc.sqlite3" and settings.daily_chips == 200
    assert load_settings({}, dotenv=None) == Settings()
    url = "postgresql://ofc:secret@db.example.com/ofc"
    assert load_settings({"OFC_DATABASE": url}, dotenv=None).database == url


@pytest.mark.parametrize(("name", "value", "message"), [
    ("OFC_STARTING_CHIPS", "lots", "OFC_STARTING_CHIPS must be a whole number"),
    ("OFC_DAILY_CHIPS", "-5", "must not be negative"),
    # past what /ofc-admin settings takes, and past what a wallet can be created with
    ("OFC_STARTING_CHIPS", str(10**12 + 1), "OFC_STARTING_CHIPS must be from 0 to "
                                            "1000000000000 chips"),
    ("OFC_DAILY_CHIPS", str(2**63), "OFC_DAILY_CHIPS must be from 0 to 1000000000000 chips"),
    ("OFC_DEV_GUILD", "0", "server id"),
    ("OFC_LOG_LEVEL", "loud", "OFC_LOG_LEVEL must be one of"),
    ("OFC_AI_DELAY_SECONDS", "soon", "number of seconds"),
    ("OFC_TABLE_EDIT_SECONDS", "7200", "from 0 to 3600 seconds"),
    ("OFC_LOBBY_IDLE_MINUTES", "0", "from 1 to 10080 minutes"),
    ("OFC_WORKERS", "-1", "must not be negative"),
    ("OFC_WORKERS", "100", "from 0 to 64 worker processes"),
    ("OFC_SHARD_LEASE_SECONDS", "1", "from 3 to 600 seconds"),
    ("OFC_RELAY_ADDRESS", "8400", "must be host:port"),
    ("OFC_RELAY_ADDRESS", "host:99999", "must be host:port"),
    ("OFC_RELAY_ADDRESS", "0.0.0.0:8400",
     "must name the address the other processes of the bot can reach this one at"),
    ("OFC_RELAY_ADDRESS", "[::]:8400", "not the wildcard ::"),
    ("OFC_RELAY_TLS_CERT", "relay.pem", "OFC_RELAY_TLS_CERT and OFC_RELAY_TLS_KEY go together"),
    ("OFC_RELAY_TLS_CA", "ca.pem", "OFC_RELAY_TLS_CA needs them"),
    ("OFC_METRICS_PORT", "0", "port number from 1 to 65535"),
    # past the 64 bits of every Discord id: the sync to that server could only fail
    ("OFC_DEV_GUILD", str(2**63), "^OFC_DEV_GUILD must be a server id"),
    ("OFC_DEV_GUILD", "9" * 25, "^OFC_DEV_GUILD must be a server id"),
    ("OFC_METRICS_PORT", "http", "whole number"),
    ("OFC_DATABASE", "mysql://me:secret@db/ofc",
     "^OFC_DATABASE must be an SQLite file or a postgresql:// URL, not a mysql:// URL$"),
    # an SQLite database in memory would lose every chip at each stop
    ("OFC_DATABASE", ":memory:", "^OFC_DATABASE must name a file, not an SQLite database in "
                                 "memory \\(lost at each stop\\)$"),
    ("OFC_DATABASE", "sqlite::memory:", "must name a file, not an SQLite database in memory"),
    ("OFC_DATABASE", "sqlite:", "^OFC_DATABASE must name a file after sqlite:$"),
])
def test_bad_values_are_named(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({name: value}, dotenv=None)


def test_workers_default_to_the_usable_cores_from_2_to_32_and_zero_means_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 64)  # the machine's; the process may use fewer
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(6)), raising=False)
    assert load_settings({}, dotenv=None).worker_count == 6
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0}, raising=False)
    assert load_settings({}, dotenv=None).worker_count == 2
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(48)), raising=False)
    assert load_settings({}, dotenv=None).worker_count == 32
    assert load_settings({"OFC_WORKERS": "0"}, dotenv=None).worker_count == 0
    assert load_settings({"OFC_WORKERS": "3"}, dotenv=None).worker_count == 3


def test_env_example_documents_every_setting_with_its_default() -> None:
    example = read_dotenv(ROOT / ".env.example")
    assert set(example) == set(NAMES.values())
    assert load_settings({}, dotenv=ROOT / ".env.example") == Settings()
    lines = (ROOT / ".env.example").read_text().splitlines()
    for field in fields(Settings):
        at = next(i for i, t in enumerate(lines) if t.startswith(NAMES[field.name] + "="))
        above = next(t for t in reversed(lines[:at]) if t.split("=")[0] not in example)
        assert above.startswith("#"), f"{NAMES[field.name]} has no comment"


def test_no_token_exits_with_how_to_get_one(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    # exit 2, as every setting ofc-bot cannot start with (a supervisor retries it a few times)
    assert main(["--env-file", os.devnull]) == 2
    err = capsys.readouterr().err
    for needed in ("DISCORD_TOKEN", "New Application", "Reset Token",
                   '"bot" and\n     "applications.commands"',
                   "ofc simulate --players 2 --hands 20 --seed 1 --ai strong,easy"):
        assert needed in err


def test_a_bad_setting_exits_2_naming_it(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OFC_DAILY_CHIPS", "many")
    assert main(["--env-file", os.devnull]) == 2
    assert "OFC_DAILY_CHIPS must be a whole number" in capsys.readouterr().err


def test_python_m_bot_without_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)  # whether or not the project is pip-installed
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no DISCORD_TOKEN" in done.stderr and "ofc simulate" in done.stderr


def test_the_no_token_help_asks_for_every_permission_the_bot_checks() -> None:
    # A server invited as the help says can run tables, tournaments and /ofc practice.
    help_text = " ".join(NO_TOKEN_HELP.split())
    assert [str(name) for _, name, _ in NEEDED + THREADS
            if str(name) not in help_text] == []
    assert "/ofc practice" in help_text


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot be read: Is a directory"),  # a folder given for the file
    (b"DISCORD_TOKEN=\xff\xfe\n", "is not UTF-8 text"),
])
def test_a_settings_file_that_cannot_be_read_exits_2_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        content: bytes | None, message: str) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    path = tmp_path / "settings.env"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    assert main(["--env-file", str(path)]) == 2
    assert capsys.readouterr().err == f"ofc-bot: {path} {message}.\n"


def test_a_settings_file_named_but_missing_exits_2_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A typo in --env-file must not start the bot on the defaults: with the token in the
    # environment it would open a new, empty ofc.sqlite3 and every wallet would look gone.
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "ofc-bot.env"
    assert main(["--env-file", str(missing)]) == 2
    assert capsys.readouterr().err == f"ofc-bot: the settings file {missing} does not exist.\n"
    assert list(tmp_path.iterdir()) == []  # no database created


def test_a_settings_file_named_but_missing_stops_a_backup_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ofc-bot --env-file PATH backup ...: the backup of the wrong (default) database otherwise
    missing = tmp_path / "ofc-bot.env"
    assert main(["--env-file", str(missing), "backup", str(tmp_path / "copy.sqlite3")]) == 2
    assert capsys.readouterr().err == f"ofc-bot: the settings file {missing} does not exist.\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [[], ["backup", "copy.sqlite3"]])
def test_a_database_in_a_folder_that_does_not_exist_is_named_by_its_setting(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # A typo in the folder was told as a lock file that cannot be created: the admin had to
    # guess which setting led there.
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "data" / "ofc.sqlite3"
    monkeypatch.setenv("OFC_DATABASE", f"sqlite:{database}")
    assert main(["--env-file", os.devnull, *command]) == 2
    assert capsys.readouterr().err == (
        f"ofc-bot{' backup' if command else ''}: OFC_DATABASE is sqlite:{database}, but the "
        f"folder {database.parent} does not exist: create it, or correct the path.\n")
    assert list(tmp_path.iterdir()) == []  # nothing created


def test_a_database_whose_folder_is_a_file_is_named_by_its_setting(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("")
    database = tmp_path / "data" / "ofc.sqlite3"
    with pytest.raises(ConfigError, match=f"^OFC_DATABASE is {database}, but {database.parent} "
                                          "is a file, not a folder: correct the path$"):
        load_settings({"OFC_DATABASE": str(database)}, dotenv=None)


@pytest.mark.parametrize("line", ['OFC_DATABASE="/srv/ofc/ofc.sqlite3',
                                  "OFC_DATABASE='/srv/ofc/ofc.sqlite3\"",
                                  'OFC_DATABASE="/srv/ofc/ofc.sqlite3"x',
                                  'OFC_DATABASE="'])
def test_a_quote_left_open_is_named_not_read_into_the_value(tmp_path: Path, line: str) -> None:
    """A closing quote forgotten would make the quote part of the database's name: the bot
    would start on a new, empty database beside the real one, every wallet at its start."""
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=abc\n{line}\n")
    with pytest.raises(ConfigError, match=r"\.env, line 2: the quote that opens the value of "
                                          r"OFC_DATABASE is not closed"):
        read_dotenv(env)


def test_a_comment_after_a_quoted_value_is_not_part_of_it(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text('OFC_DATABASE="my file.sqlite3"  # production\nOFC_LOG_LEVEL=\'debug\' #x\n')
    assert read_dotenv(env) == {"OFC_DATABASE": "my file.sqlite3", "OFC_LOG_LEVEL": "debug"}
