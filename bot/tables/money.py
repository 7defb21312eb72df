"""Chip movements as data: decided with an action, applied with its snapshot (R6, R11, R12).

An action that moves chips appends operations to the table's `pending` list; they are applied
one by one, each in one storage transaction that also saves the snapshot with the operations
still to do. A crash anywhere leaves a snapshot that lists exactly what is left, and a replay
of an operation that did commit is a no-op thanks to its idempotency key (table, hand, step).
"""

from dataclasses import asdict
from typing import Any

from bot.storage import HandRecord, PlayerHandResult, Storage

Op = dict[str, Any]

# Operations whose storage call saves the snapshot in the same transaction.
_WITH_SNAPSHOT = frozenset({"buy_in", "cash_out", "settle", "close"})
# Operations after which the table is closed in storage.
TERMINAL = frozenset({"close", "refund"})


def key(table_id: int, hand_no: int, step: int, kind: str, user: int | None = None) -> str:
    base = f"t{table_id}:h{hand_no}:s{step}:{kind}"
    return base if user is None else f"{base}:{user}"


def buy_in(user: int, amount: int, op_key: str) -> Op:
    return {"op": "buy_in", "user": user, "amount": amount, "key": op_key}


def cash_out(user: int, op_key: str) -> Op:
    return {"op": "cash_out", "user": user, "key": op_key}


def settle(hand_no: int, transfers: list[tuple[int, int, int]], op_key: str,
           hand: HandRecord) -> Op:
    return {"op": "settle", "hand_no": hand_no, "transfers": [list(t) for t in transfers],
            "key": op_key, "hand": {"match_id": hand.match_id, "hand_no": hand.hand_no,
                                    "history_json": hand.history_json,
                                    "results": [asdict(r) for r in hand.results]}}


def match_end(match_id: int, winners: list[int], cancelled: bool = False) -> Op:
    op: Op = {"op": "match_end", "match_id": match_id, "winners": winners}
    if cancelled:  # older snapshots' pending ops have no such key
        op["cancelled"] = True
    return op


def close() -> Op:
    return {"op": "close"}


def refund(reason: str) -> Op:
    return {"op": "refund", "reason": reason}


def carries_snapshot(op: Op) -> bool:
    return op["op"] in _WITH_SNAPSHOT


async def apply(storage: Storage, table_id: int, op: Op, snapshot: str, now: float) -> Any:
    """Apply one operation; `snapshot` is saved with it when the storage call takes one."""
    kind = op["op"]
    if kind == "buy_in":
        return await storage.buy_in(table_id, op["user"], op["amount"], key=op["key"], now=now,
                                    snapshot=snapshot)
    if kind == "cash_out":
        return await storage.cash_out(table_id, op["user"], key=op["key"], now=now,
                                      snapshot=snapshot)
    if kind == "settle":
        h = op["hand"]
        record = HandRecord(h["match_id"], h["hand_no"], h["history_json"],
                            tuple(PlayerHandResult(**r) for r in h["results"]))
        return await storage.settle_hand(table_id, op["hand_no"],
                                         [tuple(t) for t in op["transfers"]], key=op["key"],
                                         now=now, snapshot=snapshot, hand=record)
    if kind == "match_end":
        return await storage.record_match_end(op["match_id"], op["winners"], now=now,
                                              cancelled=op.get("cancelled", False))
    if kind == "close":
        return await storage.close_table(table_id, now=now, snapshot=snapshot)
    if kind == "refund":
        return await storage.refund_table(table_id, op["reason"], now=now)
    raise ValueError(f"unknown money operation {kind!r}")
