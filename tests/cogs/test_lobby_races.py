"""Lobby commands racing what the table is doing (cogs/tables/lobby.py over the real table
service, on both backends): the answer fits what happened, whichever came first."""

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.ai.players import Settings, decide
from bot.storage import Storage
from bot.tables import FakeClock, TableService
from cogs.common.client import Interaction
from cogs.tables.lobby import ACTIONS
from tests.backends import database as database  # each test on both backends
from tests.tables.conftest import recorder as recorder
from tests.tables.conftest import service as service
from tests.tables.driver import ALICE, BOB, CHANNEL, GUILD, START, act


def clicked_by(service: TableService, member: int, name: str) -> Interaction:
    """What the lobby's actions read of an interaction: the service, the member, the
    language."""
    return cast(Interaction, SimpleNamespace(
        client=SimpleNamespace(tables=service),
        user=SimpleNamespace(id=member, display_name=name),
        locale=discord.Locale.american_english))


SEED = 2  # deals, and a button that has Bob act before Alice on each street


def placed(service: TableService, table: int, player: int) -> int:
    return sum(map(len, service.private_view(table, player).view.board.rows))


async def test_join_queued_behind_the_hand_that_ends_a_leave_sits_down_again(
        service: TableService, storage: Storage, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R11: Bob asked to get up after the hand, then presses Join to take that back while
    the hand's last placement waits for the table. Join saw him leaving; by its turn the
    hand is over and his chips went home. He is sat down again with a new buy-in and told
    so, not told 'You are not leaving this table.' with his click lost."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {
        "seats": 2, "format": "cash", "fantasy": "off", "buy_in": 200}, seed=SEED)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.leave(table, BOB)  # mid-hand: he gets up when it ends
    for _ in range(20):  # to Alice's last street, Bob done with the hand
        if placed(service, table, BOB) == 13 and service.private_view(table, ALICE).to_act:
            break
        for player in (ALICE, BOB):
            state = service.private_view(table, player)
            if state.to_act and not (player == ALICE and state.street == 5):
                await act(service, table, player)
    last = service.private_view(table, ALICE)
    assert last.to_act and last.street == 5 and placed(service, table, BOB) == 13
    assert service.lobby(table).leaving == (BOB,)
    saving, go = asyncio.Event(), asyncio.Event()
    save = storage.tables.save_snapshot

    async def held(*args: Any, **kwargs: Any) -> Any:
        saving.set()
        await go.wait()
        return await save(*args, **kwargs)

    monkeypatch.setattr(storage.tables, "save_snapshot", held)
    card = next(c for c in last.view.dealt)
    drafting = asyncio.create_task(service.set_draft(
        table, ALICE, hand_no=last.hand_no, street=last.street, card=card, row="discard"))
    await saving.wait()  # a draft of Alice's is being saved: it holds the table's lock
    choice = decide(last.view, Settings(level="easy"))
    placing = asyncio.create_task(service.place(table, ALICE, choice, hand_no=last.hand_no,
                                                street=last.street))
    await asyncio.sleep(0)  # the hand's last placement waits for the lock
    joining = asyncio.ensure_future(ACTIONS["join"](clicked_by(service, BOB, "Bob"), table))
    await asyncio.sleep(0)  # Join read that Bob was leaving, and waits behind it
    go.set()
    await drafting
    await placing
    answer = await joining
    assert str(answer) == "You sat down with 200 chips from your wallet."
    assert BOB in service.seats(table).values()
    stacks = (await storage.tables.table(table)).stacks
    wallets = [(await storage.wallets.wallet(GUILD, p, now=clock.now())).balance
               for p in (ALICE, BOB)]
    assert stacks[BOB] == 200 and sum(wallets) + sum(stacks.values()) == 2 * START
