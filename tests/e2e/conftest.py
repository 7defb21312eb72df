"""Fixtures for end-to-end tests through the local Discord double.

`double`: a running `DiscordDouble` (guild `double.guild`, text channel `double.channel`);
after the test it checks that no request left 127.0.0.1, none hit an unknown route and
discord.py logged no error (a test that provokes one on purpose clears `double.errors.records`,
`double.escaped` or `double.requests`).
`alice`, `bob`, `carol`: members of that guild, added before any bot connects.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .discord_double import DiscordDouble, Member


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble() as running:
        yield running
        running.assert_clean()


@pytest.fixture
def alice(double: DiscordDouble) -> Member:
    return double.add_member("alice")


@pytest.fixture
def bob(double: DiscordDouble) -> Member:
    return double.add_member("bob")


@pytest.fixture
def carol(double: DiscordDouble) -> Member:
    return double.add_member("carol")
