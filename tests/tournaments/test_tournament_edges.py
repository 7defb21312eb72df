"""Tournaments where they went wrong once (RULES.md R13, seed 001,
docs/players/tournaments.md), through the real table service on a fake clock: stops at the
wrong moment, exclusions, a cancel during the final, a failed record; and called clocks (a
timeout at a tournament table: 10 points and a warning, once per absence)."""

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.engine.tournament import Tournament
from bot.storage import Storage, Tournaments
from bot.tables import (
    FakeClock,
    LobbyChanged,
    LobbyView,
    MatchOver,
    NotAllowed,
    TableEvent,
    TableService,
)
from bot.tournaments import TournamentDirector, TournamentError
from bot.tournaments.limits import TournamentLimits
from tests.tables.driver import ALICE, BOB, CAROL, CHANNEL, GUILD, START, act
from tests.tournaments.test_tournaments import (
    DAVE,
    DIRECTOR,
    OPTIONS,
    Bot,
    all_but_the_last_action,
    balance,
    create,
    heads_up,
    restarted,
)
from tests.tournaments.test_tournaments import bot as bot

NO_FANTASY = {**OPTIONS, "fantasy": "off"}


async def stored(storage: Storage, tid: int) -> Tournament:
    return Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)


async def alice_keeps_timing_out(bot: Bot, tid: int, backs: int,
                                 heard: Callable[[int], Awaitable[bool]]) -> None:
    """BOB acts at once; ALICE never acts, and presses Back after each of her first `backs`
    absences, so each next timeout is a new absence. `heard(n)` runs once her n-th absence
    is saved; it returns True to stop there."""
    (table,) = bot.service.tournament(tid).current_tables
    assert table.table_id is not None
    tab, seen = table.table_id, 0
    for _ in range(5000):
        await bot.service.idle()
        if tid not in {x.tournament_id for x in bot.service.live()}:
            return
        if tab in bot.tables.live_tables():
            absences = bot.tables.absences(tab).get(ALICE, 0)
            if absences > seen:
                seen = absences
                if await heard(absences):
                    return
            if bot.tables.private_view(tab, ALICE).away and absences <= backs:
                await bot.tables.back(tab, ALICE)
                continue
            if bot.tables.private_view(tab, BOB).to_act:
                await act(bot.tables, tab, BOB)
                continue
        assert await bot.clock.advance_to_next()
    raise AssertionError("the tournament did not end")


async def nothing(absences: int) -> bool:
    return False


# ------------------------------------------------------------------ where it went wrong
async def test_a_clock_whose_timeout_ended_the_table_is_called_after_a_stop(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timeout that is the table's last action (it ends the match), the bot stopped before
    hearing of the table's end: the restart decides the table from its history and calls the
    timeout's clock first, from the table's last snapshot (tournaments.md: a bot stopped
    between the timeout and its penalty gives the penalty when it comes back)."""
    stopped = False
    hear = TournamentDirector._on_table_events

    async def until_stopped(self: TournamentDirector, events: object) -> None:
        if not stopped:
            await hear(self, events)  # type: ignore[arg-type]

    monkeypatch.setattr(TournamentDirector, "_on_table_events", until_stopped)
    first = Bot(storage, clock)
    tid = await heads_up(first, 1, NO_FANTASY)
    (table,) = first.service.tournament(tid).current_tables
    assert table.table_id is not None
    late = await all_but_the_last_action(first, table.table_id)
    stopped = True  # the timeout is saved (the match over); the bot stops before hearing it
    await clock.advance(OPTIONS["turn_seconds"])
    await first.tables.idle()
    assert table.table_id not in first.tables.live_tables()
    await first.close()
    monkeypatch.undo()

    second = await restarted(storage, clock)
    await second.run(tid)
    await second.close()
    assert (await stored(storage, tid)).status == "finished"
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.user_id, s.kind, s.points) for s in recorded] == [
        (late, "penalty", 10), (late, "warning", 0)]


async def test_an_excluded_winner_of_a_decided_table_leaves_no_table_of_one(
        bot: Bot, storage: Storage) -> None:
    """R13: a sanction to a table's winner whose table is decided counts at the next level;
    a third warning excludes (no prize). Four players at two heads-up tables: the first
    table's winner is excluded while the second still plays. The second table's winner is
    the only one left: it wins the tournament and the pool (200), with no table of one."""
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=1,
                                 options=NO_FANTASY, seed=3, clock_penalty=False)
    tid = t.tournament_id
    for player in (ALICE, BOB, CAROL, DAVE):
        await bot.service.join(tid, player, f"P{player}")
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    first, second = bot.service.tournament(tid).current_tables
    assert first.table_id is not None
    for _ in range(100):  # the first table's players act at once; the second's wait
        await bot.service.idle()
        if first.status == "done":
            break
        for player in first.players:
            if bot.tables.private_view(first.table_id, player).to_act:
                await act(bot.tables, first.table_id, player)
    assert first.status == "done" and second.status == "playing"
    assert first.winner is not None
    for reason in ("slow", "rude", "again"):
        await bot.service.warn(tid, DIRECTOR, first.winner, reason)
    await bot.run(tid)
    final = await stored(storage, tid)
    assert final.status == "finished"
    assert (final.placings[0].player_id, final.placings[0].prize) == (second.winner, 200)


async def test_a_start_after_an_exclusion_in_registration_is_refused(
        bot: Bot, storage: Storage) -> None:
    """R13: a tournament needs 2 players; a third warning excludes a player from the
    tournament (sanctions before the start count at level 1). ALICE and BOB registered, BOB
    excluded: the start is refused and changes nothing (no table of ALICE alone)."""
    t = await create(bot, [ALICE, BOB])
    tid = t.tournament_id
    for reason in ("slow", "rude", "again"):
        await bot.service.warn(tid, DIRECTOR, BOB, reason)
    with pytest.raises(TournamentError, match="at least 2 players"):
        await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    assert bot.service.tournament(tid).status == "registering"
    assert (await stored(storage, tid)).tables == []
    assert "started" not in bot.reasons()


async def test_a_sanction_whose_record_failed_does_not_count(
        bot: Bot, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused action changes nothing; tournaments.md: every warning and penalty is
    recorded and shown in the standings and the player's history. A warning whose record
    fails (storage trouble) is taken back: it counts nowhere, and a later save does not
    write it into the snapshot."""
    t = await create(bot, [ALICE, BOB])
    tid = t.tournament_id
    real = Tournaments.record_sanctions
    failures = [RuntimeError("disk full")]

    async def flaky(self: Tournaments, *args: object, **kwargs: object) -> int:
        if failures:
            raise failures.pop()
        return await real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Tournaments, "record_sanctions", flaky)
    with pytest.raises(RuntimeError):
        await bot.service.warn(tid, DIRECTOR, ALICE, "slow")
    await bot.service.penalty(tid, DIRECTOR, ALICE, 5, "late")
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.kind, s.points) for s in recorded] == [("penalty", 5)]
    assert [(s.kind, s.points) for s in bot.service.tournament(tid).sanctions] == [
        ("penalty", 5)]
    assert [(s.kind, s.points) for s in (await stored(storage, tid)).sanctions] == [
        ("penalty", 5)]


async def test_a_cancel_during_the_final_leaves_no_buy_in_in_the_pool(
        bot: Bot, storage: Storage) -> None:
    """R13: a cancelled tournament refunds every person registered, those already out
    included (not the excluded). Cancelled during the final: the two players out at level 1
    get their buy-ins back too, and the pool is empty."""
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.run(tid, until=2)
    await bot.service.cancel(tid, DIRECTOR)
    await bot.service.idle()
    assert (await storage.tournaments.tournament(tid)).pool == 0
    for person in (ALICE, BOB, CAROL, DAVE):
        assert await balance(storage, person) == START


async def test_the_chips_the_house_lends_a_table_never_rest_in_a_wallet(
        bot: Bot, storage: Storage) -> None:
    """tournaments.md: the chips a player sits down with are lent by the house and taken back
    when the table is over; only buy-ins and prizes touch a wallet. A member who spends their
    whole wallet elsewhere the moment the final's match is over (before anything else runs)
    spends only their own chips: the house's net over the tournament is zero (the storage
    fixture's audit), and the wallet never showed the 100-chip stack."""
    seen: dict[int, int] = {}

    async def spend_at_once(events: list[TableEvent]) -> None:
        if any(isinstance(e, MatchOver) for e in events) and not seen:
            seen.update({p: await balance(storage, p) for p in (ALICE, BOB)})
            await bot.tables.create_table(GUILD, CHANNEL + 50, ALICE, "Alice",
                                          {"buy_in": seen[ALICE]})

    bot.tables.add_listener(spend_at_once)
    tid = await heads_up(bot, 1)
    assert await balance(storage, ALICE) == START - 50  # seated: the stack is not hers
    await bot.run(tid)
    assert seen == {ALICE: START - 50, BOB: START - 50}
    (winner,) = [p for p in (await stored(storage, tid)).placings if p.prize]
    assert winner.prize == 100
    assert await balance(storage, ALICE) == (100 if winner.player_id == ALICE else 0)
    assert await balance(storage, BOB) == START - 50 + (100 if winner.player_id == BOB else 0)


async def test_nobody_but_the_tournament_sits_down_at_its_table(bot: Bot,
                                                               storage: Storage) -> None:
    """R13: a tournament's table seats the players its draw put there, with stacks the house
    lends. A member who is not one of them presses Join the moment the table is created,
    before the tournament seats its own: refused (a lent stack is nobody's to take, and the
    seat is a registered player's), and the table opens with its two players."""
    tries: list[asyncio.Future[LobbyView]] = []

    async def sneak_in(events: list[TableEvent]) -> None:
        for event in events:
            if isinstance(event, LobbyChanged) and event.reason == "created" and event.lobby.lent:
                tries.append(asyncio.ensure_future(
                    bot.tables.join(event.table_id, CAROL, "Carol")))

    bot.tables.add_listener(sneak_in)
    tid = await heads_up(bot, 1)
    (table,) = (await stored(storage, tid)).tables
    assert table.status == "playing" and set(table.players) == {ALICE, BOB}
    (tried,) = tries
    assert isinstance(tried.exception(), NotAllowed)
    with pytest.raises(NotAllowed):
        await bot.tables.leave(table.table_id, ALICE)
    await bot.run(tid)
    assert await balance(storage, CAROL) == START


async def test_the_director_cannot_work_its_tables_lobby(bot: Bot, storage: Storage) -> None:
    """R13: the tournament seats its table's players and starts its match. Its director hosts
    the table, so the lobby's host buttons were open to them between the table's creation and
    its start: a computer added there sat with a stack the house lent, at a seat no draw put it
    in. Pressed the moment the table is created: Add computer, Remove computer and Start are
    refused, and the table opens with its two players alone."""
    tries: list[asyncio.Future[LobbyView]] = []

    async def host_buttons(events: list[TableEvent]) -> None:
        for event in events:
            if isinstance(event, LobbyChanged) and event.reason == "created" and event.lobby.lent:
                tables, table = bot.tables, event.table_id
                tries.extend(asyncio.ensure_future(c) for c in (
                    tables.add_computer(table, DIRECTOR, "easy"),
                    tables.add_computer(table, DIRECTOR, "easy", is_admin=True),
                    tables.remove_computer(table, DIRECTOR, -1, is_admin=True),
                    tables.start(table, DIRECTOR, is_admin=True)))

    bot.tables.add_listener(host_buttons)
    tid = await heads_up(bot, 1)
    (table,) = (await stored(storage, tid)).tables
    assert table.status == "playing" and set(table.players) == {ALICE, BOB}
    assert len(tries) == 4 and all(isinstance(t.exception(), NotAllowed) for t in tries)
    view = bot.tables.public_view(table.table_id)
    assert view is not None and {s.player_id for s in view.seats} == {ALICE, BOB}
    await bot.run(tid)


async def test_a_table_the_stop_cut_off_while_it_opened_is_opened_again(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """tournaments.md: "a table that was being opened is opened again". The bot stops while a
    table opens, after its table was created in the thread (its id saved) and its match
    started, before the tournament saved it as playing. The restart opens it again once the
    table service has restored its tables, closing the old one: the tournament ends, and the
    stakes the house lent are all taken back."""
    real = TableService.start

    async def stop_after(self: TableService, *args: object, **kwargs: object) -> object:
        await real(self, *args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("the bot stops here")

    monkeypatch.setattr(TableService, "start", stop_after)
    first = Bot(storage, clock)
    with pytest.raises(RuntimeError):
        await heads_up(first, 2, NO_FANTASY)
    (t,) = first.service.live()
    await first.close()
    monkeypatch.undo()
    (table,) = (await stored(storage, t.tournament_id)).tables
    assert table.status == "waiting" and table.table_id is not None

    second = await restarted(storage, clock)
    await second.run(t.tournament_id)
    await second.close()
    final = await stored(storage, t.tournament_id)
    assert final.status == "finished"
    for placing in final.placings:
        assert await balance(storage, placing.player_id) == START - 50 + placing.prize


async def test_a_refused_computer_starts_no_cooldown(storage: Storage,
                                                     clock: FakeClock) -> None:
    """A refusal changes nothing; tournaments.md: cooldowns count "from the last success". A
    computer the engine refuses (with a buy-in, computers only fill the people's tables)
    starts no cooldown: asking again at once gives the same reason, not "Wait 3 s"."""
    limits = TournamentLimits(min_hands=1)  # the bot's cooldowns
    bot = Bot(storage, clock, limits)
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=1)
    await bot.service.join(t.tournament_id, ALICE, "Alice")
    await bot.service.add_computer(t.tournament_id, DIRECTOR)  # fills Alice's table
    await clock.advance(limits.computer_member_seconds)
    for _ in range(2):
        with pytest.raises(TournamentError, match="only fill the people's tables"):
            await bot.service.add_computer(t.tournament_id, DIRECTOR)
    await bot.close()


# ------------------------------------------------------------------ called clocks
async def test_three_absences_are_three_called_clocks_and_the_third_excludes(
        bot: Bot, storage: Storage) -> None:
    """Back, then away again: each absence is one called clock (10 points and a warning);
    the second warning costs 25 more, the third excludes; a fourth absence, excluded, is
    not called. The excluded player takes no prize."""
    tid = await heads_up(bot, 6, NO_FANTASY)
    await alice_keeps_timing_out(bot, tid, 3, nothing)
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.user_id, s.kind, s.points, s.excluded, s.actor_id) for s in recorded] == [
        (ALICE, "penalty", 10, False, 0), (ALICE, "warning", 0, False, 0),
        (ALICE, "penalty", 10, False, 0), (ALICE, "warning", 25, False, 0),
        (ALICE, "penalty", 10, False, 0), (ALICE, "warning", 0, True, 0)]
    final = await stored(storage, tid)
    assert [(p.player_id, p.prize, p.excluded) for p in final.placings] == [
        (BOB, 100, False), (ALICE, 0, True)]
    assert await balance(storage, ALICE) == START - 50


async def test_the_directors_time_penalty_uses_up_no_absence(bot: Bot,
                                                             storage: Storage) -> None:
    """The director's /ofc tournament time after a called clock is a warning of its own (the
    second: 25 more): the next absence is still called, and it is the third warning."""
    tid = await heads_up(bot, 6, NO_FANTASY)

    async def director_calls_time(absences: int) -> bool:
        if absences == 1:
            await bot.service.time_penalty(tid, DIRECTOR, ALICE)
        return False

    await alice_keeps_timing_out(bot, tid, 1, director_calls_time)
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.kind, s.points, s.actor_id, s.excluded) for s in recorded] == [
        ("penalty", 10, 0, False), ("warning", 0, 0, False),
        ("penalty", 10, DIRECTOR, False), ("warning", 25, DIRECTOR, False),
        ("penalty", 10, 0, False), ("warning", 0, 0, True)]


async def test_a_second_absence_a_stop_cut_off_is_called_once_at_the_restarts(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first absence is called before the stop, the second's clock is cut off by it:
    the restart calls the second (the second warning, 25 more), and a later restart calls
    nothing again."""
    call = TournamentDirector._called_clocks

    async def cut_off_at_the_second(self: TournamentDirector, tournament_id: int,
                                    table_id: int, absences: dict[int, int]) -> None:
        if absences.get(ALICE, 0) < 2:
            await call(self, tournament_id, table_id, absences)

    monkeypatch.setattr(TournamentDirector, "_called_clocks", cut_off_at_the_second)
    first = Bot(storage, clock)
    tid = await heads_up(first, 6, NO_FANTASY)

    async def stop_at_the_second(absences: int) -> bool:
        return absences == 2

    await alice_keeps_timing_out(first, tid, 1, stop_at_the_second)
    await first.close()
    monkeypatch.undo()
    assert [(s.kind, s.points) for s in await storage.tournaments.sanctions(tid)] == [
        ("penalty", 10), ("warning", 0)]
    for restart in range(2):
        again = await restarted(storage, clock)
        await again.service.idle()
        recorded = await storage.tournaments.sanctions(tid)
        assert [(s.kind, s.points) for s in recorded] == [
            ("penalty", 10), ("warning", 0), ("penalty", 10), ("warning", 25)]
        assert again.service.tournament(tid).warnings(ALICE) == 2
        assert again.reasons() == (["time"] if restart == 0 else [])
        await again.close()
