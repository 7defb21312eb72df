"""Tournaments under clicks and commands that arrive together (RULES.md R13,
docs/players/tournaments.md), through the real table service on both backends: each applies
once, and the one refused gets the answer meant for it."""

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from bot.storage import Storage
from bot.tables import FakeClock
from bot.tournaments import TournamentError
from bot.tournaments.limits import TournamentLimits
from tests.tables.driver import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.tournaments.test_tournaments import DAVE, DIRECTOR, SHORT, Bot, create


async def test_computers_added_while_a_registration_is_saved_each_register(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director and an admin each add a computer while a person's buy-in is being
    written: once it is, two computers register, each with its own id (neither is told it
    is 'already registered'), and the person too."""
    bot = Bot(storage, clock)
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, hands=1)
    written = asyncio.Event()
    move = storage.tournaments.tournament_move

    async def slow_move(*args: Any, **kwargs: Any) -> Any:
        await written.wait()
        return await move(*args, **kwargs)

    monkeypatch.setattr(storage.tournaments, "tournament_move", slow_move)
    joining = asyncio.create_task(bot.service.join(t.tournament_id, BOB, "Bob"))
    await asyncio.sleep(0)  # Bob's buy-in is being written, the tournament's lock held
    adding = [asyncio.create_task(bot.service.add_computer(t.tournament_id, DIRECTOR, "easy")),
              asyncio.create_task(bot.service.add_computer(t.tournament_id, ALICE, "easy",
                                                           is_admin=True))]
    await asyncio.sleep(0)
    written.set()
    results = await asyncio.gather(joining, *adding, return_exceptions=True)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sorted(e.player_id for e in bot.service.tournament(t.tournament_id).entries) \
        == [-2, -1, BOB]
    await bot.close()


async def test_a_double_click_on_add_computer_meets_the_cooldown(storage: Storage,
                                                                 clock: FakeClock) -> None:
    """Two clicks of the director at once under the bot's cooldown: one computer registers,
    the other click is told to wait."""
    bot = Bot(storage, clock, replace(SHORT, computer_member_seconds=3.0))
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=0, hands=1)
    both = await asyncio.gather(
        *(bot.service.add_computer(t.tournament_id, DIRECTOR, "easy") for _ in range(2)),
        return_exceptions=True)
    refused = [str(r) for r in both if isinstance(r, TournamentError)]
    assert refused == ["Wait 3 s before adding another computer."]
    assert [e.player_id for e in bot.service.tournament(t.tournament_id).entries] == [-1]
    await bot.close()


async def test_computers_added_at_once_stop_at_the_cap(storage: Storage,
                                                       clock: FakeClock) -> None:
    """Three admins add a computer at once where two more fit: two register, one is told the
    cap."""
    limits: TournamentLimits = replace(SHORT, computers_per_tournament=2)
    bot = Bot(storage, clock, limits)
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=0, hands=1)
    three = await asyncio.gather(
        *(bot.service.add_computer(t.tournament_id, admin, "easy", is_admin=True)
          for admin in (DIRECTOR, ALICE, ALICE + 50)),
        return_exceptions=True)
    refused = [str(r) for r in three if isinstance(r, TournamentError)]
    assert refused == ["A tournament takes at most 2 computers."]
    assert len(bot.service.tournament(t.tournament_id).entries) == 2
    await bot.close()


async def test_a_double_click_on_start_starts_once_and_says_so(storage: Storage,
                                                               clock: FakeClock) -> None:
    """Two starts at once of a tournament of two tables: one starts it and opens each table
    once; the other is told it has already started (not 'Started' a second time)."""
    bot = Bot(storage, clock)
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], computers=2)
    both = await asyncio.gather(
        *(bot.service.start(t.tournament_id, DIRECTOR) for _ in range(2)),
        return_exceptions=True)
    refused = [str(r) for r in both if isinstance(r, TournamentError)]
    assert refused == ["The tournament has already started."]
    await bot.service.idle()
    tables = bot.service.tournament(t.tournament_id).current_tables
    assert [table.status for table in tables] == ["playing", "playing"]
    assert sorted(bot.opened) == [(t.tournament_id, 1, 0), (t.tournament_id, 1, 1)]
    await bot.close()
