from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.storage.audit import audit

GUILD = 111_111_111_111_111_111
CHANNEL = 222_222_222_222_222_222
ADMIN = 999_999_999_999_999_999
ALICE = 301_000_000_000_000_001
BOB = 301_000_000_000_000_002
CAROL = 301_000_000_000_000_003
BOT = -1  # a computer seat


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ofc.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    """A fresh database; after the test, the independent audit must find nothing wrong."""
    store = await Storage.open(db_path)
    yield store
    await store.close()
    assert audit(db_path) == []


@pytest.fixture
async def table(storage: Storage) -> int:
    return await storage.create_table(GUILD, CHANNEL, '{"hand": 0}', now=0.0)
