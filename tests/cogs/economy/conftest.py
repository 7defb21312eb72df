"""tests/cogs' bot (tests/cogs/conftest.py) with every extension: the economy commands answer
beside the tables and tools they report on."""

import pytest

from bot.app import EXTENSIONS


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS
