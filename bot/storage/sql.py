"""Reading rows: the one helper every storage module queries through."""

from collections.abc import Iterable
from typing import Any

import aiosqlite


async def fetchall(conn: aiosqlite.Connection, sql: str,
                   params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
    """Every row of `sql`, as a list (aiosqlite types them as an iterable only)."""
    return list(await conn.execute_fetchall(sql, params))
