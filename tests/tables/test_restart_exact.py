"""A restart after every click resumes each table exactly: the same cards, placements, turns,
Fantasyland hands and results as the same table played without one, whatever the options
that change the state's shape or the flow (variants, Fantasyland modes, the order of play,
the clock, the number of seats, a player the clock places for). Each restart also comes an
hour after the stop: the clocks stood still meanwhile (R10), so the continuation is the same.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.ai.players import Settings, decide
from bot.storage import Storage
from bot.tables import MatchOver, ServiceSettings, ShowdownDone, TableService
from bot.tables.clock import FakeClock
from bot.tables.match_runner import FAST, SIMULATION_HOST

from .driver import ALICE, BOB, CAROL, CHANNEL, GUILD, Recorder, fresh_service, stored

DOWN = 3600.0  # how long each stop lasts
PEOPLE = Settings(level="easy", seed=7)  # the people's choices, the same in both runs


@dataclass(frozen=True)
class Table:
    options: dict[str, Any]
    people: tuple[int, ...]
    computers: tuple[str, ...]
    seed: int
    idle: tuple[int, ...] = ()  # people who never act: R10 places for them
    fantasy: bool = True  # a Fantasyland hand is played (seeds found by playing them)


TABLES = {
    "progressive, simultaneous": Table(
        {"format": "hands", "hands": 3, "fantasy": "progressive", "order": "simultaneous"},
        (ALICE, BOB, CAROL), (), 2),
    "fantasy last, one clock a hand": Table(
        {"format": "hands", "hands": 3, "fantasy_deal": "last", "clock": "per_hand"},
        (ALICE, BOB, CAROL), (), 2),
    "progressive, 16 cards": Table({"format": "hands", "hands": 4, "fantasy": "progressive"},
                                   (ALICE,), ("strong", "strong"), 4),
    "ultimate, jokers": Table(
        {"format": "hands", "hands": 4, "fantasy": "ultimate", "variant": "joker"},
        (ALICE,), ("strong", "strong"), 5, fantasy=False),
    "turbo, four seats": Table(
        {"format": "hands", "hands": 4, "variant": "turbo", "seats": 4, "fantasy_deal": "last"},
        (ALICE,), ("strong", "strong", "strong"), 6, fantasy=False),
    "lowball": Table({"format": "hands", "hands": 4, "variant": "lowball"},
                     (ALICE,), ("strong",), 7),
    "a player placed for": Table({"format": "hands", "hands": 2}, (ALICE, BOB), ("easy",), 4,
                                 idle=(BOB,), fantasy=False),
}


@dataclass
class Run:
    """One table played to its end, restarted after every click when `restarts`."""

    storage: Storage
    restarts: bool
    service: TableService
    clock: FakeClock
    recorder: Recorder
    seen: list[Any] = field(default_factory=list)  # results: showdowns, then the standings
    resumed: int = 0

    async def restart(self, table: int, settings: ServiceSettings = FAST) -> None:
        if not self.restarts:
            return
        await self.service.idle()
        self.keep()
        await self.service.close()
        # storage (its last whole snapshot, with the changes since) holds the state exactly
        assert await stored(self.storage, table) == self.service._core.live(table).state.dumps()
        self.service, self.clock, self.recorder = fresh_service(
            self.storage, self.clock.now() + DOWN, settings)
        await self.service.restore()
        self.resumed += 1

    def keep(self) -> None:
        self.seen += [(e.hand_no, e.view, e.player_ids, e.fantasy_next)
                      for e in self.recorder.of(ShowdownDone)]
        self.seen += [e.standings for e in self.recorder.of(MatchOver)]
        self.recorder.clear()

    def live(self, table: int) -> bool:
        return table in self.service.live_tables()


async def click_by_click(run: Run, table: int, player: int) -> None:
    """The person's action as the DM buttons make it, a restart after each click."""
    state = run.service.private_view(table, player)
    for card, row in decide(state.view, PEOPLE).items():
        if row != "discard":
            await run.service.set_draft(table, player, hand_no=state.hand_no,
                                        street=state.street, card=card, row=row, seat=state.seat)
            await run.restart(table)
    await run.service.confirm(table, player, hand_no=state.hand_no, street=state.street,
                              seat=state.seat)
    await run.restart(table)


async def played(storage: Storage, spec: Table, restarts: bool) -> Run:
    service, clock, recorder = fresh_service(storage, 1000.0)
    run = Run(storage, restarts, service, clock, recorder)
    table = (await service.create_table(GUILD, CHANNEL, spec.people[0], "p0", spec.options,
                                        seed=spec.seed)).table_id
    for i, pid in enumerate(spec.people[1:], 1):
        await service.join(table, pid, f"p{i}")
    for level in spec.computers:
        await service.add_computer(table, spec.people[0], level, is_admin=True)
    await service.start(table, spec.people[0])
    for _ in range(2000):
        await run.service.idle()
        if not run.live(table):
            break
        waiting = [p for p in spec.people if p not in spec.idle and run.live(table)
                   and run.service.private_view(table, p).to_act]
        for pid in waiting:
            await click_by_click(run, table, pid)
        if not waiting and run.live(table):
            assert await run.clock.advance_to_next(), "the table is stuck"
            await run.service.idle()
            await run.restart(table)
    assert not run.live(table), "the table did not finish"
    run.keep()
    await run.service.close()
    return run


@pytest.mark.parametrize("name", TABLES)
async def test_a_restart_after_every_click_changes_nothing(
        storage: Storage, tmp_path: Path, name: str) -> None:
    spec = TABLES[name]
    alone = await Storage.open(tmp_path / "uninterrupted.sqlite3")
    try:
        expected = await played(alone, spec, restarts=False)
    finally:
        await alone.close()
    restarted = await played(storage, spec, restarts=True)
    assert restarted.resumed > 30
    assert restarted.seen == expected.seen
    earned = [e[3] for e in expected.seen[:-1] if e[3]]
    assert bool(earned) == spec.fantasy  # then its Fantasyland hands restarted through too


# Computers that take a second each, so that every computer's action is a step of the clock.
STEPPED = ServiceSettings(ai_delay_seconds=1.0, next_hand_seconds=2.0, ai_in_thread=False)
TWO_IN_FANTASYLAND = 12  # strong computers: hand 2 deals Fantasyland to two of them


async def computers_only(storage: Storage, restarts: bool) -> Run:
    """Three strong computers play six hands; with `restarts`, a stop after every step."""
    service, clock, recorder = fresh_service(storage, 1000.0, STEPPED)
    run = Run(storage, restarts, service, clock, recorder)
    table = (await service.create_table(GUILD, CHANNEL, SIMULATION_HOST, "host",
                                        {"format": "hands", "hands": 6}, sit=False,
                                        seed=TWO_IN_FANTASYLAND)).table_id
    for _ in range(3):
        await service.add_computer(table, SIMULATION_HOST, "strong", is_admin=True)
    await service.start(table, SIMULATION_HOST)
    while run.live(table):
        await run.service.idle()  # the restored computers' turns wait on the clock
        assert await run.clock.advance_to_next(), "the table is stuck"
        await run.service.idle()
        if run.live(table):
            await run.restart(table, STEPPED)
    run.keep()
    await run.service.close()
    return run


async def test_two_players_in_fantasyland_resume_exactly(storage: Storage,
                                                         tmp_path: Path) -> None:
    alone = await Storage.open(tmp_path / "uninterrupted.sqlite3")
    try:
        expected = await computers_only(alone, restarts=False)
    finally:
        await alone.close()
    restarted = await computers_only(storage, restarts=True)
    assert restarted.resumed > 50
    assert restarted.seen == expected.seen
    assert any(len(e[3]) == 2 for e in expected.seen[:-1])  # two earned it in one hand

