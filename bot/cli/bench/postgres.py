"""PostgreSQL for the `_pg` figures: a throwaway server from the installed binaries
(tests/pgserver.py) with PostgreSQL's default durability (every commit flushed to disk, as
SQLite's synchronous=FULL), measured in the same run as the SQLite figures. Without the
binaries, or outside the source checkout (the throwaway server is test code, not installed
with the package), the `_pg` figures are left out with a note on stderr."""

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bench_database(wanted: bool) -> Iterator[str | None]:
    """A fresh PostgreSQL database's URL, or None when not wanted or not available."""
    if not wanted:
        yield None
        return
    try:
        from tests.pgserver import TempServer, Unavailable
    except ImportError:
        print("ofc bench: the _pg figures are left out: they need the source checkout "
              "(tests/pgserver.py)", file=sys.stderr)
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
