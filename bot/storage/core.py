"""What every part of `Storage` shares (`Core`): the database, the defaults, the fence, and
the steps of a transaction that more than one topic takes: wallet movements and their ledger
rows, idempotency keys, the fencing check.

Every `Core` method taking a connection runs inside a transaction the caller holds; a part
that owns an operation calls them (and other topics' module functions, such as
matches.insert_hand) so the whole operation stays one transaction.
"""

import enum
from dataclasses import dataclass
from typing import Literal, NamedTuple

from bot.engine.text import Text
from bot.sharding import SHARD_OF_GUILD, ShardPlan
from bot.storage import fencing
from bot.storage.backend import Connection, Database
from bot.storage.errors import (
    InsufficientChips,
    KeyConflict,
    StorageError,
    TableClosed,
    UnknownTable,
)

LedgerKind = Literal[
    "start", "daily", "grant", "correction", "buy_in", "cash_out", "refund", "house"
]
# Kinds that bring chips into (or take them out of) the economy; every other kind only moves
# chips between a wallet and a table stack. Hence, at every commit:
#   sum(wallets) + sum(table stacks) == sum(ledger.amount of these kinds)
EXTERNAL_KINDS: tuple[LedgerKind, ...] = ("start", "daily", "grant", "correction", "house")


class Unchanged(enum.Enum):
    """Default of optional update arguments: keep the stored value (None clears it)."""

    UNCHANGED = enum.auto()


UNCHANGED = Unchanged.UNCHANGED


@dataclass(frozen=True)  # no slots: Storage.open reads the class defaults
class Defaults:
    starting_chips: int = 1000
    daily_chips: int = 200
    daily_cooldown_seconds: float = 20 * 3600


@dataclass(frozen=True, slots=True)
class Origin:
    """Why chips move: the ledger columns other than who, how much and when."""

    kind: LedgerKind
    reason: str = ""
    actor_id: int | None = None
    table_id: int | None = None
    hand_no: int | None = None
    op_key: str | None = None


def refusal(table_id: int, status: str | None) -> StorageError | None:
    """Why a table of this status (None: no such table) takes no change, if it does not."""
    if status is None:
        return UnknownTable(table_id)
    return None if status == "open" else TableClosed(table_id)


async def open_table(conn: Connection, table_id: int) -> int:
    """The guild of an open table, whose row this transaction then holds (it is about to
    change the table); UnknownTable or TableClosed otherwise."""
    rows = await conn.fetch(
        f"SELECT guild_id, status FROM live_tables WHERE id = ?{conn.for_update}", (table_id,))
    refused = refusal(table_id, str(rows[0][1]) if rows else None)
    if refused is not None:
        raise refused
    return int(rows[0][0])


def on_shards(plan: ShardPlan | None) -> tuple[str, tuple[int, ...]]:
    """A WHERE condition (and its parameters) keeping the rows whose `guild_id` is on the
    plan's shards (Discord's rule, bot/sharding.py); every row for None or every shard."""
    if plan is None or plan.every:
        return "1 = 1", ()
    marks = ", ".join("?" * len(plan.ids))
    return f"{SHARD_OF_GUILD} IN ({marks})", (plan.count, *plan.ids)


CLAIM_KEY = "INSERT INTO operations (key, kind, table_id, created_at) VALUES (?, ?, ?, ?)"


class Moved(NamedTuple):
    """A wallet movement: the balance after it, and its ledger row."""

    balance: int
    ledger_id: int


class Core:
    """The database and what every topic's transactions share; `Storage` holds the one."""

    def __init__(self, db: Database, defaults: Defaults) -> None:
        self.db = db
        self.defaults = defaults
        self.fence: fencing.Fence | None = None  # this process's lease token (fencing.py)

    async def fenced(self, conn: Connection, guild_id: int) -> None:
        """WriteFenced (the caller's transaction rolls back) when `guild_id`'s shard has a
        newer owner than this process; nothing to check without a fence."""
        if self.fence is not None and await fencing.stale_guilds(conn, self.fence, (guild_id,)):
            raise fencing.refusal(self.fence, guild_id)

    async def guild_amount(
        self, conn: Connection, guild_id: int, column: str, default: int
    ) -> int:
        """A guild's override of `starting_chips` or `daily_chips`, else the bot's default."""
        rows = await conn.fetch(
            f"SELECT {column} FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return default if not rows or rows[0][0] is None else int(rows[0][0])

    async def ledger_row(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        balance_after: int | None,
        origin: Origin,
        now: float,
    ) -> int:
        """Write one ledger row; its id."""
        rows = await conn.fetch(
            "INSERT INTO ledger (guild_id, user_id, amount, balance_after, kind, reason, "
            "actor_id, table_id, hand_no, op_key, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id, user_id, amount, balance_after, origin.kind, origin.reason,
                origin.actor_id, origin.table_id, origin.hand_no, origin.op_key, now,
            ),
        )
        return int(rows[0][0])

    async def ensure_wallet(
        self, conn: Connection, guild_id: int, user_id: int, now: float
    ) -> int:
        """The wallet's balance, its row held by this transaction until it ends; a first touch
        creates it with the starting chips."""
        locked = (f"SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?"
                  f"{conn.for_update}")
        rows = await conn.fetch(locked, (guild_id, user_id))
        if rows:
            return int(rows[0][0])
        start = await self.guild_amount(
            conn, guild_id, "starting_chips", self.defaults.starting_chips
        )
        created = await conn.execute(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (guild_id, user_id, start, now),
        )
        if not created:  # another transaction created it meanwhile (PostgreSQL): take it
            rows = await conn.fetch(locked, (guild_id, user_id))
            return int(rows[0][0])
        await self.ledger_row(
            conn, guild_id, user_id, start, start, Origin("start", "starting chips"), now
        )
        return start

    async def move_wallet(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        origin: Origin,
        now: float,
    ) -> Moved:
        """Add `amount` (negative: take) to a wallet with its ledger row."""
        balance = await self.ensure_wallet(conn, guild_id, user_id, now)
        if balance + amount < 0:
            raise InsufficientChips(
                Text("Not enough chips: the wallet holds {balance}, this needs {needed}.",
                     balance=balance, needed=-amount),
                available=balance,
                needed=-amount,
            )
        after = balance + amount
        await conn.execute(
            "UPDATE wallets SET balance = ? WHERE guild_id = ? AND user_id = ?",
            (after, guild_id, user_id),
        )
        return Moved(after, await self.ledger_row(conn, guild_id, user_id, amount, after,
                                                   origin, now))

    async def claim_key(
        self,
        conn: Connection,
        key: str,
        kind: str,
        table_id: int | None,
        now: float,
    ) -> bool:
        """Record `key` as applied; False when it already was (the caller then does nothing).

        Recorded inside the operation's own transaction, so a crash before COMMIT leaves the
        key unused and the operation can be replayed.
        """
        claimed = await conn.execute(f"{CLAIM_KEY} ON CONFLICT (key) DO NOTHING",
                                     (key, kind, table_id, now))
        if claimed == 1:
            return True
        await self.repeated_key(conn, key, kind, table_id)
        return False

    @staticmethod
    async def repeated_key(conn: Connection, key: str, kind: str, table_id: int | None) -> None:
        """A key already applied: KeyConflict unless by the same kind of operation at the same
        table (a replay, which then does nothing)."""
        rows = await conn.fetch("SELECT kind, table_id FROM operations WHERE key = ?", (key,))
        if (rows[0][0], rows[0][1]) != (kind, table_id):
            raise KeyConflict(
                f"Idempotency key {key!r} was already used by a {rows[0][0]} "
                f"at table {rows[0][1]}, not a {kind} at table {table_id}."
            )


class Part:
    """One topic of `Storage` (its wallets, its tables, ...): its own methods, the shared core."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._db = core.db
