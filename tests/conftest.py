"""Fixtures shared by the test packages.

`db_path`: a fresh SQLite file. `database`: where `storage` lives: that file here; the
storage and table-service tests override it to run once on SQLite and once on PostgreSQL
(tests/backends.py, whose server `postgres` is started once per session). `storage`: that
database opened, audited after the test (every wallet equal to its ledger,
tests/storage/audit.py). `clock`: the table service's fake clock.
`double`: a running local Discord API double (tests/e2e/discord_double; guild `double.guild`,
text channel `double.channel`); after the test it checks that no request left 127.0.0.1, none
hit an unknown route, and neither discord.py nor the bot's own code (`bot`, `cogs` loggers)
logged an error (a test that provokes one on purpose clears `double.errors.records`,
`double.escaped` or `double.requests`). `alice`, `bob`, `carol`: members of that guild, added
before any bot connects. `held_deferral`: the bot's deferral timer out of the way
(docs/maintainers/tests.md). Every test ends with the root logger as it found it
(`logging_as_it_was`).
"""

import logging
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Every save of a table's changes is checked to rebuild it exactly (bot/tables/runtime.py), here
# and in the bots the tests start as processes.
os.environ["OFC_CHECK_CHANGES"] = "1"

from bot.storage import Storage
from bot.tables import FakeClock
from cogs.common import interactions
from tests.backends import Postgres, start_postgres
from tests.e2e.discord_double import DiscordDouble, Member
from tests.storage.audit import audit

# No deadline on any Hypothesis example: one the machine happened to stall past it (a busy CI
# host) fails as "Unreliable test timings" when the replay is quick. Timings belong in
# `ofc bench`.
settings.register_profile("ofc", deadline=None)
settings.load_profile("ofc")


@pytest.fixture(autouse=True)
def logging_as_it_was() -> Iterator[None]:
    """`ofc-bot`'s main() run in the test process sets up logging as a process does: a
    handler on the root logger, at INFO, writing to the stderr pytest captures for that one
    test and closes after it. Left there, every later test's log record would be formatted
    and fail to write ("I/O operation on closed file"). pytest's own capture handlers come and
    go by themselves."""
    root = logging.getLogger()
    handlers, level = set(root.handlers), root.level
    yield
    for handler in root.handlers[:]:
        if handler not in handlers and not type(handler).__module__.startswith("_pytest"):
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ofc.sqlite3"


@pytest.fixture
def database(db_path: Path) -> str:
    return str(db_path)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    started = start_postgres()
    yield started
    if started.server is not None:
        started.server.stop()


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    """Default amounts of the bot: 1,000 starting chips, 200 a day, every 20 hours."""
    store = await Storage.open(database)
    yield store
    await store.close()
    assert audit(database) == []


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble(watched_loggers=("discord", "bot", "cogs")) as running:
        yield running
        running.assert_clean()


@pytest.fixture
def held_deferral(double: DiscordDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test whose truth is that the bot answered before any deferral (a refusal that
    comes before the work): the bot's DEFER_AFTER is pushed out to the double's patience (its
    interaction deadline), so that a machine stalled for 1.5 s cannot make the bot defer."""
    monkeypatch.setattr(interactions, "DEFER_AFTER", double.state.interaction_deadline)


@pytest.fixture
def alice(double: DiscordDouble) -> Member:
    return double.add_member("alice")


@pytest.fixture
def bob(double: DiscordDouble) -> Member:
    return double.add_member("bob")


@pytest.fixture
def carol(double: DiscordDouble) -> Member:
    return double.add_member("carol")
