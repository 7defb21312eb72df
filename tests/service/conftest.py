"""Fixtures of the table-service tests: real SQLite files in tmp_path (storage's own fixtures,
which audit the file after each test), a fake clock, and a service with no pauses (computers
act at once, the next hand is dealt at once)."""

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.simulate import FAST
from tests.storage.conftest import db_path, storage

from .driver import QUICK_AI, Recorder

__all__ = ["clock", "db_path", "recorder", "service", "storage"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


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
