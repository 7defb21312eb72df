"""Numbered schema migrations, applied in order at start-up and recorded in `schema_version`.

Migration N (1-based) is `MIGRATIONS[N - 1]`. Never edit a released migration: append a new one.
A database whose version is higher than `LATEST` was written by a newer bot and is refused.

Each migration is written once, in SQLite's dialect, and PostgreSQL gets the same numbered
migration through `postgres_ddl`: 64-bit integers (SQLite's INTEGER is 64 bits, PostgreSQL's
32), doubles for REAL, an identity column for `INTEGER PRIMARY KEY` (SQLite's rowid alias,
numbered by the database when not given), and no `WITHOUT ROWID`. A migration must keep to
what these rules translate; tests/storage/test_migrations.py applies every one on both and
compares the columns.
"""

import re
import sqlite3
import time
from collections.abc import Iterator

from bot.storage.backend import Connection
from bot.storage.errors import SchemaTooNew

# 1: money. Wallets hold human chips (user_id > 0); the ledger has one row per wallet movement
# and a 'house' row (no wallet, balance_after NULL) per chip a computer seat (user_id < 0)
# brings to or takes from a table. Table stacks live in table_seats, and every stack change
# is a stack_moves row, so wallets and stacks can each be audited against their own history.
_MONEY = """
CREATE TABLE live_tables (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    state_json TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'refunded')),
    close_reason TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX live_tables_by_status ON live_tables (status, id);

CREATE TABLE wallets (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL CHECK (user_id > 0),
    balance INTEGER NOT NULL CHECK (balance >= 0),
    last_daily_at REAL,
    created_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE operations (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    table_id INTEGER REFERENCES live_tables (id),
    created_at REAL NOT NULL
) WITHOUT ROWID;

CREATE TABLE ledger (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    balance_after INTEGER,
    kind TEXT NOT NULL CHECK (kind IN (
        'start', 'daily', 'grant', 'correction', 'buy_in', 'cash_out', 'refund', 'house')),
    reason TEXT NOT NULL DEFAULT '',
    actor_id INTEGER,
    table_id INTEGER REFERENCES live_tables (id),
    hand_no INTEGER,
    op_key TEXT REFERENCES operations (key),
    created_at REAL NOT NULL,
    CHECK ((kind = 'house') = (balance_after IS NULL)),
    CHECK ((kind = 'house') = (user_id < 0))
);
CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id, id);

CREATE TABLE table_seats (
    table_id INTEGER NOT NULL REFERENCES live_tables (id),
    user_id INTEGER NOT NULL CHECK (user_id <> 0),
    stack INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

CREATE TABLE stack_moves (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES live_tables (id),
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    stack_after INTEGER NOT NULL CHECK (stack_after >= 0),
    kind TEXT NOT NULL CHECK (kind IN ('buy_in', 'cash_out', 'refund', 'settle')),
    counterparty INTEGER,
    hand_no INTEGER,
    op_key TEXT REFERENCES operations (key),
    created_at REAL NOT NULL
);
"""

# 2: history for /history and /stats. A table runs at most one unfinished match at a time.
_HISTORY = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES live_tables (id),
    guild_id INTEGER NOT NULL,
    options_json TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL
);
CREATE UNIQUE INDEX matches_running ON matches (table_id) WHERE ended_at IS NULL;
CREATE INDEX matches_by_guild ON matches (guild_id, id);

CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    won INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;
CREATE INDEX match_players_by_user ON match_players (user_id, match_id);

CREATE TABLE hands (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    hand_no INTEGER NOT NULL,
    history_json TEXT NOT NULL,
    played_at REAL NOT NULL,
    PRIMARY KEY (match_id, hand_no)
);

CREATE TABLE hand_results (
    match_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    points INTEGER NOT NULL,
    chips INTEGER NOT NULL,
    fouled INTEGER NOT NULL CHECK (fouled IN (0, 1)),
    royalties INTEGER NOT NULL CHECK (royalties >= 0),
    in_fantasy INTEGER NOT NULL CHECK (in_fantasy IN (0, 1)),
    fantasy_entered INTEGER NOT NULL CHECK (fantasy_entered IN (0, 1)),
    fantasy_stayed INTEGER NOT NULL CHECK (fantasy_stayed IN (0, 1)),
    scoops INTEGER NOT NULL CHECK (scoops >= 0),
    PRIMARY KEY (match_id, hand_no, user_id),
    FOREIGN KEY (match_id, hand_no) REFERENCES hands (match_id, hand_no),
    FOREIGN KEY (match_id, user_id) REFERENCES match_players (match_id, user_id)
) WITHOUT ROWID;
CREATE INDEX hand_results_by_user ON hand_results (user_id, match_id);
"""

# 3: per-guild overrides (NULL = the bot's default) and who changed what, when.
_GUILD_SETTINGS = """
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    starting_chips INTEGER CHECK (starting_chips >= 0),
    daily_chips INTEGER CHECK (daily_chips >= 0),
    table_options_json TEXT NOT NULL DEFAULT '{}',
    updated_at REAL NOT NULL
);

CREATE TABLE guild_settings_audit (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    actor_id INTEGER NOT NULL,
    field TEXT NOT NULL,
    old_json TEXT NOT NULL,
    new_json TEXT NOT NULL,
    changed_at REAL NOT NULL
);
CREATE INDEX guild_settings_audit_by_guild ON guild_settings_audit (guild_id, id);
"""

# 4: a match closed by /ofc cancel is ended but cancelled: /stats counts only the finished ones.
_CANCELLED = """
ALTER TABLE matches ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled IN (0, 1));
"""

# 5: each player's preferences (`/ofc preferences`), the same in every server: the
# four-colour deck in their images, and where their controls come (a DM, or "My hand" in
# the table's channel).
_PLAYER_PREFERENCES = """
CREATE TABLE player_preferences (
    user_id INTEGER PRIMARY KEY CHECK (user_id > 0),
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    controls TEXT NOT NULL DEFAULT 'dm' CHECK (controls IN ('dm', 'channel')),
    updated_at REAL NOT NULL
);
"""

# 6: shootout tournaments (RULES.md R13). The state (entries, levels, tables) is a JSON snapshot;
# the prize pool is a column moved only with its pool_moves rows, each naming the ledger row
# on the other side (a buy-in from a wallet or the house, a prize, a refund), so the pool is
# the sum of its moves. Warnings and penalties are rows of their own for standings and history.
_TOURNAMENTS = """
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    state_json TEXT NOT NULL,
    pool INTEGER NOT NULL DEFAULT 0 CHECK (pool >= 0),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'cancelled')),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, id);

CREATE TABLE tournament_sanctions (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('warning', 'penalty')),
    points INTEGER NOT NULL CHECK (points >= 0),
    reason TEXT NOT NULL,
    level INTEGER NOT NULL,
    actor_id INTEGER NOT NULL,
    excluded INTEGER NOT NULL CHECK (excluded IN (0, 1)),
    op_key TEXT REFERENCES operations (key),
    created_at REAL NOT NULL
);
CREATE INDEX tournament_sanctions_by_tournament ON tournament_sanctions (tournament_id, id);

CREATE TABLE pool_moves (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('buy_in', 'prize', 'refund')),
    ledger_id INTEGER NOT NULL REFERENCES ledger (id),
    op_key TEXT REFERENCES operations (key),
    created_at REAL NOT NULL
);
CREATE INDEX pool_moves_by_tournament ON pool_moves (tournament_id, id);
"""

# 7: a practice match (/ofc practice) is played for play
# chips against a computer: kept in /ofc history and for /ofc review, left out of /ofc stats.
_PRACTICE = """
ALTER TABLE matches ADD COLUMN practice INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));
"""

# 8: one owner per gateway shard (bot/cluster/shard_lease.py). A process holds a row per shard it
# runs, renewed by its heartbeat; a row past `expires_at` is free to claim. `address` is where
# the owner takes the interactions Discord sends to shard 0 for its tables (DMs:
# bot/cluster/relay.py).
_SHARD_LEASES = """
CREATE TABLE shard_leases (
    shard_id INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner TEXT NOT NULL,
    address TEXT,
    acquired_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
"""

# 9: the language a player last used the bot in, for their DMs (a Discord locale
# code, NULL until seen), and a server's language for its public table messages (NULL: its
# preferred locale).
_LANGUAGES = """
ALTER TABLE player_preferences ADD COLUMN locale TEXT;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
"""

# 10: a table whose stacks the house lent (a tournament's, R13): its chips are not its players'
# own, so their totals (/ofc balance, the leaderboard) leave them out.
_LENT = """
ALTER TABLE live_tables ADD COLUMN lent INTEGER NOT NULL DEFAULT 0 CHECK (lent IN (0, 1));
"""

# 11: skill ratings by season (bot/ratings.py). A server's seasons are numbered from 1, one
# open at a time; `ratings` holds each person's current rating in a season, and
# `rating_results` every update of a finished match or tournament: each player's place, a
# computer's level, and the ratings before and after, so every rating can be recomputed from
# its results.
_RATINGS = """
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    number INTEGER NOT NULL CHECK (number > 0),
    name TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL
);
CREATE UNIQUE INDEX seasons_by_number ON seasons (guild_id, number);
CREATE UNIQUE INDEX seasons_open ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE ratings (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    user_id INTEGER NOT NULL CHECK (user_id > 0),
    mu REAL NOT NULL,
    sigma REAL NOT NULL CHECK (sigma > 0),
    matches INTEGER NOT NULL CHECK (matches > 0),
    updated_at REAL NOT NULL,
    PRIMARY KEY (season_id, user_id)
) WITHOUT ROWID;

CREATE TABLE rating_results (
    id INTEGER PRIMARY KEY,
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    match_id INTEGER REFERENCES matches (id),
    tournament_id INTEGER REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    level TEXT,
    place INTEGER NOT NULL CHECK (place > 0),
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    created_at REAL NOT NULL,
    CHECK ((level IS NULL) = (user_id > 0)),
    CHECK ((match_id IS NULL) <> (tournament_id IS NULL))
);
CREATE INDEX rating_results_by_season ON rating_results (season_id, id);
CREATE INDEX rating_results_by_match ON rating_results (match_id);
CREATE INDEX rating_results_by_tournament ON rating_results (tournament_id);
"""

# 12: a finished tournament's final standing of each person who played it (place, prize,
# warnings, excluded), written with the snapshot that finishes it: what /ofc history lists.
_TOURNAMENT_RESULTS = """
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL CHECK (user_id > 0),
    place INTEGER NOT NULL CHECK (place > 0),
    entrants INTEGER NOT NULL CHECK (entrants >= place),
    prize INTEGER NOT NULL CHECK (prize >= 0),
    warnings INTEGER NOT NULL CHECK (warnings >= 0),
    excluded INTEGER NOT NULL CHECK (excluded IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;
CREATE INDEX tournament_results_by_user ON tournament_results (user_id, tournament_id);
"""

# 13: fencing (bot/storage/fencing.py). Each claim of shards takes the next token of the one
# counter row (created by the first claim: a fresh database holds no row, so a copy into it
# starts empty) and writes it on its leases; a write of a table's state or chips checks that
# its shard's lease still carries the writer's token.
_FENCING = """
ALTER TABLE shard_leases ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
CREATE TABLE lease_tokens (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    token INTEGER NOT NULL CHECK (token > 0)
);
"""

# 14: a count of the changes to a table's money. PostgreSQL: every money operation of a table
# adds one as it takes the table's row; the one-statement settlement (tables.py) writes only
# where the count is still the one its process knows, so a buy-in or cash-out of another
# process, even one it waited for, makes it write nothing.
_MONEY_VERSION = """
ALTER TABLE live_tables ADD COLUMN money_version INTEGER NOT NULL DEFAULT 0;
"""

# 15: the key of the request that started a season (its interaction's id): a redelivered
# `/ofc-admin season start` finds the season it started instead of starting another.
_SEASON_KEYS = """
ALTER TABLE seasons ADD COLUMN start_key TEXT;
CREATE UNIQUE INDEX seasons_by_key ON seasons (guild_id, start_key);
"""

# 16: what changed in a live table since its last whole snapshot (most actions write only
# this, bot/tables/runtime.py); NULL when the snapshot is whole.
_CHANGES = """
ALTER TABLE live_tables ADD COLUMN changes_json TEXT;
"""

MIGRATIONS: tuple[str, ...] = (_MONEY, _HISTORY, _GUILD_SETTINGS, _CANCELLED,
                               _PLAYER_PREFERENCES, _TOURNAMENTS, _PRACTICE, _SHARD_LEASES,
                               _LANGUAGES, _LENT, _RATINGS, _TOURNAMENT_RESULTS, _FENCING,
                               _MONEY_VERSION, _SEASON_KEYS, _CHANGES)
LATEST = len(MIGRATIONS)

_SCHEMA_VERSION = (
    "CREATE TABLE IF NOT EXISTS schema_version "
    "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
)
_POSTGRES_RULES = (
    (re.compile(r"\bINTEGER PRIMARY KEY\b"),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT ROWID"), ")"),
)
# Any fixed number: PostgreSQL's lock that keeps two processes from migrating at once.
_MIGRATION_LOCK = 0x0FC_5C4E


def statements(script: str) -> Iterator[str]:
    """Split a script into statements: `executescript` would COMMIT our open transaction."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]}")


def postgres_ddl(statement: str) -> str:
    """One statement of a migration in PostgreSQL's dialect (see the module's docstring)."""
    for pattern, replacement in _POSTGRES_RULES:
        statement = pattern.sub(replacement, statement)
    return statement


async def version_of(conn: Connection) -> int:
    """The version a database of the bot is at (it has a schema_version table)."""
    rows = await conn.fetch("SELECT coalesce(max(version), 0) FROM schema_version")
    return int(rows[0][0])


async def migrate(conn: Connection, target: int | None = None) -> int:
    """Bring the database up to `target` (default: the newest) inside the caller's write
    transaction; return the version reached. SchemaTooNew for a newer database."""
    target = LATEST if target is None else target
    postgres = conn.dialect == "postgresql"
    if postgres:
        # SQLite's BEGIN IMMEDIATE already keeps a second process out.
        await conn.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
    await conn.execute(postgres_ddl(_SCHEMA_VERSION) if postgres else _SCHEMA_VERSION)
    current = await version_of(conn)
    if current > LATEST:
        raise SchemaTooNew(current, LATEST)
    for version in range(current + 1, target + 1):
        for statement in statements(MIGRATIONS[version - 1]):
            await conn.execute(postgres_ddl(statement) if postgres else statement)
        await conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (version, time.time()),
        )
    return max(current, target)
