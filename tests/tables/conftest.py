"""Fixtures of the table-service tests: each runs on a real SQLite file and on a real
PostgreSQL database (`database`, tests/backends.py; tests/conftest.py's storage, audited after
each test), its fake clock, and a service with no pauses (computers act at once, the next
hand is dealt at once)."""

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.match_runner import FAST
from tests.backends import database as database  # each test on both backends

from .driver import QUICK_AI, Recorder


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def service(storage: Storage, clock: FakeClock,
                  recorder: Recorder) -> AsyncIterator[TableService]:
    running = TableService(storage, clock, QUICK_AI, FAST)
    running.add_listener(recorder)
    yield running
    await running.close()
