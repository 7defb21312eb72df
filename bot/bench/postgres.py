"""PostgreSQL for the `_pg` figures: a throwaway server from the installed binaries
(bot/pgserver.py) with PostgreSQL's default durability (every commit flushed to disk, as
SQLite's synchronous=FULL), measured in the same run as the SQLite figures. Without the
binaries, the `_pg` figures are left out with a note on stderr."""

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from bot.pgserver import TempServer, Unavailable


@contextmanager
def bench_database(wanted: bool) -> Iterator[str | None]:
    """A fresh PostgreSQL database's URL, or None when not wanted or not available."""
    if not wanted:
        yield None
        return
    try:
        server = TempServer(durable=True)
        server.start()
    except Unavailable as why:
        print(f"ofc bench: the _pg figures are left out: {why}", file=sys.stderr)
        yield None
        return
    try:
        yield asyncio.run(server.create_database("bench"))
    finally:
        server.stop()
