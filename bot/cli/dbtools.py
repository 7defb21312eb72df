"""The database on the command line: `ofc audit` checks the books on either backend,
`ofc-bot migrate-db` copies a whole database (an SQLite file) into another (PostgreSQL), and
`ofc-bot backup` copies an SQLite file while the bot runs (bot/storage/backup.py).

Exit status: 0 when the books are right (or the backup is made); 1 when the audit finds a
mismatch; 2, with one line on stderr, when the command cannot run (no such database, a server
out of reach, a bot running on it, a destination that is not empty or already exists, a
PostgreSQL database to back up: pg_dump does that).
"""

import argparse
import asyncio
import json
import sys
from typing import Any

from bot.config import ENV_FILE, ConfigError, load_settings, named_env_file_missing
from bot.refusal import error_line, named
from bot.storage import (
    AuditReport,
    CopyReport,
    Storage,
    StorageError,
    describe,
)
from bot.storage.backup import backup

MISMATCH = 1
REFUSED = 2


def _refused(program: str, message: str) -> int:
    print(error_line(program, message), file=sys.stderr)
    return REFUSED


def _figures(report: AuditReport) -> str:
    t = report.totals
    return (f"wallets {t['wallets']:,} + table stacks {t['stacks']:,} + prize pools "
            f"{t['pools']:,} = {t['wallets'] + t['stacks'] + t['pools']:,} chips; "
            f"granted {t['granted']:,}")


def _verdict(report: AuditReport) -> list[str]:
    if report.ok:
        return ["ok: every wallet equals its ledger, every stack its moves, wallets + stacks "
                "+ pools equal everything granted, no idempotency key used twice"]
    return [f"{len(report.problems)} problem(s):", *(f"  {p}" for p in report.problems)]


def _as_json(target: str, report: AuditReport) -> dict[str, Any]:
    return {"database": describe(target), "ok": report.ok, "problems": list(report.problems),
            "totals": report.totals, "rows": report.rows}


async def _audit(target: str) -> AuditReport:
    # Not migrated: a backup an older bot made stays one that bot can use.
    storage = await Storage.open(target, accept="ours", migrate=False)
    try:
        return await storage.audit()
    finally:
        await storage.close()


def audit_command(args: argparse.Namespace) -> int:
    missing = named_env_file_missing(args.env_file)
    if missing is not None:
        return _refused("ofc audit", missing)
    try:
        target = args.database or load_settings(dotenv=args.env_file).database
        report = asyncio.run(_audit(target))
    except (ConfigError, StorageError) as error:
        return _refused("ofc audit", str(error))
    if args.json:
        print(json.dumps(_as_json(target, report)))
    else:
        print(f"audit of {describe(target)}")
        print(_figures(report))
        print("\n".join(_verdict(report)))
    return 0 if report.ok else MISMATCH


def add_audit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database", type=named, help="an SQLite file or a postgresql:// URL (default: "
                                      "OFC_DATABASE)")
    p.add_argument("--env-file", type=named, default=ENV_FILE,
                   help=f"the settings file OFC_DATABASE is read from, as ofc-bot's "
                        f"--env-file (default: {ENV_FILE}, if there)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=audit_command)


async def _migrate(source: str, destination: str) -> CopyReport:
    # Both held as a bot holds its database: no bot may be running on either meanwhile.
    original = await Storage.open(source, exclusive=True, accept="ours")
    try:
        copy = await Storage.open(destination, exclusive=True, accept="ours or empty")
        try:
            return await original.copy_into(copy)
        finally:
            await copy.close()
    finally:
        await original.close()


def migrate_command(args: argparse.Namespace) -> int:
    program = "ofc-bot migrate-db"
    if describe(args.source) == describe(args.destination):
        return _refused(program, "--from and --to name the same database")
    try:
        report = asyncio.run(_migrate(args.source, args.destination))
    except StorageError as error:
        return _refused(program, str(error))
    rows = report.destination.rows
    print(f"copied {describe(args.source)} into {describe(args.destination)}: "
          f"{sum(rows.values()):,} rows of {len(rows)} tables")
    print("  " + ", ".join(f"{table} {n:,}" for table, n in rows.items()))
    print(f"audit of both: {_figures(report.destination)}; the same rows, totals and findings "
          "on both sides")
    print("\n".join(_verdict(report.destination)))
    return 0 if report.destination.ok else MISMATCH


def add_migrate_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "migrate-db", help="copy every row of a database into an empty one (SQLite into "
                           "PostgreSQL), then audit both and compare; stop the bot first")
    p.add_argument("--from", type=named, dest="source", required=True, metavar="SOURCE",
                   help="the database to copy: sqlite:PATH (or a postgresql:// URL)")
    p.add_argument("--to", type=named, dest="destination", required=True, metavar="DESTINATION",
                   help="an empty database: a postgresql:// URL (or sqlite:PATH)")
    p.set_defaults(run=migrate_command)


def backup_command(args: argparse.Namespace) -> int:
    program = "ofc-bot backup"
    try:
        target = args.database or load_settings(dotenv=args.env_file).database
        made = backup(target, args.path)
    except (ConfigError, StorageError) as error:
        return _refused(program, str(error))
    print(f"backed up {made.source} into {made.path}: {made.size:,} bytes, schema version "
          f"{made.schema_version}, SQLite's quick_check ok")
    return 0


def add_backup_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "backup", help="copy the SQLite database into a new file while the bot runs (a "
                       "PostgreSQL database: use pg_dump)",
        description="Copy the SQLite database into the new file PATH, consistent as of one "
                    "moment, while the bot runs (SQLite's online backup). PATH must not exist: "
                    "a backup never replaces a file.",
        epilog="example: ofc-bot backup backups/ofc-$(date +%F).sqlite3")
    p.add_argument("path", type=named, metavar="PATH", help="the new file to write the copy into")
    p.add_argument("--database", type=named, help="an SQLite file (default: OFC_DATABASE)")
    p.set_defaults(run=backup_command)
