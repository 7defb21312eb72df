"""Shootout tournaments (RULES.md R13): snapshots, the prize pool, warnings and penalties.

The pool moves only with pool_moves rows, each naming its ledger row, in one transaction with
the tournament's snapshot and an idempotency key (a replay after a crash never pays twice):
- 'buy_in': wallet -> pool (a computer entry: a 'house' row, chips entering play);
- 'prize' and 'refund': pool -> wallet (a computer: back to the house);
- 'stake' and 'unstake': a table opened before the house lent its stacks itself took each
  person's stake from the house into the wallet and back ('grant' / 'correction' rows,
  external kinds, so the economy's sum holds); a table's own buy-in and cash-out now do it
  in their transaction (storage/tables.py), and a computer's chips come from the house.
Hence at every commit: sum(wallets) + sum(stacks) + sum(open pools) == sum(external rows).
"""

from collections.abc import Sequence
from typing import Literal

from bot.sharding import ShardPlan
from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import LedgerKind, Origin, Part, on_shards
from bot.storage.errors import InvalidInput, StorageError
from bot.storage.ratings import rate_tournament
from bot.storage.records import (
    SanctionRecord,
    TournamentMove,
    TournamentRecord,
    TournamentResult,
)

MoveKind = Literal["buy_in", "prize", "refund", "stake", "unstake"]
_LEDGER: dict[MoveKind, LedgerKind] = {
    "buy_in": "buy_in", "prize": "cash_out", "refund": "refund", "stake": "grant",
    "unstake": "correction",
}
_POOL_SIGN: dict[MoveKind, int] = {"buy_in": 1, "prize": -1, "refund": -1, "stake": 0,
                                   "unstake": 0}
_COLUMNS = "id, guild_id, channel_id, state_json, pool, status, created_at, updated_at"


class UnknownTournament(StorageError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"There is no tournament {tournament_id}.")


def _state(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidInput("A tournament snapshot must be a non-empty JSON string.")
    return value


async def _guild_and_pool(conn: Connection, tournament_id: int) -> tuple[int, int]:
    """A tournament's guild and pool, its row held until the transaction ends (it is about
    to change); UnknownTournament if there is none."""
    rows = await conn.fetch(
        f"SELECT guild_id, pool FROM tournaments WHERE id = ?{conn.for_update}",
        (tournament_id,))
    if not rows:
        raise UnknownTournament(tournament_id)
    return int(rows[0][0]), int(rows[0][1])


async def _save(conn: Connection, tournament_id: int, state_json: str | None,
                now: float, status: str | None = None) -> None:
    if state_json is not None:
        await conn.execute(
            "UPDATE tournaments SET state_json = ?, status = coalesce(?, status), "
            "updated_at = ? WHERE id = ?", (state_json, status, now, tournament_id))


async def _pool_move(conn: Connection, tournament_id: int, user_id: int, amount: int,
                     kind: MoveKind, key: str, ledger_id: int, now: float) -> None:
    """The pool's side of a ledger row."""
    await conn.execute(
        "INSERT INTO pool_moves (tournament_id, user_id, amount, kind, ledger_id, op_key, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (tournament_id, user_id, _POOL_SIGN[kind] * amount, kind, ledger_id, key, now))


class Tournaments(Part):
    """Tournaments, their prize pools and sanctions (`storage.tournaments`)."""

    async def create_tournament(self, guild_id: int, channel_id: int, state_json: str, *,
                                now: float) -> int:
        values = (validate.snowflake("guild id", guild_id),
                  validate.snowflake("channel id", channel_id), _state(state_json), now, now)
        async with self._db.transaction() as conn:
            await self._core.fenced(conn, values[0])
            rows = await conn.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, state_json, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id", values)
        return int(rows[0][0])

    async def save_tournament(self, tournament_id: int, state_json: str, *, now: float,
                              status: Literal["open", "finished", "cancelled"] | None = None,
                              results: Sequence[TournamentResult] = ()) -> None:
        """Replace the snapshot (and the status: 'finished' or 'cancelled' once it is over);
        `results`: each person's final standing, kept with the snapshot that finishes it
        (written again, a repeat replaces them); a finished tournament's places rate its
        people once (ratings.py)."""
        async with self._db.transaction() as conn:
            guild_id, _ = await _guild_and_pool(conn, tournament_id)
            await self._core.fenced(conn, guild_id)
            await _save(conn, tournament_id, _state(state_json), now, status)
            if status == "finished" and results:
                await rate_tournament(conn, tournament_id, guild_id,
                                      {r.user_id: r.place for r in results}, now)
            for r in results:
                await conn.execute(
                    "DELETE FROM tournament_results WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, validate.player(r.user_id)))
                await conn.execute(
                    "INSERT INTO tournament_results (tournament_id, user_id, place, entrants, "
                    "prize, warnings, excluded) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, r.user_id, r.place, r.entrants,
                     validate.chips(r.prize, allow_zero=True), r.warnings, int(r.excluded)))

    async def member_tournaments(self, guild_id: int, user_id: int, *,
                                 limit: int = 10) -> list[TournamentResult]:
        """The finished tournaments a member played in this server, newest first."""
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT r.user_id, r.place, r.entrants, r.prize, r.warnings, r.excluded, "
                "r.tournament_id, t.updated_at FROM tournament_results AS r "
                "JOIN tournaments AS t ON t.id = r.tournament_id "
                "WHERE t.guild_id = ? AND r.user_id = ? ORDER BY r.tournament_id DESC LIMIT ?",
                (guild_id, user_id, max(0, limit)))
        return [TournamentResult(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]),
                                 bool(r[5]), int(r[6]), float(r[7])) for r in rows]

    async def last_tournament(self, channel_id: int,
                              status: Literal["open", "finished", "cancelled"] = "finished"
                              ) -> TournamentRecord | None:
        """The newest tournament of a channel with that status (the last finished one: its
        final standings stay on show there)."""
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ? AND status = ? "
                "ORDER BY id DESC LIMIT 1", (channel_id, status))
        return TournamentRecord(*rows[0]) if rows else None

    async def tournament(self, tournament_id: int) -> TournamentRecord:
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?",
                                  (tournament_id,))
        if not rows:
            raise UnknownTournament(tournament_id)
        return TournamentRecord(*rows[0])

    async def open_tournaments(self, shards: ShardPlan | None = None) -> list[TournamentRecord]:
        """Every tournament not over, oldest first (restart recovery); with `shards`, only
        those of the servers on those shards."""
        where, params = on_shards(shards)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE status = 'open' AND {where} "
                "ORDER BY id", params)
        return [TournamentRecord(*row) for row in rows]

    async def tournament_move(self, tournament_id: int, user_id: int, amount: int,
                              kind: MoveKind, *, key: str, now: float,
                              snapshot: str | None = None) -> TournamentMove:
        """Move chips between a player and the tournament (see the module's docstring).
        'unstake' takes back at most what the wallet holds. A repeat of `key` does nothing."""
        user_id = validate.player(user_id)
        amount = validate.chips(amount, allow_zero=True)
        key = validate.key(key)
        snapshot = None if snapshot is None else _state(snapshot)
        async with self._db.transaction() as conn:
            guild_id, pool = await _guild_and_pool(conn, tournament_id)
            await self._core.fenced(conn, guild_id)
            if not await self._core.claim_key(conn, key, f"tournament_{kind}", None, now):
                return TournamentMove(False, 0, pool)
            moved = await self._tournament_rows(conn, guild_id, tournament_id, user_id,
                                                amount, kind, key, now)
            pool += _POOL_SIGN[kind] * moved
            await conn.execute("UPDATE tournaments SET pool = ?, updated_at = ? WHERE id = ?",
                               (pool, now, tournament_id))
            await _save(conn, tournament_id, snapshot, now)
        return TournamentMove(True, moved, pool)

    async def moved(self, key: str) -> bool:
        """Whether the movement of `key` was applied (a table's stake, lent through the
        wallet as it was before the table lent it itself: its unstake is still owed)."""
        key = validate.key(key)
        async with self._db.transaction(write=False) as conn:
            return bool(await conn.fetch("SELECT 1 FROM operations WHERE key = ?", (key,)))

    async def _tournament_rows(self, conn: Connection, guild_id: int,
                               tournament_id: int, user_id: int, amount: int, kind: MoveKind,
                               key: str, now: float) -> int:
        """The ledger rows of one movement; returns the chips moved."""
        if amount == 0:
            return 0
        reason = f"tournament {tournament_id} {kind.replace('_', '-')}"
        if user_id < 0:
            if kind in ("stake", "unstake"):
                return amount  # the table's house rows carry a computer's chips
            house = Origin("house", reason, op_key=key)
            ledger_id = await self._core.ledger_row(conn, guild_id, user_id,
                                                     _POOL_SIGN[kind] * amount, None, house, now)
            await _pool_move(conn, tournament_id, user_id, amount, kind, key, ledger_id, now)
            return amount
        origin = Origin(_LEDGER[kind], reason, op_key=key)
        if kind == "unstake":
            balance = await self._core.ensure_wallet(conn, guild_id, user_id, now)
            amount = min(amount, balance)
            if amount == 0:
                return 0
        sign = -1 if kind in ("buy_in", "unstake") else 1
        moved = await self._core.move_wallet(conn, guild_id, user_id, sign * amount, origin, now)
        if _POOL_SIGN[kind]:
            await _pool_move(conn, tournament_id, user_id, amount, kind, key, moved.ledger_id,
                             now)
        return amount

    async def record_sanctions(self, tournament_id: int,
                               sanctions: Sequence[tuple[str, SanctionRecord]], *, now: float,
                               snapshot: str) -> int:
        """Record warnings and penalties given together (a time penalty's points and
        warning), each under its key, with the snapshot they changed, in one transaction.
        Returns how many were new: a repeated key records nothing again."""
        keys = [validate.key(key) for key, _ in sanctions]
        recorded = 0
        async with self._db.transaction() as conn:
            await self._core.fenced(conn, (await _guild_and_pool(conn, tournament_id))[0])
            for key, (_, sanction) in zip(keys, sanctions, strict=True):
                if not await self._core.claim_key(conn, key, "tournament_sanction", None, now):
                    continue
                await conn.execute(
                    "INSERT INTO tournament_sanctions (tournament_id, user_id, kind, points, "
                    "reason, level, actor_id, excluded, op_key, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, sanction.user_id, sanction.kind, sanction.points,
                     validate.text("reason", sanction.reason), sanction.level,
                     sanction.actor_id, int(sanction.excluded), key, now))
                recorded += 1
            if recorded:
                await _save(conn, tournament_id, _state(snapshot), now)
        return recorded

    async def sanctions(self, tournament_id: int) -> list[SanctionRecord]:
        return await self._sanctions("s.tournament_id = ? ORDER BY s.id", (tournament_id,))

    async def member_sanctions(self, guild_id: int, user_id: int, *,
                               limit: int = 10) -> list[SanctionRecord]:
        """The warnings and penalties a member received in this server's tournaments, newest
        first (RULES.md R13: shown in the member's history)."""
        return await self._sanctions(
            "t.guild_id = ? AND s.user_id = ? ORDER BY s.id DESC LIMIT ?",
            (guild_id, user_id, max(0, limit)))

    async def _sanctions(self, where: str, values: tuple[int, ...]) -> list[SanctionRecord]:
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT s.user_id, s.kind, s.points, s.reason, s.level, s.actor_id, "
                "s.excluded, s.created_at, s.tournament_id FROM tournament_sanctions AS s "
                f"JOIN tournaments AS t ON t.id = s.tournament_id WHERE {where}", values)
        return [SanctionRecord(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8])
                for r in rows]
