"""Live tables: snapshots for restart recovery, and the chips on them (buy-in, settle, cash-out).

Every money operation is one transaction that also writes the table's snapshot when one is
given, so after a crash the chips and the state that explains them agree. Each takes an
idempotency `key` (the caller's, e.g. f"{table}:{hand}:settle"): a repeat returns
`applied=False` and changes nothing, so a replay after a crash never pays twice.

Computer seats (user id < 0) have no wallet: their chips come from the house on buy-in and
go back to it on cash-out or refund, each movement a 'house' ledger row, so wallets plus
stacks still equal the sum of the ledger's external rows (see core.EXTERNAL_KINDS).
"""

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from bot.sharding import ShardPlan
from bot.storage import fencing, validate
from bot.storage.backend import Connection, Row
from bot.storage.core import (
    CLAIM_KEY,
    UNCHANGED,
    Core,
    Origin,
    Part,
    Unchanged,
    on_shards,
    open_table,
    refusal,
)
from bot.storage.errors import (
    InsufficientChips,
    InvalidInput,
    NotSeated,
    StorageError,
    TableClosed,
    TableNotEmpty,
    UnknownTable,
)
from bot.storage.matches import hand_at_once, insert_hand
from bot.storage.records import HandRecord, LiveTable, Refund, Settlement, StackMove, Transfer

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, table_message_id, state_json, "
    "changes_json, status, close_reason, created_at, updated_at"
)
_MESSAGE_COLUMNS = ("thread_id", "lobby_message_id", "table_message_id")
# (table, user, amount, stack_after, kind, counterparty, hand_no, op_key, created_at)
StackMoveRow = tuple[int, int, int, int, str, int | None, int | None, str | None, float]


def _state(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidInput("A table snapshot must be a non-empty JSON string.")
    return value


def _optional_state(value: object) -> str | None:
    return None if value is None else _state(value)


def _optional_hand_no(value: object) -> int | None:
    return None if value is None else validate.count("hand number", value)


class _Money(NamedTuple):
    guild_id: int
    status: str
    stacks: dict[int, int]  # user -> stack, in user id order
    version: int  # live_tables.money_version (PostgreSQL: counts the money operations)
    lent: bool  # a tournament's table: the house lends the people's stacks


_MONEY = ("SELECT t.guild_id, t.status, t.lent, s.user_id, s.stack{claimed}, t.money_version "
          "FROM live_tables AS t "
          "LEFT JOIN table_seats AS s ON s.table_id = t.id WHERE t.id = ? ORDER BY s.user_id")


async def _lock_table_row(conn: Connection, table_id: int) -> bool:
    """PostgreSQL: whether the table exists, its row held and its money's version counted up
    (a money operation is under way: a one-statement settlement of another process, on the
    stacks it knew, writes nothing after it). First, on its own: a statement that waited for
    the lock reads the rows it joins as they were when it began, so the stacks are read by the
    next one."""
    return bool(await conn.execute(
        "UPDATE live_tables SET money_version = money_version + 1 WHERE id = ?", (table_id,)))


def _read_money(table_id: int, rows: list[Row]) -> _Money:
    if not rows:
        raise UnknownTable(table_id)
    stacks = {int(user): int(stack) for _, _, _, user, stack, *_ in rows if user is not None}
    return _Money(int(rows[0][0]), str(rows[0][1]), stacks, int(rows[0][-1]), bool(rows[0][2]))


async def _money(conn: Connection, table_id: int, *, lock: bool = True) -> _Money:
    """A table's guild, status and stacks in one query (every statement is a thread hop).
    With `lock` (an operation about to change them) the table's row is held until the
    transaction ends."""
    if lock and conn.for_update:
        await _lock_table_row(conn, table_id)
    return _read_money(table_id, await conn.fetch(_MONEY.format(claimed=""), (table_id,)))


async def _money_and_claim(conn: Connection, table_id: int, key: str, kind: str, now: float,
                           fence: fencing.Fence | None) -> tuple[_Money, bool, bool]:
    """PostgreSQL: the table's row locked, then in one statement its money read, `key`
    claimed and, with a fence, the lease of its shard checked and held (one round trip instead
    of a statement each). Returns the money, whether the key is new, and whether the lease
    still carries the fence's token (True without a fence)."""
    if not await _lock_table_row(conn, table_id):
        raise UnknownTable(table_id)  # before the key, which must name a table
    lease, lease_params = ("SELECT 1", ()) if fence is None else fencing.table_lease(
        fence, table_id, conn.for_share)
    rows = await conn.fetch(
        f"WITH claim AS ({CLAIM_KEY} ON CONFLICT (key) DO NOTHING RETURNING 1), "
        f"lease AS ({lease}) "
        + _MONEY.format(claimed=", (SELECT count(*) FROM claim), (SELECT count(*) FROM lease)"),
        (key, kind, table_id, now, *lease_params, table_id))
    return _read_money(table_id, rows), bool(rows[0][5]), bool(rows[0][6])


async def _lent_to(conn: Connection, guild_id: int, user_id: int,
                   table_id: int | None) -> bool:
    """Whether the house lent this person's stack at the table (its 'grant' row there, found
    through the wallet's index); a seat bought from the wallet before the house lent stacks
    itself goes back to the wallet, and the tournament takes its stake back from there, as it
    did then."""
    rows = await conn.fetch(
        "SELECT 1 FROM ledger WHERE guild_id = ? AND user_id = ? AND table_id = ? "
        "AND kind = 'grant' LIMIT 1", (guild_id, user_id, table_id))
    return bool(rows)


async def _record_stack_moves(conn: Connection, rows: Iterable[StackMoveRow]) -> None:
    await conn.executemany(
        "INSERT INTO stack_moves (table_id, user_id, amount, stack_after, kind, counterparty, "
        "hand_no, op_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


# A whole snapshot replaces the changes saved since the one before; changes are kept beside
# the snapshot they follow (`save_snapshot(..., changes=True)`).
_SAVE_STATE = ("UPDATE live_tables SET state_json = ?, changes_json = NULL, updated_at = ? "
               "WHERE id = ?")
_SAVE_CHANGES = "UPDATE live_tables SET changes_json = ?, updated_at = ? WHERE id = ?"


async def _save_state(
    conn: Connection, table_id: int, state_json: str | None, now: float
) -> None:
    if state_json is not None:
        await conn.execute(_SAVE_STATE, (state_json, now, table_id))


# PostgreSQL: a settlement's stack movements as one part of a statement's WITH, the rows
# passed as arrays (`_moves_params`), inserted in the order paid.
_MOVES_PG = (
    "moves AS (INSERT INTO stack_moves (table_id, user_id, amount, stack_after, kind, "
    "counterparty, hand_no, op_key, created_at) "
    "SELECT ?::bigint, m.user_id, m.amount, m.stack_after, 'settle', m.counterparty, "
    "?::bigint, ?::text, ?::float8 "
    "FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) WITH ORDINALITY "
    "AS m (user_id, amount, stack_after, counterparty, n) ORDER BY m.n)"
)
# ... and with the new stacks, a settlement's writes as one statement.
_SETTLE_PG = (
    "WITH seats AS (UPDATE table_seats AS s SET stack = v.stack "
    "FROM unnest(?::bigint[], ?::bigint[]) AS v (user_id, stack) "
    "WHERE s.table_id = ? AND s.user_id = v.user_id), " + _MOVES_PG + " "
)


def _moves_params(table_id: int, rows: Sequence[StackMoveRow]) -> list[object]:
    hand_no, key, now = rows[0][6], rows[0][7], rows[0][8]
    return [table_id, hand_no, key, now,
            *(list(column) for column in zip(*((r[1], r[2], r[3], r[5]) for r in rows),
                                             strict=True))]


async def _settle_writes(conn: Connection, table_id: int, rows: Sequence[StackMoveRow],
                         stacks: dict[int, int], state: str | None, now: float) -> None:
    """The new stacks, their stack_moves rows and the snapshot: on SQLite queued together
    (one thread round trip), on PostgreSQL one statement (one network round trip, not one a
    statement)."""
    moved = sorted({row[1] for row in rows})
    if conn.dialect != "postgresql":
        await conn.together(
            conn.executemany(
                "UPDATE table_seats SET stack = ? WHERE table_id = ? AND user_id = ?",
                [(stacks[user], table_id, user) for user in moved],
            ),
            _record_stack_moves(conn, rows),
            _save_state(conn, table_id, state, now),
        )
        return
    if not rows:
        await _save_state(conn, table_id, state, now)
        return
    params: list[object] = [moved, [stacks[user] for user in moved], table_id,
                            *_moves_params(table_id, rows)]
    if state is None:
        await conn.execute(_SETTLE_PG + "SELECT 1", params)
    else:
        await conn.execute(_SETTLE_PG + _SAVE_STATE, [*params, state, now, table_id])


def _settle_at_once(table_id: int, key: str, now: float, version: int, known: dict[int, int],
                    stacks: dict[int, int], rows: Sequence[StackMoveRow], state: str | None,
                    hand: HandRecord | None,
                    fence: fencing.Fence | None) -> tuple[str, list[object]]:
    """PostgreSQL: a whole settlement as one statement, for a table whose money is taken to
    be at `version` with the stacks `known` (and after it `stacks`). It claims the key, checks
    the lease, counts the table's money version up where it is still `version` (the table's
    row is checked again after any wait for it, unlike rows another transaction inserted), writes
    the stacks where they still are `known`, the stack movements, the snapshot and the hand,
    then checks that each did what it must: the key new, the lease held, the table open at
    that version, every seat of the table at its `known` stack, the hand taken. If any did
    not, it divides by zero, which undoes the whole statement."""
    users = sorted(known)
    params: list[object] = [key, "settle", table_id, now]
    parts = [f"claim AS ({CLAIM_KEY} ON CONFLICT (key) DO NOTHING RETURNING 1)"]
    checks = ["(SELECT count(*) FROM claim) = 1"]
    if fence is not None:
        lease, lease_params = fencing.table_lease(fence, table_id, " FOR SHARE")
        parts.append(f"lease AS ({lease})")
        params += lease_params
        checks.append("(SELECT count(*) FROM lease) = 1")
    if state is None:
        parts.append("tab AS (UPDATE live_tables SET money_version = money_version + 1 "
                     "WHERE id = ? AND status = 'open' AND money_version = ? RETURNING 1)")
        params += [table_id, version]
    else:
        parts.append("tab AS (UPDATE live_tables SET state_json = ?, changes_json = NULL, "
                     "updated_at = ?, money_version = money_version + 1 "
                     "WHERE id = ? AND status = 'open' AND money_version = ? RETURNING 1)")
        params += [state, now, table_id, version]
    checks.append("(SELECT count(*) FROM tab) = 1")
    # The table's row first (the order every money operation takes its locks in), then the
    # seats: each written only where its stack is still the one known.
    parts.append("seats AS (UPDATE table_seats AS s SET stack = v.stack "
                 "FROM unnest(?::bigint[], ?::bigint[], ?::bigint[]) AS v (user_id, known, stack) "
                 "WHERE s.table_id = ? AND s.user_id = v.user_id AND s.stack = v.known "
                 "AND EXISTS (SELECT 1 FROM tab) RETURNING 1)")
    params += [users, [known[u] for u in users], [stacks[u] for u in users], table_id]
    checks += ["(SELECT count(*) FROM seats) = ?",
               "(SELECT count(*) FROM table_seats WHERE table_id = ?) = ?"]
    if rows:
        parts.append(_MOVES_PG)
        params += _moves_params(table_id, rows)
    if hand is not None:
        hand_sql, hand_params = hand_at_once(hand, table_id, now)
        parts.append(hand_sql)
        params += hand_params
        checks.append("(SELECT count(*) FROM hand) = 1")
    params += [len(users), table_id, len(users)]
    return ("WITH " + ", ".join(parts) + " SELECT 1 / (" + " AND ".join(checks) + ")::int",
            params)


class Tables(Part):
    """Live tables, their snapshots and their chips (`storage.tables`)."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        # Each table's money version and stacks as this process last settled them.
        # PostgreSQL: the next settlement there is written in one statement that checks them,
        # and reads them first only when they are stale (another operation since, or a
        # restart).
        self._known: dict[int, tuple[int, dict[int, int]]] = {}

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        state_json: str,
        *,
        now: float,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        table_message_id: int | None = None,
        lent: bool = False,
    ) -> int:
        """Register a new open table and return its id; `lent`: the house lends its stacks (a
        tournament's table), which then count in no player's totals."""
        guild_id = validate.snowflake("guild id", guild_id)
        values = [
            guild_id,
            validate.snowflake("channel id", channel_id),
            *(
                None if v is None else validate.snowflake(name, v)
                for name, v in zip(
                    _MESSAGE_COLUMNS, (thread_id, lobby_message_id, table_message_id), strict=True
                )
            ),
            _state(state_json),
            int(lent),
            now,
            now,
        ]
        async with self._db.transaction() as conn:
            await self._core.fenced(conn, guild_id)
            rows = await conn.fetch(
                "INSERT INTO live_tables (guild_id, channel_id, thread_id, lobby_message_id, "
                "table_message_id, state_json, lent, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                values,
            )
        return int(rows[0][0])

    async def save_snapshot(self, table_id: int, state_json: str, *, now: float,
                            changes: bool = False) -> None:
        """Replace an open table's serialized state; `changes`: the text is what changed
        since the last whole snapshot, kept beside it (and replacing the changes saved before),
        which a reader applies to it (`LiveTable.changes_json`)."""
        table_id = validate.snowflake("table id", table_id)
        state = _state(state_json)
        async with self._db.transaction() as conn:
            if self._core.fence is not None:  # the bot's: first the lease of the table's shard
                await self._core.fenced(conn, await open_table(conn, table_id))
            # One statement when the table is open (the most frequent write of all);
            # otherwise the next one says why nothing was saved.
            if not await conn.execute(f"{_SAVE_CHANGES if changes else _SAVE_STATE} "
                                      "AND status = 'open'", (state, now, table_id)):
                await open_table(conn, table_id)

    async def save_snapshots(
        self, snapshots: Sequence[tuple[int, str, bool]], *, now: float
    ) -> list[StorageError | None]:
        """Replace several open tables' states in ONE transaction (one commit, one fsync):
        the table service's group commit of snapshot-only saves, each (table, text,
        changes) as save_snapshot takes them. Each entry is checked as save_snapshot checks
        it; an entry refused (a table closed or unknown, a bad snapshot) gets its error in the
        list returned, at its index, and the others are saved (None). An I/O failure raises
        and saves none of them."""
        results: list[StorageError | None] = []
        checked: list[tuple[int, int, str, bool]] = []  # (table, index, text, changes)
        for index, (table_id, state_json, changes) in enumerate(snapshots):
            try:
                checked.append((validate.snowflake("table id", table_id), index,
                                _state(state_json), changes))
                results.append(None)
            except StorageError as error:
                results.append(error)
        ids = sorted({entry[0] for entry in checked})
        async with self._db.transaction() as conn:
            # Two statements whatever the number of tables (each is a round trip), the rows
            # locked in table order: two transactions locking several never wait for each other.
            rows = await conn.fetch(
                f"SELECT id, status, guild_id FROM live_tables WHERE id IN "
                f"({', '.join('?' * len(ids))}) ORDER BY id{conn.for_update}", ids) if ids else []
            status = {int(table_id): str(found) for table_id, found, _ in rows}
            guild = {int(table_id): int(guild_id) for table_id, _, guild_id in rows}
            stale = set() if self._core.fence is None else await fencing.stale_guilds(
                conn, self._core.fence, set(guild.values()))
            saved: dict[bool, list[tuple[str, float, int]]] = {False: [], True: []}
            for table_id, index, state, changes in checked:
                results[index] = refusal(table_id, status.get(table_id))
                if results[index] is None and guild[table_id] in stale:
                    assert self._core.fence is not None
                    results[index] = fencing.refusal(self._core.fence, guild[table_id])
                if results[index] is None:
                    saved[changes].append((state, now, table_id))
            for changes, rows in saved.items():
                if rows:
                    await conn.executemany(_SAVE_CHANGES if changes else _SAVE_STATE, rows)
        return results

    async def set_table_messages(
        self,
        table_id: int,
        *,
        now: float,
        thread_id: int | Unchanged | None = UNCHANGED,
        lobby_message_id: int | Unchanged | None = UNCHANGED,
        table_message_id: int | Unchanged | None = UNCHANGED,
    ) -> None:
        """Record where a table lives in Discord; None clears an id, omitted ones are kept."""
        table_id = validate.snowflake("table id", table_id)
        given = {
            name: None if value is None else validate.snowflake(name, value)
            for name, value in zip(
                _MESSAGE_COLUMNS, (thread_id, lobby_message_id, table_message_id), strict=True
            )
            if value is not UNCHANGED
        }
        async with self._db.transaction() as conn:
            await self._core.fenced(conn, await open_table(conn, table_id))
            sets = "".join(f"{name} = ?, " for name in given)
            await conn.execute(
                f"UPDATE live_tables SET {sets}updated_at = ? WHERE id = ?",
                (*given.values(), now, table_id),
            )

    async def table(self, table_id: int) -> LiveTable:
        """One table, open or not (UnknownTable if there is none)."""
        table_id = validate.snowflake("table id", table_id)
        async with self._db.transaction(write=False) as conn:
            tables = await self._load_tables(conn, "id = ?", (table_id,))
        if not tables:
            raise UnknownTable(table_id)
        return tables[0]

    async def live_tables(self, shards: ShardPlan | None = None) -> list[LiveTable]:
        """Every open table with its snapshot and stacks, oldest first (restart recovery);
        with `shards`, only the tables of the servers on those shards."""
        where, params = on_shards(shards)
        async with self._db.transaction(write=False) as conn:
            return await self._load_tables(conn, f"status = 'open' AND {where}", params)

    async def seated_elsewhere(self, user_id: int, table_id: int) -> bool:
        """Whether the player has a stack at an open table other than `table_id`, in any
        process sharing the database."""
        user_id = validate.snowflake("user id", user_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT 1 FROM table_seats AS s JOIN live_tables AS t ON t.id = s.table_id "
                "WHERE s.user_id = ? AND s.table_id <> ? AND t.status = 'open' LIMIT 1",
                (user_id, validate.snowflake("table id", table_id)))
        return bool(rows)

    async def _load_tables(
        self, conn: Connection, where: str, params: Sequence[object]
    ) -> list[LiveTable]:
        rows = await conn.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM live_tables WHERE {where} ORDER BY id", params
        )
        tables = []
        for row in rows:
            stacks = (await _money(conn, row[0], lock=False)).stacks
            tables.append(LiveTable(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                                    row[7], row[8], row[9], stacks, row[10], row[11]))
        return tables

    async def _owner_pays(
        self,
        conn: Connection,
        money: _Money,
        user_id: int,
        amount: int,
        origin: Origin,
        now: float,
    ) -> int | None:
        """Move `amount` from a seat's owner to the table (negative: back to the owner).

        A human's wallet pays (and its balance is returned); a computer's chips come from
        the house, recorded as a 'house' row of the chips entering play. At a table whose
        stacks the house lends (a tournament's, R13) a person's chips come from the house and
        go back to it in this same transaction: a 'grant' row before the buy-in, a
        'correction' row after the cash-out or refund. The wallet never holds them between
        two transactions, so they can never be spent anywhere else.
        """
        guild_id = money.guild_id
        if user_id < 0:
            await self._core.ledger_row(
                conn, guild_id, user_id, amount, None, replace(origin, kind="house"), now
            )
            return None
        lend = Origin("grant", "lent by the house", table_id=origin.table_id,
                      hand_no=origin.hand_no)
        if money.lent and amount > 0:
            await self._core.move_wallet(conn, guild_id, user_id, amount, lend, now)
        moved = await self._core.move_wallet(conn, guild_id, user_id, -amount, origin, now)
        if money.lent and amount < 0 and await _lent_to(conn, guild_id, user_id,
                                                        origin.table_id):
            back = replace(lend, kind="correction", reason="back to the house")
            moved = await self._core.move_wallet(conn, guild_id, user_id, amount, back, now)
        return moved.balance

    async def _start_operation(
        self, conn: Connection, table_id: int, key: str, kind: str, now: float
    ) -> tuple[_Money, bool]:
        """A money operation's first step: the table's money, and whether `key` is new (now
        claimed), its shard's lease checked against the fence: on SQLite both statements
        queued together, one thread round trip, then the fence's; on PostgreSQL the lock, then
        one statement for all three. A new key on a table that is not open raises TableClosed;
        a repeat stays a quiet no-op.
        """
        self._known.pop(table_id, None)  # its stacks change, or are read afresh
        fence = self._core.fence
        if conn.dialect == "postgresql":
            money, claimed, held = await _money_and_claim(conn, table_id, key, kind, now, fence)
            if not claimed:
                await self._core.repeated_key(conn, key, kind, table_id)
            if fence is not None and not held:
                raise fencing.refusal(fence, money.guild_id)
        else:
            money, claimed = await conn.together(
                _money(conn, table_id), self._core.claim_key(conn, key, kind, table_id, now)
            )
            await self._core.fenced(conn, money.guild_id)
        if claimed and money.status != "open":
            raise TableClosed(table_id)
        return money, claimed

    async def _position(
        self, conn: Connection, money: _Money, user_id: int
    ) -> StackMove:
        """What a repeated buy-in or cash-out returns: nothing moved, the current figures."""
        guild_id = money.guild_id
        stack = money.stacks.get(user_id, 0)
        rows = await conn.fetch(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return StackMove(False, 0, stack, int(rows[0][0]) if rows else None)

    async def buy_in(
        self,
        table_id: int,
        user_id: int,
        amount: int,
        *,
        key: str,
        now: float,
        snapshot: str | None = None,
        hand_no: int | None = None,
    ) -> StackMove:
        """Move `amount` chips from the player's wallet to their stack (seating them, or topping
        up). Refuses an overdraft with InsufficientChips. A computer's chips come from the house.
        `hand_no` (the hand before which this happens) is recorded with the movement.
        """
        table_id = validate.snowflake("table id", table_id)
        user_id = validate.player(user_id)
        amount = validate.chips(amount)
        key = validate.key(key)
        state = _optional_state(snapshot)
        hand = _optional_hand_no(hand_no)
        async with self._db.transaction() as conn:
            money, claimed = await self._start_operation(conn, table_id, key, "buy_in", now)
            if not claimed:
                return await self._position(conn, money, user_id)
            origin = Origin("buy_in", "buy-in", table_id=table_id, hand_no=hand, op_key=key)
            balance = await self._owner_pays(conn, money, user_id, amount, origin, now)
            stack = money.stacks.get(user_id, 0) + amount
            await conn.execute(
                "INSERT INTO table_seats (table_id, user_id, stack) VALUES (?, ?, ?) "
                "ON CONFLICT (table_id, user_id) DO UPDATE SET stack = excluded.stack",
                (table_id, user_id, stack),
            )
            await _record_stack_moves(
                conn, [(table_id, user_id, amount, stack, "buy_in", None, hand, key, now)]
            )
            await _save_state(conn, table_id, state, now)
        return StackMove(True, amount, stack, balance)

    async def cash_out(
        self,
        table_id: int,
        user_id: int,
        *,
        key: str,
        now: float,
        snapshot: str | None = None,
        hand_no: int | None = None,
    ) -> StackMove:
        """Move the player's whole stack back to their wallet and free the seat. `hand_no`
        (the last hand played) is recorded with the movement."""
        table_id = validate.snowflake("table id", table_id)
        user_id = validate.player(user_id)
        key = validate.key(key)
        state = _optional_state(snapshot)
        hand = _optional_hand_no(hand_no)
        async with self._db.transaction() as conn:
            money, claimed = await self._start_operation(conn, table_id, key, "cash_out", now)
            if not claimed:
                return await self._position(conn, money, user_id)
            stack = money.stacks.get(user_id)
            if stack is None:
                raise NotSeated(table_id, user_id)
            balance = await self._return_stack(
                conn, table_id, money, user_id, stack,
                Origin("cash_out", "cash-out", table_id=table_id, hand_no=hand, op_key=key), now,
            )
            await _save_state(conn, table_id, state, now)
        return StackMove(True, stack, 0, balance)

    async def _return_stack(
        self,
        conn: Connection,
        table_id: int,
        money: _Money,
        user_id: int,
        stack: int,
        origin: Origin,
        now: float,
    ) -> int | None:
        """Empty one seat back to its owner (cash-out or refund); return the wallet balance."""
        guild_id = money.guild_id
        await conn.execute(
            "DELETE FROM table_seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        if not stack:
            rows = await conn.fetch(
                "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            return int(rows[0][0]) if rows else None
        await _record_stack_moves(
            conn,
            [(table_id, user_id, -stack, 0, origin.kind, None, origin.hand_no, origin.op_key,
              now)],
        )
        return await self._owner_pays(conn, money, user_id, -stack, origin, now)

    async def settle_hand(
        self,
        table_id: int,
        hand_no: int,
        transfers: Iterable[Transfer | tuple[int, int, int]],
        *,
        key: str,
        now: float,
        snapshot: str | None = None,
        hand: HandRecord | None = None,
    ) -> Settlement:
        """Move chips between stacks, in the given order (RULES.md R6), with the snapshot and
        (optionally) the hand's history record, all in one transaction.

        A transfer that would take a stack below zero refuses the whole settlement
        (InsufficientChips): the caller applies the table-stakes caps, storage enforces them.
        """
        table_id = validate.snowflake("table id", table_id)
        hand_no = validate.count("hand number", hand_no)
        moves = [
            Transfer(validate.player(a), validate.player(b), validate.chips(c, allow_zero=True))
            for a, b, c in transfers
        ]
        if any(t.from_user == t.to_user for t in moves):
            raise InvalidInput("A transfer must move chips between two different players.")
        if hand is not None and hand.hand_no != hand_no:
            raise InvalidInput(f"The hand record is hand {hand.hand_no}, not hand {hand_no}.")
        key = validate.key(key)
        state = _optional_state(snapshot)
        settled = await self._settled_at_once(table_id, hand_no, moves, key, now, state, hand)
        if settled is not None:
            return Settlement(True, settled)
        async with self._db.transaction() as conn:
            money, claimed = await self._start_operation(conn, table_id, key, "settle", now)
            stacks = money.stacks
            if claimed:  # (a repeat changes nothing)
                rows = self._settlement_rows(table_id, hand_no, moves, stacks, key, now)
                await _settle_writes(conn, table_id, rows, stacks, state, now)
                if hand is not None:
                    await insert_hand(conn, hand, now, table_id=table_id)
        if self._db.at_once is not None:  # (SQLite's settlement is one thread hop already)
            self._known[table_id] = (money.version, dict(stacks))
        return Settlement(claimed, stacks)

    async def _settled_at_once(self, table_id: int, hand_no: int, moves: Sequence[Transfer],
                               key: str, now: float, state: str | None,
                               hand: HandRecord | None) -> dict[int, int] | None:
        """PostgreSQL, a table this process settled last: the settlement in one statement
        (one round trip where the transaction takes four, or seven with the hand), judged on
        the stacks it left; the stacks after it. None when it was not written: the stacks are
        not known, or anything that statement checks is not as known (the settlement then
        reads the table, and says why if it refuses)."""
        last = self._known.pop(table_id, None)
        if self._db.at_once is None or last is None:
            return None
        version, known = last
        stacks = dict(known)
        try:  # a refusal is judged on stacks read afresh, not on these
            rows = self._settlement_rows(table_id, hand_no, moves, stacks, key, now)
        except StorageError:
            return None
        sql, params = _settle_at_once(table_id, key, now, version, known, stacks, rows, state,
                                      hand, self._core.fence)
        if not await self._db.at_once(sql, params):
            return None
        self._known[table_id] = (version + 1, dict(stacks))
        return stacks

    @staticmethod
    def _settlement_rows(
        table_id: int,
        hand_no: int,
        moves: Sequence[Transfer],
        stacks: dict[int, int],
        key: str,
        now: float,
    ) -> list[StackMoveRow]:
        """Apply `moves` to `stacks` in place; return the two stack_moves rows of each."""
        rows: list[StackMoveRow] = []
        for payer, payee, chips in moves:
            for user in (payer, payee):
                if user not in stacks:
                    raise NotSeated(table_id, user)
            if not chips:
                continue
            if stacks[payer] < chips:
                raise InsufficientChips(
                    f"Player {payer}'s stack holds {stacks[payer]} chips, it cannot pay {chips}.",
                    available=stacks[payer],
                    needed=chips,
                )
            stacks[payer] -= chips
            stacks[payee] += chips
            rows.append(
                (table_id, payer, -chips, stacks[payer], "settle", payee, hand_no, key, now)
            )
            rows.append(
                (table_id, payee, chips, stacks[payee], "settle", payer, hand_no, key, now)
            )
        return rows

    async def close_table(
        self, table_id: int, *, now: float, snapshot: str | None = None
    ) -> bool:
        """Close a table whose stacks are all empty (cash everyone out first).

        Returns False when it was already closed. TableNotEmpty while chips remain on it.
        """
        table_id = validate.snowflake("table id", table_id)
        state = _optional_state(snapshot)
        self._known.pop(table_id, None)
        async with self._db.transaction() as conn:
            money = await _money(conn, table_id)
            await self._core.fenced(conn, money.guild_id)
            if money.status != "open":
                return False
            holding = {u: s for u, s in money.stacks.items() if s}
            if holding:
                raise TableNotEmpty(
                    f"Table #{table_id} still holds chips for {len(holding)} player(s): "
                    "cash them out first."
                )
            await conn.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
            await _save_state(conn, table_id, state, now)
            await conn.execute(
                "UPDATE live_tables SET status = 'closed', updated_at = ? WHERE id = ?",
                (now, table_id),
            )
        return True

    async def refund_table(self, table_id: int, reason: str, *, now: float) -> Refund:
        """Return every stack to its owner (ledger kind 'refund' with `reason`) and close the
        table as 'refunded': for a table that cannot be restored. Its unfinished match, which
        can never finish now, ends as a cancelled one (not rated, left out of /stats). A
        repeat does nothing.
        """
        table_id = validate.snowflake("table id", table_id)
        reason = validate.text("reason", reason)
        self._known.pop(table_id, None)
        async with self._db.transaction() as conn:
            money = await _money(conn, table_id)
            await self._core.fenced(conn, money.guild_id)
            if money.status != "open":
                return Refund(False, {})
            origin = Origin("refund", reason, table_id=table_id)
            for user_id, stack in money.stacks.items():
                await self._return_stack(conn, table_id, money, user_id, stack, origin, now)
            await conn.execute(
                "UPDATE live_tables SET status = 'refunded', close_reason = ?, updated_at = ? "
                "WHERE id = ?",
                (reason, now, table_id),
            )
            await conn.execute(
                "UPDATE matches SET ended_at = ?, cancelled = 1 "
                "WHERE table_id = ? AND ended_at IS NULL", (now, table_id))
        return Refund(True, money.stacks)
