"""tests/cogs' bot (tests/cogs/conftest.py) with every extension: the tools read the tables'
rules and the server's settings, and change what the economy commands show."""

import pytest

from bot.app import EXTENSIONS


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS
