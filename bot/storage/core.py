"""What every part of `Storage` shares: the database, the defaults, wallet movements, keys.

All `_` methods here run inside a transaction the caller holds (they take its connection).
"""

import enum
from dataclasses import dataclass
from typing import Literal

import aiosqlite

from bot.engine.text import Text
from bot.storage.db import Database
from bot.storage.errors import InsufficientChips, KeyConflict, TableClosed, UnknownTable
from bot.storage.sql import fetchall

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


async def open_table(conn: aiosqlite.Connection, table_id: int) -> int:
    """The guild of an open table; UnknownTable or TableClosed otherwise."""
    rows = await fetchall(
        conn,
        "SELECT guild_id, status FROM live_tables WHERE id = ?", (table_id,)
    )
    if not rows:
        raise UnknownTable(table_id)
    if rows[0][1] != "open":
        raise TableClosed(table_id)
    return int(rows[0][0])


class StorageCore:
    def __init__(self, db: Database, defaults: Defaults) -> None:
        self._db = db
        self.defaults = defaults

    async def close(self) -> None:
        await self._db.close()

    async def _guild_amount(
        self, conn: aiosqlite.Connection, guild_id: int, column: str, default: int
    ) -> int:
        """A guild's override of `starting_chips` or `daily_chips`, else the bot's default."""
        rows = await fetchall(
            conn,
            f"SELECT {column} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return default if not rows or rows[0][0] is None else int(rows[0][0])

    async def _ledger_row(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        balance_after: int | None,
        origin: Origin,
        now: float,
    ) -> None:
        await conn.execute(
            "INSERT INTO ledger (guild_id, user_id, amount, balance_after, kind, reason, "
            "actor_id, table_id, hand_no, op_key, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id, user_id, amount, balance_after, origin.kind, origin.reason,
                origin.actor_id, origin.table_id, origin.hand_no, origin.op_key, now,
            ),
        )

    async def _ensure_wallet(
        self, conn: aiosqlite.Connection, guild_id: int, user_id: int, now: float
    ) -> int:
        """The wallet's balance; a first touch creates it with the starting chips."""
        rows = await fetchall(
            conn,
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if rows:
            return int(rows[0][0])
        start = await self._guild_amount(
            conn, guild_id, "starting_chips", self.defaults.starting_chips
        )
        await conn.execute(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, start, now),
        )
        await self._ledger_row(
            conn, guild_id, user_id, start, start, Origin("start", "starting chips"), now
        )
        return start

    async def _move_wallet(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        user_id: int,
        amount: int,
        origin: Origin,
        now: float,
    ) -> int:
        """Add `amount` (negative: take) to a wallet with its ledger row; return the balance."""
        balance = await self._ensure_wallet(conn, guild_id, user_id, now)
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
        await self._ledger_row(conn, guild_id, user_id, amount, after, origin, now)
        return after

    async def _claim_key(
        self,
        conn: aiosqlite.Connection,
        key: str,
        kind: str,
        table_id: int | None,
        now: float,
    ) -> bool:
        """Record `key` as applied; False when it already was (the caller then does nothing).

        Recorded inside the operation's own transaction, so a crash before COMMIT leaves the
        key unused and the operation can be replayed.
        """
        cursor = await conn.execute(
            "INSERT INTO operations (key, kind, table_id, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (key, kind, table_id, now),
        )
        if cursor.rowcount == 1:
            return True
        rows = await fetchall(
            conn,
            "SELECT kind, table_id FROM operations WHERE key = ?", (key,)
        )
        if (rows[0][0], rows[0][1]) != (kind, table_id):
            raise KeyConflict(
                f"Idempotency key {key!r} was already used by a {rows[0][0]} "
                f"at table {rows[0][1]}, not a {kind} at table {table_id}."
            )
        return False
