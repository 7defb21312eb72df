"""The systemd unit of deploy/ofc-bot.service: what it must say, that `systemd-analyze verify`
finds nothing wrong with it (where that program exists), and that the admins' page shows it as
it is."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "ofc-bot.service"
PAGE = ROOT / "docs" / "admins" / "service.md"
INSTALLED = "/opt/ofc-bot"  # where the unit expects the bot


def settings() -> dict[str, list[str]]:
    """Every `Key=value` of the unit, by key (comments and section lines left out)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith(("#", "[")):
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_restarts_on_failure_in_its_folder_with_its_settings() -> None:
    unit = settings()
    assert unit["Restart"] == ["on-failure"]
    assert unit["WorkingDirectory"] == [INSTALLED]
    assert unit["ExecStart"] == [f"{INSTALLED}/.venv/bin/ofc-bot --env-file {INSTALLED}/.env"]
    assert unit["KillSignal"] == ["SIGTERM"]  # the bot's clean stop
    assert unit["WantedBy"] == ["multi-user.target"]


def test_the_settings_file_is_read_by_the_bot_alone() -> None:
    """systemd's EnvironmentFile= keeps a comment after a value (`OFC_DATABASE=ofc.sqlite3 #
    main` is the file `ofc.sqlite3 # main`, new and empty) where the bot's reader drops it, as
    settings.md allows, and the environment wins over .env: given both ways, the bot would
    start on other settings than the .env it documents."""
    assert "EnvironmentFile" not in settings()


def test_the_admins_page_shows_the_unit_as_it_is() -> None:
    assert UNIT.read_text() in PAGE.read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_finds_nothing_wrong(tmp_path: Path) -> None:
    # The unit as installed: its paths point at a folder that exists, with an ofc-bot in it.
    folder = tmp_path / "ofc-bot"
    program = folder / ".venv" / "bin" / "ofc-bot"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    (folder / ".env").write_text("DISCORD_TOKEN=\n")
    unit = tmp_path / "ofc-bot.service"
    unit.write_text(UNIT.read_text().replace(INSTALLED, str(folder)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=120, check=False)
    # It reports a bad key or value as a warning and still exits 0: both must be clean.
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "ofc-bot" in line] == []
