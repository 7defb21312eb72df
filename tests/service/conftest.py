"""Fixtures of the table-service tests: real SQLite files in tmp_path (tests/conftest.py's storage,
audited after each test), its fake clock, and a service with no pauses (computers
act at once, the next hand is dealt at once)."""

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.simulate import FAST

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
