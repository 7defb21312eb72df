"""What a database holds: its tables in the order they were created, and their columns (the
dialect-specific catalog queries that `ofc audit` and `ofc-bot migrate-db` need)."""

from bot.storage.backend import Connection

_TABLES = {
    # rowid of sqlite_master and the oid of pg_class both grow as tables are created: the
    # migrations' order, so a table comes after every table its foreign keys name.
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
              "ORDER BY rowid",
    "postgresql": "SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n "
                  "ON n.oid = c.relnamespace WHERE c.relkind = 'r' "
                  "AND n.nspname = current_schema() ORDER BY c.oid",
}
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


async def tables(conn: Connection) -> list[str]:
    """Every table but schema_version, in the order they were created."""
    rows = await conn.fetch(_TABLES[conn.dialect])
    return [str(name) for (name,) in rows if name != "schema_version"]


async def columns(conn: Connection, table: str) -> list[str]:
    return [str(name) for (name,) in await conn.fetch(_COLUMNS[conn.dialect], (table,))]
