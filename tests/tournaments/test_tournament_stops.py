"""Tournaments stopped, cancelled or closed at each phase, through the real table service on
a fake clock (RULES.md R13, docs/players/tournaments.md): every person refunded once, every
chip where it belongs, the house's included."""

import asyncio

import pytest

from bot.engine.tournament import Tournament, TournamentTable
from bot.storage import Storage
from bot.storage.errors import DatabaseReadOnly
from bot.tables import FakeClock
from bot.tournaments import TournamentChanged, TournamentError
from tests.tables.driver import ALICE, BOB, CAROL, START
from tests.tournaments.test_tournaments import (
    DAVE,
    DIRECTOR,
    Bot,
    balance,
    create,
    heads_up,
    restarted,
)
from tests.tournaments.test_tournaments import bot as bot

STAGES = ["registering", "closed", "level 1", "final"]


async def to_stage(bot: Bot, tid: int, stage: str) -> None:
    if stage == "closed":
        await bot.clock.advance(600)
        await bot.service.idle()
    elif stage != "registering":
        await bot.service.start(tid, DIRECTOR)
        await bot.run(tid, until=1 if stage == "level 1" else 2)


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("cut", ["before its tables closed", "before its refunds"])
async def test_a_cancel_the_stop_cut_off_refunds_everyone_once_at_the_restart(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, stage: str, cut: str) -> None:
    """The director's cancel is saved, then the bot stops before its tables closed or before
    the buy-ins went back: the restart finishes the cancel (its tables closed, every person
    refunded once), it does not forget it with the buy-ins in the pool."""
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    await to_stage(first, tid, stage)

    async def stopped(*args: object, **kwargs: object) -> object:
        raise ConnectionError("the bot stopped")

    if cut == "before its refunds":
        real = storage.tournaments.tournament_move
        monkeypatch.setattr(storage.tournaments, "tournament_move", lambda *a, **k: (
            stopped() if "refund" in a else real(*a, **k)))
    else:
        monkeypatch.setattr(first.tables, "cancel", stopped)
        monkeypatch.setattr(first.service, "idle", stopped)  # (the stop: nothing runs on)
    with pytest.raises(ConnectionError):
        await first.service.cancel(tid, DIRECTOR)
    monkeypatch.undo()
    await first.close()

    caplog.clear()
    second = await restarted(storage, clock)
    await second.service.idle()
    assert second.service.live() == [] and second.tables.live_tables() == []
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # each table's end heard
    await second.close()
    third = await restarted(storage, clock)  # and again: nobody is refunded twice
    await third.close()
    record = await storage.tournaments.tournament(tid)
    assert (record.pool, record.status) == (0, "cancelled")
    assert Tournament.from_json(record.state_json).status == "cancelled"
    for person in (ALICE, BOB, CAROL, DAVE):
        assert await balance(storage, person) == START
    report = await storage.audit()
    assert report.ok, report.problems


@pytest.mark.parametrize("who", ["a person and the computers who filled the table",
                                 "two people, one excluded"])
async def test_a_window_that_ends_without_two_players_to_seat_cancels_and_refunds(
        bot: Bot, storage: Storage, who: str) -> None:
    """tournaments.md: a tournament with fewer than 2 players when its window ends is
    cancelled and refunded. Players the start would not seat do not count: computers beyond
    the people's tables (here: the only person left), and the excluded."""
    t = await create(bot, [ALICE, BOB])
    tid = t.tournament_id
    if who.startswith("a person"):
        await bot.service.add_computer(tid, DIRECTOR, "easy")
        await bot.service.leave(tid, BOB)
        await bot.service.add_computer(tid, DIRECTOR, "easy")
        await bot.service.leave(tid, ALICE)  # two computers left, filling nobody's table
    else:
        for reason in ("slow", "rude", "again"):
            await bot.service.warn(tid, DIRECTOR, BOB, reason)
    await bot.clock.advance(600)
    await bot.service.idle()
    assert bot.service.live() == []  # not left closed for ever, the director's one
    assert bot.reasons()[-1] == "cancelled"
    record = await storage.tournaments.tournament(tid)
    assert record.status == "cancelled"
    assert await balance(storage, ALICE) == START
    assert await balance(storage, BOB) == START - 50 * who.startswith("two")  # excluded


async def to_phase(bot: Bot, tid: int, phase: str) -> None:
    """Play on until `phase`: "registering", "closed", "level 1" (its tables playing),
    "between levels" (a table of level 1 decided, another still playing) or "final"."""
    if phase in ("registering", "closed"):
        await to_stage(bot, tid, phase)
        return
    await bot.service.start(tid, DIRECTOR)
    for _ in range(20_000):
        await bot.service.idle()
        t = bot.service.tournament(tid)
        done = [table.status == "done" for table in t.current_tables]
        if (phase == "level 1" and t.level == 1 and not any(done)
                and all(table.status == "playing" for table in t.current_tables)) or (
                phase == "between levels" and t.level == 1 and any(done) and not all(done)) or (
                phase == "final" and t.is_final and t.current_tables[0].status == "playing"):
            return
        assert await bot.clock.advance_to_next()
    raise AssertionError(f"never at {phase}")


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("phase", ["registering", "closed", "level 1", "between levels",
                                   "final"])
@pytest.mark.parametrize("ending", ["played out", "cancelled"])
async def test_a_tournament_stopped_at_each_phase_ends_with_every_chip_in_place(
        storage: Storage, clock: FakeClock, seats: int, phase: str, ending: str) -> None:
    """Five people and a computer (an odd number of people; at tables of 2: three heads-up
    tables, then a final of three), the bot stopped and restarted at each phase, then played
    out or cancelled: the prizes are 65/35 of the people's 250 (162 and 87, the chip the
    rounding leaves to the first), every person is left with the buy-in back (cancelled) or
    the buy-in less and the prize won, the pool is empty and the house's net over the
    tournament is zero."""
    first = Bot(storage, clock)
    people = [ALICE, BOB, CAROL, DAVE, 105]
    t = await create(first, people, computers=1, seats=seats, payouts=(65, 35))
    tid = t.tournament_id
    await to_phase(first, tid, phase)
    await first.close()

    second = await restarted(storage, clock)
    if phase == "registering":
        await clock.advance(600)
        await second.service.idle()
    if phase in ("registering", "closed"):
        assert second.service.tournament(tid).status == "closed"
        if ending == "played out":
            await second.service.start(tid, DIRECTOR)
    if ending == "cancelled":
        await second.service.cancel(tid, DIRECTOR)
    await second.run(tid)
    await second.close()
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    record = await storage.tournaments.tournament(tid)
    assert record.pool == 0
    if ending == "cancelled":
        assert record.status == final.status == "cancelled"
        for person in people:
            assert await balance(storage, person) == START
    else:
        assert record.status == final.status == "finished"
        assert sorted(p.prize for p in final.placings) == [0, 0, 0, 0, 87, 163]
        for placing in final.placings:
            if not placing.computer:
                assert await balance(storage, placing.player_id) == START - 50 + placing.prize
        assert final.level == 2
        assert [len(table.players) for table in final.tables] == (
            [2, 2, 2, 3] if seats == 2 else [3, 3, 2])
    report = await storage.audit()
    assert report.ok, report.problems


async def test_a_leave_whose_refund_could_not_be_stored_leaves_the_player_registered(
        bot: Bot, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused action changes nothing: a leave whose refund the database refused (here:
    read-only) keeps the player registered with the buy-in in the pool, so the leave can be
    tried again and pays the buy-in back; it does not drop the player with the buy-in
    stranded in the pool."""
    t = await create(bot, [ALICE, BOB])
    tid = t.tournament_id
    real = storage.tournaments.tournament_move

    async def read_only(*args: object, **kwargs: object) -> object:
        raise DatabaseReadOnly("The database is read-only.")

    monkeypatch.setattr(storage.tournaments, "tournament_move", read_only)
    with pytest.raises(TournamentError, match="read-only"):
        await bot.service.leave(tid, BOB)
    monkeypatch.setattr(storage.tournaments, "tournament_move", real)
    assert [e.player_id for e in bot.service.tournament(tid).entries] == [ALICE, BOB]
    await bot.service.leave(tid, BOB)
    assert await balance(storage, BOB) == START
    assert (await storage.tournaments.tournament(tid)).pool == 50


@pytest.mark.parametrize("stage", ["registering", "level 1"])
async def test_a_cancel_the_database_refused_can_be_given_again(
        bot: Bot, storage: Storage, monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    """A refused action changes nothing: a cancel whose record the database refused leaves
    the tournament as it was, so the director's next cancel closes it and refunds everyone
    (it is not left 'already over' in the bot's memory, its buy-ins in the pool)."""
    t = await create(bot, [ALICE, BOB])
    tid = t.tournament_id
    await to_stage(bot, tid, stage)
    real = storage.tournaments.save_tournament

    async def read_only(*args: object, **kwargs: object) -> None:
        raise DatabaseReadOnly("The database is read-only.")

    monkeypatch.setattr(storage.tournaments, "save_tournament", read_only)
    with pytest.raises(DatabaseReadOnly):
        await bot.service.cancel(tid, DIRECTOR)
    monkeypatch.setattr(storage.tournaments, "save_tournament", real)
    assert bot.service.tournament(tid).status == ("registering" if stage == "registering"
                                                  else "running")
    await bot.service.cancel(tid, DIRECTOR)
    await bot.service.idle()
    assert bot.service.live() == [] and bot.tables.live_tables() == []
    for person in (ALICE, BOB):
        assert await balance(storage, person) == START
    assert (await storage.tournaments.tournament(tid)).pool == 0


async def test_a_player_excluded_in_registration_cannot_leave_with_the_buy_in(
        bot: Bot, storage: Storage) -> None:
    """Seed 001: the third warning excludes from the tournament and the buy-in is not
    refunded ("inköp återbetalas ej"). Excluded while registration is open, BOB's leave is
    refused: no refund, and no way back in with a clean slate by joining again."""
    t = await create(bot, [ALICE, BOB, CAROL])
    tid = t.tournament_id
    for reason in ("slow", "rude", "again"):
        await bot.service.warn(tid, DIRECTOR, BOB, reason)
    with pytest.raises(TournamentError, match="excluded"):
        await bot.service.leave(tid, BOB)
    with pytest.raises(TournamentError, match="already registered"):
        await bot.service.join(tid, BOB, "again")
    assert bot.service.tournament(tid).entry(BOB).status == "excluded"  # type: ignore[union-attr]
    assert await balance(storage, BOB) == START - 50
    assert (await storage.tournaments.tournament(tid)).pool == 150
    await bot.service.start(tid, DIRECTOR)
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.placings[-1].player_id == BOB and final.placings[-1].excluded
    assert sum(p.prize for p in final.placings) == 150  # BOB's buy-in is in the prizes


async def test_a_cancel_refunds_all_but_the_excluded_whose_buy_in_stays_in_the_pool(
        bot: Bot, storage: Storage) -> None:
    """RULES.md R13 and tournaments.md: a cancelled tournament refunds every person but the
    excluded (seed 001: "inköp återbetalas ej"); nobody is paid the excluded's buy-in, which
    stays in the cancelled tournament's pool (the audit counts it there: no chip lost)."""
    t = await create(bot, [ALICE, BOB, CAROL])
    tid = t.tournament_id
    for reason in ("slow", "rude", "again"):
        await bot.service.warn(tid, DIRECTOR, BOB, reason)
    await bot.service.cancel(tid, DIRECTOR)
    await bot.service.idle()
    assert [await balance(storage, p) for p in (ALICE, BOB, CAROL)] == [START, START - 50, START]
    assert (await storage.tournaments.tournament(tid)).pool == 50
    assert (await storage.audit()).problems == ()


async def test_a_cancel_while_the_next_level_opens_leaves_no_table_playing(
        bot: Bot, storage: Storage) -> None:
    """Cancelled between levels, while the next level's table is being opened (its thread is
    slow to come): that table does not open after the cancel to play for nobody, its players
    seated on the house's chips."""
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    opener = bot.service._opener
    asked, go = asyncio.Event(), asyncio.Event()

    async def slow(tm: Tournament, table: TournamentTable) -> int:
        if table.level == 2:
            asked.set()
            await go.wait()
        return await opener(tm, table)

    bot.service._opener = slow
    await bot.service.start(tid, DIRECTOR)
    for _ in range(20_000):
        await asyncio.sleep(0)
        if asked.is_set():
            break
        if not bot.tables.live_tables() or not await bot.clock.advance_to_next():
            await bot.tables.idle()
    assert asked.is_set()
    cancelling = asyncio.create_task(bot.service.cancel(tid, DIRECTOR))
    await asyncio.sleep(0)
    go.set()
    await cancelling
    await bot.service.idle()
    assert bot.tables.live_tables() == []
    for person in (ALICE, BOB, CAROL, DAVE):
        assert await balance(storage, person) == START


@pytest.mark.parametrize("refused", ["a prize", "the final record"])
async def test_a_payout_the_database_refused_is_tried_again_until_paid_once(
        bot: Bot, storage: Storage, monkeypatch: pytest.MonkeyPatch, refused: str) -> None:
    """The final is over but the database refuses the payout once (a prize's move, or the
    record that the tournament finished, after the prize was moved): the director tries again
    on its clock, without waiting for a restart; the winner is paid once (the prize is
    keyed), and the end is told once, when paid."""
    tid = await heads_up(bot, hands=2)
    real_move = storage.tournaments.tournament_move
    real_save = storage.tournaments.save_tournament
    refusals = []

    async def move(*args: object, **kwargs: object) -> object:
        if "prize" in args and not refusals:
            refusals.append(args)
            raise DatabaseReadOnly("The database is read-only.")
        return await real_move(*args, **kwargs)  # type: ignore[arg-type]

    async def save(*args: object, **kwargs: object) -> None:
        if kwargs.get("status") == "finished" and not refusals:
            refusals.append(args)
            raise DatabaseReadOnly("The database is read-only.")
        await real_save(*args, **kwargs)  # type: ignore[arg-type]

    if refused == "a prize":
        monkeypatch.setattr(storage.tournaments, "tournament_move", move)
    else:
        monkeypatch.setattr(storage.tournaments, "save_tournament", save)
    told: list[tuple[int, int]] = []

    async def listen(changed: TournamentChanged) -> None:
        if changed.reason == "finished":  # what the winner holds when told
            told.append((await balance(storage, ALICE), await balance(storage, BOB)))

    bot.service.add_listener(listen)
    await bot.run(tid)  # stuck for ever if nothing tries again
    assert len(refusals) == 1
    record = await storage.tournaments.tournament(tid)
    final = Tournament.from_json(record.state_json)
    assert (record.status, record.pool) == ("finished", 0)
    (winner,) = [p.player_id for p in final.placings if p.prize]
    held = {ALICE: await balance(storage, ALICE), BOB: await balance(storage, BOB)}
    assert held[winner] == START - 50 + 100 and sum(held.values()) == 2 * START
    assert told == [(held[ALICE], held[BOB])]
    second = await restarted(storage, bot.clock)  # nothing left to pay
    await second.close()
    assert {p: await balance(storage, p) for p in held} == held
