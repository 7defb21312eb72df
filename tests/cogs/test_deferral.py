"""Discord refuses an interaction's callback DISCORD_DEADLINE (3 s) after its creation; the bot
answers work that takes longer than DEFER_AFTER (1.5 s) with a deferral ("thinking") sent
when DEFER_AFTER has passed, then the answer as its follow-up (cogs/common/interactions.py
`in_time`). The double holds Discord's 3 s here, on the event loop's clock: the clock the
bot's timer reads too. The test holds that clock still and moves it itself, and holds the
bot's work on an event until the deferral is seen, so what is checked is exactly when the bot
defers, however busy the machine (the other tests give the bot the double's patience, and
record how late each callback came: `Interaction.lateness`)."""

import asyncio
import threading
from typing import Any

import pytest

from bot.app import EXTENSIONS, OFCBot
from cogs.common import answers
from cogs.common.interactions import DEFER_AFTER
from tests.e2e.discord_double import (
    DISCORD_DEADLINE,
    PATIENCE,
    DiscordDouble,
    Interaction,
    Member,
)
from tests.loop_clock import held_loop_clock

DEFERRED = 5  # the interaction callback type of "thinking..."


@pytest.fixture
def extensions() -> tuple[str, ...]:
    return EXTENSIONS


class Held:
    """One storage read of the bot's, held until `release`: work as slow as the test wants."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.entered, self.released = asyncio.Event(), asyncio.Event()
        original = getattr(owner, name)

        async def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            await self.released.wait()
            return await original(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)


async def patiently(event: asyncio.Event, what: str) -> None:
    """Wait for `event`; fail after PATIENCE of real time, counted on a thread since the loop's
    timers are held."""
    stop = threading.Event()
    gave_up = asyncio.get_running_loop().run_in_executor(None, stop.wait, PATIENCE)
    waiting = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiting, gave_up}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.set()
        waiting.cancel()
    assert event.is_set(), f"{what}: not within {PATIENCE} s"


def newest(double: DiscordDouble) -> Interaction:
    return double.state.interactions[max(double.state.interactions)]


async def test_slow_work_is_deferred_once_defer_after_has_passed_within_discords_deadline(
        double: DiscordDouble, bot: OFCBot, alice: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert DEFER_AFTER < DISCORD_DEADLINE
    wallet = Held(monkeypatch, bot.storage.wallets, "wallet")  # alice's first wallet: a write
    double.state.interaction_deadline = DISCORD_DEADLINE
    with held_loop_clock() as clock:
        asking = asyncio.create_task(alice.slash("ofc balance"))
        await patiently(wallet.entered, "the bot's wallet read")
        asked = newest(double)
        assert asked.callback_type is None  # no time has passed: the bot waits for its work
        clock.advance(DEFER_AFTER)
        await patiently(asked.answered, "the bot's callback")
        assert asked.callback_type == DEFERRED and not wallet.released.is_set()
        assert asked.lateness == pytest.approx(DEFER_AFTER)  # on the clock Discord's 3 s is on
    assert await asking is asked
    wallet.released.set()
    answer = await double.resolved(asked)
    assert answer.ephemeral and answer.embed is not None
    assert "1,000" in str(answer.embed)  # a new wallet's chips (R12)


@pytest.mark.parametrize("first, second", [("wallet", "settings"), ("language", "wallet")])
async def test_defer_after_counts_from_the_receipt_over_every_wait(
        double: DiscordDouble, bot: OFCBot, alice: Member, monkeypatch: pytest.MonkeyPatch,
        first: str, second: str) -> None:
    """/ofc balance waits twice, each wait shorter than DEFER_AFTER: two reads (the wallet,
    then the server's daily amount), or its start held back (the bot remembers the member's
    language before any command runs) and then the wallet read. It is deferred once
    DEFER_AFTER has passed since the bot received it, before the second wait ends, within
    Discord's 3 s however long the command waited to start."""
    waits = {"language": (answers, "remember"), "wallet": (bot.storage.wallets, "wallet"),
             "settings": (bot.storage.settings, "guild_settings")}
    await double.resolved(await alice.slash("ofc balance"))  # her wallet and language known
    held_first, held_second = Held(monkeypatch, *waits[first]), Held(monkeypatch, *waits[second])
    double.state.interaction_deadline = DISCORD_DEADLINE
    with held_loop_clock() as clock:
        asking = asyncio.create_task(alice.slash("ofc balance"))
        await patiently(held_first.entered, f"the bot's {first}")
        asked = newest(double)
        clock.advance(DEFER_AFTER * 0.75)
        held_first.released.set()
        await patiently(held_second.entered, f"the bot's {second}")
        assert asked.callback_type is None
        clock.advance(DEFER_AFTER * 0.25)
        await patiently(asked.answered, "the bot's callback")
        assert asked.callback_type == DEFERRED and not held_second.released.is_set()
        assert asked.lateness == pytest.approx(DEFER_AFTER)
    assert await asking is asked
    held_second.released.set()
    answer = await double.resolved(asked)
    assert answer.ephemeral and "1,000" in str(answer.embed)
