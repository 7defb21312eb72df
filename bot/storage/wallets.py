"""Wallets: balances, daily claims, admin grants and corrections, the ledger, the leaderboard."""

from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import LedgerKind, Origin, Part
from bot.storage.errors import DailyNotReady, DailyOff
from bot.storage.records import DailyClaim, LeaderRow, LedgerEntry, Wallet, WalletMove

# wallet + chips at open tables, per user of a guild (a player mid-match keeps their rank),
# but for the chips the house lent (a tournament's tables); its two parameters are the guild,
# twice
_TOTALS = """
SELECT w.user_id, w.balance, coalesce(s.at_tables, 0) AS at_tables,
       w.balance + coalesce(s.at_tables, 0) AS total
FROM wallets AS w
LEFT JOIN (
    SELECT ts.user_id, sum(ts.stack) AS at_tables
    FROM table_seats AS ts JOIN live_tables AS t ON t.id = ts.table_id
    WHERE t.guild_id = ? AND t.status = 'open' AND t.lent = 0
    GROUP BY ts.user_id
) AS s ON s.user_id = w.user_id
WHERE w.guild_id = ?
"""


class Wallets(Part):
    """Wallets and their ledger (`storage.wallets`)."""

    async def wallet(self, guild_id: int, user_id: int, *, now: float) -> Wallet:
        """A player's wallet, created with the starting chips on first touch."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.human(user_id)
        async with self._db.transaction() as conn:
            await self._core.ensure_wallet(conn, guild_id, user_id, now)
            stored = await _stored(conn, guild_id, user_id)
        assert stored is not None  # just ensured
        return stored

    async def read_wallet(self, guild_id: int, user_id: int) -> Wallet:
        """A player's wallet as it is, or, when it has none yet, as a first touch would create
        it (the server's starting chips, no daily claimed): read only, nothing is written."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.human(user_id)
        async with self._db.transaction(write=False) as conn:
            stored = await _stored(conn, guild_id, user_id)
            if stored is not None:
                return stored
            start = await self._core.guild_amount(
                conn, guild_id, "starting_chips", self._core.defaults.starting_chips
            )
        return Wallet(guild_id, user_id, start, None)

    async def claim_daily(self, guild_id: int, user_id: int, *, now: float) -> DailyClaim:
        """Add the daily chips; raise DailyNotReady (with the time left) during the cooldown,
        DailyOff when the server gives none."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.human(user_id)
        cooldown = self._core.defaults.daily_cooldown_seconds
        async with self._db.transaction() as conn:
            await self._core.ensure_wallet(conn, guild_id, user_id, now)
            rows = await conn.fetch(
                "SELECT last_daily_at FROM wallets WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            last = rows[0][0]
            if last is not None and now < last + cooldown:
                raise DailyNotReady(last + cooldown - now)
            amount = await self._core.guild_amount(
                conn, guild_id, "daily_chips", self._core.defaults.daily_chips
            )
            if amount == 0:
                raise DailyOff()
            await conn.execute(
                "UPDATE wallets SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (now, guild_id, user_id),
            )
            balance = (await self._core.move_wallet(
                conn, guild_id, user_id, amount, Origin("daily", "daily claim"), now
            )).balance
        return DailyClaim(amount, balance, now + cooldown)

    async def grant(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        reason: str,
        actor_id: int,
        now: float,
        key: str | None = None,
    ) -> WalletMove:
        """An admin gives `amount` (> 0) chips. With `key`, a repeat does nothing."""
        return await self._admin_move(
            "grant", guild_id, user_id, validate.chips(amount), reason, actor_id, now, key
        )

    async def correct(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        reason: str,
        actor_id: int,
        now: float,
        key: str | None = None,
    ) -> WalletMove:
        """An admin adds or removes chips (signed, non-zero); never below zero."""
        return await self._admin_move(
            "correction", guild_id, user_id, validate.signed_chips(amount), reason, actor_id,
            now, key,
        )

    async def _admin_move(
        self,
        kind: LedgerKind,
        guild_id: int,
        user_id: int,
        amount: int,
        reason: str,
        actor_id: int,
        now: float,
        key: str | None,
    ) -> WalletMove:
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.human(user_id)
        actor_id = validate.snowflake("actor id", actor_id)
        reason = validate.text("reason", reason)
        if key is not None:
            key = validate.key(key)
        origin = Origin(kind, reason, actor_id, op_key=key)
        async with self._db.transaction() as conn:
            if key is not None and not await self._core.claim_key(conn, key, kind, None, now):
                return WalletMove(False,
                                  await self._core.ensure_wallet(conn, guild_id, user_id, now))
            balance = (await self._core.move_wallet(conn, guild_id, user_id, amount, origin,
                                                    now)).balance
        return WalletMove(True, balance)

    async def ledger(self, guild_id: int, user_id: int, limit: int = 20) -> list[LedgerEntry]:
        """A player's latest ledger rows, newest first (computer ids give their house rows)."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.player(user_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT id, guild_id, user_id, amount, balance_after, kind, reason, actor_id, "
                "table_id, hand_no, op_key, created_at FROM ledger "
                "WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, validate.count("limit", limit)),
            )
        return [LedgerEntry(*row) for row in rows]

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """The richest players of a guild (wallet plus chips at open tables)."""
        guild_id = validate.snowflake("guild id", guild_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT rank() OVER (ORDER BY total DESC), user_id, balance, at_tables, total "
                f"FROM ({_TOTALS}) AS totals ORDER BY total DESC, user_id LIMIT ?",
                (guild_id, guild_id, validate.count("limit", limit)),
            )
        return [LeaderRow(*row) for row in rows]

    async def rank_of(self, guild_id: int, user_id: int) -> LeaderRow | None:
        """A player's leaderboard line, None when they have no wallet in the guild yet."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.human(user_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                f"WITH totals AS ({_TOTALS}) "
                "SELECT 1 + (SELECT count(*) FROM totals AS o WHERE o.total > me.total), "
                "user_id, balance, at_tables, total FROM totals AS me WHERE user_id = ?",
                (guild_id, guild_id, user_id),
            )
        return LeaderRow(*rows[0]) if rows else None


async def _stored(conn: Connection, guild_id: int, user_id: int) -> Wallet | None:
    rows = await conn.fetch(
        "SELECT balance, last_daily_at FROM wallets WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return Wallet(guild_id, user_id, rows[0][0], rows[0][1]) if rows else None
