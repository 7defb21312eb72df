"""Transactions stay whole when the task holding one is cancelled (the shared SQLite
connection; a pooled PostgreSQL connection)."""

import asyncio
from pathlib import Path

import pytest

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


async def test_a_first_statement_of_whole_numbers_keeps_their_signs(database: str) -> None:
    # On PostgreSQL it travels as text with its transaction's BEGIN, the numbers written in:
    # `1000--5` there would end at a comment.
    db = await open_database(database)
    try:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, starting_chips, updated_at) "
                "VALUES (?, 1000-?, ?)", (7, -5, 0))
        async with db.transaction() as conn:
            assert await conn.execute(
                "UPDATE guild_settings SET daily_chips = 0-? WHERE guild_id = ? AND "
                "starting_chips = ?", (-300, 7, 1005)) == 1
        async with db.transaction(write=False) as conn:
            assert await conn.fetch(
                "SELECT starting_chips, daily_chips FROM guild_settings") == [(1005, 300)]
    finally:
        await db.close()


async def test_a_first_statement_that_fails_rolls_its_transaction_back(database: str) -> None:
    # Rolled back by the transaction itself, not left to the pool's reset (which would tell
    # the event loop it found a transaction open).
    told: list[str] = []
    asyncio.get_running_loop().set_exception_handler(
        lambda _loop, context: told.append(context["message"]))
    db = await open_database(database)
    try:
        for _ in range(2):  # the pooled connection is left clean for the next transaction
            with pytest.raises(Exception, match=r"(?i)unique"):
                async with db.transaction() as conn:
                    await conn.execute("INSERT INTO guild_settings (guild_id, updated_at) "
                                       "VALUES (?, ?), (?, ?)", (8, 0, 8, 0))
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)",
                               (8, 1))
        async with db.transaction(write=False) as conn:
            assert await conn.fetch("SELECT guild_id, updated_at FROM guild_settings") == [(8, 1)]
    finally:
        await db.close()
    assert told == []
