"""Copying every row of one database into another, empty one (`ofc-bot migrate-db`: an SQLite
file into PostgreSQL), checked by the audit on both sides before anything is committed."""

from dataclasses import dataclass

from bot.storage.audit import AuditReport, audit_books
from bot.storage.backend import Connection, Database, Row
from bot.storage.catalog import IDENTITIES, columns, tables
from bot.storage.errors import StorageError


class CopyRefused(StorageError):
    """The copy was not made (nothing was written): the message says why."""


@dataclass(frozen=True)
class CopyReport:
    source: AuditReport
    destination: AuditReport


async def _copy_rows(source: Connection, destination: Connection) -> None:
    names = await tables(source)
    theirs = await tables(destination)
    if set(names) != set(theirs):
        raise CopyRefused(f"The two databases have different tables ({sorted(names)} and "
                          f"{sorted(theirs)}): both must be at the same schema version.")
    held = {}
    for table in theirs:
        ((count,),) = await destination.fetch(f"SELECT count(*) FROM {table}")
        if count:
            held[table] = int(count)
    if held:
        found = ", ".join(f"{t} {n}" for t, n in held.items())
        raise CopyRefused(f"The destination already holds data (rows: {found}): copy into "
                          "an empty database.")
    for table in names:  # creation order: every row's foreign keys are copied before it
        listed = await columns(source, table)
        rows = await source.fetch(f"SELECT {', '.join(listed)} FROM {table}")
        if destination.dialect == "postgresql":
            _storable(table, listed, rows)
        marks = ", ".join("?" for _ in listed)
        await destination.executemany(
            f"INSERT INTO {table} ({', '.join(listed)}) VALUES ({marks})", rows)
    if destination.dialect == "postgresql":
        for table, column, sequence in await destination.fetch(IDENTITIES):
            await destination.execute(
                f"SELECT setval('{sequence}', coalesce((SELECT max({column}) FROM {table}), "
                "0) + 1, false)")


def _storable(table: str, listed: list[str], rows: list[Row]) -> None:
    """CopyRefused when a text of `rows` holds the NUL character: SQLite stores it (an older
    bot let it through), PostgreSQL's text cannot."""
    held = [row for row in rows if any(isinstance(v, str) and "\x00" in v for v in row)]
    if not held:
        return
    column = next(name for name, value in zip(listed, held[0], strict=True)
                  if isinstance(value, str) and "\x00" in value)
    rows_of = "1 row" if len(held) == 1 else f"{len(held):,} rows"
    raise CopyRefused(
        f"{rows_of} of {table} {'holds' if len(held) == 1 else 'hold'} the NUL character in "
        f"{'its' if len(held) == 1 else 'their'} {column}, which PostgreSQL cannot store "
        "(nothing was written): remove it from the SQLite file first (SQLite's replace() "
        "cannot: the PostgreSQL page of the docs shows how)")


async def copy_database(original: Database, destination: Database) -> CopyReport:
    """Copy every row of `original` into `destination` (empty, at the same schema) in one
    transaction, committed only when the audit of the copy (taken inside that transaction)
    reports exactly what the audit of the original reports. CopyRefused, with nothing
    written, otherwise."""
    async with original.transaction(write=False) as source, \
            destination.transaction() as target:
        await _copy_rows(source, target)
        before = await audit_books(source)
        after = await audit_books(target)
        if (before.problems, before.summary()) != (after.problems, after.summary()):
            raise CopyRefused(
                "The copy does not audit as the original does (nothing was written): "
                f"original {before.summary()} {list(before.problems)}, copy "
                f"{after.summary()} {list(after.problems)}")
    return CopyReport(before, after)
