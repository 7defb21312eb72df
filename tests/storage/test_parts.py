"""`Storage` by topic: each part shows its own topic only, and an operation that spans topics
(chips, the table's snapshot, the hand's history) is still one transaction."""

from typing import Any

import pytest

from bot.storage import HandRecord, PlayerHandResult, Storage
from bot.storage import tables as tables_module

from .conftest import ALICE, BOB, GUILD

TOPICS = {
    "wallets": {"wallet", "read_wallet", "claim_daily", "grant", "correct", "ledger",
                "leaderboard", "rank_of"},
    "tables": {"create_table", "save_snapshot", "save_snapshots", "set_table_messages", "table",
               "live_tables", "buy_in", "cash_out", "settle_hand", "close_table",
               "refund_table", "seated_elsewhere"},
    "history": {"record_match_start", "current_match", "record_hand", "record_match_end",
                "recent_matches", "played_hands", "played_hand", "match_hands", "stats",
                "server_stats", "recent_nets", "table_results"},
    "ratings": {"seasons", "start_season", "rating_board", "rating_of", "rating_changes",
                "season_results", "season_ratings"},
    "settings": {"guild_settings", "update_guild_settings", "settings_audit"},
    "preferences": {"preferences", "set_preferences", "set_locales", "monotonic"},
    "tournaments": {"create_tournament", "save_tournament", "member_tournaments",
                    "last_tournament", "tournament", "open_tournaments", "tournament_move",
                    "record_sanctions", "sanctions", "member_sanctions", "moved"},
    "leases": {"claim_shards", "renew_shards", "release_shards", "shard_leases"},
}
WHOLE_DATABASE = {"open", "close", "defaults", "observe_transactions", "fence_writes", "audit",
                  "copy_into"}


def public(thing: object) -> set[str]:
    return {name for name in dir(thing) if not name.startswith("_")}


def test_each_part_shows_its_topic_and_storage_only_the_whole_database(
        storage: Storage) -> None:
    for topic, names in TOPICS.items():
        assert public(getattr(storage, topic)) == names, topic
    assert public(storage) == WHOLE_DATABASE | set(TOPICS)
    # the core's steps (wallet movements, keys, the fence) are no part's to show
    assert not public(storage.tables) & {"move_wallet", "claim_key", "fenced", "db"}


async def _books(storage: Storage, table: int) -> tuple[Any, ...]:
    """Everything a chip movement at `table` writes: wallets, stacks, snapshot, ledger,
    hands."""
    row = await storage.tables.table(table)
    match = await storage.history.current_match(table)
    return (
        [(await storage.wallets.wallet(GUILD, user, now=0.0)).balance for user in (ALICE, BOB)],
        row.stacks, row.state_json,
        [len(await storage.wallets.ledger(GUILD, user)) for user in (ALICE, BOB)],
        [] if match is None else await storage.history.match_hands(match),
    )


def _fail_after(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make tables.py's step `name` do its writes, then fail (a disk error), mid-transaction."""
    real = getattr(tables_module, name)

    async def written_then_failed(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)
        raise OSError("disk I/O error")

    monkeypatch.setattr(tables_module, name, written_then_failed)


@pytest.mark.parametrize("operation", ["buy_in", "cash_out", "settle_hand"])
async def test_chips_snapshot_and_hand_commit_together_or_not_at_all(
        storage: Storage, table: int, operation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in:{user}", now=0.0,
                                    snapshot=f'{{"seated": {user}}}')
    match = await storage.history.record_match_start(table, "{}", [ALICE, BOB], now=0.0)
    hand = HandRecord(match, 1, '{"h": 1}', (PlayerHandResult(ALICE, 5, 5),
                                            PlayerHandResult(BOB, -5, -5)))
    calls = {
        "buy_in": lambda: storage.tables.buy_in(table, ALICE, 50, key="k", now=1.0,
                                                snapshot='{"after": 1}'),
        "cash_out": lambda: storage.tables.cash_out(table, ALICE, key="k", now=1.0,
                                                    snapshot='{"after": 1}'),
        "settle_hand": lambda: storage.tables.settle_hand(table, 1, [(BOB, ALICE, 5)], key="k",
                                                          now=1.0, snapshot='{"after": 1}',
                                                          hand=hand),
    }
    before = await _books(storage, table)
    # the last step of each: the snapshot after the chips, the hand after the snapshot
    _fail_after(monkeypatch, "insert_hand" if operation == "settle_hand" else "_save_state")
    with pytest.raises(OSError):
        await calls[operation]()
    assert await _books(storage, table) == before
    monkeypatch.undo()
    assert (await calls[operation]()).applied  # the key was not used up
    after = await _books(storage, table)
    assert after[2] == '{"after": 1}' and after[1] != before[1]
    assert len(after[4]) == (1 if operation == "settle_hand" else 0)
