"""Run by test_crash.py in a forked process: random money operations until SIGKILLed.

The operations: a table's buy-ins, settlements, cash-outs and refunding close; daily claims,
grants and corrections; a tournament's registrations, leaves, its table whose stacks the house
lends, and its end, paid or cancelled (one keyed move per prize or refund, as the director does).
Between them, now and then, a save of what changed since a table's snapshot (`changes`, naming
the stacks that snapshot shows), which moves no chip and is in no journal.

Before each operation it appends its intent to a journal (the parent checks the database
against it), and on start it replays the last whole intent with the same key, as the bot does
after a crash. Every snapshot it writes holds the stacks the operation leads to, so the
parent can check that chips and snapshot were committed together. It exits with status 3
if replaying an applied operation ever applies it again.
"""

import asyncio
import json
import os
import random
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot.storage import Storage, StorageError, Transfer

GUILD = 1
CHANNEL = 2
HUMANS = (11, 12, 13)
COMPUTER = -1
PADDING = "x" * 2000  # a snapshot about the size of a real table's
BUY = 40  # a tournament's buy-in


def snapshot(stacks: dict[int, int]) -> str:
    return json.dumps({"stacks": stacks, "padding": PADDING})


def _settled(stacks: dict[int, int], transfers: list[list[int]]) -> dict[int, int] | None:
    after = dict(stacks)
    for payer, payee, chips in transfers:
        after[payer] -= chips
        after[payee] += chips
        if after[payer] < 0:
            return None
    return after


def entries(journal: Path) -> list[dict[str, Any]]:
    """The journal's whole entries, after cutting off a torn last line.

    A SIGKILL can land inside the write of an intent (about 2 KB, and Linux stops a write to a
    file between pages when a fatal signal is pending), leaving part of a line. That intent
    never ran: an operation starts only once its intent is written in full.
    """
    if not journal.exists():
        return []
    text = journal.read_text()
    whole = text[: text.rfind("\n") + 1]
    if whole != text:
        journal.write_text(whole)  # so the next intent starts a line of its own
    return [json.loads(line) for line in whole.splitlines() if line.strip()]


async def plan(store: Storage, rng: random.Random, key: str) -> dict[str, Any]:
    """The next operation, as a journal entry."""
    tournaments = await store.tournaments.open_tournaments()
    if not tournaments:
        return {"op": "t_create"}
    tournament = tournaments[0]
    state = json.loads(tournament.state_json)
    tables = await store.tables.live_tables()
    lent = [t for t in tables if t.id in {x["table_id"] for x in state["tables"]}]
    own = [t for t in tables if t not in lent]
    if not own:
        return {"op": "create"}
    if rng.random() < 0.2:
        return _other(rng, key, tournament.id, state, lent)
    table = rng.choice(own + lent)
    stacks = table.stacks
    seated = sorted(stacks)
    roll = rng.random()
    if roll < 0.3 or len(seated) < 2:
        user = rng.choice((*HUMANS, COMPUTER))
        amount = rng.randint(1, 400)
        after = {**stacks, user: stacks.get(user, 0) + amount}
        return {"op": "buy_in", "table": table.id, "user": user, "amount": amount, "key": key,
                "snapshot": snapshot(after)}
    if roll < 0.75:
        transfers = [[*rng.sample(seated, 2), rng.randint(0, 80)] for _ in range(3)]
        after = _settled(stacks, transfers) or stacks
        return {"op": "settle", "table": table.id, "transfers": transfers, "key": key,
                "snapshot": snapshot(after)}
    if roll < 0.85:
        user = rng.choice(seated)
        after = {u: s for u, s in stacks.items() if u != user}
        return {"op": "cash_out", "table": table.id, "user": user, "key": key,
                "snapshot": snapshot(after)}
    if roll < 0.9:
        return {"op": "daily", "user": rng.choice(HUMANS)}
    if roll < 0.97:
        return {"op": "grant", "user": rng.choice(HUMANS), "amount": rng.randint(1, 100),
                "key": key}
    return {"op": "refund", "table": table.id}


def _other(rng: random.Random, key: str, tournament: int, state: dict[str, Any],
           lent: list[Any]) -> dict[str, Any]:
    """A correction or the open tournament's next step: its moves are [key, user, chips into
    the pool, kind]; its snapshot lists who is registered (`entries`) and its tables."""
    entries: list[int] = state["entries"]
    roll = rng.random()
    if roll < 0.2:
        return {"op": "correct", "user": rng.choice(HUMANS),
                "amount": rng.choice((-1, 1)) * rng.randint(1, 60), "key": key}
    if state["stage"] == "registering":
        if not state["tables"]:
            return {"op": "t_table", "tournament": tournament, "state": state}
        if lent and roll < 0.3:
            # lost permission, a deleted channel, a snapshot refused at restart
            return {"op": "refund", "table": lent[0].id}
        user = rng.choice(HUMANS)
        if lent or roll < 0.75:
            joining = user not in entries
            after = sorted({*entries, user}) if joining else [e for e in entries if e != user]
            move = [key, user, BUY, "buy_in"] if joining else [key, user, -BUY, "refund"]
            return {"op": "t_move", "tournament": tournament, "key": key, "moves": [move],
                    "snapshot": json.dumps({**state, "entries": after})}
    # its table gone: the final's prizes paid (the pool, shared out), or cancelled and refunded
    # Alternate by id, not at random: every run ends some of each (the test requires both).
    pool = BUY * len(entries)
    if entries and tournament % 2:
        first = pool - pool // 3 if len(entries) > 1 else pool
        prizes = [(entries[0], first), (entries[1], pool - first)] if len(entries) > 1 else [
            (entries[0], pool)]
        moves = [[f"{key}:{u}", u, -chips, "prize"] for u, chips in prizes if chips]
        status = "finished"
    else:
        moves, status = [[f"{key}:{u}", u, -BUY, "refund"] for u in entries], "cancelled"
    return {"op": "t_end", "tournament": tournament, "moves": moves, "status": status,
            "snapshot": json.dumps({**state, "stage": "over"}), "key": key}


async def _tournament(store: Storage, op: dict[str, Any], now: float) -> bool:
    """Run a tournament's journal entry; True if any of its moves applied."""
    t = op["tournament"]
    if op["op"] == "t_table":
        table = await store.tables.create_table(GUILD, CHANNEL, snapshot({}), now=now, lent=True)
        state = {**op["state"], "tables": [{"table_id": table}]}
        await store.tournaments.save_tournament(t, json.dumps(state), now=now)
        return True
    if op["op"] == "t_end":  # saved as over first, as the director saves a finished final
        await store.tournaments.save_tournament(t, op["snapshot"], now=now)
    applied = False
    for key, user, chips, kind in op["moves"]:
        applied |= (await store.tournaments.tournament_move(
            t, user, abs(chips), kind, key=key, now=now,
            snapshot=op["snapshot"] if op["op"] == "t_move" else None)).applied
    if op["op"] == "t_end":
        await store.tournaments.save_tournament(t, op["snapshot"], now=now, status=op["status"])
    return applied


async def apply(store: Storage, op: dict[str, Any], now: float) -> bool:
    """Run one journal entry; True if it applied (False: a repeat or a refusal)."""
    try:
        match op["op"]:
            case "create":
                await store.tables.create_table(GUILD, CHANNEL, snapshot({}), now=now)
            case "buy_in":
                return (await store.tables.buy_in(op["table"], op["user"], op["amount"],
                                                  key=op["key"], now=now,
                                                  snapshot=op["snapshot"])).applied
            case "settle":
                transfers = [Transfer(*t) for t in op["transfers"]]
                return (await store.tables.settle_hand(op["table"], 1, transfers, key=op["key"],
                                                       now=now, snapshot=op["snapshot"])).applied
            case "cash_out":
                return (await store.tables.cash_out(op["table"], op["user"], key=op["key"], now=now,
                                                    snapshot=op["snapshot"])).applied
            case "daily":
                await store.wallets.claim_daily(GUILD, op["user"], now=now)
            case "grant":
                return (await store.wallets.grant(GUILD, op["user"], op["amount"],
                                                  reason="crash test", actor_id=99, now=now,
                                                  key=op["key"])).applied
            case "refund":
                await store.tables.refund_table(op["table"], "crash test refund", now=now)
            case "correct":
                return (await store.wallets.correct(GUILD, op["user"], op["amount"],
                                                    reason="crash test", actor_id=99, now=now,
                                                    key=op["key"])).applied
            case "t_create":
                state = {"stage": "registering", "entries": [], "tables": []}
                await store.tournaments.create_tournament(GUILD, CHANNEL, json.dumps(state),
                                                          now=now)
            case _:
                return await _tournament(store, op, now)
    except StorageError:
        return False
    return True


async def save_changes(store: Storage, rng: random.Random, now: float) -> None:
    """Save changes beside an open table's snapshot, naming the stacks it shows."""
    tables = await store.tables.live_tables()
    if tables:
        table = rng.choice(tables)
        of = json.loads(table.state_json)["stacks"]
        await store.tables.save_snapshot(table.id, json.dumps({"of": of}), now=now, changes=True)


async def _loop(db: str, journal: Path, seed: int, ready: Connection) -> int:
    rng = random.Random(seed)
    between = random.Random(-seed)  # its own: the operations are the same with or without
    store = await Storage.open(db, daily_cooldown_seconds=0)
    written = entries(journal)
    if written and "key" in (last := written[-1]):
        await apply(store, last, now=seed)  # it may or may not have committed before the kill
    applied: list[dict[str, Any]] = []
    ready.send("ready")
    with journal.open("a") as out:
        for n in range(10**9):
            if applied and rng.random() < 0.05:
                if await apply(store, rng.choice(applied), now=seed):
                    return 3
                continue
            op = await plan(store, rng, f"{seed}:{n}")
            out.write(json.dumps(op) + "\n")
            out.flush()
            if await apply(store, op, now=seed) and "key" in op:
                applied.append(op)
            if between.random() < 0.3:
                await save_changes(store, between, now=seed)
    return 0


def run(db: str, journal: Path, seed: int, ready: Connection) -> None:
    """The forked process's entry point; says "ready" on `ready` once the store is open.

    It ends at once on an error (status 4, the traceback on stderr): an ordinary exit waits
    for the database's threads, which a failed operation can leave running, and the parent
    would wait forever for its next intent."""
    try:
        code = asyncio.run(_loop(db, journal, seed, ready))
    except BaseException:
        traceback.print_exc()
        code = 4
    sys.stderr.flush()
    os._exit(code)
