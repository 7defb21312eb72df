"""Wallets, daily claims, grants and corrections, the ledger and the leaderboard (R12)."""

import pytest

from bot.storage import (
    DailyNotReady,
    DailyOff,
    InsufficientChips,
    InvalidInput,
    KeyConflict,
    LeaderRow,
    Storage,
    format_duration,
)
from tests.backends import Reader
from tests.storage.conftest import ADMIN, ALICE, BOB, BOT, CAROL, CHANNEL, GUILD

HOUR = 3600.0


async def test_first_touch_creates_the_wallet_with_a_start_row(storage: Storage) -> None:
    wallet = await storage.wallets.wallet(GUILD, ALICE, now=5.0)
    assert (wallet.balance, wallet.last_daily_at) == (1000, None)
    [entry] = await storage.wallets.ledger(GUILD, ALICE)
    assert (entry.kind, entry.amount, entry.balance_after, entry.created_at) == (
        "start", 1000, 1000, 5.0)
    # a second touch creates nothing more
    assert (await storage.wallets.wallet(GUILD, ALICE, now=6.0)).balance == 1000
    assert len(await storage.wallets.ledger(GUILD, ALICE)) == 1


async def test_reading_a_wallet_never_creates_it(storage: Storage) -> None:
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=0.0,
                                                 starting_chips=300)
    for guild, start in ((GUILD, 300), (GUILD + 1, 1000)):  # a server's own starting chips
        wallet = await storage.wallets.read_wallet(guild, ALICE)
        assert (wallet.balance, wallet.last_daily_at) == (start, None)
        assert await storage.wallets.ledger(guild, ALICE) == []
        assert await storage.wallets.rank_of(guild, ALICE) is None  # no wallet row either
    await storage.wallets.claim_daily(GUILD, ALICE, now=5.0)
    wallet = await storage.wallets.read_wallet(GUILD, ALICE)
    assert (wallet.balance, wallet.last_daily_at) == (500, 5.0)


async def test_wallets_are_per_guild(storage: Storage) -> None:
    await storage.wallets.grant(GUILD, ALICE, 50, reason="prize", actor_id=ADMIN, now=0.0)
    assert (await storage.wallets.wallet(GUILD, ALICE, now=0.0)).balance == 1050
    assert (await storage.wallets.wallet(GUILD + 1, ALICE, now=0.0)).balance == 1000


async def test_starting_and_daily_amounts_come_from_open(database) -> None:
    store = await Storage.open(database, starting_chips=300, daily_chips=25,
                               daily_cooldown_seconds=60)
    try:
        claim = await store.wallets.claim_daily(GUILD, ALICE, now=0.0)
        assert (claim.amount, claim.balance, claim.next_claim_at) == (25, 325, 60.0)
        assert (await store.wallets.claim_daily(GUILD, ALICE, now=60.0)).balance == 350
    finally:
        await store.close()


async def test_a_server_with_no_daily_chips_refuses_the_claim(storage: Storage) -> None:
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=0.0, daily_chips=0)
    with pytest.raises(DailyOff, match="no daily chips"):
        await storage.wallets.claim_daily(GUILD, ALICE, now=1.0)
    assert [e.kind for e in await storage.wallets.ledger(GUILD, ALICE)] == []  # nothing happened
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=2.0, daily_chips=50)
    # no cooldown ran
    assert (await storage.wallets.claim_daily(GUILD, ALICE, now=3.0)).amount == 50


async def test_daily_once_per_cooldown_and_says_how_long(storage: Storage) -> None:
    claim = await storage.wallets.claim_daily(GUILD, ALICE, now=1000.0)
    assert (claim.amount, claim.balance, claim.next_claim_at) == (200, 1200, 1000.0 + 20 * HOUR)
    # 3 h 12 min before the cooldown ends
    too_early = 1000.0 + 20 * HOUR - (3 * HOUR + 12 * 60)
    with pytest.raises(DailyNotReady) as refused:
        await storage.wallets.claim_daily(GUILD, ALICE, now=too_early)
    assert refused.value.seconds_left == 3 * HOUR + 12 * 60
    assert str(refused.value) == "You can claim again in 3 h 12 min."
    assert (await storage.wallets.wallet(GUILD, ALICE, now=too_early)).balance == 1200
    # exactly 20 hours later it works again
    assert (await storage.wallets.claim_daily(GUILD, ALICE, now=1000.0 + 20 * HOUR)).balance == 1400
    kinds = [e.kind for e in await storage.wallets.ledger(GUILD, ALICE)]
    assert kinds == ["daily", "daily", "start"]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.2, "1 s"),
        (45, "45 s"),
        (59.5, "1 min"),
        (60, "1 min"),
        (61, "2 min"),
        (3599, "1 h"),
        (3600, "1 h"),
        (3601, "1 h 1 min"),
        (3 * 3600 + 11 * 60 + 1, "3 h 12 min"),
        (20 * 3600, "20 h"),
    ],
)
def test_format_duration_rounds_up(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


async def test_grant_and_correction_are_ledgered_with_reason_and_actor(storage: Storage) -> None:
    granted = await storage.wallets.grant(GUILD, ALICE, 500, reason="tournament prize",
                                          actor_id=ADMIN, now=1.0)
    assert (granted.applied, granted.balance) == (True, 1500)
    corrected = await storage.wallets.correct(GUILD, ALICE, -300, reason="double prize",
                                              actor_id=ADMIN, now=2.0)
    assert (corrected.applied, corrected.balance) == (True, 1200)
    correction, grant, _ = await storage.wallets.ledger(GUILD, ALICE)
    assert (grant.kind, grant.amount, grant.balance_after, grant.reason, grant.actor_id) == (
        "grant", 500, 1500, "tournament prize", ADMIN)
    assert (correction.kind, correction.amount, correction.balance_after) == (
        "correction", -300, 1200)


async def test_a_keyed_grant_applies_once(storage: Storage) -> None:
    wallets = storage.wallets
    first = await wallets.grant(GUILD, ALICE, 70, reason="r", actor_id=ADMIN, now=0.0, key="g1")
    again = await wallets.grant(GUILD, ALICE, 70, reason="r", actor_id=ADMIN, now=0.0, key="g1")
    assert (first.applied, first.balance) == (True, 1070)
    assert (again.applied, again.balance) == (False, 1070)
    with pytest.raises(KeyConflict):
        await wallets.correct(GUILD, ALICE, 5, reason="r", actor_id=ADMIN, now=0.0, key="g1")
    assert (await storage.wallets.wallet(GUILD, ALICE, now=0.0)).balance == 1070


async def test_a_negative_correction_cannot_overdraw(storage: Storage) -> None:
    with pytest.raises(InsufficientChips) as refused:
        await storage.wallets.correct(GUILD, ALICE, -1001, reason="oops", actor_id=ADMIN, now=0.0)
    assert (refused.value.available, refused.value.needed) == (1000, 1001)
    assert "1000" in str(refused.value)
    # the refused call changed nothing, not even the wallet's creation
    assert await storage.wallets.ledger(GUILD, ALICE) == []
    assert (await storage.wallets.correct(GUILD, ALICE, -1000, reason="all", actor_id=ADMIN,
                                          now=0.0)).balance == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda w: w.grant(GUILD, ALICE, -5, reason="r", actor_id=ADMIN, now=0.0), "whole number"),
        (lambda w: w.grant(GUILD, ALICE, 0, reason="r", actor_id=ADMIN, now=0.0), "whole number"),
        (lambda w: w.grant(GUILD, ALICE, 2.5, reason="r", actor_id=ADMIN, now=0.0), "2.5"),
        (lambda w: w.grant(GUILD, ALICE, True, reason="r", actor_id=ADMIN, now=0.0), "True"),
        (lambda w: w.grant(GUILD, ALICE, 10**13, reason="r", actor_id=ADMIN, now=0.0), "1 to"),
        (lambda w: w.grant(GUILD, ALICE, 5, reason="  ", actor_id=ADMIN, now=0.0), "reason"),
        (lambda w: w.grant(GUILD, ALICE, 5, reason="r", actor_id=ADMIN, now=0.0, key=""), "key"),
        # PostgreSQL's text cannot hold the NUL character: refused alike on both databases
        (lambda w: w.grant(GUILD, ALICE, 5, reason="a\x00b", actor_id=ADMIN, now=0.0),
         "reason cannot hold the NUL character"),
        (lambda w: w.correct(GUILD, ALICE, -5, reason="\x00", actor_id=ADMIN, now=0.0),
         "reason cannot hold the NUL character"),
        (lambda w: w.grant(GUILD, ALICE, 5, reason="r", actor_id=ADMIN, now=0.0, key="k\x00"),
         "idempotency key cannot hold the NUL character"),
        (lambda w: w.grant(GUILD, BOT, 5, reason="r", actor_id=ADMIN, now=0.0), "no wallet"),
        (lambda w: w.grant(0, ALICE, 5, reason="r", actor_id=ADMIN, now=0.0), "guild id"),
        (lambda w: w.correct(GUILD, ALICE, 0, reason="r", actor_id=ADMIN, now=0.0), "non-zero"),
        (lambda w: w.claim_daily(GUILD, BOT, now=0.0), "no wallet"),
        (lambda w: w.wallet(GUILD, "alice", now=0.0), "player id"),
        (lambda w: w.read_wallet(GUILD, BOT), "no wallet"),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(storage: Storage, call, message) -> None:
    with pytest.raises(InvalidInput, match=message):
        await call(storage.wallets)
    assert await storage.wallets.ledger(GUILD, ALICE) == []
    assert await storage.wallets.leaderboard(GUILD) == []


async def test_leaderboard_counts_chips_at_open_tables_and_shares_ties(
    storage: Storage,
) -> None:
    for user, amount in ((ALICE, 500), (BOB, 200), (CAROL, 500)):
        await storage.wallets.grant(GUILD, user, amount, reason="seed", actor_id=ADMIN, now=0.0)
    await storage.wallets.wallet(GUILD + 1, BOB, now=0.0)  # another guild: not on this board
    table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
    await storage.tables.buy_in(table, BOB, 1000, key="bob-in", now=0.0)
    await storage.tables.buy_in(table, BOT, 5000, key="bot-in", now=0.0)  # computers are not ranked
    # Alice 1500, Carol 1500 (tie), Bob 200 in wallet + 1000 at the table = 1200
    board = await storage.wallets.leaderboard(GUILD)
    assert board == [
        LeaderRow(1, min(ALICE, CAROL), 1500, 0, 1500),
        LeaderRow(1, max(ALICE, CAROL), 1500, 0, 1500),
        LeaderRow(3, BOB, 200, 1000, 1200),
    ]
    assert await storage.wallets.leaderboard(GUILD, limit=1) == board[:1]
    assert await storage.wallets.rank_of(GUILD, BOB) == board[2]
    assert await storage.wallets.rank_of(GUILD, 12345) is None
    # chips of a closed table are back in the wallet, not counted twice
    await storage.tables.cash_out(table, BOB, key="bob-out", now=1.0)
    assert await storage.wallets.rank_of(GUILD, BOB) == LeaderRow(3, BOB, 1200, 0, 1200)


async def test_chips_the_house_lent_for_a_table_are_nobodys_own(storage: Storage) -> None:
    # A tournament's table (R13): the house lends Bob his 100,000-chip stack with the buy-in
    # and takes it back with the cash-out; it is never his, so he keeps his rank and wallet.
    for user, amount in ((ALICE, 500), (BOB, 200)):
        await storage.wallets.grant(GUILD, user, amount, reason="seed", actor_id=ADMIN, now=0.0)
    lent = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=0.0, lent=True)
    seated = await storage.tables.buy_in(lent, BOB, 100_000, key="bob-staked", now=0.0)
    assert (seated.stack, seated.balance) == (100_000, 1200)
    board = await storage.wallets.leaderboard(GUILD)
    assert [(row.user_id, row.at_tables, row.total) for row in board] == [
        (ALICE, 0, 1500), (BOB, 0, 1200)]
    back = await storage.tables.cash_out(lent, BOB, key="bob-back", now=1.0)
    assert (back.amount, back.balance) == (100_000, 1200)


async def test_a_seat_an_older_bot_bought_from_the_wallet_at_a_lent_table_goes_back_there(
        storage: Storage, database: str) -> None:
    # Before the house lent a tournament table's stacks in the buy-in itself, the tournament
    # granted the stake into the wallet and the seat was bought from it. Such a seat, still at
    # its table after an upgrade, cashes out into the wallet as then: the tournament takes the
    # stake back from there (keyed 'unstake'); a 'correction' here would take it twice.
    table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=0.0)
    await storage.wallets.grant(GUILD, BOB, 100, reason="tournament 1 stake", actor_id=ADMIN,
                                now=0.0)
    await storage.tables.buy_in(table, BOB, 100, key="bob-in", now=0.0)
    with Reader(database) as db:  # the table the older bot opened, lent
        db.write("UPDATE live_tables SET lent = 1 WHERE id = ?", (table,))
    back = await storage.tables.cash_out(table, BOB, key="bob-out", now=1.0)
    assert (back.amount, back.balance) == (100, 1100)
