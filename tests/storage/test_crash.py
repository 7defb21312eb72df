"""Crash safety: SIGKILL a process moving chips (crash_worker.py: a table's buy-ins,
settlements, cash-outs and refunding close, daily claims, grants, corrections, a tournament's
registrations, leaves, lent table, prizes and cancel refunds), 50 times, on SQLite and on
PostgreSQL.

After each kill the database must pass the independent audit (integrity check, every wallet equals
its ledger, every stack its moves, wallets plus stacks plus pools equal everything granted, the
house's net over a tournament that is over is zero), each open table's snapshot must show exactly
its stacks and each registering tournament's exactly who paid its buy-in (chips and snapshot
commit together), each pool must be its applied buy-ins minus its refunds and prizes (nothing
left in one that is over), a table whose stacks the house lends must hold exactly what the house
lent, and every applied operation must match its journal entry exactly once (a replay never pays
twice).
"""

import json
import multiprocessing
import random
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.backends import Reader
from tests.storage import crash_worker
from tests.storage.audit import EXTERNAL, audit

KILLS = 50


def _journal(path: Path) -> dict[str, dict[str, Any]]:
    """Every key an operation claims, with what it does; a tournament's move under its own."""
    journal = {}
    for e in crash_worker.entries(path):
        if "key" in e:
            journal[e["key"]] = e
        for key, user, chips, kind in e.get("moves", ()):
            journal[key] = {"op": "pool", "tournament": e["tournament"], "user": user,
                            "amount": chips, "kind": kind}
    return journal


def _expected_moves(op: dict[str, Any]) -> Counter[tuple[int, int]] | None:
    """The stack_moves (user, amount) an applied keyed operation must have left, if known."""
    if op["op"] == "settle":
        moves: Counter[tuple[int, int]] = Counter()
        for payer, payee, chips in op["transfers"]:
            if chips:
                moves[(payer, -chips)] += 1
                moves[(payee, chips)] += 1
        return moves
    if op["op"] == "buy_in":
        return Counter({(op["user"], op["amount"]): 1})
    return None  # a cash-out moves whatever the stack held; the others move no stack


def _check_tournaments(conn: Reader, journal: dict[str, dict[str, Any]],
                       applied: set[str]) -> list[str]:
    problems = []
    pool_moves: dict[str, Counter[tuple[int, int]]] = {}
    paid: dict[int, int] = {}  # each registering tournament's net buy-ins
    for key, tournament, user, amount, kind in conn(
        "SELECT op_key, tournament_id, user_id, amount, kind FROM pool_moves"
    ):
        pool_moves.setdefault(key, Counter())[(user, amount)] += 1
        if kind in ("buy_in", "refund"):
            paid.setdefault(tournament, Counter())[user] += amount
    expected_pools: Counter[int] = Counter()
    for key in applied:
        op = journal.get(key, {})
        if op.get("op") == "pool":
            expected_pools[op["tournament"]] += op["amount"]
            wanted = Counter({(op["user"], op["amount"]): 1} if op["amount"] else {})
            if pool_moves.get(key, Counter()) != wanted:
                problems.append(f"{key}: pool moves {pool_moves.get(key)} != journal {wanted}")
    for tournament, pool, status, state in conn(
        "SELECT id, pool, status, state_json FROM tournaments"
    ):
        if pool != expected_pools[tournament] or (status != "open" and pool):
            problems.append(f"tournament {tournament} ({status}): pool {pool}, its applied "
                            f"buy-ins, refunds and prizes sum to {expected_pools[tournament]}")
        shown = json.loads(state)
        registered = sorted(u for u, chips in paid.get(tournament, {}).items() if chips)
        if shown["stage"] == "registering" and shown["entries"] != registered:
            problems.append(f"tournament {tournament}: snapshot registers {shown['entries']}, "
                            f"buy-ins were kept from {registered}")
    marks = ", ".join("?" for _ in EXTERNAL)
    for table, lent, held in conn(
        f"SELECT t.id, coalesce((SELECT sum(amount) FROM ledger AS l WHERE l.table_id = t.id "
        f"AND l.kind IN ({marks})), 0), coalesce((SELECT sum(stack) FROM table_seats AS s "
        f"WHERE s.table_id = t.id), 0) FROM live_tables AS t WHERE t.lent = 1", EXTERNAL
    ):
        if lent != held:
            problems.append(f"lent table {table}: the house lent {lent}, it holds {held}")
    return problems


def _check_against_journal(db: str, journal: dict[str, dict[str, Any]]) -> list[str]:
    problems = []
    with Reader(db) as conn:
        moves: dict[str, Counter[tuple[int, int]]] = {}
        for key, user, amount in conn(
            "SELECT op_key, user_id, amount FROM stack_moves WHERE op_key IS NOT NULL"
        ):
            moves.setdefault(key, Counter())[(user, amount)] += 1
        grants: dict[str, list[int]] = {}
        for key, amount in conn(
            "SELECT op_key, amount FROM ledger WHERE kind IN ('grant', 'correction') "
            "AND op_key IS NOT NULL"
        ):
            grants.setdefault(key, []).append(amount)
        applied = {key for (key,) in conn("SELECT key FROM operations")}
        problems.extend(_check_tournaments(conn, journal, applied))
        for key in applied:
            op = journal.get(key)
            if op is None:
                problems.append(f"operation {key} is in no journal entry")
                continue
            expected = _expected_moves(op)
            if expected is not None and moves.get(key, Counter()) != expected:
                problems.append(f"{key}: stack moves {moves.get(key)} != journal {expected}")
            if op["op"] in ("grant", "correct") and grants.get(key) != [op["amount"]]:
                problems.append(f"{key}: {op['op']} rows {grants.get(key)} != [{op['amount']}]")
        for table, state, changes in conn(
            "SELECT id, state_json, changes_json FROM live_tables WHERE status = 'open'"
        ):
            stacks = dict(conn(
                "SELECT user_id, stack FROM table_seats WHERE table_id = ?", (table,)))
            shown = json.loads(state)["stacks"]
            if {int(u): s for u, s in shown.items()} != stacks:
                problems.append(f"table {table}: snapshot shows {shown}, stacks are {stacks}")
            # a whole snapshot clears the changes saved beside the one before, in its commit
            if changes is not None and json.loads(changes)["of"] != shown:
                problems.append(f"table {table}: changes of {json.loads(changes)['of']} "
                                f"beside a snapshot of {shown}")
    return problems


class _Lines:
    """The lines of a file that others append to, counted as it grows."""

    def __init__(self, path: Path) -> None:
        self.path, self.read, self.lines = path, 0, 0

    def count(self) -> int:
        if self.path.exists():
            with self.path.open("rb") as file:
                # a worker may have cut off a torn line that was partly read
                self.read = min(self.read, file.seek(0, 2))
                file.seek(self.read)
                grown = file.read()
            self.read += len(grown)
            self.lines += grown.count(b"\n")
        return self.lines


def test_a_torn_last_intent_is_cut_off_and_never_read(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    whole = json.dumps({"op": "daily", "user": 11}) + "\n"
    journal.write_text(whole + '{"op": "buy_in", "table": 1, "snapsh')
    assert crash_worker.entries(journal) == [{"op": "daily", "user": 11}]
    assert journal.read_text() == whole


def test_fifty_sigkills_leave_every_chip_accounted_for(database: str, tmp_path: Path) -> None:
    db, journal = database, tmp_path / "journal.jsonl"
    rng = random.Random(50)
    # fork: the child starts with everything imported (50 fresh interpreters take ~10 s);
    # the parent holds no database connection while forking.
    fork = multiprocessing.get_context("fork")
    intents = _Lines(journal)
    for kill in range(1, KILLS + 1):
        ours, theirs = fork.Pipe()
        worker = fork.Process(target=crash_worker.run, args=(db, journal, kill, theirs))
        worker.start()
        assert ours.poll(30) and ours.recv() == "ready", f"worker {kill} did not start"
        # Killed once it has begun a few more operations, however fast the machine is: it is
        # then in the middle of one, or between two.
        target = intents.count() + rng.randint(4, 12)
        while intents.count() < target and worker.is_alive():
            time.sleep(0.002)
        worker.kill()
        worker.join()
        assert worker.exitcode == -signal.SIGKILL, f"worker {kill} ended by itself"
        assert audit(db) == [], f"after kill {kill}"
        assert _check_against_journal(db, _journal(journal)) == [], f"after kill {kill}"
    with Reader(db) as query:
        applied = Counter(kind for (kind,) in query("SELECT kind FROM operations"))
        ended = Counter(status for (status,) in query("SELECT status FROM tournaments"))
        lent = query("SELECT count(*) FROM ledger WHERE kind = 'grant' AND table_id IS NOT NULL")
        refunded = query("SELECT count(*) FROM live_tables WHERE lent = 1 AND status = 'refunded'")
    # the kills must have interrupted real work of every kind, not an idle loop
    assert min(applied[k] for k in ("buy_in", "settle", "cash_out")) >= 20, applied
    assert min(applied[k] for k in ("correction", "tournament_buy_in", "tournament_refund")) >= 5
    assert applied["tournament_prize"] and ended["finished"] and ended["cancelled"], ended
    assert lent[0][0] >= 5 and refunded[0][0] >= 2, (lent, refunded)
