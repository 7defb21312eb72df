"""An independent audit of a database, in plain sqlite3 or asyncpg (not through the code
under test; tests/backends.py's Reader).

Every check is a relation RULES.md R12 and the issue ask for: wallets equal their ledger,
stacks equal their moves, prize pools equal their ledger rows, and wallets plus stacks
plus pools equal every chip that entered the economy, and the house's net over every
tournament that is over is zero.
"""

import asyncio
import json
import sys
from pathlib import Path

from tests.backends import Reader

ROOT = Path(__file__).resolve().parents[2]

EXTERNAL = ("start", "daily", "grant", "correction", "house")
# rows that must not exist
_NONE_OF = {
    "ledger rows of humans without a wallet": (
        "ledger AS l WHERE l.user_id > 0 AND NOT EXISTS (SELECT 1 FROM wallets AS w "
        "WHERE w.guild_id = l.guild_id AND w.user_id = l.user_id)"
    ),
    "seats left at closed tables": (
        "table_seats AS s JOIN live_tables AS t ON t.id = s.table_id WHERE t.status <> 'open'"
    ),
    "house rows of human seats": "ledger WHERE kind = 'house' AND user_id > 0",
}


def audit(target: str | Path) -> list[str]:
    """Every broken invariant, described; an empty list when the database is sound."""
    with Reader(target) as query:
        return _problems(query)


async def assert_audited(target: str) -> None:
    """Both the bot's own `ofc audit`, in a process of its own, and this audit pass."""
    checked = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "audit", "--database", target, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    report, _ = await checked.communicate()
    assert checked.returncode == 0, report.decode()
    assert audit(target) == []


def _problems(query: Reader) -> list[str]:
    problems: list[str] = []
    if not query.postgres:  # PostgreSQL checks pages and foreign keys on every write
        check = query("PRAGMA integrity_check")
        if check != [("ok",)]:
            problems.append(f"integrity_check: {check}")
        fk = query("PRAGMA foreign_key_check")
        if fk:
            problems.append(f"foreign_key_check: {fk}")
    for guild, user, balance, ledger_sum, last_after in query(
        "SELECT w.guild_id, w.user_id, w.balance, "
        "(SELECT sum(amount) FROM ledger AS l WHERE l.guild_id = w.guild_id "
        " AND l.user_id = w.user_id), "
        "(SELECT balance_after FROM ledger AS l WHERE l.guild_id = w.guild_id "
        " AND l.user_id = w.user_id ORDER BY id DESC LIMIT 1) FROM wallets AS w"
    ):
        if not balance == ledger_sum == last_after:
            problems.append(
                f"wallet {guild}/{user}: balance {balance}, ledger sum {ledger_sum}, "
                f"last balance_after {last_after}"
            )
    for table, user, moves, stack in query(
        "SELECT m.table_id, m.user_id, sum(m.amount), "
        "coalesce((SELECT stack FROM table_seats AS s WHERE s.table_id = m.table_id "
        " AND s.user_id = m.user_id), 0) FROM stack_moves AS m GROUP BY m.table_id, m.user_id"
    ):
        if moves != stack:
            problems.append(f"stack {table}/{user}: {stack}, its moves sum to {moves}")
    # What left a wallet (or came from the house) for a table is what its stack moves show.
    for table, user, ledger_side, moves_side in query(
        "SELECT m.table_id, m.user_id, "
        "coalesce((SELECT -sum(l.amount) FROM ledger AS l WHERE l.table_id = m.table_id "
        " AND l.user_id = m.user_id AND l.kind IN ('buy_in', 'cash_out', 'refund')), 0) + "
        "coalesce((SELECT sum(l.amount) FROM ledger AS l WHERE l.table_id = m.table_id "
        " AND l.user_id = m.user_id AND l.kind = 'house'), 0), "
        "sum(m.amount) FILTER (WHERE m.kind <> 'settle') "
        "FROM stack_moves AS m GROUP BY m.table_id, m.user_id"
    ):
        if ledger_side != moves_side:
            problems.append(
                f"table {table}/{user}: ledger moved {ledger_side} to the table, "
                f"stack moves show {moves_side}"
            )
    for key, total in query(
        "SELECT op_key, sum(amount) FROM stack_moves WHERE kind = 'settle' GROUP BY op_key"
    ):
        if total:
            problems.append(f"settlement {key} creates {total} chips")
    # A tournament's prize pool is the sum of its moves, each the other side of a ledger row.
    for tournament, pool, moves, ledger_side in query(
        "SELECT t.id, t.pool, coalesce(sum(m.amount), 0), coalesce(sum(CASE WHEN "
        " l.kind = 'house' THEN l.amount ELSE -l.amount END), 0) FROM tournaments AS t "
        "LEFT JOIN pool_moves AS m ON m.tournament_id = t.id "
        "LEFT JOIN ledger AS l ON l.id = m.ledger_id GROUP BY t.id"
    ):
        if not pool == moves == ledger_side:
            problems.append(f"tournament {tournament}: pool {pool}, its moves sum to {moves}, "
                            f"their ledger rows to {ledger_side}")
    pools = query("SELECT coalesce(sum(pool), 0) FROM tournaments")[0][0]
    wallets = query("SELECT coalesce(sum(balance), 0) FROM wallets")[0][0]
    stacks = query("SELECT coalesce(sum(stack), 0) FROM table_seats")[0][0]
    marks = ", ".join("?" for _ in EXTERNAL)
    granted = query(
        f"SELECT coalesce(sum(amount), 0) FROM ledger WHERE kind IN ({marks})", EXTERNAL
    )[0][0]
    if wallets + stacks + pools != granted:
        problems.append(
            f"wallets {wallets} + stacks {stacks} + pools {pools} != granted {granted}")
    for what, sql in _NONE_OF.items():
        found = query(f"SELECT count(*) FROM {sql}")[0][0]
        if found:
            problems.append(f"{found} {what}")
    problems.extend(_house_nets(query))
    return problems


def _house_nets(query: Reader) -> list[str]:
    """Over every tournament that is over, the house gave and took nothing: the external
    rows keyed to it ('T<id>:...': stakes, their return, any buy-in or prize of the house)
    and the external rows of its tables (its computers' chips, the stacks it lent people)
    sum to zero."""
    external = query(f"SELECT op_key, amount FROM ledger WHERE op_key IS NOT NULL AND kind IN "
                     f"({', '.join('?' for _ in EXTERNAL)})", EXTERNAL)
    at_tables: dict[int, int] = {}
    for table, amount in query(f"SELECT table_id, amount FROM ledger WHERE kind IN "
                               f"({', '.join('?' for _ in EXTERNAL)}) AND table_id IS NOT NULL",
                               EXTERNAL):
        at_tables[table] = at_tables.get(table, 0) + amount
    problems = []
    for tournament, state in query("SELECT id, state_json FROM tournaments "
                                   "WHERE status <> 'open'"):
        prefix = f"T{tournament}:"
        net = sum(amount for key, amount in external if key.startswith(prefix))
        tables = json.loads(state).get("tables", [])
        net += sum(at_tables.get(t["table_id"], 0) for t in tables if t.get("table_id"))
        if net:
            problems.append(f"tournament {tournament}: the house's net over it is {net}")
    return problems
