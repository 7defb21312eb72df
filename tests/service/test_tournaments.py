"""Shootout tournaments through the real table service on a fake clock (RULES.md R13).
tests/conftest.py's storage fixture audits every chip after each test."""

from collections.abc import AsyncIterator
from itertools import count

import pytest

from bot.engine.tournament import Tournament, TournamentTable, draw
from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.simulate import FAST
from bot.tournaments import TournamentChanged, TournamentError, TournamentService

from .driver import ALICE, BOB, CAROL, CHANNEL, GUILD, QUICK_AI, START

DAVE = 104
DIRECTOR = 900
OPTIONS = {"buy_in": 100, "turn_seconds": 10, "time_bank_seconds": 0}


class Bot:
    """A table service and a tournament service over one storage, as the bot runs them."""

    def __init__(self, storage: Storage, clock: FakeClock) -> None:
        self.clock = clock
        self.tables = TableService(storage, clock, QUICK_AI, FAST)
        threads = count(5000)
        self.opened: list[tuple[int, int, int]] = []

        async def opener(t: Tournament, table: TournamentTable) -> int:
            self.opened.append((t.tournament_id, table.level, table.index))
            return next(threads)

        self.service = TournamentService(storage, self.tables, clock, opener)
        self.changes: list[TournamentChanged] = []

        async def listen(changed: TournamentChanged) -> None:
            self.changes.append(changed)

        self.service.add_listener(listen)

    async def run(self, tid: int, until: int | None = None) -> None:
        """Play on (people are placed for by R10) until the tournament is over, or until
        level `until` has started."""
        for _ in range(20_000):
            await self.service.idle()
            live = {t.tournament_id: t for t in self.service.live()}
            if tid not in live or (until is not None and live[tid].level >= until):
                return
            if not await self.clock.advance_to_next():
                raise AssertionError("the tournament is stuck")
        raise AssertionError("the tournament did not end")

    async def close(self) -> None:
        await self.service.idle()
        await self.tables.close()


@pytest.fixture
async def bot(storage: Storage, clock: FakeClock) -> AsyncIterator[Bot]:
    running = Bot(storage, clock)
    yield running
    await running.close()


async def create(bot: Bot, players: list[int], computers: int = 0, *, seats: int = 3,
                 payouts: tuple[int, ...] = (100,), seed: int = 3) -> Tournament:
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=seats, hands=2,
                                 payouts=payouts, options=OPTIONS, window_seconds=600,
                                 seed=seed)
    for player in players:
        await bot.service.join(t.tournament_id, player, f"P{player}")
    for _ in range(computers):
        await bot.service.add_computer(t.tournament_id, DIRECTOR, "easy")
    return t


async def balance(storage: Storage, user: int) -> int:
    return (await storage.wallet(GUILD, user, now=0.0)).balance


async def test_registration_moves_buy_ins_into_the_pool(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB], computers=1)
    assert (await storage.tournament(t.tournament_id)).pool == 150
    assert await balance(storage, ALICE) == START - 50
    with pytest.raises(TournamentError, match="already registered"):
        await bot.service.join(t.tournament_id, ALICE, "again")
    await bot.service.leave(t.tournament_id, BOB)
    assert await balance(storage, BOB) == START
    with pytest.raises(TournamentError, match="director"):
        await bot.service.start(t.tournament_id, ALICE)
    await bot.clock.advance(600)
    with pytest.raises(TournamentError, match="window has closed"):
        await bot.service.join(t.tournament_id, CAROL, "late")


async def test_a_whole_tournament_seated_by_lot_heads_up_when_odd(bot: Bot,
                                                                storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB], computers=3, payouts=(65, 35))
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    level1 = bot.service.tournament(tid).current_tables
    assert sorted(len(table.players) for table in level1) == [2, 3]  # five: 3 + heads-up
    order = [p for table in level1 for p in table.players]
    assert order == draw([e.player_id for e in t.entries], t.seed, 1)
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournament(tid)).state_json)
    assert final.status == "finished" and final.level == 2
    assert len(final.current_tables) == 1 and len(final.current_tables[0].players) == 2
    winner, second = final.placings[:2]
    assert (winner.prize, second.prize) == (163, 87)  # 65/35 of 250, the odd chip to 1st
    record = await storage.tournament(tid)
    assert (record.pool, record.status) == (0, "finished")
    assert [c.reason for c in bot.changes].count("finished") == 1
    for person in (ALICE, BOB):  # stakes back to the house: only the buy-in and prize moved
        prize = next(p.prize for p in final.placings if p.player_id == person)
        assert await balance(storage, person) == START - 50 + prize


async def test_warnings_penalties_and_exclusion(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL], seats=3)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    with pytest.raises(TournamentError, match="director"):
        await bot.service.warn(tid, ALICE, BOB, "no")
    await bot.service.penalty(tid, DIRECTOR, ALICE, 10, "time")
    await bot.service.warn(tid, DIRECTOR, BOB, "slow")
    assert (await bot.service.warn(tid, DIRECTOR, BOB, "mucked open")).points == 25
    assert (await bot.service.warn(tid, DIRECTOR, BOB, "again")).excluded
    standing = bot.service.tournament(tid)
    assert standing.entry(BOB).status == "excluded"  # type: ignore[union-attr]
    assert standing.penalty_points(ALICE) == 10 and standing.warnings(BOB) == 3
    recorded = await storage.sanctions(tid)
    assert [(s.kind, s.user_id, s.points) for s in recorded] == [
        ("penalty", ALICE, 10), ("warning", BOB, 0), ("warning", BOB, 25), ("warning", BOB, 0)]
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournament(tid)).state_json)
    assert final.placings[0].player_id != BOB and final.placings[-1].player_id == BOB


async def test_cancel_refunds_everyone_still_in(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    for _ in range(3):
        await bot.service.warn(tid, DIRECTOR, DAVE, "unsporting")
    await bot.service.cancel(tid, DIRECTOR)
    await bot.service.idle()
    assert bot.tables.live_tables() == []
    for person in (ALICE, BOB, CAROL):
        assert await balance(storage, person) == START
    assert await balance(storage, DAVE) == START - 50  # excluded: no refund
    record = await storage.tournament(tid)
    assert (record.pool, record.status) == (50, "cancelled")


@pytest.mark.parametrize("stage", ["registering", "level 1", "final"])
async def test_a_restart_resumes_where_it_was(storage: Storage, clock: FakeClock,
                                              stage: str) -> None:
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB, CAROL, DAVE], seats=2)  # people wait on the clock
    tid = t.tournament_id
    if stage != "registering":
        await first.service.start(tid, DIRECTOR)
        await first.run(tid, until=1 if stage == "level 1" else 2)
    await first.close()

    second = Bot(storage, clock)
    assert await second.service.restore() == [tid]
    await second.tables.restore()
    if stage == "registering":
        await second.service.add_computer(tid, DIRECTOR)
        await second.service.start(tid, DIRECTOR)
    else:
        assert second.service.tournament(tid).level == (1 if stage == "level 1" else 2)
    await second.run(tid)
    await second.close()
    final = Tournament.from_json((await storage.tournament(tid)).state_json)
    assert final.status == "finished"
    assert sum(p.prize for p in final.placings) == final.pool


async def test_tables_that_ended_unheard_before_a_restart_count(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    async def deaf(self: TournamentService, events: object) -> None:
        return None  # the bot stops before it hears of the tables' ends

    monkeypatch.setattr(TournamentService, "_on_table_events", deaf)
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB], computers=2, seats=2)
    tid = t.tournament_id
    await first.service.start(tid, DIRECTOR)
    for _ in range(5000):
        await first.tables.idle()
        if not first.tables.live_tables():
            break
        await clock.advance_to_next()
    assert first.service.tournament(tid).level == 1
    assert all(table.status == "playing" for table in first.service.tournament(tid).tables)
    await first.close()
    monkeypatch.undo()

    second = Bot(storage, clock)
    await second.service.restore()
    await second.tables.restore()
    await second.run(tid)
    await second.close()
    final = Tournament.from_json((await storage.tournament(tid)).state_json)
    assert final.status == "finished" and final.level == 2
    assert all(table.winner is not None for table in final.tables)


async def test_tournament_tables_have_no_hints_even_where_the_server_has_them(
        bot: Bot, storage: Storage) -> None:
    """Issue 18: hints are help; a shootout (R13) is played without them."""
    await storage.update_guild_settings(GUILD, actor_id=DIRECTOR, now=0.0,
                                        table_options={"hints": "on"})
    t = await create(bot, [ALICE, BOB])
    assert t.options["hints"] == "off"
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.service.idle()
    (table,) = bot.service.tournament(t.tournament_id).current_tables
    assert table.table_id is not None
    assert bot.tables.lobby(table.table_id).rules.hints == "off"
