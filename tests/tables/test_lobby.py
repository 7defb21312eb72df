"""The lobby: buy-ins from wallets (R12), refunds, host rights, expiry."""

import asyncio

import pytest

from bot.storage import Storage
from bot.tables import (
    FakeClock,
    LobbyChanged,
    NotAllowed,
    NotYourSeat,
    TableClosed,
    TableError,
    TableRefunded,
    TableService,
)

from .driver import ALICE, BOB, CAROL, CHANNEL, GUILD, START, Recorder, chips, stored

BUY_IN = 200  # RULES.md default buy_in


async def wallet(storage: Storage, user: int, clock: FakeClock) -> int:
    return (await storage.wallets.wallet(GUILD, user, now=clock.now())).balance


async def test_create_seats_the_host_with_the_buy_in(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder) -> None:
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    assert service.table_for_channel(CHANNEL) == lobby.table_id
    assert [(s.player_id, s.stack) for s in lobby.seats] == [(ALICE, BUY_IN)]
    assert lobby.host_id == ALICE and lobby.status == "lobby"
    assert await wallet(storage, ALICE, clock) == START - BUY_IN
    assert (await storage.tables.table(lobby.table_id)).stacks == {ALICE: BUY_IN}
    assert [e.reason for e in recorder.of(LobbyChanged)] == ["created"]


async def test_one_table_per_channel(service: TableService) -> None:
    await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    with pytest.raises(TableError, match="already has a table"):
        await service.create_table(GUILD, CHANNEL, BOB, "Bob")


async def test_bad_option_names_it_and_creates_nothing(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    with pytest.raises(TableError, match="variant"):
        await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"variant": "omaha"})
    assert service.table_for_channel(CHANNEL) is None
    assert await storage.tables.live_tables() == []
    assert await wallet(storage, ALICE, clock) == START


async def test_a_host_who_cannot_pay_gets_no_table(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    with pytest.raises(TableError, match="Not enough chips"):
        await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"buy_in": START + 1})
    assert service.table_for_channel(CHANNEL) is None
    assert await storage.tables.live_tables() == []
    assert await wallet(storage, ALICE, clock) == START


async def test_join_and_leave_move_the_buy_in_both_ways(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    lobby = await service.join(table, BOB, "Bob")
    assert [s.player_id for s in lobby.seats] == [ALICE, BOB]
    assert await wallet(storage, BOB, clock) == START - BUY_IN
    with pytest.raises(TableError, match="already at this table"):
        await service.join(table, BOB, "Bob")
    lobby = await service.leave(table, BOB)
    assert [s.player_id for s in lobby.seats] == [ALICE]
    assert await wallet(storage, BOB, clock) == START
    with pytest.raises(NotYourSeat):
        await service.leave(table, BOB)


async def test_join_without_chips_changes_nothing(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"buy_in": 600}))
    await storage.wallets.correct(GUILD, BOB, -500, reason="test", actor_id=ALICE, now=clock.now())
    before = await stored(storage, table.table_id)
    with pytest.raises(TableError, match="Not enough chips"):
        await service.join(table.table_id, BOB, "Bob")
    assert service.lobby(table.table_id).seats == table.seats
    assert await stored(storage, table.table_id) == before
    assert await wallet(storage, BOB, clock) == START - 500


async def test_computers_come_from_the_house_and_only_an_admin_adds_them(
        service: TableService, storage: Storage, clock: FakeClock, database: str) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    with pytest.raises(NotAllowed):
        await service.add_computer(table, BOB, "easy")
    with pytest.raises(TableError, match="not a computer level"):
        await service.add_computer(table, ALICE, "genius")
    lobby = await service.add_computer(table, BOB, "strong", is_admin=True)
    computer = lobby.seats[-1]
    assert computer.player_id < 0 and computer.ai_level == "strong"
    wallets, stacks, external = chips(database)
    assert stacks == {ALICE: BUY_IN, computer.player_id: BUY_IN}
    assert sum(wallets.values()) + sum(stacks.values()) == external
    lobby = await service.remove_computer(table, ALICE, computer.player_id)
    assert [s.player_id for s in lobby.seats] == [ALICE]
    wallets, stacks, external = chips(database)
    assert stacks == {ALICE: BUY_IN}
    assert sum(wallets.values()) + sum(stacks.values()) == external


async def test_removing_a_computer_twice_at_once_removes_it_once_and_says_so(
        service: TableService, database: str) -> None:
    """A double click on Remove computer: both clicks name the computer seated last; the
    second finds it gone, is told so in the button's terms, and changes nothing."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    computer = (await service.add_computer(table, ALICE, "easy", is_admin=True)).seats[-1]
    twice = await asyncio.gather(
        service.remove_computer(table, ALICE, computer.player_id, is_admin=True),
        service.remove_computer(table, ALICE, computer.player_id, is_admin=True),
        return_exceptions=True)
    refused = [r for r in twice if isinstance(r, TableError)]
    assert [str(r) for r in refused] == ["That computer player was already removed."]
    assert [s.player_id for s in service.lobby(table).seats] == [ALICE, -1]
    wallets, stacks, external = chips(database)
    assert stacks == {ALICE: BUY_IN, -1: BUY_IN}  # the other computer stays seated
    assert sum(wallets.values()) + sum(stacks.values()) == external


async def test_only_a_member_with_manage_server_seats_a_computer_for_the_houses_chips(
        service: TableService, storage: Storage, clock: FakeClock, database: str) -> None:
    """R12: a computer's stack comes from the house, so what people win from it the house pays.
    Any host could seat easy computers at a table of high stakes, with hints on (Suggest plays
    the strong computer for them), and draw chips out of the house hand after hand. Only a
    member with Manage Server, who may grant chips, lets the house back a computer; a host's
    try is refused and changes nothing. A practice table's computer plays for play chips."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"hints": "on", "point_value": 1000})).table_id
    before = await stored(storage, table)
    with pytest.raises(NotAllowed, match="Manage Server"):
        await service.add_computer(table, ALICE, "easy")
    assert [s.player_id for s in service.lobby(table).seats] == [ALICE]
    assert await stored(storage, table) == before
    assert chips(database) == ({ALICE: START - BUY_IN}, {ALICE: BUY_IN}, START)  # no house row
    computer = (await service.add_computer(table, BOB, "easy", is_admin=True)).seats[-1]
    assert computer.ai_level == "easy" and chips(database)[2] == START + BUY_IN
    practice = await service.practice(GUILD, CHANNEL + 1, CAROL, "Carol", "easy")
    assert [s.ai_level for s in practice.seats] == [None, "easy"]
    assert chips(database)[2] == START + BUY_IN  # Carol has no wallet yet: nothing moved


async def test_double_clicks_and_two_tables_at_once_move_each_chip_once(
        service: TableService, storage: Storage, clock: FakeClock, database: str) -> None:
    """R12 under clicks that arrive together: Bob joins twice at once, then two tables at once
    with chips for one; gets up twice at once; the host cancels twice at once. Each buy-in,
    cash-out and refund moves its chips once, a refused one moves none, and wallets plus
    stacks stay what was granted (the storage fixture's audit, after)."""
    one = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                      {"buy_in": 400})).table_id
    two = (await service.create_table(GUILD, CHANNEL + 1, CAROL, "Carol",
                                      {"buy_in": 700})).table_id
    twice = await asyncio.gather(service.join(one, BOB, "Bob"), service.join(one, BOB, "Bob"),
                                 return_exceptions=True)
    assert sum(isinstance(r, TableError) for r in twice) == 1  # (the wallet pays two)
    assert await wallet(storage, BOB, clock) == START - 400
    await service.leave(one, BOB)
    both = await asyncio.gather(service.join(one, BOB, "Bob"), service.join(two, BOB, "Bob"),
                                return_exceptions=True)
    assert [isinstance(r, TableError) for r in both] == [False, True]  # 1,000 < 400 + 700
    assert "Not enough chips" in str(both[1])
    assert await wallet(storage, BOB, clock) == START - 400
    assert [s.player_id for s in service.lobby(two).seats] == [CAROL]
    up = await asyncio.gather(service.leave(one, BOB), service.leave(one, BOB),
                              return_exceptions=True)
    assert sum(isinstance(r, NotYourSeat) for r in up) == 1
    assert await wallet(storage, BOB, clock) == START
    closing = await asyncio.gather(service.cancel(one, ALICE), service.cancel(one, ALICE),
                                   return_exceptions=True)
    assert sum(isinstance(r, TableError) for r in closing) == 1
    assert await wallet(storage, ALICE, clock) == START
    assert chips(database) == ({ALICE: START, BOB: START, CAROL: START - 700}, {CAROL: 700},
                               3 * START)


async def test_the_table_is_full_at_its_seats(service: TableService) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"seats": 2})).table_id
    await service.add_computer(table, ALICE, is_admin=True)
    with pytest.raises(TableError, match="full"):
        await service.join(table, BOB, "Bob")


async def test_start_is_for_the_host_or_an_admin(service: TableService,
                                                 recorder: Recorder) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    with pytest.raises(TableError, match="at least two"):
        await service.start(table, ALICE)
    await service.join(table, BOB, "Bob")
    with pytest.raises(NotAllowed):
        await service.start(table, BOB)
    lobby = await service.start(table, CAROL, is_admin=True)
    assert lobby.status == "playing" and lobby.hand_no == 1
    assert recorder.of(LobbyChanged)[-1].reason == "started"
    with pytest.raises(TableError, match="has started"):
        await service.join(table, CAROL, "Carol")


async def test_cancel_refunds_everyone(service: TableService, storage: Storage,
                                       clock: FakeClock, recorder: Recorder,
                                       database: str) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    await service.join(table, BOB, "Bob")
    computer = (await service.add_computer(table, ALICE, is_admin=True)).seats[-1].player_id
    with pytest.raises(NotAllowed):
        await service.cancel(table, BOB)
    await service.cancel(table, ALICE)
    assert await wallet(storage, ALICE, clock) == START
    assert await wallet(storage, BOB, clock) == START
    refunded = recorder.of(TableRefunded)[-1]
    assert refunded.refunds == {ALICE: BUY_IN, BOB: BUY_IN, computer: BUY_IN}
    assert recorder.of(TableClosed)[-1].reason == "cancelled"
    assert service.table_for_channel(CHANNEL) is None
    assert (await storage.tables.table(table)).status == "refunded"
    wallets, stacks, external = chips(database)
    assert stacks == {} and sum(wallets.values()) == external


async def test_the_host_leaving_hands_over_or_cancels(service: TableService,
                                                      recorder: Recorder) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice")).table_id
    await service.add_computer(table, ALICE, is_admin=True)
    await service.join(table, BOB, "Bob")
    lobby = await service.leave(table, ALICE)
    assert lobby.host_id == BOB
    assert recorder.of(LobbyChanged)[-1].reason == "host changed"
    await service.leave(table, BOB)  # only a computer is left
    assert recorder.of(TableClosed)[-1].reason == "cancelled"
    assert service.table_for_channel(CHANNEL) is None


async def test_an_idle_lobby_expires_with_refunds(service: TableService, storage: Storage,
                                                  clock: FakeClock, recorder: Recorder) -> None:
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    idle = lobby.expires_at - clock.now()
    assert idle == 900  # ServiceSettings.lobby_idle_seconds
    await clock.advance(idle - 100)
    await service.join(lobby.table_id, BOB, "Bob")  # activity: the expiry moves
    await clock.advance(150)
    await service.idle()
    assert service.table_for_channel(CHANNEL) == lobby.table_id
    await clock.advance(idle)
    await service.idle()
    assert service.table_for_channel(CHANNEL) is None
    assert recorder.of(TableClosed)[-1].reason == "expired"
    assert "expired" in str(recorder.of(TableRefunded)[-1].reason)
    assert await wallet(storage, ALICE, clock) == START
    assert await wallet(storage, BOB, clock) == START
