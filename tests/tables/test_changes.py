"""A save within a street writes what changed since the last whole snapshot (runtime.py,
`TableState.changes`); a street's end writes the whole snapshot; a restart from the changes
resumes exactly (changes that cannot be read refund the table: test_restart.py)."""

import json

import pytest

from bot.engine.cards import Card, card_str
from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.state import TableState
from tests.storage.audit import audit

from .driver import ALICE, BOB, CHANNEL, GUILD, act, fresh_service, stored


async def _started(service: TableService) -> tuple[int, int, int]:
    """A heads-up table dealt, with who acts first and second."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", seed=5)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    return table, first, BOB if first == ALICE else ALICE


async def _row(storage: Storage, table: int) -> tuple[str, dict[str, object] | None]:
    row = await storage.tables.table(table)
    return row.state_json, None if row.changes_json is None else json.loads(row.changes_json)


async def _draft_one(service: TableService, table: int, player: int) -> Card:
    view = service.private_view(table, player)
    card = view.view.dealt[0]
    await service.set_draft(table, player, hand_no=view.hand_no, street=view.street, card=card,
                            row="bottom", seat=view.seat)
    return card


async def test_a_street_saves_its_changes_and_its_end_the_whole_snapshot(
        service: TableService, storage: Storage) -> None:
    table, first, second = await _started(service)
    dealt, changes = await _row(storage, table)
    assert changes is None  # the deal: whole
    assert json.loads(dealt)["match"]["history"]["actions"] == [{"do": "start",
                                                                  "now": 1_000_000.0}]

    card = await _draft_one(service, table, first)  # a draft click: the table's part only
    whole, changes = await _row(storage, table)
    assert whole == dealt and changes is not None
    assert (changes["from"], changes["actions"]) == (1, [])
    seat = service.private_view(table, first).seat
    drafts = changes["table"]["drafts"]  # type: ignore[index]
    assert drafts == {str(seat): [1, 1, {card_str(card): "bottom"}]}

    await act(service, table, first)  # a placement: the hand's action since the deal
    whole, changes = await _row(storage, table)
    assert whole == dealt and changes is not None
    (placed,) = changes["actions"]  # type: ignore[misc]
    assert (placed["do"], placed["seat"], len(placed["cards"])) == ("place", seat, 5)

    await act(service, table, second)  # the street's end: whole again, on the next street
    whole, changes = await _row(storage, table)
    assert changes is None
    match = json.loads(whole)["match"]
    assert (match["hand"]["street"], len(match["history"]["actions"])) == (2, 3)


async def test_a_crash_after_changes_resumes_exactly(
        service: TableService, storage: Storage, clock: FakeClock, database: str) -> None:
    table, first, second = await _started(service)
    await act(service, table, first)
    await _draft_one(service, table, second)
    assert (await _row(storage, table))[1] is not None
    memory = service._core.live(table).state.dumps()
    views = {p: service.private_view(table, p) for p in (ALICE, BOB)}
    # no close: the process dies here
    resumed, _, _ = fresh_service(storage, clock.now())
    assert await resumed.restore() == [table]
    assert resumed._core.live(table).state.dumps() == memory
    assert {p: resumed.private_view(table, p) for p in (ALICE, BOB)} == views
    await act(resumed, table, second)  # and play goes on from there
    assert resumed.private_view(table, first).street == 2
    await resumed.close()
    assert audit(database) == []


async def test_the_suites_check_refuses_changes_that_rebuild_another_table(
        service: TableService, storage: Storage) -> None:
    """The match changed other than by an action of its hand: its changes would lose that,
    and the check every test runs with (tests/conftest.py) refuses them; nothing is saved."""
    table, first, second = await _started(service)
    await _draft_one(service, table, first)
    before = await stored(storage, table)
    live = service._core.live(table)
    assert live.state.match is not None and live.state.match.hand is not None
    next(iter(live.state.match.hand.seats.values())).used += 1.0  # time spent, written by no action
    with pytest.raises(AssertionError, match="rebuild another table"):
        await _draft_one(service, table, second)
    assert await stored(storage, table) == before
    assert TableState.stored(await storage.tables.table(table)).drafts.keys() == {
        service.private_view(table, first).seat}
