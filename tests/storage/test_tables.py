"""Live tables and the chips on them: buy-in, settlement, cash-out, close, refund (R6, R12)."""

import pytest

from bot.storage import (
    InsufficientChips,
    InvalidInput,
    KeyConflict,
    NotSeated,
    Storage,
    TableClosed,
    TableNotEmpty,
    Transfer,
    UnknownTable,
)
from tests.storage.conftest import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD


async def _balance(storage: Storage, user: int) -> int:
    return (await storage.wallets.wallet(GUILD, user, now=0.0)).balance


async def test_buy_in_moves_wallet_chips_to_the_stack_with_the_snapshot(
    storage: Storage, table: int
) -> None:
    move = await storage.tables.buy_in(table, ALICE, 300, key="t:0:in:a", now=2.0,
                                       snapshot='{"hand": 0, "seated": 1}')
    assert (move.applied, move.amount, move.stack, move.balance) == (True, 300, 300, 700)
    live = await storage.tables.table(table)
    assert live.stacks == {ALICE: 300}
    assert (live.state_json, live.updated_at) == ('{"hand": 0, "seated": 1}', 2.0)
    entry = (await storage.wallets.ledger(GUILD, ALICE))[0]
    assert (entry.kind, entry.amount, entry.balance_after, entry.table_id, entry.op_key) == (
        "buy_in", -300, 700, table, "t:0:in:a")
    top_up = await storage.tables.buy_in(table, ALICE, 50, key="t:0:in:a2", now=3.0)
    assert (top_up.stack, top_up.balance) == (350, 650)
    assert live.state_json == (await storage.tables.table(table)).state_json  # no snapshot given


async def test_an_overdraft_is_refused_and_its_key_stays_unused(
    storage: Storage, table: int
) -> None:
    with pytest.raises(InsufficientChips, match="holds 1000, this needs 1001"):
        await storage.tables.buy_in(table, ALICE, 1001, key="k", now=0.0, snapshot='{"x": 1}')
    live = await storage.tables.table(table)
    assert (live.stacks, live.state_json) == ({}, '{"hand": 0}')
    assert await storage.wallets.ledger(GUILD, ALICE) == []
    # the same key works once the wallet can pay
    await storage.wallets.grant(GUILD, ALICE, 1, reason="r", actor_id=1, now=0.0)
    assert (await storage.tables.buy_in(table, ALICE, 1001, key="k", now=0.0)).balance == 0


async def test_a_repeated_key_changes_nothing(storage: Storage, table: int) -> None:
    await storage.tables.buy_in(table, ALICE, 200, key="in", now=0.0, snapshot='{"v": 1}')
    again = await storage.tables.buy_in(table, ALICE, 200, key="in", now=1.0, snapshot='{"v": 2}')
    assert (again.applied, again.amount, again.stack, again.balance) == (False, 0, 200, 800)
    assert (await storage.tables.table(table)).state_json == '{"v": 1}'
    with pytest.raises(KeyConflict, match="buy_in"):
        await storage.tables.settle_hand(table, 1, [], key="in", now=1.0)


async def test_cash_out_returns_the_whole_stack_and_frees_the_seat(
    storage: Storage, table: int
) -> None:
    await storage.tables.buy_in(table, ALICE, 200, key="in", now=0.0, hand_no=1)
    out = await storage.tables.cash_out(table, ALICE, key="out", now=1.0, snapshot='{"left": 1}',
                                        hand_no=4)
    assert (out.applied, out.amount, out.stack, out.balance) == (True, 200, 0, 1000)
    assert (await storage.tables.table(table)).stacks == {}
    again = await storage.tables.cash_out(table, ALICE, key="out", now=2.0)
    assert (again.applied, again.amount, again.balance) == (False, 0, 1000)
    with pytest.raises(NotSeated):
        await storage.tables.cash_out(table, ALICE, key="out2", now=2.0)
    kinds = [(e.kind, e.amount, e.hand_no) for e in await storage.wallets.ledger(GUILD, ALICE)]
    assert kinds == [("cash_out", 200, 4), ("buy_in", -200, 1), ("start", 1000, None)]


async def _seat_three(storage: Storage, table: int) -> None:
    for user in (ALICE, BOB, CAROL):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=0.0)


async def test_settlement_moves_chips_between_stacks_with_the_snapshot(
    storage: Storage, table: int
) -> None:
    await _seat_three(storage, table)
    done = await storage.tables.settle_hand(
        table, 1, [Transfer(ALICE, BOB, 30), (CAROL, BOB, 12), (BOB, ALICE, 5)],
        key="t:1:settle", now=5.0, snapshot='{"hand": 1}',
    )
    # Alice 100-30+5, Bob 100+30+12-5, Carol 100-12
    assert done.applied
    assert done.stacks == {ALICE: 75, BOB: 137, CAROL: 88}
    live = await storage.tables.table(table)
    assert (live.stacks, live.state_json) == (done.stacks, '{"hand": 1}')
    # wallets are not touched by a settlement
    assert [await _balance(storage, u) for u in (ALICE, BOB, CAROL)] == [900, 900, 900]


async def test_changes_stay_beside_their_snapshot_until_a_whole_one_replaces_them(
    storage: Storage, table: int
) -> None:
    async def held() -> tuple[str, str | None]:
        live = await storage.tables.table(table)
        return live.state_json, live.changes_json

    await _seat_three(storage, table)
    await storage.tables.save_snapshot(table, '{"c": 1}', now=1.0, changes=True)
    assert await held() == ('{"hand": 0}', '{"c": 1}')
    await storage.tables.buy_in(table, ALICE, 1, key="more", now=2.0)  # no snapshot: kept
    assert await held() == ('{"hand": 0}', '{"c": 1}')
    for hand in (1, 2):  # PostgreSQL writes the second settlement as one statement
        await storage.tables.save_snapshot(table, f'{{"c": {hand}}}', now=3.0, changes=True)
        await storage.tables.settle_hand(table, hand, [Transfer(ALICE, BOB, 1)],
                                         key=f"t:{hand}:settle", now=4.0,
                                         snapshot=f'{{"hand": {hand}}}')
        assert await held() == (f'{{"hand": {hand}}}', None)
    await storage.tables.save_snapshot(table, '{"c": 3}', now=5.0, changes=True)
    await storage.tables.save_snapshot(table, '{"hand": 3}', now=6.0)
    assert await held() == ('{"hand": 3}', None)


async def test_two_settlements_with_one_key_pay_once(storage: Storage, table: int) -> None:
    await _seat_three(storage, table)
    first = await storage.tables.settle_hand(table, 1, [(ALICE, BOB, 40)], key="s", now=1.0)
    second = await storage.tables.settle_hand(table, 1, [(ALICE, BOB, 40)], key="s", now=1.0)
    assert (first.applied, second.applied) == (True, False)
    assert second.stacks == {ALICE: 60, BOB: 140, CAROL: 100}


async def test_transfers_apply_in_order_and_never_below_zero(
    storage: Storage, table: int
) -> None:
    await _seat_three(storage, table)
    await storage.tables.settle_hand(table, 1, [(ALICE, BOB, 100)], key="s1", now=1.0)  # Alice at 0
    # receiving first then paying on is fine (R6 order)...
    done = await storage.tables.settle_hand(table, 2, [(CAROL, ALICE, 30), (ALICE, BOB, 30)],
                                            key="s2", now=2.0)
    assert done.stacks == {ALICE: 0, BOB: 230, CAROL: 70}
    # ...paying before receiving is refused, and nothing of it happens
    with pytest.raises(InsufficientChips, match="holds 0 chips, it cannot pay 30"):
        await storage.tables.settle_hand(table, 3, [(ALICE, BOB, 30), (CAROL, ALICE, 30)],
                                         key="s3", now=3.0, snapshot='{"bad": 1}')
    live = await storage.tables.table(table)
    assert (live.stacks, live.state_json) == (done.stacks, '{"hand": 0}')
    # a transfer of zero chips (a capped payment) moves nothing
    zero = await storage.tables.settle_hand(table, 3, [(ALICE, BOB, 0)], key="s3", now=3.0)
    assert (zero.applied, zero.stacks) == (True, done.stacks)


@pytest.mark.parametrize(
    ("transfers", "error"),
    [
        ([(ALICE, ALICE, 5)], InvalidInput),
        ([(ALICE, BOB, -5)], InvalidInput),
        ([(ALICE, 0, 5)], InvalidInput),
        ([(ALICE, 42, 5)], NotSeated),
    ],
)
async def test_bad_transfers_are_refused(storage: Storage, table: int, transfers, error) -> None:
    await _seat_three(storage, table)
    with pytest.raises(error):
        await storage.tables.settle_hand(table, 1, transfers, key="s", now=1.0)
    assert (await storage.tables.table(table)).stacks == {ALICE: 100, BOB: 100, CAROL: 100}


async def test_computer_seats_are_funded_by_the_house(storage: Storage, table: int) -> None:
    bot_in = await storage.tables.buy_in(table, BOT, 500, key="bot-in", now=0.0)
    assert (bot_in.applied, bot_in.stack, bot_in.balance) == (True, 500, None)
    await storage.tables.buy_in(table, ALICE, 100, key="alice-in", now=0.0)
    await storage.tables.settle_hand(table, 1, [(BOT, ALICE, 150)], key="s", now=1.0)
    out = await storage.tables.cash_out(table, ALICE, key="alice-out", now=2.0)
    assert (out.amount, out.balance) == (250, 1150)  # Alice keeps what she won from the bot
    bot_out = await storage.tables.cash_out(table, BOT, key="bot-out", now=2.0)
    assert (bot_out.amount, bot_out.balance) == (350, None)
    house = [(e.kind, e.amount, e.balance_after) for e in await storage.wallets.ledger(GUILD, BOT)]
    assert house == [("house", -350, None), ("house", 500, None)]
    with pytest.raises(InvalidInput):
        await storage.wallets.wallet(GUILD, BOT, now=0.0)


async def test_a_table_closes_only_when_empty_and_then_refuses_money(
    storage: Storage, table: int
) -> None:
    await storage.tables.buy_in(table, ALICE, 100, key="in", now=0.0)
    await storage.tables.buy_in(table, BOB, 100, key="in-b", now=0.0)
    await storage.tables.settle_hand(table, 1, [(BOB, ALICE, 100)], key="s", now=1.0)  # Bob busts
    with pytest.raises(TableNotEmpty, match="1 player"):
        await storage.tables.close_table(table, now=2.0)
    await storage.tables.cash_out(table, ALICE, key="out", now=2.0)
    assert await storage.tables.close_table(table, now=3.0, snapshot='{"over": true}') is True
    assert await storage.tables.close_table(table, now=4.0) is False
    live = await storage.tables.table(table)
    assert (live.status, live.stacks, live.state_json) == ("closed", {}, '{"over": true}')
    assert await storage.tables.live_tables() == []
    with pytest.raises(TableClosed):
        await storage.tables.buy_in(table, ALICE, 10, key="in-again", now=5.0)
    with pytest.raises(TableClosed):
        await storage.tables.save_snapshot(table, "{}", now=5.0)
    # replaying an operation that did happen is still a quiet no-op
    assert (await storage.tables.cash_out(table, ALICE, key="out", now=5.0)).applied is False
    assert await _balance(storage, ALICE) == 1100


async def test_refund_returns_every_stack_and_closes_the_table(
    storage: Storage, table: int
) -> None:
    await _seat_three(storage, table)
    await storage.tables.buy_in(table, BOT, 400, key="bot", now=0.0)
    await storage.tables.settle_hand(table, 1, [(ALICE, BOT, 60), (BOT, CAROL, 10)], key="s",
                                     now=1.0)
    refund = await storage.tables.refund_table(table, "snapshot could not be restored", now=9.0)
    assert refund.applied
    assert refund.refunds == {BOT: 450, ALICE: 40, BOB: 100, CAROL: 110}
    assert [await _balance(storage, u) for u in (ALICE, BOB, CAROL)] == [940, 1000, 1010]
    entry = (await storage.wallets.ledger(GUILD, CAROL))[0]
    assert (entry.kind, entry.amount, entry.reason) == (
        "refund", 110, "snapshot could not be restored")
    live = await storage.tables.table(table)
    assert (live.status, live.close_reason, live.stacks) == (
        "refunded", "snapshot could not be restored", {})
    again = await storage.tables.refund_table(table, "again", now=10.0)
    assert (again.applied, again.refunds) == (False, {})
    assert await _balance(storage, ALICE) == 940


async def test_unknown_tables_are_refused(storage: Storage) -> None:
    for call in (
        storage.tables.buy_in(77, ALICE, 10, key="k", now=0.0),
        storage.tables.cash_out(77, ALICE, key="k", now=0.0),
        storage.tables.settle_hand(77, 1, [], key="k", now=0.0),
        storage.tables.save_snapshot(77, "{}", now=0.0),
        storage.tables.refund_table(77, "r", now=0.0),
        storage.tables.close_table(77, now=0.0),
        storage.tables.table(77),
    ):
        with pytest.raises(UnknownTable, match="no table #77"):
            await call
    assert await storage.wallets.ledger(GUILD, ALICE) == []


async def test_live_tables_carry_what_a_restart_needs(storage: Storage) -> None:
    first = await storage.tables.create_table(GUILD, CHANNEL, '{"a": 1}', now=1.0, thread_id=5,
                                              lobby_message_id=6)
    second = await storage.tables.create_table(GUILD, CHANNEL + 1, '{"b": 1}', now=2.0)
    await storage.tables.buy_in(second, BOB, 10, key="in", now=3.0)
    await storage.tables.set_table_messages(first, now=4.0, lobby_message_id=None,
                                            table_message_id=7)
    await storage.tables.save_snapshot(second, '{"b": 2}', now=5.0)
    one, two = await storage.tables.live_tables()
    assert (one.id, one.channel_id, one.thread_id, one.lobby_message_id, one.table_message_id,
            one.state_json, one.updated_at) == (first, CHANNEL, 5, None, 7, '{"a": 1}', 4.0)
    assert (two.id, two.state_json, two.stacks, two.created_at, two.updated_at) == (
        second, '{"b": 2}', {BOB: 10}, 2.0, 5.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.create_table(GUILD, CHANNEL, "", now=0.0),
        lambda t: t.create_table(GUILD, -3, "{}", now=0.0),
        lambda t: t.create_table(GUILD, CHANNEL, "{}", now=0.0, thread_id=0),
        lambda t: t.buy_in(1, ALICE, 0, key="k", now=0.0),
        lambda t: t.buy_in(1, ALICE, 10, key=None, now=0.0),
        lambda t: t.buy_in(1, ALICE, 10, key="k" * 201, now=0.0),
        lambda t: t.buy_in(1, ALICE, 10, key="k", now=0.0, snapshot={"not": "a string"}),
        lambda t: t.settle_hand(1, -1, [], key="k", now=0.0),
        lambda t: t.buy_in(1, ALICE, 10, key="k", now=0.0, hand_no="3"),
    ],
)
async def test_malformed_arguments_are_refused(storage: Storage, table: int, call) -> None:
    with pytest.raises(InvalidInput):
        await call(storage.tables)
    assert [t.id for t in await storage.tables.live_tables()] == [table]
    assert (await storage.tables.table(table)).stacks == {}


async def test_seated_elsewhere_sees_a_stack_at_another_open_table(
    storage: Storage, table: int
) -> None:
    other = await storage.tables.create_table(GUILD, CHANNEL + 1, '{"hand": 0}', now=0.0)
    await storage.tables.buy_in(table, ALICE, 100, key="in", now=0.0)
    assert not await storage.tables.seated_elsewhere(ALICE, table)  # only this one
    assert await storage.tables.seated_elsewhere(ALICE, other)
    assert not await storage.tables.seated_elsewhere(BOB, other)  # no seat anywhere
    await storage.tables.cash_out(table, ALICE, key="out", now=1.0)
    assert not await storage.tables.seated_elsewhere(ALICE, other)  # got up
    await storage.tables.buy_in(table, ALICE, 100, key="in2", now=2.0)
    await storage.tables.refund_table(table, "closed", now=3.0)
    assert not await storage.tables.seated_elsewhere(ALICE, other)  # the table is over
