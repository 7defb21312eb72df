"""Tournament storage: the prize pool moves only with keyed ledger rows (RULES.md R13)."""

import pytest

from bot.storage import SanctionRecord, Storage, UnknownTournament
from tests.backends import Reader
from tests.storage.audit import audit
from tests.storage.conftest import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD


async def test_buy_ins_prizes_refunds_and_stakes_keep_every_chip(database: str) -> None:
    storage = await Storage.open(database)
    tid = await storage.tournaments.create_tournament(GUILD, CHANNEL, '{"v": 1}', now=0.0)
    for user in (ALICE, BOB, BOT):
        move = await storage.tournaments.tournament_move(tid, user, 100, "buy_in", key=f"in:{user}",
                                                         now=1.0, snapshot='{"v": 2}')
        assert move.applied
    again = await storage.tournaments.tournament_move(tid, ALICE, 100, "buy_in", key=f"in:{ALICE}",
                                                      now=2.0)
    assert not again.applied and again.pool == 300
    assert (await storage.wallets.wallet(GUILD, ALICE, now=2.0)).balance == 900
    # a table's stake is lent by the house and taken back, at most what the wallet holds
    await storage.tournaments.tournament_move(tid, ALICE, 200, "stake", key="stake:a", now=3.0)
    await storage.wallets.grant(GUILD, ALICE, 1, reason="x", actor_id=BOB, now=3.0)
    table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=3.0)
    await storage.tables.buy_in(table, ALICE, 1100, key="t:a", now=3.0)
    await storage.tables.buy_in(table, BOB, 100, key="t:b", now=3.0)
    await storage.tables.settle_hand(table, 1, [(ALICE, BOB, 50)], key="t:s", now=4.0)
    await storage.tables.cash_out(table, ALICE, key="t:oa", now=5.0)
    await storage.tables.cash_out(table, BOB, key="t:ob", now=5.0)
    await storage.tables.close_table(table, now=5.0)
    back = await storage.tournaments.tournament_move(tid, ALICE, 200, "unstake", key="unstake:a",
                                                     now=6.0)
    assert back.amount == 200
    assert audit(database) == []
    await storage.tournaments.tournament_move(tid, BOB, 200, "prize", key="prize:b", now=7.0)
    await storage.tournaments.tournament_move(tid, BOT, 100, "refund", key="refund:bot", now=7.0)
    await storage.tournaments.save_tournament(tid, '{"v": 3}', now=8.0, status="finished")
    record = await storage.tournaments.tournament(tid)
    assert (record.pool, record.status, record.state_json) == (0, "finished", '{"v": 3}')
    assert await storage.tournaments.open_tournaments() == []
    await storage.close()
    assert audit(database) == []


async def test_sanctions_are_recorded_once_with_the_snapshot(storage: Storage) -> None:
    tid = await storage.tournaments.create_tournament(GUILD, CHANNEL, "{}", now=0.0)
    warning = SanctionRecord(ALICE, "warning", 25, "slow play", 1, BOB, False)
    penalty = SanctionRecord(ALICE, "penalty", 10, "time", 1, 0, False)
    tournaments = storage.tournaments
    assert await tournaments.record_sanctions(tid, [("w1", warning)], now=1.0,
                                              snapshot='{"w": 1}') == 1
    assert await tournaments.record_sanctions(tid, [("w1", warning)], now=1.0,
                                              snapshot="{}") == 0
    assert (await storage.tournaments.tournament(tid)).state_json == '{"w": 1}'
    # Given together (a time penalty): both rows and their snapshot, a repeat left out.
    assert await tournaments.record_sanctions(tid, [("p2", penalty), ("w1", warning)], now=2.0,
                                              snapshot='{"w": 2}') == 1
    assert await storage.tournaments.sanctions(tid) == [
        SanctionRecord(ALICE, "warning", 25, "slow play", 1, BOB, False, 1.0, tid),
        SanctionRecord(ALICE, "penalty", 10, "time", 1, 0, False, 2.0, tid)]
    assert (await storage.tournaments.tournament(tid)).state_json == '{"w": 2}'
    with pytest.raises(UnknownTournament):
        await storage.tournaments.tournament(tid + 1)


async def test_a_pool_that_does_not_match_its_ledger_is_found(database: str) -> None:
    storage = await Storage.open(database)
    tid = await storage.tournaments.create_tournament(GUILD, CHANNEL, "{}", now=0.0)
    await storage.tournaments.tournament_move(tid, ALICE, 100, "buy_in", key="in", now=1.0)
    await storage.close()
    with Reader(database) as query:
        query.write("UPDATE tournaments SET pool = pool + 5")
    # Alice's 1,000 less the 100 in the pool, which now says 105.
    assert audit(database) == [
        f"tournament {tid}: pool 105, its moves sum to 100, their ledger rows to 100",
        "wallets 900 + stacks 0 + pools 105 != granted 1000"]


async def test_a_members_sanctions_in_this_server_newest_first(storage: Storage) -> None:
    here = await storage.tournaments.create_tournament(GUILD, CHANNEL, "{}", now=0.0)
    elsewhere = await storage.tournaments.create_tournament(GUILD + 1, CHANNEL, "{}", now=0.0)
    given = [(here, ALICE, "penalty", 10, "time"), (here, BOB, "warning", 0, "slow"),
             (elsewhere, ALICE, "warning", 0, "other server"), (here, ALICE, "warning", 0,
                                                               "mucked open")]
    for n, (tid, user, kind, points, reason) in enumerate(given):
        await storage.tournaments.record_sanctions(
            tid, [(f"s{n}", SanctionRecord(user, kind, points, reason, 1, BOB, False))],
            now=float(n), snapshot="{}")
    mine = await storage.tournaments.member_sanctions(GUILD, ALICE)
    assert [(s.tournament_id, s.kind, s.points, s.reason, s.created_at) for s in mine] == [
        (here, "warning", 0, "mucked open", 3.0), (here, "penalty", 10, "time", 0.0)]
    assert len(await storage.tournaments.member_sanctions(GUILD, ALICE, limit=1)) == 1
    assert await storage.tournaments.member_sanctions(GUILD, CAROL) == []


async def test_the_audit_finds_a_tournament_the_house_paid_into(database: str) -> None:
    """The mint as it was: a computer's buy-in from the house, the whole pool to a person.
    Every wallet still equals its ledger, but the house's net over the tournament is not
    zero: `ofc audit` names it once the tournament is over."""
    storage = await Storage.open(database)
    tid = await storage.tournaments.create_tournament(GUILD, CHANNEL, '{"tables": []}', now=0.0)
    move = storage.tournaments.tournament_move
    await move(tid, ALICE, 100, "buy_in", key=f"T{tid}:join:a", now=1.0)
    await move(tid, -1, 100, "buy_in", key=f"T{tid}:join:c", now=1.0)
    await move(tid, ALICE, 200, "prize", key=f"T{tid}:prize:a", now=2.0)
    assert (await storage.audit()).ok  # still open: not yet judged
    await storage.tournaments.save_tournament(tid, '{"tables": []}', now=3.0, status="finished")
    report = await storage.audit()
    assert report.problems == (f"house: tournament {tid} is over, and the house gave 100 "
                               "chips in it",)
    await storage.close()
