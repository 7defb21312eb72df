"""Everything the bot keeps, in an SQLite file or a PostgreSQL database, through one `Storage`
object.

    storage = await Storage.open(target, starting_chips=1000, daily_chips=200,
                                 daily_cooldown_seconds=20 * 3600)
    ...
    await storage.close()

`target` is an SQLite file (a path, or `sqlite:PATH`) or a `postgresql://` URL (backend.py):
the same API, the same migrations and the same guarantees on both (sqlite.py, postgres.py).

`Storage` (repository.py) owns the database and its transactions, and holds one part per
topic, each a small class over the shared core (core.py): `storage.wallets`,
`storage.tables`, `storage.history`, `storage.ratings`, `storage.settings`,
`storage.preferences`, `storage.tournaments`, `storage.leases` (classes Wallets, Tables,
History, Ratings, ServerSettings, PlayerPreferences, Tournaments, ShardLeases: a component
that needs one topic takes that part, as the table service's group commit takes `Tables`).
A caller takes the part it uses (`storage.wallets.wallet(guild, user, now=...)`); what
concerns the whole database stays on `Storage`: `close()`, `audit()`, `copy_into(other)`,
`fence_writes(...)`, `observe_transactions(...)`, `defaults`. An operation that spans topics
is one transaction of the part that owns it: `storage.tables.settle_hand` records the hand's
history with the chips and the snapshot, `storage.history.record_match_end` updates the
ratings.

Conventions
- No discord import. Ids are plain ints: guild, channel, message and user ids are Discord
  snowflakes (> 0). A computer player is a negative user id chosen by the caller; it has no
  wallet (see "Computer seats").
- Time is an argument (`now`, epoch seconds) wherever it is stored or compared, so the table
  service can run on a fake clock.
- Snapshots (`state_json`), match options and hand histories are JSON strings, stored as given.
- Every method of a part is one transaction. Bad input or a refused operation raises a
  `StorageError` subclass whose message a player or admin can read, and changes nothing.
- SQLite: one connection is shared by every coroutine; a lock held from BEGIN to COMMIT keeps
  transactions whole (sqlite.SQLiteDatabase). WAL, foreign keys on, busy timeout 5 s,
  synchronous=FULL. PostgreSQL: a pool of connections; transactions run at once and every
  read-then-write holds its row lock (postgres.py). Numbered migrations run at open
  (migrations.py).

Wallets: `storage.wallets` (wallets.py)
- `wallet(guild, user, now=)` -> Wallet. A first touch of any wallet method creates the wallet
  with the starting chips (the guild's setting, else the default) and a 'start' ledger row.
- `read_wallet(guild, user)` -> Wallet, read only: a user with no wallet yet is shown what a
  first touch would give (the starting chips, no daily claimed); nothing is created.
- `claim_daily(guild, user, now=)` -> DailyClaim(amount, balance, next_claim_at); raises
  DailyNotReady (`.seconds_left`, message "You can claim again in 3 h 12 min.") if too early,
  DailyOff when the guild's daily chips are 0 (nothing changes).
- `grant(guild, user, amount, reason=, actor_id=, now=, key=None)` -> WalletMove(applied,
  balance); `correct(...)` the same with a signed amount (never below zero:
  InsufficientChips). With `key`, a repeat returns applied=False and does nothing.
- `ledger(guild, user, limit=20)` -> [LedgerEntry], newest first.
- `leaderboard(guild, limit=10)` -> [LeaderRow(rank, user_id, balance, at_tables, total)],
  ranked by wallet plus chips at open tables; `rank_of(guild, user)` -> LeaderRow | None.

Start-up (sqlite.py, guard.py, postgres.py): on SQLite, `Storage.open` runs quick_check
(DatabaseDamaged) and a rolled-back write (DatabaseReadOnly); with `exclusive=True` (the bot)
it holds `<database>.lock` until close (on PostgreSQL a session advisory lock), so a second
bot on the database gets DatabaseInUse. `accept="ours"` (the audit, a copy's source) or
`"ours or empty"` (a copy's destination) refuses, untouched, a database that is not the bot's
(NotOurs) instead of giving it the bot's tables; `migrate=False` (the audit) leaves the
database at its version.

Audit (audit.py): `storage.audit()` -> AuditReport(problems, totals, rows): every wallet
equals its ledger, every stack its moves, wallets + stacks + pools equal everything granted,
no idempotency key used twice (`ofc audit`); a database at an older version is audited
migrated inside a transaction that is rolled back. Copy (copy.py): `storage.copy_into(other)` ->
CopyReport: every row into an empty database, committed only if both audit alike (`ofc-bot
migrate-db`).
Backup (backup.py): `backup(target, path)` -> Backup: a consistent copy of an SQLite file
into a new file while the bot runs, through SQLite's online backup (`ofc-bot backup`); a
PostgreSQL database is refused with the pg_dump line to run instead.

Live tables and their chips: `storage.tables` (tables.py)
- `create_table(guild, channel, state_json, now=, thread_id=, lobby_message_id=,
  table_message_id=, lent=)` -> table id (`lent`: its stacks are the house's, a
  tournament's: a person's buy-in there is a 'grant' row then the 'buy_in' row, its cash-out
  or refund that row then a 'correction' row, in the one transaction, so the wallet never
  holds them). `save_snapshot(table_id, state_json, now=, changes=False)` (`changes`: the
  text is what changed since the last whole snapshot, kept beside it in `changes_json`; a
  whole snapshot, by this or by any chip movement, clears it);
  `save_snapshots([(table_id, state_json, changes), ...], now=)` saves several in one
  transaction (one fsync) and returns each entry's refusal or None.
  `set_table_messages(table_id, now=, thread_id=, lobby_message_id=, table_message_id=)`
  (omitted: kept, None: cleared).
- `live_tables()` -> [LiveTable] (open tables with snapshot, changes, message ids and `stacks`
  {user: chips}) for restart recovery; `table(table_id)` -> LiveTable, any status.
- `seated_elsewhere(user, table_id)` -> bool: a stack at another open table, of any
  process (a sharded bot's DM prompts name their table then).
- `buy_in(table_id, user, amount, key=, now=, snapshot=None, hand_no=None)` ->
  StackMove(applied, amount, stack, balance): wallet -> stack (a second buy-in tops the stack
  up). InsufficientChips if the wallet cannot pay.
- `cash_out(table_id, user, key=, now=, snapshot=None, hand_no=None)` -> StackMove: the whole
  stack back to the wallet, seat freed. NotSeated if the player has no seat. (`hand_no` is
  only recorded on the ledger row.)
- `settle_hand(table_id, hand_no, [(from_user, to_user, chips), ...], key=, now=,
  snapshot=None, hand=None)` -> Settlement(applied, stacks): transfers applied in order, no
  stack below zero (else InsufficientChips and nothing moves); `hand` (a HandRecord) records
  the hand's history in the same transaction.
- `close_table(table_id, now=, snapshot=None)` -> bool: only once every stack is empty
  (TableNotEmpty otherwise); False if already closed.
- `refund_table(table_id, reason, now=)` -> Refund(applied, {user: chips}): every stack back
  to its owner (ledger kind 'refund'), table closed as 'refunded'.
- Money operations take an idempotency `key` chosen by the caller, e.g. f"{table}:{hand}:buyin:
  {user}"; a repeat returns applied=False with the current figures and changes nothing (also
  the snapshot). Reusing a key for another kind of operation or table raises KeyConflict.
  A refused operation (error) does not use up its key.
- UnknownTable / TableClosed for a table id that does not exist / is no longer open.

Computer seats: a negative user id has no wallet. Its buy-in chips come from the house and its
cash-out or refund returns them to the house, each as a 'house' ledger row (amount = chips
entering play, negative when leaving; balance_after NULL). Chips won from or lost to humans
stay in the stacks, so at every commit:
    each wallet == sum of its ledger rows,
    each stack == sum of its stack_moves rows,
    sum(wallets) + sum(stacks) == sum(ledger rows of kinds start, daily, grant, correction, house).

History: `storage.history` (matches.py)
- `record_match_start(table_id, options_json, players, now=, practice=False)` -> match id
  (the running match's id if the table has one); `current_match(table_id)` -> id | None. A
  practice match (/ofc practice, play chips) is in the history and left out of `stats`.
- `record_hand(HandRecord(match_id, hand_no, history_json, (PlayerHandResult, ...)), now=)`
  -> bool (False: already recorded). PlayerHandResult: user_id, points, chips, fouled,
  royalties, in_fantasy, fantasy_entered, fantasy_stayed, scoops.
- `record_match_end(match_id, winners, now=, cancelled=False)` -> bool (False: already
  ended). A cancelled match (/ofc cancel) is ended but left out of /stats.
- `recent_matches(guild, user, limit=10)` -> [MatchSummary] (options, players' net points and
  chips, won, practice); `match_hands(match_id)` -> [HandHistory].
- `played_hands(guild, user, limit=25)` -> [PlayedHand] newest first; `played_hand(guild,
  user, match_id, hand_no)` -> (PlayedHand, history JSON), UnknownHand when the player did
  not play that hand in that guild (/ofc review).
- `table_results(table_id)` -> {user: (points, chips)} over the hands played at a table (a
  tournament's standings).
- `stats(guild, user)` -> PlayerStats over the finished matches (not running, not
  cancelled, not practice): hands, net points/chips, matches and wins (win_rate), fouls
  (foul_rate), Fantasyland entries (fantasy_entry_rate, per hand outside FL) and stays
  (fantasy_stay_rate, per hand in FL), scoops, best_royalties. `server_stats(guild)`: every
  person's hands of the server together; `recent_nets(guild, user, limit=30)`: the net
  points of their latest finished matches, oldest first.

Skill ratings by season: `storage.ratings` (ratings.py, bot/ratings.py)
- A finished match (not cancelled, not practice, two or more players) updates its people's
  ratings in its server's open season inside `storage.history.record_match_end`
  (`computers`: {seat id: level}, each at its level's fixed rating), and a finished
  tournament its people's by their places; a server's first rated match opens season 1.
- `start_season(guild, name, now=, key=None)` -> (Season, started): the open one closes,
  everyone starts again; a repeated `key` starts nothing (that start's season, False).
- `seasons(guild)` -> [Season]; `rating_board(guild, season=None, limit=10)` -> (Season |
  None, [RatingRow]) (`limit=None`: every line); `rating_of(guild, user, season=None)` ->
  (RatingRow | None, how many are rated).
- `rating_changes(match_id)` -> [RatingChange]; `season_results(season_id)` -> [(match id,
  [RatingChange])] in rating order, and `season_ratings(season_id)`: to recompute and check.

Guild settings: `storage.settings` (guild_settings.py)
- `guild_settings(guild)` -> GuildSettings(starting_chips, daily_chips, table_options,
  language); `update_guild_settings(guild, actor_id=, now=, starting_chips=, daily_chips=,
  table_options=, language=)` (None: back to default; validate options with TableRules
  first, or give table_options as a function of the stored options, run and checked under
  the settings' lock so that concurrent changes merge; language None: the server's
  preferred locale);
  `settings_audit(guild, limit=20)` -> [SettingsChange].

Player preferences: `storage.preferences` (preferences.py, the same in every server)
- `preferences(user)` -> Preferences(four_colour, controls "dm" | "channel", locale);
  `set_preferences(user, now=, four_colour=, controls=)` -> the new Preferences;
  `set_locales([(user, locale, now), ...])`: the language each last used the bot in, in
  one transaction.

Tournaments: `storage.tournaments` (tournaments.py, RULES.md R13)
- `create_tournament(guild, channel, state_json, now=)` -> id; `save_tournament(id,
  state_json, now=, status=None)`; `tournament(id)` / `open_tournaments()` ->
  TournamentRecord (snapshot, pool, status).
- `tournament_move(id, user, amount, kind, key=, now=, snapshot=None)` -> TournamentMove:
  'buy_in' (wallet -> pool), 'prize' and 'refund' (pool -> wallet), 'stake' / 'unstake' (a
  table's chips lent through the wallet by an older bot, and taken back); computers through
  'house' rows. `moved(key)`: whether a movement's key was applied. Each pool
  change is a pool_moves row naming its ledger row; sum(wallets) + sum(stacks) + sum(open pools) ==
  sum(external rows).
- `record_sanctions(id, [(key, SanctionRecord)], now=, snapshot=)` (those given together,
  in one transaction), `sanctions(id)`,
  `member_sanctions(guild, user, limit=)` (a member's, newest first, for /ofc history).
- `save_tournament(..., status="finished", results=[TournamentResult])` keeps each person's
  final place, prize and warnings; `member_tournaments(guild, user, limit=)` lists them
  (newest first); `last_tournament(channel, status=)` -> the channel's newest record of that
  status, or None.

Shard leases: `storage.leases` (leases.py, for sharded processes): one owning process per
gateway shard.
- `claim_shards(owner, shard_count, shard_ids, now=, seconds=, address=None)` -> [ShardLease]:
  all or none in one transaction; ShardsTaken when another owner's lease on one of them (or
  on a shard of another count) has not expired. `renew_shards(owner, ids, now=, seconds=)` ->
  the new expiry, LeaseLost when one passed to another owner; `release_shards(owner)`;
  `shard_leases()`. `storage.tables.live_tables(shards=)` and
  `storage.tournaments.open_tournaments(shards=)` keep the rows of the servers on a
  ShardPlan's shards (bot/sharding.py).
- Fencing (fencing.py): each claim's leases carry a token greater than every earlier
  claim's (`ShardLease.token`). After `storage.fence_writes(shard_count, token, refused)`,
  every write of a table's state or chips (and a tournament's) checks in its transaction that
  its shard's lease still carries that token, else raises WriteFenced (a LeaseLost; nothing
  written) and tells `refused(reason)`.
"""

from bot.storage.audit import AuditReport
from bot.storage.backend import describe, is_postgres
from bot.storage.copy import CopyRefused, CopyReport
from bot.storage.core import UNCHANGED, Unchanged
from bot.storage.errors import (
    DailyNotReady,
    DailyOff,
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseReadOnly,
    InsufficientChips,
    InvalidInput,
    KeyConflict,
    LeaseLost,
    NotSeated,
    SchemaTooNew,
    ShardsTaken,
    StorageError,
    TableClosed,
    TableNotEmpty,
    UnknownHand,
    UnknownMatch,
    UnknownTable,
    WriteFenced,
    format_duration,
)
from bot.storage.guild_settings import ServerSettings
from bot.storage.leases import ShardLeases
from bot.storage.matches import History
from bot.storage.migrations import LATEST as SCHEMA_VERSION
from bot.storage.preferences import PlayerPreferences
from bot.storage.ratings import Ratings
from bot.storage.records import (
    DailyClaim,
    GuildSettings,
    HandHistory,
    HandRecord,
    LeaderRow,
    LedgerEntry,
    LiveTable,
    MatchPlayer,
    MatchSummary,
    PlayedHand,
    PlayerHandResult,
    PlayerStats,
    Preferences,
    RatingChange,
    RatingRow,
    Refund,
    SanctionRecord,
    Season,
    SettingsChange,
    Settlement,
    ShardLease,
    StackMove,
    TournamentMove,
    TournamentRecord,
    TournamentResult,
    Transfer,
    Wallet,
    WalletMove,
)
from bot.storage.repository import Storage
from bot.storage.tables import Tables
from bot.storage.tournaments import Tournaments, UnknownTournament
from bot.storage.validate import MAX_CHIPS
from bot.storage.wallets import Wallets

__all__ = [
    "MAX_CHIPS",
    "SCHEMA_VERSION",
    "UNCHANGED",
    "AuditReport",
    "CopyRefused",
    "CopyReport",
    "DailyClaim",
    "DailyNotReady",
    "DailyOff",
    "DatabaseDamaged",
    "DatabaseInUse",
    "DatabaseReadOnly",
    "GuildSettings",
    "HandHistory",
    "HandRecord",
    "History",
    "InsufficientChips",
    "InvalidInput",
    "KeyConflict",
    "LeaderRow",
    "LeaseLost",
    "LedgerEntry",
    "LiveTable",
    "MatchPlayer",
    "MatchSummary",
    "NotSeated",
    "PlayedHand",
    "PlayerHandResult",
    "PlayerPreferences",
    "PlayerStats",
    "Preferences",
    "RatingChange",
    "RatingRow",
    "Ratings",
    "Refund",
    "SanctionRecord",
    "SchemaTooNew",
    "Season",
    "ServerSettings",
    "SettingsChange",
    "Settlement",
    "ShardLease",
    "ShardLeases",
    "ShardsTaken",
    "StackMove",
    "Storage",
    "StorageError",
    "TableClosed",
    "TableNotEmpty",
    "Tables",
    "TournamentMove",
    "TournamentRecord",
    "TournamentResult",
    "Tournaments",
    "Transfer",
    "Unchanged",
    "UnknownHand",
    "UnknownMatch",
    "UnknownTable",
    "UnknownTournament",
    "Wallet",
    "WalletMove",
    "Wallets",
    "WriteFenced",
    "describe",
    "format_duration",
    "is_postgres",
]
