"""The seam between storage and its two databases: SQLite (sqlite.py) and PostgreSQL
(postgres.py).

Every storage query is written once, with `?` placeholders, against `Connection`; each backend
translates what it must (PostgreSQL numbers its placeholders `$1, $2...`). Dialect-specific SQL
is kept to the few places that need it, each through a `Connection` attribute:
- `for_update`, appended to a SELECT that reads a row the transaction will change: a row lock
  on PostgreSQL (writers run at once there, on a pool of connections); nothing on SQLite,
  where BEGIN IMMEDIATE already makes every writer wait for the one before it;
- `for_share`, appended to a SELECT of rows that must not change until the transaction ends
  (a shard's lease, while a write it fences lands: bot/storage/fencing.py);
- `lock_table(name)`, for a read-then-write on rows that may not exist yet;
- `together(...)`: statements queued back to back where the driver can (aiosqlite), one
  after the other where it cannot (an asyncpg connection runs one statement at a time).

Which database: `OFC_DATABASE` (or a command's `--database`) is a `postgresql://` URL, or an
SQLite file, given as a path or as `sqlite:PATH`.
"""

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Literal, Protocol

from bot.storage.errors import StorageError

Row = tuple[Any, ...]
Dialect = Literal["sqlite", "postgresql"]
# Which databases an opening takes: any, created or given the bot's tables as needed (the bot);
# only the bot's (the audit, a copy's source); the bot's or one holding nothing yet (a copy's
# destination). Any other is refused untouched (NotOurs).
Accept = Literal["any", "ours", "ours or empty"]
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# A password given as a parameter of the URL (`?password=...`, which asyncpg and libpq take).
_PASSWORD_PARAMETER = re.compile(r"([?&]password=)[^&#]*")


class Connection(Protocol):
    """One transaction's connection (see `Database.transaction`)."""

    dialect: Dialect
    for_update: str  # " FOR NO KEY UPDATE" on PostgreSQL, "" on SQLite
    for_share: str  # " FOR SHARE" on PostgreSQL, "" on SQLite

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement once per row of parameters."""

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Every row of a query, as plain tuples of Python values."""

    async def together(self, *statements: Awaitable[Any]) -> list[Any]:
        """Await statements of this connection, queued back to back when the driver allows;
        their results in order. An error is raised once the statements already queued have
        run (the caller's transaction then rolls back)."""

    async def lock_table(self, table: str) -> None:
        """Until this transaction ends, no other transaction writes `table`, holds a row
        of it locked, or passes this call for it (SQLite: every write transaction is alone
        already)."""


# Runs one statement as its own transaction; False when the statement refused itself (see
# PostgresDatabase.at_once), nothing of it written.
AtOnce = Callable[[str, Sequence[object]], Awaitable[bool]]


class Database(Protocol):
    dialect: Dialect
    # Told (write?, seconds) after every committed transaction: operators' metrics.
    observer: Callable[[bool, float], None] | None

    @property
    def at_once(self) -> AtOnce | None:
        """PostgreSQL's one-statement transactions (one round trip instead of three); None
        on SQLite, whose whole transaction is one thread hop already."""

    @property
    def single_process(self) -> bool:
        """This process holds the database's bot lock: no other bot process is using it
        (shard leases found there are dead processes', bot/storage/leases.py)."""

    def transaction(self, *, write: bool = True) -> AbstractAsyncContextManager[Connection]:
        """One unit of work: commit on success, roll back on any exception. `write=False`
        reads one consistent snapshot."""

    async def close(self) -> None: ...


def is_postgres(target: str) -> bool:
    return str(target).startswith(_POSTGRES_SCHEMES)


def foreign_scheme(target: str) -> str | None:
    """The scheme of a URL that is not PostgreSQL's (mysql://...), else None: an SQLite file is
    a path or sqlite:PATH, never a URL."""
    text = str(target)
    scheme, sep, _ = text.partition("://")
    return scheme if sep and not is_postgres(text) else None


def sqlite_path(target: str) -> str:
    """The file of an SQLite target (`sqlite:PATH` or a plain path); StorageError for a URL of
    another database, which would otherwise be taken for a file name."""
    text = str(target)
    if (scheme := foreign_scheme(text)) is not None:
        raise StorageError(f"A database is an SQLite file or a postgresql:// URL, not a "
                           f"{scheme}:// URL")
    return text.removeprefix("sqlite:") if text.startswith("sqlite:") else text


def describe(target: str) -> str:
    """A target as it may be shown in messages and logs: a URL without its password (given
    before the host, or as a `password=` parameter)."""
    text = str(target)
    if (scheme := foreign_scheme(text)) is not None:
        return f"{scheme}://..."
    if not is_postgres(text):
        return sqlite_path(text)
    text = _PASSWORD_PARAMETER.sub(r"\1***", text)
    parts = _around_password(text)
    return text if parts is None else f"{parts[0]}:***{parts[1]}"


def without_password(url: str) -> str:
    """A PostgreSQL URL with its password left out, for a command line to show (the program
    then asks for it, or reads ~/.pgpass or PGPASSWORD)."""
    url = _PASSWORD_PARAMETER.sub(lambda m: m.group(1)[0].replace("&", ""), str(url))
    url = url.replace("?&", "?").rstrip("?")  # the parameter was the first, or the only one
    parts = _around_password(url)
    return url if parts is None else "".join(parts)


def _around_password(url: str) -> tuple[str, str] | None:
    """A URL's text before its password (up to the user name) and after it (from the '@');
    None when it has no password."""
    scheme, _, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not at or ":" not in credentials:
        return None
    return f"{scheme}://{credentials.split(':', 1)[0]}", f"@{place}"


@asynccontextmanager
async def closed_on_failure(close: Callable[[], Awaitable[None]],
                            driver_errors: type[Exception] | tuple[type[Exception], ...],
                            where: str) -> AsyncIterator[None]:
    """The start-up steps of a database just connected: any failure closes it again, and the
    driver's own errors become one StorageError naming the database."""
    try:
        yield
    except driver_errors as e:
        await close()
        raise StorageError(f"Cannot use database {where}: {e}") from e
    except BaseException:
        await close()
        raise


async def open_database(target: str, *, exclusive: bool = False, shared: bool = False,
                        accept: Accept = "any", migrate: bool = True) -> Database:
    """Open `target` (creating an SQLite file if needed) and bring its schema up to date
    (unless not `migrate`), once it is a database `accept` takes."""
    if is_postgres(target):
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(str(target), exclusive=exclusive, shared=shared,
                                           accept=accept, migrate=migrate)
    from bot.storage import guard
    from bot.storage.sqlite import SQLiteDatabase

    path = sqlite_path(target)
    if accept != "any":
        guard.check_ours(path, accept)
    return await SQLiteDatabase.open(path, exclusive=exclusive or shared, migrate=migrate)
