"""Group commit: the snapshot-only saves of many tables share one transaction.

Most actions (a card put in a draft, a placement, a timer) save only the table's snapshot,
and each commit waits for its fsync (synchronous=FULL). `GroupCommit.save` queues the
snapshot and waits: the saves arriving within one tick of the event loop, and all those
arriving while a transaction is being written, go to storage together as one transaction
(`storage.tables.save_snapshots`), so twenty busy tables pay one fsync, not twenty. Each caller
still returns only once its snapshot is committed, so "saved before anyone hears of it"
holds. A batch of one takes `save_snapshot`, as before.

Chip movements never come here: each is applied in its own transaction with the snapshot
that explains it (money.py), as durable as ever.
"""

import asyncio
from dataclasses import dataclass

from bot.process.batches import Batches
from bot.storage import Tables


@dataclass(eq=False)
class _Save:
    table_id: int
    text: str
    now: float
    changes: bool  # the text is what changed since the table's whole snapshot
    done: asyncio.Future[None]


class GroupCommit:
    def __init__(self, tables: Tables) -> None:
        self._tables = tables  # storage's part for tables: snapshots are all it writes
        self._batches = Batches(self._write)
        self.transactions = 0  # for tests and figures: transactions written

    async def save(self, table_id: int, text: str, now: float, *, changes: bool = False) -> None:
        """Save a table's snapshot (`changes`: what changed since its whole one) with the
        others of this tick; return once committed (or raise the storage error that refused
        it)."""
        entry = _Save(table_id, text, now, changes, asyncio.get_running_loop().create_future())
        self._batches.add(entry)
        await entry.done

    async def close(self) -> None:
        """Wait for the saves already asked for."""
        await self._batches.close()

    async def _write(self, waiting: list[_Save]) -> None:
        # A caller cancelled before its turn (its table rolled back) is not saved.
        batch = [s for s in waiting if not s.done.done()]
        if not batch:
            return
        try:
            errors = await self._commit(batch)
        except Exception as error:  # nothing of the batch was saved
            for entry in batch:
                _answer(entry, error)
            return
        for entry, refused in zip(batch, errors, strict=True):
            _answer(entry, refused)

    async def _commit(self, batch: list[_Save]) -> list[Exception | None]:
        self.transactions += 1
        if len(batch) == 1:
            one = batch[0]
            try:
                await self._tables.save_snapshot(one.table_id, one.text, now=one.now,
                                                 changes=one.changes)
            except Exception as error:
                return [error]
            return [None]
        found = await self._tables.save_snapshots(
            [(s.table_id, s.text, s.changes) for s in batch], now=max(s.now for s in batch))
        return list(found)


def _answer(entry: _Save, error: BaseException | None) -> None:
    if entry.done.done():
        return
    if error is None:
        entry.done.set_result(None)
    else:
        entry.done.set_exception(error)
