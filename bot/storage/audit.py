"""The books, checked (`ofc audit`, `ofc-bot migrate-db`), on either backend.

Five checks, each naming every row that breaks it:
- `wallet`: every wallet equals the sum of its ledger rows (and no ledger rows of a person
  lack a wallet);
- `stack`: every table stack equals the sum of its stack moves;
- `granted`: wallets plus table stacks plus prize pools equal every chip ever granted (the
  ledger's external rows: starting chips, daily claims, grants, corrections, house chips),
  and every prize pool equals its moves;
- `house`: over every tournament that is over, the house gave nothing and took nothing: the
  chips it lent (the stakes) came back, the computers' chips at its tables with them, and no
  buy-in or prize came from it (its external rows keyed to the tournament plus the external
  rows of its tables sum to zero);
- `key`: no idempotency key is used twice: a key moves one wallet at most once, and the
  stacks of one table in one operation (a buy-in or cash-out: one move; a settlement: the
  moves of one hand), and every key its rows name was recorded as an operation of that table.
"""

import json
from dataclasses import dataclass, field

from bot.storage.backend import Connection
from bot.storage.catalog import tables
from bot.storage.core import EXTERNAL_KINDS

_WALLETS = """
SELECT w.guild_id, w.user_id, w.balance,
       coalesce((SELECT sum(l.amount) FROM ledger AS l
                 WHERE l.guild_id = w.guild_id AND l.user_id = w.user_id), 0)
FROM wallets AS w ORDER BY w.guild_id, w.user_id
"""
_NO_WALLET = """
SELECT l.guild_id, l.user_id, sum(l.amount) FROM ledger AS l
WHERE l.user_id > 0 AND NOT EXISTS (
    SELECT 1 FROM wallets AS w WHERE w.guild_id = l.guild_id AND w.user_id = l.user_id)
GROUP BY l.guild_id, l.user_id ORDER BY l.guild_id, l.user_id
"""
_STACKS = """
SELECT table_id, user_id, sum(stack), sum(moved) FROM (
    SELECT table_id, user_id, stack, 0 AS moved FROM table_seats
    UNION ALL
    SELECT table_id, user_id, 0 AS stack, amount AS moved FROM stack_moves
) AS both_sides
GROUP BY table_id, user_id HAVING sum(stack) <> sum(moved) ORDER BY table_id, user_id
"""
_POOLS = """
SELECT t.id, t.pool, coalesce((SELECT sum(m.amount) FROM pool_moves AS m
                               WHERE m.tournament_id = t.id), 0)
FROM tournaments AS t ORDER BY t.id
"""
_EXTERNAL = ", ".join(f"'{kind}'" for kind in EXTERNAL_KINDS)
_TOTALS = f"""
SELECT (SELECT coalesce(sum(balance), 0) FROM wallets),
       (SELECT coalesce(sum(stack), 0) FROM table_seats),
       (SELECT coalesce(sum(pool), 0) FROM tournaments),
       (SELECT coalesce(sum(amount), 0) FROM ledger WHERE kind IN ({_EXTERNAL}))
"""
# Each tournament over with the chips the house gave through rows keyed to it ('T<id>:...',
# compared exactly: SQLite's LIKE ignores case, and a table's keys start 't<id>:').
_TOURNAMENT_HOUSE = f"""
SELECT t.id, t.state_json, coalesce((SELECT sum(l.amount) FROM ledger AS l
    WHERE substr(l.op_key, 1, length('T' || t.id || ':')) = 'T' || t.id || ':'
    AND l.kind IN ({_EXTERNAL})), 0)
FROM tournaments AS t WHERE t.status <> 'open' ORDER BY t.id
"""
# What the house gave at each table: its computers' chips, and the people's stacks it lent
# at a tournament's table (only a table's own movements name it).
_TABLE_HOUSE = f"""
SELECT table_id, sum(amount) FROM ledger WHERE kind IN ({_EXTERNAL}) AND table_id IS NOT NULL
GROUP BY table_id
"""
_KEYS = {
    "moved a wallet {n} times": (
        "SELECT op_key, count(*) FROM ledger WHERE op_key IS NOT NULL "
        "GROUP BY op_key HAVING count(*) > 1"),
    "moved stacks in more than one operation ({n} moves)": (
        "SELECT op_key, count(*) FROM stack_moves WHERE op_key IS NOT NULL "
        "GROUP BY op_key HAVING count(DISTINCT table_id) > 1 OR count(DISTINCT kind) > 1 "
        "OR count(DISTINCT coalesce(hand_no, -1)) > 1 OR (min(kind) <> 'settle' "
        "AND count(*) > 1)"),
    "moved a prize pool {n} times": (
        "SELECT op_key, count(*) FROM pool_moves WHERE op_key IS NOT NULL "
        "GROUP BY op_key HAVING count(*) > 1"),
    "names no operation of its table ({n} rows)": (
        "SELECT op_key, count(*) FROM ("
        " SELECT l.op_key, l.table_id FROM ledger AS l WHERE l.op_key IS NOT NULL"
        " UNION ALL SELECT m.op_key, m.table_id FROM stack_moves AS m"
        " WHERE m.op_key IS NOT NULL) AS keyed "
        "WHERE NOT EXISTS (SELECT 1 FROM operations AS o WHERE o.key = keyed.op_key AND "
        "(o.table_id IS NULL OR keyed.table_id IS NULL OR o.table_id = keyed.table_id)) "
        "GROUP BY op_key"),
}


@dataclass(frozen=True)
class AuditReport:
    """What `audit` found: `problems` (empty when the books are right), the chip totals, and
    the rows of every table (two databases holding the same data report the same)."""

    problems: tuple[str, ...]
    totals: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> dict[str, object]:
        """The figures two copies of one database must share: totals and rows."""
        return {"totals": self.totals, "rows": self.rows}


async def audit_books(conn: Connection) -> AuditReport:
    """Check the books inside the caller's transaction (a read snapshot, or a copy about to
    be committed)."""
    problems: list[str] = []
    for guild, user, balance, ledger in await conn.fetch(_WALLETS):
        if balance != ledger:
            problems.append(f"wallet {guild}/{user}: holds {balance}, its ledger sums to "
                            f"{ledger}")
    for guild, user, ledger in await conn.fetch(_NO_WALLET):
        problems.append(f"wallet {guild}/{user}: none, but its ledger sums to {ledger}")
    for table, user, stack, moved in await conn.fetch(_STACKS):
        problems.append(f"stack {table}/{user}: holds {stack}, its moves sum to {moved}")
    for tournament, pool, moved in await conn.fetch(_POOLS):
        if pool != moved:
            problems.append(f"granted: the prize pool of tournament {tournament} holds "
                            f"{pool}, its moves sum to {moved}")
    ((wallets, stacks, pools, granted),) = await conn.fetch(_TOTALS)
    if wallets + stacks + pools != granted:
        problems.append(f"granted: wallets {wallets} + stacks {stacks} + prize pools {pools} "
                        f"= {wallets + stacks + pools}, but {granted} were granted")
    problems.extend(await _house_nets(conn))
    for what, sql in _KEYS.items():
        for key, n in await conn.fetch(sql):
            problems.append(f"key {key!r}: {what.format(n=n)}")
    rows = {}
    for table in await tables(conn):
        ((count,),) = await conn.fetch(f"SELECT count(*) FROM {table}")
        rows[table] = int(count)
    totals = {"wallets": int(wallets), "stacks": int(stacks), "pools": int(pools),
              "granted": int(granted)}
    return AuditReport(tuple(problems), totals, rows)


async def _house_nets(conn: Connection) -> list[str]:
    """The `house` check: the tournaments over whose house rows do not sum to zero (its
    tables are read from its snapshot)."""
    tables = {int(table): int(amount) for table, amount in await conn.fetch(_TABLE_HOUSE)}
    problems = []
    for tournament, state_json, keyed in await conn.fetch(_TOURNAMENT_HOUSE):
        played = {t["table_id"] for t in json.loads(state_json).get("tables", [])
                  if t.get("table_id") is not None}
        net = int(keyed) + sum(tables.get(table, 0) for table in played)
        if net:
            problems.append(f"house: tournament {tournament} is over, and the house "
                            f"{'gave' if net > 0 else 'took'} {abs(net)} chips in it")
    return problems

