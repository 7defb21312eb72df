"""Transactions stay whole when the task holding one is cancelled (the shared SQLite
connection; a pooled PostgreSQL connection)."""

import asyncio
from pathlib import Path

from bot.storage.backend import open_database
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


async def test_a_task_cancelled_inside_a_transaction_commits_nothing(database: str) -> None:
    db = await open_database(database)
    try:
        started = asyncio.Event()

        async def write() -> None:
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO guild_settings (guild_id, updated_at) VALUES (1, 0)")
                started.set()
                await asyncio.Event().wait()  # held open until cancelled

        task = asyncio.create_task(write())
        await started.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

        async with db.transaction() as conn:  # the next unit of work runs, on a clean slate
            await conn.execute("INSERT INTO guild_settings (guild_id, updated_at) VALUES (2, 0)")
        async with db.transaction(write=False) as conn:
            assert await conn.fetch("SELECT guild_id FROM guild_settings") == [(2,)]
    finally:
        await db.close()
