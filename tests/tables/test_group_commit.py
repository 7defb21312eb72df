"""Group commit (fewer fsyncs): the snapshot-only saves of many tables share one transaction
(bot/tables/commits.py, storage.tables.save_snapshots); chip movements keep their own."""

import asyncio
import sqlite3

from bot.storage import Storage, TableClosed
from bot.tables import FakeClock, TableService
from tests.storage.audit import audit

from .driver import GUILD, START, fresh_service, stored
from .test_restart import Flaky

TABLES = 6


async def started(service: TableService) -> list[tuple[int, int]]:
    """TABLES heads-up tables dealt, each in its own channel: (table, a player to act)."""
    out = []
    for n in range(TABLES):
        a, b = 500 + 2 * n, 501 + 2 * n
        table = (await service.create_table(GUILD, 900 + n, a, "a", seed=n)).table_id
        await service.join(table, b, "b")
        await service.start(table, a)
        out.append((table, next(p for p in (a, b) if service.private_view(table, p).to_act)))
    return out


async def draft_all(service: TableService, tables: list[tuple[int, int]]) -> list[object]:
    """Every table's player puts one card in a draft, all at once (snapshot-only saves)."""
    async def one(table: int, player: int) -> object:
        state = service.private_view(table, player)
        return await service.set_draft(table, player, hand_no=state.hand_no,
                                       street=state.street, card=state.view.dealt[0],
                                       row="bottom")

    return await asyncio.gather(*(one(t, p) for t, p in tables), return_exceptions=True)


async def test_save_snapshots_saves_several_in_one_go_and_names_the_refused(
        storage: Storage) -> None:
    tables = [await storage.tables.create_table(GUILD, 700 + n, "{}", now=1.0) for n in range(3)]
    await storage.tables.close_table(tables[1], now=2.0)
    found = await storage.tables.save_snapshots(
        [(tables[0], '{"a": 1}', False), (tables[1], '{"b": 2}', False),
         (tables[2], '{"c": 3}', True), (tables[2] + 99, '{"d": 4}', False)], now=3.0)
    assert found[0] is None and found[2] is None
    assert isinstance(found[1], TableClosed) and found[3] is not None
    saved = [await storage.tables.table(t) for t in (tables[0], tables[2])]
    # changes are kept beside the whole snapshot, which stays; a whole one replaces both
    assert [(t.state_json, t.changes_json) for t in saved] == [
        ('{"a": 1}', None), ("{}", '{"c": 3}')]
    await storage.tables.save_snapshots([(tables[2], '{"e": 5}', False)], now=4.0)
    again = await storage.tables.table(tables[2])
    assert (again.state_json, again.changes_json, again.updated_at) == ('{"e": 5}', None, 4.0)


async def test_tables_acting_together_share_a_transaction_and_every_snapshot_is_saved(
        storage: Storage, clock: FakeClock) -> None:
    service, _, _ = fresh_service(storage, clock.now())
    tables = await started(service)
    saves = service._core.saves
    before = saves.transactions
    results = await draft_all(service, tables)
    assert not [r for r in results if isinstance(r, BaseException)]
    assert saves.transactions - before < TABLES  # grouped (1 or 2 on any machine)
    for table, _ in tables:  # what storage holds is what each table holds in memory
        assert await stored(storage, table) == service._core.tables[table].state.dumps()
        assert service._core.tables[table].state.drafts
    await service.close()


async def test_a_failed_group_commit_loses_no_chip_movement(
        storage: Storage, clock: FakeClock, database: str) -> None:
    service, _, _ = fresh_service(storage, clock.now())
    tables = await started(service)
    lobby = (await service.create_table(GUILD, 999, 600, "host")).table_id
    snapshots = {t: await stored(storage, t) for t, _ in tables}
    Flaky(storage.tables, "save_snapshots")  # the grouped transaction dies (a crash, a disk error)

    drafts, joined = await asyncio.gather(draft_all(service, tables),
                                          service.join(lobby, 601, "buyer"))
    assert all(isinstance(r, sqlite3.OperationalError) for r in drafts)
    assert [s.player_id for s in joined.seats] == [600, 601]  # its own transaction
    for table, _ in tables:  # the drafts rolled back, in memory as on disk
        assert await stored(storage, table) == snapshots[table]
        assert not service._core.tables[table].state.drafts
    await service.close()
    assert audit(database) == []
    # After a crash: a fresh process on the same file has the buy-in, with its snapshot.
    again = await Storage.open(database)
    try:
        service, _, _ = fresh_service(again, clock.now())
        assert lobby in await service.restore()
        assert [s.player_id for s in service.lobby(lobby).seats] == [600, 601]
        buyer = await again.wallets.wallet(GUILD, 601, now=clock.now())
        assert buyer.balance == START - 200  # the default buy-in (R12) left the wallet
        assert (await again.tables.table(lobby)).stacks == {600: 200, 601: 200}
        await service.close()
    finally:
        await again.close()
