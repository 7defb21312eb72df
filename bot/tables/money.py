"""Chip movements as data: decided with an action, applied with its snapshot (R6, R11, R12).

An action that moves chips appends operations to the table's `pending` list; they are applied
one by one, each in one storage transaction that also saves the snapshot with the operations
still to do. A crash anywhere leaves a snapshot that lists exactly what is left, and a replay
of an operation that did commit is a no-op thanks to its idempotency key (table, hand, step).

In the snapshot an operation is an object naming its kind first (`{"op": "buy_in", "user":
..}`) and then its fields in order (bot/engine/codec.py).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.engine import codec
from bot.storage import HandRecord, Refund, Settlement, StackMove, Storage


def key(table_id: int, hand_no: int, step: int, kind: str, user: int | None = None) -> str:
    base = f"t{table_id}:h{hand_no}:s{step}:{kind}"
    return base if user is None else f"{base}:{user}"


@dataclass(frozen=True, slots=True)
class MoneyOp:
    """One chip movement. `with_snapshot`: its storage call saves the snapshot in the same
    transaction; `terminal`: the table is closed in storage after it."""

    KIND: ClassVar[str]
    with_snapshot: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    async def apply(self, storage: Storage, table_id: int, snapshot: str, now: float) -> Any:
        """Apply the operation; `snapshot` is saved with it when the storage call takes one."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class BuyIn(MoneyOp):
    KIND = "buy_in"
    user: int
    amount: int
    key: str

    async def apply(self, storage: Storage, table_id: int, snapshot: str,
                    now: float) -> StackMove:
        return await storage.tables.buy_in(table_id, self.user, self.amount, key=self.key, now=now,
                                           snapshot=snapshot)


@dataclass(frozen=True, slots=True)
class CashOut(MoneyOp):
    KIND = "cash_out"
    user: int
    key: str

    async def apply(self, storage: Storage, table_id: int, snapshot: str,
                    now: float) -> StackMove:
        return await storage.tables.cash_out(table_id, self.user, key=self.key, now=now,
                                             snapshot=snapshot)


@dataclass(frozen=True, slots=True)
class Settle(MoneyOp):
    """A hand's R6 transfers (payer, payee, chips) with its history for /history, /stats."""

    KIND = "settle"
    hand_no: int
    transfers: tuple[tuple[int, int, int], ...]
    key: str
    hand: HandRecord

    async def apply(self, storage: Storage, table_id: int, snapshot: str,
                    now: float) -> Settlement:
        return await storage.tables.settle_hand(table_id, self.hand_no, list(self.transfers),
                                                key=self.key, now=now, snapshot=snapshot,
                                                hand=self.hand)


@dataclass(frozen=True, slots=True)
class MatchEnd(MoneyOp):
    KIND = "match_end"
    with_snapshot = False
    match_id: int
    winners: tuple[int, ...]
    cancelled: bool = False  # /ofc cancel: ended, left out of /stats
    # (seat id, level) of each computer, for the ratings (snapshot step 10 gives older ones none)
    computers: tuple[tuple[int, str], ...] = ()

    async def apply(self, storage: Storage, table_id: int, snapshot: str, now: float) -> bool:
        return await storage.history.record_match_end(self.match_id, list(self.winners), now=now,
                                                      cancelled=self.cancelled,
                                                      computers=dict(self.computers))


@dataclass(frozen=True, slots=True)
class Close(MoneyOp):
    KIND = "close"
    terminal = True

    async def apply(self, storage: Storage, table_id: int, snapshot: str, now: float) -> bool:
        return await storage.tables.close_table(table_id, now=now, snapshot=snapshot)


@dataclass(frozen=True, slots=True)
class RefundTable(MoneyOp):
    """Every stack back to its owner, the table closed as refunded."""

    KIND = "refund"
    with_snapshot = False
    terminal = True
    reason: str

    async def apply(self, storage: Storage, table_id: int, snapshot: str,
                    now: float) -> Refund:
        return await storage.tables.refund_table(table_id, self.reason, now=now)


Op = BuyIn | CashOut | Settle | MatchEnd | Close | RefundTable
_KINDS: dict[str, type[Op]] = {c.KIND: c for c in (BuyIn, CashOut, Settle, MatchEnd, Close,
                                                    RefundTable)}


def play_chips(ops: Sequence[Op]) -> list[Op]:
    """A practice table's operations (/ofc practice): its stacks are play chips that never leave
    or reach a wallet, so buy-ins and cash-outs are dropped and a settlement only records the
    hand (with its snapshot); match ends and closes are kept."""
    kept: list[Op] = []
    for op in ops:
        if isinstance(op, Settle):
            kept.append(replace(op, transfers=()))
        elif not isinstance(op, BuyIn | CashOut):
            kept.append(op)
    return kept


def to_json(op: Op) -> dict[str, Any]:
    return {"op": op.KIND, **codec.dump(op)}


def from_json(data: dict[str, Any]) -> Op:
    kind = data["op"]
    if kind not in _KINDS:
        raise ValueError(f"unknown money operation {kind!r}")
    return codec.load(_KINDS[kind], {k: v for k, v in data.items() if k != "op"})
