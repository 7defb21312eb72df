"""Whole flows through the real bot (bot.app.OFCBot, every extension, real discord.py HTTP and
gateway code, a real SQLite file) against the Discord double of tests/e2e, with a fake clock
for the table service's timers and the real renderer, recorded (tests/e2e/privacy.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD
from tests.e2e.flows import start_bot
from tests.e2e.privacy import PrivacyWatch

REACTION_SECONDS = 0.01  # flows wait to see each click's effect before the next one


@pytest.fixture
def double(double: DiscordDouble) -> DiscordDouble:
    """tests/conftest.py's double, with flows waiting to see each click's effect."""
    double.reaction_time = REACTION_SECONDS
    return double


@pytest.fixture(autouse=True)
def watch(monkeypatch: pytest.MonkeyPatch) -> PrivacyWatch:
    """Every image is recorded with the view it was drawn from (tests/e2e/privacy.py)."""
    recorder = PrivacyWatch()
    recorder.install(monkeypatch)
    return recorder


@pytest.fixture
def croupier(double: DiscordDouble) -> Member:
    """A member with Manage Server, who seats computers (added before the bot connects: list
    it before `bot`)."""
    return double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "ofc.sqlite3"


@pytest.fixture
async def bot(double: DiscordDouble, alice: Member, bob: Member, carol: Member,
              clock: FakeClock, database: Path) -> AsyncIterator[OFCBot]:
    """The bot, connected, with alice, bob and carol in the guild."""
    client = await start_bot(double, database, clock)
    yield client
    await double.stop_client(client)
