"""The shared connection's transactions stay whole when the task holding one is cancelled."""

import asyncio
from pathlib import Path

from bot.storage.sqlite import SQLiteDatabase


async def test_a_task_cancelled_while_beginning_leaves_no_transaction_open(
        tmp_path: Path) -> None:
    db = await SQLiteDatabase.open(tmp_path / "ofc.sqlite3")
    try:
        async def write() -> None:
            async with db.transaction() as conn:
                await conn.execute("CREATE TABLE never (x INTEGER)")

        task = asyncio.create_task(write())
        await asyncio.sleep(0)  # the task holds the lock, its BEGIN queued on the thread
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

        async with db.transaction() as conn:  # the next unit of work can begin
            await conn.execute("CREATE TABLE later (x INTEGER)")
        async with db.transaction(write=False) as conn:
            names = await conn.fetch(
                "SELECT name FROM sqlite_master WHERE name IN ('never', 'later')")
        assert [n for (n,) in names] == ["later"]
    finally:
        await db.close()
