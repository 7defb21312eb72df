"""The throwaway PostgreSQL server of the tests and `ofc bench` (tests/pgserver.py) says why it
cannot run where the binaries are missing; the bench then leaves the _pg figures out."""

import pytest

from bot.cli.bench.postgres import bench_database
from tests import pgserver


def test_missing_binaries_are_named_and_the_bench_goes_on_without(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(pgserver.shutil, "which", lambda name: None)
    monkeypatch.setattr(pgserver, "_SEARCHED", "/nonexistent/postgresql/*/bin")
    with pytest.raises(pgserver.Unavailable, match="no PostgreSQL server binaries"):
        pgserver.TempServer()
    with bench_database(True) as url:
        assert url is None
    assert capsys.readouterr().err.startswith(
        "ofc bench: the _pg figures are left out: no PostgreSQL server binaries")
