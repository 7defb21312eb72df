"""Restarts (no chip or hand lost): every saved state resumes to the same end with chips conserved;
timers come back with the time left; a table that cannot be restored is refunded."""

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.tables import (
    Dealt,
    DmPrompt,
    FakeClock,
    MatchOver,
    Placed,
    PlayerAway,
    ShowdownDone,
    TableClosed,
    TableEvent,
    TableRefunded,
    TableRestored,
    TableService,
    TableWaiting,
    Turn,
)
from bot.tables.match_runner import FAST
from tests.backends import Postgres, Reader, Rows, copy_now, is_postgres, postgres_of, usable
from tests.storage.audit import audit

from .driver import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    START,
    Recorder,
    act,
    fresh_service,
    play,
    stored,
)

WRITES = {"tables": ("save_snapshot", "buy_in", "cash_out", "settle_hand", "close_table",
                     "refund_table"),
          "history": ("record_match_end",)}


class Copies:
    """Copies of the database after every committed write, with the clock's time."""

    def __init__(self, source: str, folder: Path, clock: FakeClock) -> None:
        self.source, self.folder, self.clock = source, folder, clock
        self.taken: list[tuple[str | Rows, float]] = []
        self.on = False

    def take(self) -> None:
        if not self.on:
            return
        path = self.folder / f"copy{len(self.taken)}.sqlite3"
        self.taken.append((copy_now(self.source, path), self.clock.now()))


def copying(storage: Storage, database: str, folder: Path, clock: FakeClock,
            request: pytest.FixtureRequest) -> tuple[Postgres | None, Copies]:
    """The PostgreSQL server a copy is restored to (None on SQLite), and the copies of the
    database after every committed write, taken once `copies.on`."""
    copies = Copies(database, folder, clock)
    recording(storage, copies)
    return (postgres_of(request) if is_postgres(database) else None), copies


def recording(storage: Storage, copies: Copies) -> None:
    """Make every writing storage call take a copy once it has committed."""
    for topic, names in WRITES.items():
        part = getattr(storage, topic)
        for name in names:
            method = getattr(part, name)

            async def write(*args: object, _method=method, **kwargs: object) -> object:
                result = await _method(*args, **kwargs)
                copies.take()
                return result

            setattr(part, name, write)


async def start_match(service: TableService, seed: int = 5) -> int:
    """Alice and an easy computer, one hand dealt."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1}, seed=seed)).table_id
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    await service.start(table, ALICE)
    return table


async def finish(path: str, now: float) -> tuple[list[int], Recorder, FakeClock, Storage]:
    """Open a copy in a fresh service, restore it, and play it to the end."""
    storage = await Storage.open(path)
    service, clock, recorder = fresh_service(storage, now)
    restored = await service.restore()
    for table in restored:
        await play(service, clock, table, [ALICE])
    await service.close()
    return restored, recorder, clock, storage


async def test_every_saved_state_resumes_to_the_same_end(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    postgres, copies = copying(storage, database, tmp_path, clock, request)
    table = await start_match(service)
    copies.on = True
    await play(service, clock, table, [ALICE])
    final = recorder.of(MatchOver)[0].standings
    alice_net = next(s.net for s in final if s.player_id == ALICE)
    rated, _ = await storage.ratings.rating_of(GUILD, ALICE)
    assert rated is not None and rated.matches == 1
    assert len(copies.taken) > 20
    with_pending = 0
    for taken, now in copies.taken:
        path = await usable(taken, postgres)
        with Reader(path) as query:
            state = json.loads(query("SELECT state_json FROM live_tables")[0][0])
        with_pending += bool(state["pending"])
        restored, events, _, copy = await finish(path, now)
        try:
            status = (await copy.tables.table(table)).status
            assert status == "closed", path
            if restored:
                assert events.of(TableRestored)[0].table_id == table
                assert events.of(MatchOver)[0].standings == final, path
            assert (await copy.wallets.wallet(GUILD, ALICE, now=now)).balance == START + alice_net
            # rated once, whatever the stop: the same rating, from one recorded result
            (season,) = await copy.ratings.seasons(GUILD)
            assert len(await copy.ratings.season_results(season.id)) == 1, path
            assert (await copy.ratings.rating_of(GUILD, ALICE))[0] == rated, path
        finally:
            await copy.close()
        assert audit(path) == [], path
    assert with_pending  # some copies were taken between two chip movements of one action


async def test_every_saved_state_of_fantasyland_hands_resumes_after_a_long_stop(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    # Three people (the seed of tests/tables/test_table_options.py): hand 1 earns Fantasyland,
    # hand 2 plays it (set first, then the others' streets) and earns another, hand 3 plays
    # that. A copy of the database after every write of hand 2 up to hand 3's deal, each
    # restored ten minutes later and played out: the same standings, each hand's history
    # written once, chips audited.
    postgres, copies = copying(storage, database, tmp_path, clock, request)
    people = [ALICE, BOB, CAROL]
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1}, seed=2)).table_id
    await service.join(table, BOB, "Bob")
    await service.join(table, CAROL, "Carol")
    await service.start(table, ALICE)
    for hands in (1, 2):
        while len(recorder.of(ShowdownDone)) < hands:
            await act(service, table, next(p for p in people
                                           if service.private_view(table, p).to_act))
            await service.idle()
        copies.on = hands == 1
    await play(service, clock, table, people)
    shown = recorder.of(ShowdownDone)
    assert [len(e.fantasy_next) for e in shown] == [1, 1, 0]
    final = recorder.of(MatchOver)[0].standings
    for taken, now in copies.taken:
        path = await usable(taken, postgres)
        copy = await Storage.open(path)
        try:
            resumed, later, events = fresh_service(copy, now + 600)
            for restored in await resumed.restore():
                await play(resumed, later, restored, people)
            await resumed.close()
            assert [e.standings for e in events.of(MatchOver)] in ([], [final]), path
            assert (await copy.tables.table(table)).status == "closed", path
            match = (await copy.history.recent_matches(GUILD, ALICE))[0].match_id
            assert [h.hand_no for h in await copy.history.match_hands(match)] == [1, 2, 3]
        finally:
            await copy.close()
        assert audit(path) == [], path


async def test_timers_resume_with_the_time_left(
        service: TableService, storage: Storage, clock: FakeClock, database: str) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.set_messages(table, lobby_message_id=7001, table_message_id=7002)
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    await service.set_dm_message(table, first, DmPrompt(8001, 8002, 1, 1))
    deadline = service.private_view(table, first).deadline
    await clock.advance(100)
    await service.close()

    resumed, later, recorder = fresh_service(storage, clock.now())
    assert await resumed.restore() == [table]
    assert resumed.table_for_channel(CHANNEL) == table
    messages = resumed.messages(table)
    assert (messages.lobby_message_id, messages.table_message_id) == (7001, 7002)
    assert messages.dm == {first: DmPrompt(8001, 8002, hand_no=1, street=1)}
    assert recorder.of(Turn)[-1].deadline == deadline
    assert {e.private_to for e in recorder.of(Dealt)} == {ALICE, BOB}  # prompts to re-send
    await later.advance(deadline - later.now() - 1)
    await resumed.idle()
    assert not recorder.of(Placed)
    await later.advance(1)
    await resumed.idle()
    placed = recorder.of(Placed)
    assert [(e.player_id, e.auto) for e in placed] == [(first, True)]
    await resumed.close()


def bank(service: TableService, table: int, player: int) -> float:
    return next(s.time_bank for s in service.public_view(table).seats if s.player_id == player)


async def test_the_time_the_bot_was_off_does_not_count(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    # R10 times what a player can act on: a bot off for an hour neither places for the
    # player whose turn it was nor takes its time bank; its clock goes on from where it
    # stopped (docs/admins/service.md: "with the time left on its clocks").
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    await clock.advance(40)  # thinking, no click: the last save was the deal
    left = service.private_view(table, first).deadline - clock.now()
    banked = bank(service, table, first)
    await service.close()  # a clean stop (an upgrade, systemd's stop)

    resumed, later, recorder = fresh_service(storage, clock.now() + 3600)
    assert await resumed.restore() == [table]
    await resumed.idle()
    assert not recorder.of(Placed) and not recorder.of(PlayerAway)
    mine = resumed.private_view(table, first)
    assert mine.to_act and mine.deadline == later.now() + left
    assert recorder.of(Turn)[-1].deadline == mine.deadline
    assert bank(resumed, table, first) == banked
    await resumed.close()

    again, latest, recorder = fresh_service(storage, later.now())  # counted once, not twice
    assert await again.restore() == [table]
    assert again.private_view(table, first).deadline == latest.now() + left
    await latest.advance(left - 1)
    await again.idle()
    assert not recorder.of(Placed)
    await latest.advance(1)  # then its time runs out as usual
    await again.idle()
    assert [(e.player_id, e.auto) for e in recorder.of(Placed)] == [(first, True)]
    await again.close()


async def test_after_a_crash_the_clock_counts_from_the_last_sign_of_life(
        storage: Storage, database: str) -> None:
    # A bot that dies saves nothing more: the latest save of any of its tables is the last
    # moment it is known to have run, so a player who was thinking loses that time, not the
    # time the bot was down.
    doomed = await Storage.open(database)  # the crashed bot's own connection
    service, clock, _ = fresh_service(doomed, 1000.0)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    deadline = service.private_view(table, first).deadline
    await clock.advance(40)
    busy = (await service.create_table(GUILD, CHANNEL + 1, CAROL, "Carol")).table_id
    left = deadline - clock.now()  # the other table's save: the bot ran until then
    await doomed.close()  # it dies with its connection: nothing more is saved
    await service.close()

    resumed, later, recorder = fresh_service(storage, clock.now() + 3600)
    assert sorted(await resumed.restore()) == [table, busy]
    await resumed.idle()
    assert not recorder.of(Placed)
    assert resumed.private_view(table, first).deadline == later.now() + left
    await resumed.close()


async def test_a_start_the_bot_stopped_in_counts_only_who_plays(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    # The match is recorded (its own transaction) before the dealt table is saved: a bot
    # stopped between the two comes back to the lobby, where seats may change before the
    # start is made again. The match is then played by the new seats, and only they have
    # played it (history, /ofc stats, ratings).
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1}, seed=5)).table_id
    await service.join(table, BOB, "Bob")
    Flaky(storage.tables, "save_snapshot")  # the deal's save is lost with the bot
    with pytest.raises(sqlite3.OperationalError):
        await service.start(table, ALICE)
    await service.close()

    resumed, later, _ = fresh_service(storage, clock.now())
    assert await resumed.restore() == [table]
    assert resumed.lobby(table).status == "lobby"
    await resumed.leave(table, BOB)
    await resumed.join(table, CAROL, "Carol")
    await resumed.start(table, ALICE)
    await play(resumed, later, table, [ALICE, CAROL])
    await resumed.close()
    now = later.now()
    assert (await storage.history.stats(GUILD, BOB)).matches == 0
    assert await storage.history.recent_matches(GUILD, BOB) == []
    (played,) = await storage.history.recent_matches(GUILD, CAROL)
    assert sorted(p.user_id for p in played.players) == [ALICE, CAROL]
    assert (await storage.wallets.wallet(GUILD, BOB, now=now)).balance == START


async def test_a_second_close_writes_nothing(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    # Only the stop itself is marked: closed again later (after another bot has played on),
    # a service must not write its last snapshot back over the newer one.
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.close()
    resumed, _, _ = fresh_service(storage, clock.now())
    assert await resumed.restore() == [table]
    first = next(p for p in (ALICE, BOB) if resumed.private_view(table, p).to_act)
    await act(resumed, table, first)
    newer = await stored(storage, table)
    await resumed.close()
    await service.close()
    assert await stored(storage, table) == newer


async def test_dm_prompts_recorded_as_the_bot_stops_outlive_it(
        storage: Storage, clock: FakeClock) -> None:
    # The presenter records each DM prompt it sends from its listener; that save runs once
    # the action is over. A stop right after a deal still keeps them, so the restarted bot
    # redraws those prompts instead of sending each player a second one.
    service, clock, _ = fresh_service(storage, clock.now())
    sent: dict[int, DmPrompt] = {}

    async def presenter(events: list[TableEvent]) -> None:
        for e in events:
            if isinstance(e, Dealt) and e.private_to is not None:
                sent[e.private_to] = DmPrompt(8000, 9000 + e.private_to, e.hand_no, e.street)
                await service.set_dm_message(e.table_id, e.private_to, sent[e.private_to])

    service.add_listener(presenter)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.close()  # at once: the saves of the prompts still wait for their turn
    assert sorted(sent) == [ALICE, BOB]

    resumed, _, _ = fresh_service(storage, clock.now())
    assert await resumed.restore() == [table]
    assert resumed.messages(table).dm == sent
    await resumed.close()


async def test_an_idle_lobby_still_expires_after_a_restart(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    # 800 of its 900 idle seconds pass while the bot runs; the hour it is off does not count
    # (like the players' clocks, every timer of a table stands still while no bot runs).
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    await clock.advance(800)
    await service.close()
    resumed, later, recorder = fresh_service(storage, clock.now() + 3600)
    assert await resumed.restore() == [lobby.table_id]
    restored = recorder.of(TableRestored)[0].lobby
    assert restored.seats == lobby.seats and restored.expires_at == later.now() + 100
    await later.advance(99)
    await resumed.idle()
    assert not recorder.of(TableClosed)
    await later.advance(1)
    await resumed.idle()
    assert recorder.of(TableClosed)[0].reason == "expired"
    assert (await storage.wallets.wallet(GUILD, ALICE, now=later.now())).balance == START
    await resumed.close()


async def test_a_cash_table_waiting_for_players_waits_its_time_left_after_a_restart(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    # R11: with fewer than two players a cash table waits the lobby's idle time from its last
    # hand, then closes. A stop of an hour in that wait neither ends it nor lengthens it.
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"format": "cash"},
                                        seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.leave(table, BOB)  # gets up after the hand in play
    while BOB in service.seats(table).values():
        await act(service, table, next(p for p in (ALICE, BOB)
                                       if service.private_view(table, p).to_act))
        await service.idle()
    waited_from = clock.now()  # the last hand's end: the wait starts
    await clock.advance(300)
    await service.idle()
    assert table in service.live_tables()
    await service.close()

    resumed, later, recorder = fresh_service(storage, clock.now() + 3600)
    assert await resumed.restore() == [table]
    left = waited_from + 900 - clock.now()
    # The channel was told when the table closes; that moment moved with the stop, so it is
    # told again (nobody named: the busted were told already).
    (told,) = recorder.of(TableWaiting)
    assert (told.closes_at, told.busted) == (later.now() + left, ())
    await later.advance(left - 1)
    await resumed.idle()
    assert not recorder.of(MatchOver)
    await later.advance(1)
    await resumed.idle()
    assert recorder.of(MatchOver) and table not in resumed.live_tables()
    await resumed.close()


async def test_a_stop_before_a_cash_table_says_it_waits_leaves_the_saying_to_its_timer(
        storage: Storage, clock: FakeClock) -> None:
    # R11: in the pause after a hand, a cash table short of players has not yet told the
    # channel it waits: a restart then adds nothing, and the table's timer tells it once.
    paused = replace(FAST, next_hand_seconds=8.0)
    service, clock, recorder = fresh_service(storage, clock.now(), paused)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"format": "cash"},
                                        seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.leave(table, BOB)
    while BOB in service.seats(table).values():
        await act(service, table, next(p for p in (ALICE, BOB)
                                       if service.private_view(table, p).to_act))
        await service.idle()
    assert not recorder.of(TableWaiting)  # the pause before the next deal
    await service.close()

    resumed, later, recorder = fresh_service(storage, clock.now() + 3600, paused)
    assert await resumed.restore() == [table]
    assert not recorder.of(TableWaiting)
    await later.advance(8)
    await resumed.idle()
    (told,) = recorder.of(TableWaiting)
    assert told.closes_at == later.now() - 8 + 900
    await resumed.close()


async def test_a_rematch_offer_is_saved_with_the_closed_table(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    finished = await start_match(service)
    await play(service, clock, finished, [ALICE])
    offer = await service.rematch_offer(finished)
    assert offer is not None and offer.status == "closed"
    assert (offer.guild_id, offer.channel_id, offer.rules.hands) == (GUILD, CHANNEL, 1)
    # A cancelled table offers none; nor does an open lobby, or no table at all.
    cancelled = (await service.create_table(GUILD, CHANNEL + 1, BOB, "Bob", seed=5)).table_id
    await service.add_computer(cancelled, BOB, "easy", is_admin=True)
    await service.start(cancelled, BOB)
    playing = (await service.create_table(GUILD, CHANNEL + 2, ALICE, "Alice")).table_id
    await service.cancel(cancelled, BOB)
    assert await service.rematch_offer(cancelled) is None
    assert await service.rematch_offer(playing) is None
    assert await service.rematch_offer(10**19) is None  # a forged id past any table's
    await service.close()

    resumed, _, _ = fresh_service(storage, clock.now())
    await resumed.restore()
    assert await resumed.rematch_offer(finished) == offer  # read from the closing snapshot
    assert await resumed.rematch_offer(cancelled) is None
    assert await resumed.rematch_offer(playing) is None
    assert await resumed.rematch_offer(finished + 1000) is None
    await resumed.close()


def _bad_json(state: str) -> str:
    return state[:-5]


def _other_version(state: str) -> str:
    return json.dumps({**json.loads(state), "service_version": 99})


def _stacks_disagree(state: str) -> str:
    d = json.loads(state)
    d["match"]["seats"][0]["stack"] += 50  # chips storage never saw
    return json.dumps(d)


def _changes_not_following(changes: str) -> str:
    return json.dumps({**json.loads(changes), "from": 0})


def _changes_of_another_version(changes: str) -> str:
    return json.dumps({**json.loads(changes), "service_version": 1})


@pytest.mark.parametrize(("column", "corrupt"), [
    ("state_json", _bad_json), ("state_json", _other_version), ("state_json", _stacks_disagree),
    ("changes_json", _changes_not_following), ("changes_json", _changes_of_another_version)])
async def test_a_table_that_cannot_be_restored_is_refunded(
        service: TableService, storage: Storage, clock: FakeClock, database: str,
        column: str, corrupt: object) -> None:
    """Its snapshot, or the changes saved since it (test_changes.py), cannot be read."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await act(service, table, next(p for p in (ALICE, BOB)
                                   if service.private_view(table, p).to_act))  # changes
    await service.close()
    with Reader(database) as query:
        ((text,),) = query(f"SELECT {column} FROM live_tables WHERE id = ?", (table,))
        query.write(f"UPDATE live_tables SET {column} = ? WHERE id = ?",
                    (corrupt(text), table))  # type: ignore[operator]
    resumed, _, recorder = fresh_service(storage, clock.now())
    assert await resumed.restore() == []
    refunded = recorder.of(TableRefunded)
    assert [(e.table_id, e.channel_id) for e in refunded] == [(table, CHANNEL)]
    assert refunded[0].refunds == {ALICE: 200, BOB: 200}
    assert recorder.of(TableClosed)[0].reason == "refunded"
    assert resumed.table_for_channel(CHANNEL) is None
    for pid in (ALICE, BOB):
        assert not resumed.seated_elsewhere(pid, 0)  # a DM prompt's title names no table
        assert (await storage.wallets.wallet(GUILD, pid, now=clock.now())).balance == START
    assert (await storage.tables.table(table)).status == "refunded"
    assert audit(database) == []
    await resumed.close()


class Flaky:
    """Makes one method of a part of storage fail its next `times` calls (a disk or lock
    error)."""

    def __init__(self, part: object, name: str, times: int = 1) -> None:
        self.real = getattr(part, name)
        self.times = times
        setattr(part, name, self)

    async def __call__(self, *args: object, **kwargs: object) -> object:
        if self.times:
            self.times -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return await self.real(*args, **kwargs)


async def test_a_failed_save_changes_nothing_and_timers_retry(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        caplog: pytest.LogCaptureFixture) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    state = service.private_view(table, first)
    snapshot = await stored(storage, table)
    Flaky(storage.tables, "save_snapshot")
    with pytest.raises(sqlite3.OperationalError):
        await service.place(table, first, {c: "bottom" for c in state.view.dealt},
                            hand_no=state.hand_no, street=state.street)
    assert service.private_view(table, first) == state  # memory as storage has it
    assert await stored(storage, table) == snapshot
    Flaky(storage.tables, "save_snapshot")
    await clock.advance(state.deadline - clock.now())  # R10 timeout, whose save fails
    await service.idle()
    assert "retrying" in caplog.text
    assert service.private_view(table, first).to_act and not recorder.of(Placed)
    await clock.advance(5)  # RETRY_SECONDS
    await service.idle()
    assert [(e.player_id, e.auto) for e in recorder.of(Placed)] == [(first, True)]
