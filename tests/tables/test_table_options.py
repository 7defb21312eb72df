"""The options where the seeds differ on dealing and time (RULES.md R8, R10), through the
service and its fake clock: what a Fantasyland player sees while arranging, in either order;
one clock a street or one a hand; a cash table's time bank filling again."""

from bot.storage import Storage
from bot.tables import (
    Dealt,
    FakeClock,
    HandStarted,
    PlayerAway,
    ShowdownDone,
    TableService,
)

from .driver import ALICE, BOB, CAROL, CHANNEL, GUILD, Recorder, act, fresh_service

PEOPLE = (ALICE, BOB, CAROL)
# Three people playing as `act` does: in hand 1 the first to act sets QQ+ on top and earns
# Fantasyland for hand 2 (found by playing seeds; hand 1 deals no Fantasyland, so the
# option does not change it).
FANTASY_SEED = 2


async def table_of(service: TableService, people: tuple[int, ...], seed: int,
                   **options: object) -> int:
    table = (await service.create_table(GUILD, CHANNEL, people[0], "p0", options,
                                        seed=seed)).table_id
    for i, pid in enumerate(people[1:], 1):
        await service.join(table, pid, f"p{i}")
    await service.start(table, people[0])
    await service.idle()
    return table


def to_act(service: TableService, table: int, people: tuple[int, ...]) -> list[int]:
    return [p for p in people if service.private_view(table, p).to_act]


async def fantasyland_hand(service: TableService, recorder: Recorder, order: str) -> tuple[
        int, int]:
    """A table in hand 2, a Fantasyland hand: (table, the Fantasyland player)."""
    table = await table_of(service, PEOPLE, FANTASY_SEED, format="hands", hands=1,
                           fantasy_deal=order)
    while not recorder.of(ShowdownDone):
        await act(service, table, to_act(service, table, PEOPLE)[0])
        await service.idle()
    first = recorder.of(ShowdownDone)[0]
    (seat,) = first.fantasy_next
    return table, first.player_ids[seat]


async def test_fantasyland_first_sees_nothing_placed_after_its_cards_came(
        service: TableService, recorder: Recorder) -> None:
    # Seed 002: the Fantasyland player sets the hand "without being able to see the cards of
    # his opponents"; the others' streets wait for it (seed 000), so neither its controls,
    # its image (both drawn from its private view) nor the channel's table show any.
    table, fl = await fantasyland_hand(service, recorder, "first")
    others = [p for p in PEOPLE if p != fl]
    mine = service.private_view(table, fl)
    assert (mine.hand_no, mine.street, len(mine.view.dealt), mine.to_act) == (2, 0, 14, True)
    for pid in others:  # whoever else could act does
        if service.private_view(table, pid).to_act:
            await act(service, table, pid)
            await service.idle()
    mine = service.private_view(table, fl)
    assert mine.to_act
    assert all(s.board.cards == s.new_cards == () for s in mine.view.table.seats)
    assert all(s.board.cards == () for s in service.public_view(table).seats)
    assert all(service.private_view(table, p).view.dealt == () for p in others)
    assert not [e for e in recorder.of(Dealt) if e.hand_no == 2 and e.private_to in others]
    await act(service, table, fl)
    await service.idle()
    (now,) = to_act(service, table, PEOPLE)  # street 1 is dealt once the board is set
    assert now in others and len(service.private_view(table, now).view.dealt) == 5


async def test_fantasyland_last_is_dealt_once_the_others_are_done_and_sees_them(
        service: TableService, recorder: Recorder) -> None:
    # Seed 003: "After the opponents have completed the layout of the cards, the player
    # receives 14 cards".
    table, fl = await fantasyland_hand(service, recorder, "last")
    others = tuple(p for p in PEOPLE if p != fl)
    assert service.private_view(table, fl).view.dealt == ()
    while not service.private_view(table, fl).to_act:
        assert service.private_view(table, fl).view.dealt == ()
        await act(service, table, to_act(service, table, others)[0])
        await service.idle()
    mine = service.private_view(table, fl)
    assert (mine.street, len(mine.view.dealt)) == (0, 14)
    boards = [s.board.cards for s in mine.view.table.seats if s.player_id != fl]
    assert [len(b) for b in boards] == [13, 13]
    await act(service, table, fl)
    await service.idle()
    assert len(recorder.of(ShowdownDone)) == 2


async def spend_first_street(service: TableService, clock: FakeClock, table: int,
                             seconds: float) -> int:
    """The first to act waits `seconds`, then both play street 1 (the other at once)."""
    people = (ALICE, BOB)
    (first,) = to_act(service, table, people)
    await clock.advance(seconds)
    await act(service, table, first)
    await service.idle()
    await act(service, table, to_act(service, table, people)[0])
    await service.idle()
    assert to_act(service, table, people) == [first]
    return first


async def test_per_street_clock_gives_each_street_a_fresh_turn(
        service: TableService, clock: FakeClock) -> None:
    table = await table_of(service, (ALICE, BOB), 5, clock="per_street", turn_seconds=60,
                           time_bank_seconds=30)
    first = await spend_first_street(service, clock, table, 59)
    assert service.private_view(table, first).deadline == clock.now() + 60 + 30


async def test_per_hand_clock_runs_once_for_the_whole_hand(
        service: TableService, clock: FakeClock, recorder: Recorder) -> None:
    # Seed 000: "in the second street players have less time by the amount of time spent
    # during the first street". Five streets of 60 s: 300 s for the hand.
    table = await table_of(service, (ALICE, BOB), 5, clock="per_hand", turn_seconds=60,
                           time_bank_seconds=30)
    (first,) = to_act(service, table, (ALICE, BOB))
    assert service.private_view(table, first).deadline == clock.now() + 300 + 30
    first = await spend_first_street(service, clock, table, 59)
    deadline = service.private_view(table, first).deadline
    assert deadline == clock.now() + 241 + 30
    await clock.advance(deadline - clock.now() - 0.5)
    await service.idle()
    assert service.private_view(table, first).to_act and not recorder.of(PlayerAway)
    await clock.advance(0.5)  # the hand's time and the bank are gone: R10 places for it
    await service.idle()
    assert [e.player_id for e in recorder.of(PlayerAway)] == [first]



async def test_per_hand_clock_counts_a_street_that_ran_out_for_a_player_who_comes_back(
        service: TableService, clock: FakeClock, recorder: Recorder) -> None:
    # R10 per_hand: 300 s for the hand, then a 30 s bank. The first to act lets street 1 run
    # out (330 s: placed for, away), then comes back: the hand's clock and the bank are
    # gone, so street 2 gives it nothing and it is placed for again at once.
    table = await table_of(service, (ALICE, BOB), 5, clock="per_hand", turn_seconds=60,
                           time_bank_seconds=30)
    (first,) = to_act(service, table, (ALICE, BOB))
    other = BOB if first == ALICE else ALICE
    await clock.advance(330)
    await service.idle()
    assert [e.player_id for e in recorder.of(PlayerAway)] == [first]
    await service.back(table, first)
    await act(service, table, other)
    await service.idle()
    assert [e.player_id for e in recorder.of(PlayerAway)] == [first, first]
    assert not service.private_view(table, first).to_act


async def play_hand(service: TableService, recorder: Recorder, table: int) -> None:
    hands = len(recorder.of(ShowdownDone))
    while len(recorder.of(ShowdownDone)) == hands:
        await act(service, table, to_act(service, table, (ALICE, BOB))[0])
        await service.idle()


def bank(service: TableService, table: int, player: int) -> float:
    return next(s.time_bank for s in service.public_view(table).seats if s.player_id == player)


async def test_a_cash_tables_time_bank_fills_again_after_its_period(
        service: TableService, clock: FakeClock, recorder: Recorder) -> None:
    # Seed 003: "The time bank resets after a certain period".
    table = await table_of(service, (ALICE, BOB), 5, format="cash", clock="per_street",
                           turn_seconds=3600, time_bank_seconds=100,
                           time_bank_refill_seconds=7200)
    start = clock.now()  # hand 1 dealt: both banks full, their period starts
    (first,) = to_act(service, table, (ALICE, BOB))
    await clock.advance(3650)  # 50 s into the bank
    await act(service, table, first)
    await service.idle()
    await play_hand(service, recorder, table)
    assert bank(service, table, first) == 50  # hand 2 dealt 3,650 s in: not yet
    other = BOB if first == ALICE else ALICE
    while other not in to_act(service, table, (ALICE, BOB)):
        await act(service, table, first)
        await service.idle()
    await clock.advance(3600)  # the other's whole turn, no bank
    await play_hand(service, recorder, table)
    assert clock.now() - start >= 7200 and len(recorder.of(ShowdownDone)) == 2
    assert bank(service, table, first) == 100 and bank(service, table, other) == 100


async def test_getting_up_and_back_at_a_cash_table_fills_no_bank_across_a_restart(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder) -> None:
    # R10: "getting up and sitting down again does not restart it, nor fill the bank", also
    # once the next deal has freed the seat, and across a restart. 60 s turns, a 30 s bank
    # refilled hourly; Alice lets her first turn and her whole bank run out.
    table = await table_of(service, PEOPLE, 5, format="cash", clock="per_street",
                           turn_seconds=60, time_bank_seconds=30, time_bank_refill_seconds=3600)
    start = clock.now()  # hand 1 dealt: Alice's period starts
    while not recorder.of(ShowdownDone):
        others = to_act(service, table, (BOB, CAROL))
        for pid in others:
            await act(service, table, pid)
        if not others:  # only Alice is awaited: her turn and bank run out (placed for, away)
            await clock.advance(service.private_view(table, ALICE).deadline - clock.now())
        await service.idle()
    assert [e.player_id for e in recorder.of(PlayerAway)] == [ALICE]
    assert [e.hand_no for e in recorder.of(HandStarted)] == [1, 2]  # her seat is free again
    assert ALICE not in service.seats(table).values()
    await service.close()  # a restart

    resumed, later, events = fresh_service(storage, clock.now() + 200)
    assert await resumed.restore() == [table]
    await resumed.join(table, ALICE, "Alice")
    assert bank(resumed, table, ALICE) == 0
    while len(events.of(HandStarted)) < 1:  # Bob and Carol finish hand 2: hand 3 is dealt
        for pid in to_act(resumed, table, (BOB, CAROL)):
            await act(resumed, table, pid)
        await resumed.idle()
    seat = next(s for s, p in resumed.seats(table).items() if p == ALICE)
    assert events.of(HandStarted)[0].hand_no == 3 and seat in events.of(HandStarted)[0].seats
    assert later.now() - start < 3600  # an hour has not passed: her bank is still empty
    assert bank(resumed, table, ALICE) == 0
    await resumed.close()
