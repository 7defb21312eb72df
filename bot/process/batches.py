"""Writes that come in bursts, done in batches (group commit): the items added within one tick
of the event loop, and all those added while a batch is being done, go in the next batch.

Used for the tables' snapshot saves (bot.tables.commits) and the members' locales
(cogs.common.language): many small writes at once cost one transaction, not one each.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Batches(Generic[T]):
    """`do` gets each batch in the order added. It answers for its own errors: one that
    escapes ends the runner, and the items still pending wait for the next `add`."""

    def __init__(self, do: Callable[[list[T]], Awaitable[None]]) -> None:
        self._do = do
        self._pending: list[T] = []
        self._runner: asyncio.Task[None] | None = None

    def add(self, item: T) -> None:
        self._pending.append(item)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Wait for the batches already asked for."""
        if self._runner is not None:
            await asyncio.gather(self._runner, return_exceptions=True)

    async def _run(self) -> None:
        while self._pending:
            await asyncio.sleep(0)  # one tick: the rest of this moment's items join
            batch, self._pending = self._pending, []
            await self._do(batch)
