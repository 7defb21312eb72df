"""A process of buy-ins (tests/storage/test_concurrency.py): many at once on one wallet."""

import asyncio
import sys
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Barrier

from bot.storage import InsufficientChips, Storage


async def _buy(target: str, table: int, user: int, count: int, name: str,
               start: Barrier) -> tuple[int, list[int]]:
    store = await Storage.open(target)
    try:
        start.wait()  # the other process is ready too: they go at once
        results = await asyncio.gather(
            *(store.tables.buy_in(table, user, 10, key=f"{name}:{n}", now=1.0)
              for n in range(count)),
            return_exceptions=True)
    finally:
        await store.close()
    refused = [r.available for r in results if isinstance(r, InsufficientChips)]
    others = [r for r in results if isinstance(r, BaseException) and
              not isinstance(r, InsufficientChips)]
    if others:
        raise others[0]
    return sum(1 for r in results if not isinstance(r, BaseException) and r.applied), refused


def run(target: str, table: int, user: int, count: int, name: str, start: Barrier,
        out: Connection) -> None:
    """The process's entry point: sends (buy-ins applied, `available` of each refusal)."""
    out.send(asyncio.run(_buy(target, table, user, count, name, start)))
    sys.exit(0)
