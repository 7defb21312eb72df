"""Commands that write while the database is busy (another process holds its write lock) are
answered within Discord's 3 s: deferred, then followed up once the write went through. The
lock is held until the bot's answer is seen, however long that takes, so nothing here
depends on the machine's speed: without the defer no answer comes while the lock is held, and
the wait for it fails. When the defer comes is tests/cogs/test_deferral.py's."""

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import EXTENSIONS, OFCBot
from tests.e2e.discord_double import DiscordDouble, Interaction, Member

DEFERRED = 5  # the interaction callback type of "thinking..."


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


async def tournament_open(double: DiscordDouble, alice: Member, bob: Member) -> None:
    await double.resolved(await alice.slash("ofc tournament create", buy_in=50))


async def free_tournament(double: DiscordDouble, alice: Member, bob: Member) -> None:
    """Without a buy-in: computers may fill any seat."""
    await double.resolved(await alice.slash("ofc tournament create", buy_in=0))


async def bob_registered(double: DiscordDouble, alice: Member, bob: Member) -> None:
    await tournament_open(double, alice, bob)
    await double.resolved(await bob.slash("ofc tournament join"))


async def nothing(double: DiscordDouble, alice: Member, bob: Member) -> None:
    await double.resolved(await bob.slash("ofc balance"))  # bob's wallet: 1,000 chips


Setup = Callable[[DiscordDouble, Member, Member], Awaitable[None]]
# (what is there first, the command bob runs, its options, what its answer says)
CASES: dict[str, tuple[Setup, str, dict[str, Any], str]] = {
    "preferences": (nothing, "ofc preferences", {"four_colour": True}, "four colours"),
    "tournament create": (nothing, "ofc tournament create", {"buy_in": 50}, "is open"),
    "tournament join": (tournament_open, "ofc tournament join", {}, "joined"),
    "tournament leave": (bob_registered, "ofc tournament leave", {}, "left"),
    "tournament computer": (free_tournament, "ofc tournament computer", {}, "registered"),
}


@pytest.mark.parametrize("case", CASES)
async def test_a_write_waiting_on_a_busy_database_is_deferred_then_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path,
        case: str) -> None:
    setup, command, options, said = CASES[case]
    await setup(double, alice, bob)
    if command == "ofc tournament computer":  # the director's: alice opened it
        bob = alice
    # Another process's writer. Its lock is taken off the event loop: the bot may still be in
    # a transaction from the setup's answer, which needs the loop to reach its commit.
    other = sqlite3.connect(db_path, isolation_level=None, timeout=600,
                            check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    asked: Interaction | None = None
    try:
        asked = await bob.slash(command, **options)
        await double.wait_until(lambda: asked is not None and asked.callback_type is not None,
                                what=f"{command} answered while the database is busy")
    finally:
        other.execute("COMMIT")
        other.close()
    assert asked.callback_type == DEFERRED
    answer = await double.resolved(asked)
    assert said in (answer.content or str(answer.embed))
