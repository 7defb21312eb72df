"""What a database holds: its tables in the order the migrations create them, and their columns
(the dialect-specific catalog queries that `ofc audit` and `ofc-bot migrate-db` need)."""

import re

from bot.storage.backend import Connection
from bot.storage.migrations import MIGRATIONS

_TABLES = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    "postgresql": "SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n "
                  "ON n.oid = c.relnamespace WHERE c.relkind = 'r' "
                  "AND n.nspname = current_schema()",
}
# A table comes after every table its foreign keys name in the migrations. The catalog's own
# order is not that: pg_restore makes a dump's tables in the dump's order (by name).
_CREATED = {name: order for order, name in enumerate(
    re.findall(r"CREATE TABLE (\w+)", "\n".join(MIGRATIONS)))}
_COLUMNS = {
    "sqlite": "SELECT name FROM pragma_table_info(?) ORDER BY cid",
    "postgresql": "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                  "current_schema() AND table_name = ? ORDER BY ordinal_position",
}
# PostgreSQL's identity columns (SQLite's INTEGER PRIMARY KEY): their sequence must move past
# rows copied in with their numbers.
IDENTITIES = (
    "SELECT table_name, column_name, pg_get_serial_sequence(table_name, column_name) FROM "
    "information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'"
)


async def held(conn: Connection) -> list[str]:
    """Every table of the database (of the schema the bot's go in), schema_version too."""
    return [str(name) for (name,) in await conn.fetch(_TABLES[conn.dialect])]


async def tables(conn: Connection) -> list[str]:
    """Every table but schema_version, in the order the migrations create them."""
    # Tables no migration makes (an admin's own) last, by name.
    return sorted((name for name in await held(conn) if name != "schema_version"),
                  key=lambda name: (_CREATED.get(name, len(_CREATED)), name))


async def columns(conn: Connection, table: str) -> list[str]:
    return [str(name) for (name,) in await conn.fetch(_COLUMNS[conn.dialect], (table,))]
