"""Storage tests: each runs on SQLite and on PostgreSQL (`database`, tests/backends.py)."""

import pytest

from bot.storage import Storage
from tests.backends import database as database  # each test on both backends

GUILD = 111_111_111_111_111_111
CHANNEL = 222_222_222_222_222_222
ADMIN = 999_999_999_999_999_999
ALICE = 301_000_000_000_000_001
BOB = 301_000_000_000_000_002
CAROL = 301_000_000_000_000_003
BOT = -1  # a computer seat


@pytest.fixture
async def table(storage: Storage) -> int:
    return await storage.tables.create_table(GUILD, CHANNEL, '{"hand": 0}', now=0.0)
