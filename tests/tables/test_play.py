"""Play through the service: whole matches, R10 timeouts and sitting out,
refused actions that change nothing, concurrent clicks applied once."""

import asyncio
from collections.abc import Sequence

import pytest

from bot.engine.cards import card_str
from bot.storage import Storage
from bot.tables import (
    Dealt,
    DmPrompt,
    FakeClock,
    LobbyChanged,
    MatchOver,
    NotYourSeat,
    Placed,
    PlayerAway,
    PlayerLeft,
    SeatState,
    ServiceSettings,
    ShowdownDone,
    StaleAction,
    TableClosed,
    TableError,
    TableEvent,
    TableRefunded,
    TableService,
    Turn,
)
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
    chips,
    fresh_service,
    play,
    stored,
)

BUY_IN = 200


async def new_table(service: TableService, people: list[int], computers: Sequence[str] = (),
                    **options: object) -> int:
    table = (await service.create_table(GUILD, CHANNEL, people[0], "p0", options,
                                        seed=11)).table_id
    for i, pid in enumerate(people[1:], 1):
        await service.join(table, pid, f"p{i}")
    for level in computers:
        await service.add_computer(table, people[0], level, is_admin=True)
    await service.start(table, people[0])
    await service.idle()
    return table


def to_act(service: TableService, table: int, people: list[int]) -> list[int]:
    return [p for p in people if service.private_view(table, p).to_act]


async def wallet(storage: Storage, user: int, clock: FakeClock) -> int:
    return (await storage.wallets.wallet(GUILD, user, now=clock.now())).balance


async def test_a_whole_match_of_people_and_a_computer(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str) -> None:
    table = await new_table(service, [ALICE, BOB], ["easy"], format="hands", hands=3)
    await play(service, clock, table, [ALICE, BOB])
    showdowns = recorder.of(ShowdownDone)
    over = recorder.of(MatchOver)
    assert len(over) == 1 and recorder.of(TableClosed)[-1].reason == "over"
    # R11: 3 hands plus one per hand after which someone earned Fantasyland
    extra = sum(1 for s in showdowns[:-1] if s.fantasy_next)
    assert len(showdowns) == 3 + extra
    standings = {s.player_id: s for s in over[0].standings}
    assert sum(s.net for s in standings.values()) == 0  # R6: chips are conserved
    assert sum(sum(r.chips for r in s.view.seats) for s in showdowns) == 0
    for pid in (ALICE, BOB):
        assert await wallet(storage, pid, clock) == START + standings[pid].net
    wallets, stacks, external = chips(database)
    computer_net = sum(s.net for pid, s in standings.items() if pid < 0)
    assert stacks == {} and sum(wallets.values()) == external == 2 * START - computer_net
    assert audit(database) == []
    history = await storage.history.recent_matches(GUILD, ALICE)
    assert len(history) == 1 and history[0].hands == len(showdowns)
    assert history[0].player(ALICE).net_chips == standings[ALICE].net
    assert service.table_for_channel(CHANNEL) is None


async def test_timeout_places_by_r10_and_the_away_player_sits_out(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str) -> None:
    table = await new_table(service, [ALICE, BOB], ["easy"], clock="per_street")
    people = [ALICE, BOB]
    # Bob plays; Alice never does. Find Alice's first turn.
    while ALICE not in to_act(service, table, people):
        await act(service, table, BOB)
        await service.idle()
    alice = service.private_view(table, ALICE)
    dealt = alice.view.dealt
    assert alice.street == 1 and len(dealt) == 5
    # R10: 60 s of turn time, then the 120 s time bank.
    assert alice.deadline == clock.now() + 60 + 120
    await clock.advance(179.5)
    await service.idle()
    assert service.private_view(table, ALICE).to_act
    await clock.advance(0.5)
    await service.idle()
    seat = alice.seat
    board = next(s.board for s in service.public_view(table).seats if s.seat == seat)
    assert board.bottom == dealt and board.middle == () and board.top == ()  # bottom first
    assert [(e.seat, e.player_id) for e in recorder.of(PlayerAway)] == [(seat, ALICE)]
    assert next(e for e in recorder.of(Placed) if e.seat == seat).auto
    # Away: later actions are placed at once, so the hand ends without another wait.
    waited = clock.now()
    while not recorder.of(ShowdownDone):
        assert to_act(service, table, people) == [BOB]
        await act(service, table, BOB)
        await service.idle()
    assert clock.now() == waited
    left = recorder.of(PlayerLeft)
    assert [(e.player_id, e.reason) for e in left] == [(ALICE, "away")]
    stack = next(r.stack_after for r in recorder.of(ShowdownDone)[0].view.seats
                 if r.seat == seat)
    assert left[0].returned == stack
    assert await wallet(storage, ALICE, clock) == START - BUY_IN + stack
    assert ALICE not in service.seats(table).values()
    # the match goes on without her, to its end
    await play(service, clock, table, [BOB])
    assert recorder.of(MatchOver)
    assert audit(database) == []


async def test_away_players_who_stay_are_dealt_the_next_hand_due_at_the_same_instant(
        service: TableService, storage: Storage, clock: FakeClock,
        recorder: Recorder) -> None:
    # Nobody acts; away players stay (a tournament table, R13). The last timeout of hand 1
    # ends it, and hand 2 is due at that same instant (no pause between hands): the timer
    # that ran the timeout must arm the deal, or the table waits forever.
    await new_table(service, [ALICE, BOB], format="hands", hands=2, fantasy="off",
                    turn_seconds=10, time_bank_seconds=0, sit_out_when_away=False)
    for _ in range(100):
        if recorder.of(MatchOver):
            break
        assert await clock.advance_to_next(), "the table has nothing due and is not over"
        await service.idle()
    assert len(recorder.of(ShowdownDone)) == 2 and not recorder.of(PlayerLeft)
    (match,) = await storage.history.recent_matches(GUILD, ALICE, limit=1)
    assert match.hands == 2


async def test_an_away_player_who_comes_back_acts_again(
        service: TableService, clock: FakeClock, recorder: Recorder) -> None:
    table = await new_table(service, [ALICE, BOB], ["easy"], clock="per_street")
    people = [ALICE, BOB]
    while ALICE not in to_act(service, table, people):
        await act(service, table, BOB)
        await service.idle()
    await clock.advance(180)
    await service.idle()
    assert recorder.of(PlayerAway)
    await service.back(table, ALICE)
    assert not service.private_view(table, ALICE).away
    while not recorder.of(ShowdownDone):
        ready = to_act(service, table, people)
        if ready == [ALICE]:
            # the time bank is spent (R10): only the turn's 60 s are left
            assert service.private_view(table, ALICE).deadline == clock.now() + 60
        await act(service, table, ready[0])
        await service.idle()
    assert not recorder.of(PlayerLeft)


async def test_refused_actions_change_nothing(service: TableService, storage: Storage) -> None:
    people = [ALICE, BOB]
    table = await new_table(service, people)
    first = to_act(service, table, people)[0]
    other = BOB if first == ALICE else ALICE
    me = service.private_view(table, first)
    theirs = service.private_view(table, other)
    snapshot = await stored(storage, table)
    where = {"hand_no": me.hand_no, "street": me.street}
    card = me.view.dealt[0]
    refused = [
        (StaleAction, service.set_draft(table, first, hand_no=me.hand_no + 1, street=1,
                                        card=card, row="top")),
        (StaleAction, service.set_draft(table, first, hand_no=me.hand_no, street=2,
                                        card=card, row="top")),
        (NotYourSeat, service.set_draft(table, first, **where, card=card, row="top",
                                        seat=theirs.seat)),
        (NotYourSeat, service.set_draft(table, CAROL, **where, card=card, row="top")),
        (TableError, service.set_draft(table, first, **where, card=theirs.view.dealt[0],
                                       row="top")),
        (TableError, service.set_draft(table, first, **where, card="Zz", row="top")),
        (TableError, service.set_draft(table, first, **where, card=card, row="side")),
        (TableError, service.set_draft(table, first, **where, card=card, row="discard")),
        (TableError, service.confirm(table, first, **where)),  # nothing placed yet
        (TableError, service.place(table, first, {c: "bottom" for c in theirs.view.dealt},
                                   **where)),
        (TableError, service.place(table, first, {c: "top" for c in me.view.dealt}, **where)),
        (StaleAction, service.best_arrangement(table, first, hand_no=0, street=1)),
    ]
    for error, call in refused:
        with pytest.raises(error):
            await call
        assert await stored(storage, table) == snapshot
        assert service.private_view(table, first).draft == {}
    # the top row holds 3: a 4th draft is refused, the three stay
    for c in me.view.dealt[:3]:
        await service.set_draft(table, first, **where, card=card_str(c), row="top")
    with pytest.raises(TableError, match="Top row is full"):
        await service.set_draft(table, first, **where, card=me.view.dealt[3], row="top")
    assert set(service.private_view(table, first).draft) == set(me.view.dealt[:3])
    # the other player may draft while waiting, but not confirm out of turn (R7)
    for c in theirs.view.dealt:
        await service.set_draft(table, other, **where, card=c, row="bottom")
    with pytest.raises(TableError, match="turn"):
        await service.confirm(table, other, **where)
    assert len(service.private_view(table, other).draft) == 5


async def test_a_control_from_play_a_restore_undid_says_it_is_out_of_date(
        service: TableService, storage: Storage) -> None:
    """backup.md: after a restore from a backup, a prompt sent for a later street or hand
    than the table is at now is out of date (not "already placed", not "over"); one for an
    earlier street was placed, one for an earlier hand is over. Nothing changes."""
    people = [ALICE, BOB]
    table = await new_table(service, people)
    first = to_act(service, table, people)[0]
    me = service.private_view(table, first)
    assert (me.hand_no, me.street) == (1, 1)
    snapshot = await stored(storage, table)
    card = me.view.dealt[0]
    out_of_date = "This prompt is out of date: use your newest one, or **My hand** on the " \
        "table message."
    for hand_no, street, said in ((1, 2, out_of_date), (2, 1, out_of_date),
                                  (1, 0, "Those cards are already placed."),
                                  (0, 1, "That hand is over.")):
        with pytest.raises(StaleAction) as refused:
            await service.set_draft(table, first, hand_no=hand_no, street=street, card=card,
                                    row="top")
        assert str(refused.value) == said
        assert await stored(storage, table) == snapshot


async def test_concurrent_confirms_place_once(service: TableService,
                                              recorder: Recorder) -> None:
    people = [ALICE, BOB]
    table = await new_table(service, people)
    first = to_act(service, table, people)[0]
    me = service.private_view(table, first)
    where = {"hand_no": me.hand_no, "street": me.street}
    cards = me.view.dealt
    # five concurrent clicks for three top places: exactly three land
    results = await asyncio.gather(
        *(service.set_draft(table, first, **where, card=c, row="top") for c in cards),
        return_exceptions=True)
    assert sum(isinstance(r, SeatState) for r in results) == 3
    assert all(str(r) == "Top row is full." for r in results if not isinstance(r, SeatState))
    await service.reset_draft(table, first, **where)
    for c in cards:
        await service.set_draft(table, first, **where, card=c, row="bottom")
    recorder.clear()
    results = await asyncio.gather(*(service.confirm(table, first, **where) for _ in range(10)),
                                   return_exceptions=True)
    assert sum(isinstance(r, SeatState) for r in results) == 1
    assert all(isinstance(r, StaleAction) for r in results if not isinstance(r, SeatState))
    placed = [e for e in recorder.of(Placed) if e.player_id == first]
    assert len(placed) == 1
    board = next(s.board for s in service.public_view(table).seats if s.player_id == first)
    assert board.bottom == cards


async def test_simultaneous_streets_from_both_players_at_once(
        service: TableService, clock: FakeClock, recorder: Recorder) -> None:
    people = [ALICE, BOB]
    table = await new_table(service, people, order="simultaneous")
    assert to_act(service, table, people) == people  # R7: all act on a street at once

    async def street_of(pid: int) -> None:
        state = service.private_view(table, pid)
        choice = {c: "bottom" for c in state.view.dealt}
        await asyncio.gather(*(service.place(table, pid, choice, hand_no=state.hand_no,
                                             street=state.street) for _ in range(3)),
                             return_exceptions=True)

    await asyncio.gather(street_of(ALICE), street_of(BOB))
    assert sorted(e.player_id for e in recorder.of(Placed)) == [ALICE, BOB]
    assert recorder.of(Turn)[-1].street == 2
    assert {e.private_to for e in recorder.of(Dealt) if e.street == 2} == {ALICE, BOB}


async def test_computers_wait_their_delay_and_think_off_the_loop(
        storage: Storage, clock: FakeClock) -> None:
    settings = ServiceSettings(ai_delay_seconds=1.5, next_hand_seconds=0, ai_in_thread=True)
    service, clock, recorder = fresh_service(storage, clock.now(), settings)
    table = await new_table(service, [ALICE], ["strong"])
    while ALICE not in to_act(service, table, [ALICE]):
        recorder.clear()
        await clock.advance(1.4)
        await service.idle()
        assert not recorder.of(Placed)  # people get time to follow
        await clock.advance(0.1)
        await service.idle()
        assert [e.auto for e in recorder.of(Placed)] == [False]
    await service.close()


async def test_listeners_cannot_deadlock_and_cannot_break_the_game(
        service: TableService, recorder: Recorder) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    failures: list[BaseException] = []

    async def rude(events: Sequence[TableEvent]) -> None:
        try:
            await service.join(table, BOB, "Bob")  # an action from inside its own listener
        except RuntimeError as error:
            failures.append(error)
        await service.set_dm_message(table, ALICE, DmPrompt(5, 6, 1, 1))  # saved after the action
        raise ValueError("a listener bug")

    service.add_listener(rude)
    await service.add_computer(table, ALICE, is_admin=True)
    await service.idle()
    assert len(failures) == 1 and "listener" in str(failures[0])
    assert [s.player_id for s in service.lobby(table).seats] == [ALICE, -1]  # no Bob
    assert recorder.of(LobbyChanged)[-1].reason == "computer added"  # others still heard it
    assert service.messages(table).dm == {ALICE: DmPrompt(5, 6, hand_no=1, street=1)}


async def test_an_action_after_its_deadline_is_refused_before_the_timer_fires(
        service: TableService, clock: FakeClock, recorder: Recorder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R10: once the turn time and the time bank are gone the system places; a click that
    arrives later is refused even if the timer has not run yet (a busy loop, a slow lock)."""
    table = await new_table(service, [ALICE], ["easy"])
    while not service.private_view(table, ALICE).to_act:
        await clock.advance_to_next()
        await service.idle()
    alice = service.private_view(table, ALICE)
    assert alice.deadline is not None
    card = alice.view.dealt[0]
    late = alice.deadline + 0.25
    monkeypatch.setattr(clock, "now", lambda: late)  # time passed; no sleeper woke yet
    with pytest.raises(StaleAction, match="time ran out"):
        await service.set_draft(table, ALICE, hand_no=alice.hand_no, street=alice.street,
                                card=card, row="bottom")
    with pytest.raises(StaleAction, match="time ran out"):
        await service.place(table, ALICE, dict.fromkeys(alice.view.dealt, "bottom"),
                            hand_no=alice.hand_no, street=alice.street)
    assert service.private_view(table, ALICE).to_act  # nothing changed
    assert not [e for e in recorder.of(Placed) if e.player_id == ALICE]
    monkeypatch.undo()
    await clock.advance(alice.deadline - clock.now())  # the timer: R10 places for her
    await service.idle()
    placed = [e for e in recorder.of(Placed) if e.player_id == ALICE]
    assert placed and (placed[0].street, placed[0].auto) == (alice.street, True)


async def test_cancel_completes_and_settles_the_hand_in_play(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str) -> None:
    """No hand lost: /ofc cancel never voids a hand in play. The hand is completed at once
    (what is owed placed by R10's rule: bottom first, in the order dealt), shown down and
    settled; then every stack goes home. The match is cancelled: /stats leaves it out."""
    table = await new_table(service, [ALICE, BOB], format="hands", hands=3)
    people = [ALICE, BOB]
    for _ in range(3):  # a few actions into hand 1
        await act(service, table, to_act(service, table, people)[0])
        await service.idle()
    assert not recorder.of(ShowdownDone)
    boards = {s.seat: s.board for s in service.public_view(table).seats}
    confirmed = {seat: {e.street for e in recorder.of(Placed) if e.seat == seat}
                 for seat in boards}
    await service.cancel(table, ALICE)
    [shown] = recorder.of(ShowdownDone)
    assert shown.hand_no == 1
    for seat in shown.view.seats:
        before, after = boards[seat.seat], seat.board
        assert len(after.cards) == 13
        for row in ("top", "middle", "bottom"):  # R7: what was placed stays where it was
            assert set(before.row(row)) <= set(after.row(row)), (seat.seat, row)
        # R10 on the street each owed at the cancel, from its deal: the first cards into the
        # first rows with room, bottom, then middle, then top; the third of three discarded.
        rows = {row: len(before.row(row)) for row in ("top", "middle", "bottom")}
        for deal in recorder.of(Dealt):
            if deal.seat != seat.seat or deal.street in confirmed[seat.seat]:
                continue
            kept = deal.cards[:len(deal.cards) - deal.discards]
            for card in kept:
                row = next(r for r, size in (("bottom", 5), ("middle", 5), ("top", 3))
                           if rows[r] < size)
                rows[row] += 1
                assert card in after.row(row), (seat.seat, card_str(card), row)
            assert not set(deal.cards[len(kept):]) & set(after.cards)  # discarded
    refunded = recorder.of(TableRefunded)[-1]
    for seat in shown.view.seats:  # the stacks refunded are the settled ones (R6)
        pid = shown.player_ids[seat.seat]
        assert refunded.refunds.get(pid, 0) == seat.stack_after == BUY_IN + seat.chips
        assert await wallet(storage, pid, clock) == START + seat.chips
    assert recorder.of(TableClosed)[-1].reason == "cancelled"
    assert not recorder.of(PlayerAway)  # nobody ran out of time
    assert (await storage.history.stats(GUILD, ALICE)).hands == 0  # a cancelled match is no stat
    wallets, stacks, external = chips(database)
    assert stacks == {} and sum(wallets.values()) == external
    assert audit(database) == []
