"""Fixtures: the bot's services as the commands reach them (`interaction.client.storage` /
`.tables`, on tests/conftest.py's audited `storage`), interactions from given members, and `run`,
which runs a command as the command tree does."""

import itertools
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.app import OFCBot
from bot.config import Settings
from bot.storage import Storage
from bot.tables import FakeClock, ServiceSettings, TableService
from cogs.common.answers import answer_error
from tests.cogs.economy.doubles import Guild, Interaction, User, at
from tests.e2e.discord_double import DiscordDouble, Member

GUILD = 111_111_111_111_111_111
OTHER_GUILD = 111_111_111_111_111_222
CHANNEL = 222_222_222_222_222_222
OTHER_CHANNEL = 222_222_222_222_222_333
ALICE = User(301_000_000_000_000_001, "Alice")
BOB = User(301_000_000_000_000_002, "Bob")
CAROL = User(301_000_000_000_000_003, "Carol")
ADMIN = User(999_000_000_000_000_001, "Admin")
ROBOT = User(888_000_000_000_000_001, "Some bot", bot=True)
T0 = 1_700_000_000.0
HOUR = 3600.0

Invoke = Callable[..., Interaction]


async def run(command: app_commands.Command[Any, ..., Any], interaction: Interaction,
              /, **options: Any) -> None:
    """A slash command as the command tree runs it: its checks, then its callback, and any
    error to the tree's on_error (the one error path, cogs/common/answers.py)."""
    try:
        for check in command.checks:
            if not await discord.utils.maybe_coroutine(check, interaction):
                raise app_commands.CheckFailure(command.name)
        await command.callback(interaction, **options)  # type: ignore[arg-type]
    except Exception as error:
        await answer_error(interaction, error)  # type: ignore[arg-type]


@pytest.fixture
async def bot(double: DiscordDouble, alice: Member, bob: Member,
              tmp_path: Path) -> AsyncIterator[OFCBot]:
    """The real bot with every extension against the local Discord double (commands synced
    to its server), alice and bob in the server."""
    settings = Settings(token=double.token, database=str(tmp_path / "ofc.sqlite3"),
                        dev_guild=double.guild.id)
    client = OFCBot(settings)
    await double.start_client(client)
    yield client
    await double.stop_client(client)


@pytest.fixture
async def tables(storage: Storage) -> AsyncIterator[TableService]:
    service = TableService(storage, FakeClock(T0), None,
                           ServiceSettings(ai_delay_seconds=0.0, next_hand_seconds=0.0,
                                           ai_in_thread=False))
    yield service
    await service.close()


@pytest.fixture
def client(storage: Storage) -> SimpleNamespace:
    """The bot as the commands see it; a test that needs the table service sets `tables`."""
    return SimpleNamespace(storage=storage, tables=None, get_guild=lambda guild_id: None,
                           clock=FakeClock(T0))


@pytest.fixture
def invoke(client: SimpleNamespace) -> Invoke:
    """`invoke(user, at_time=..., manage_guild=..., guild=..., id=...)` -> a fresh interaction."""
    ids = itertools.count(900_000_000_000_000_001)

    def make(user: User = ALICE, *, at_time: float = T0, manage_guild: bool = False,
             guild: int | None = GUILD, channel: int = CHANNEL,
             id: int | None = None) -> Interaction:
        return Interaction(
            client=client, user=user,
            guild=Guild(guild, "Poker Night") if guild is not None else None,
            channel_id=channel, created_at=at(at_time), id=id or next(ids),
            permissions=discord.Permissions(manage_guild=manage_guild),
        )

    return make


# What a player chose, without the language they last used the bot in: remembering that at
# every command and click is bookkeeping, not a change a refusal makes.
PREFERENCES = ("SELECT user_id, four_colour, controls FROM player_preferences "
               "WHERE four_colour != 0 OR controls != 'dm'")


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read with plain sqlite3: equal dumps = nothing changed."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {n: conn.execute(PREFERENCES if n == "player_preferences"
                                else f"SELECT * FROM {n}").fetchall() for n in names}
    finally:
        conn.close()


def ledger(path: Path, user: User) -> list[tuple[str, int, int]]:
    """(kind, amount, balance_after) of a member's ledger rows, oldest first."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT kind, amount, balance_after FROM ledger WHERE user_id = ? ORDER BY id",
            (user.id,)).fetchall()
    finally:
        conn.close()
