"""Reading rows: the one helper every storage module queries through."""

from collections.abc import Iterable
from typing import Any

import aiosqlite

from bot.sharding import ShardPlan


async def fetchall(conn: aiosqlite.Connection, sql: str,
                   params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
    """Every row of `sql`, as a list (aiosqlite types them as an iterable only)."""
    return list(await conn.execute_fetchall(sql, params))


def on_shards(plan: ShardPlan | None) -> tuple[str, tuple[int, ...]]:
    """A WHERE condition (and its parameters) keeping the rows whose `guild_id` is on the
    plan's shards (Discord's rule, bot/sharding.py); every row for None or every shard."""
    if plan is None or plan.every:
        return "1 = 1", ()
    marks = ", ".join("?" * len(plan.ids))
    return f"(guild_id >> 22) % ? IN ({marks})", (plan.count, *plan.ids)
