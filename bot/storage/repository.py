"""`Storage`: the one object the bot uses for everything kept on disk."""

from collections.abc import Callable
from pathlib import Path

from bot.storage import validate
from bot.storage.audit import AuditReport, audit_books
from bot.storage.backend import Accept, Database, open_database
from bot.storage.copy import CopyReport, copy_database
from bot.storage.core import Core, Defaults
from bot.storage.errors import InvalidInput
from bot.storage.fencing import Fence
from bot.storage.guild_settings import ServerSettings
from bot.storage.leases import ShardLeases
from bot.storage.matches import History
from bot.storage.migrations import LATEST, migrate, version_of
from bot.storage.preferences import PlayerPreferences
from bot.storage.ratings import Ratings
from bot.storage.tables import Tables
from bot.storage.tournaments import Tournaments
from bot.storage.wallets import Wallets


class _Audited(Exception):
    """Raised to roll back the transaction that migrated a database only to audit it."""

    def __init__(self, report: AuditReport) -> None:
        super().__init__()
        self.report = report


class Storage:
    """The database and its transactions, and one part per topic: `wallets` (and the
    ledger), `tables` (live tables and their chips), `history` (matches, hands, stats),
    `ratings`, `settings` (a server's), `preferences` (a player's), `tournaments`, `leases`
    (shards). What concerns the whole database is its own: the audit of the books, a copy into
    another database, the fence on writes, the observer of transactions.

    Open with `await Storage.open(target)`: an SQLite file (a path, or `sqlite:PATH`) or a
    `postgresql://` URL; close with `await storage.close()`.
    """

    def __init__(self, db: Database, defaults: Defaults) -> None:
        self._core = core = Core(db, defaults)
        self.wallets = Wallets(core)
        self.tables = Tables(core)
        self.history = History(core)
        self.ratings = Ratings(core)
        self.settings = ServerSettings(core)
        self.preferences = PlayerPreferences(core)
        self.tournaments = Tournaments(core)
        self.leases = ShardLeases(core)

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        starting_chips: int = Defaults.starting_chips,
        daily_chips: int = Defaults.daily_chips,
        daily_cooldown_seconds: float = Defaults.daily_cooldown_seconds,
        exclusive: bool = False,
        shared: bool = False,
        accept: Accept = "any",
        migrate: bool = True,
    ) -> "Storage":
        """Open (or create) the database and bring its schema up to date.

        Raises SchemaTooNew for a database written by a newer bot, StorageError for one that
        cannot be used: an SQLite file damaged (DatabaseDamaged) or read-only
        (DatabaseReadOnly), a PostgreSQL server that cannot be reached, or, with `exclusive`
        (the bot), a database another bot holds (DatabaseInUse) - see sqlite.py and
        postgres.py. `shared` (a process of sharded bots): PostgreSQL is held with the other
        processes of the fleet, which share it by their shard leases, and refused to a bot
        holding it alone; an SQLite file is held alone all the same (one process per file).
        `accept` (backend.Accept): "ours" for the audit and a copy's source, "ours or empty"
        for a copy's destination; a database it does not take is refused untouched (NotOurs;
        StorageError for an SQLite file that is not there), never given the bot's tables.
        Without `migrate` (the audit) the database is left at its version: only `audit` may
        then be used.
        """
        if not isinstance(daily_cooldown_seconds, int | float) or daily_cooldown_seconds < 0:
            raise InvalidInput("The daily cooldown must be a number of seconds >= 0.")
        defaults = Defaults(
            validate.chips(starting_chips, allow_zero=True),
            validate.chips(daily_chips, allow_zero=True),
            daily_cooldown_seconds,
        )
        return cls(await open_database(str(target), exclusive=exclusive, shared=shared,
                                       accept=accept, migrate=migrate), defaults)

    @property
    def defaults(self) -> Defaults:
        """The bot's starting chips, daily chips and cooldown (a server may override chips)."""
        return self._core.defaults

    async def close(self) -> None:
        await self._core.db.close()

    def observe_transactions(self, observer: Callable[[bool, float], None] | None) -> None:
        """`observer(write, seconds)` after every committed transaction (None: stop)."""
        self._core.db.observer = observer

    def fence_writes(self, shard_count: int, token: int,
                     refused: Callable[[str], None]) -> None:
        """From now on every write of a table's state or chips (and a tournament's) lands
        only while its shard's lease (of `shard_count`) carries `token`, this process's
        claim's; `refused(reason)` is told of each write refused (fencing.py)."""
        self._core.fence = Fence(shard_count, token, refused)

    async def audit(self) -> AuditReport:
        """Check the books (audit.py) on one consistent snapshot. A database an older bot
        wrote (opened without `migrate`) is audited as this bot reads it, migrated inside a
        transaction that is then rolled back: left at its version, for that bot to use."""
        async with self._core.db.transaction(write=False) as conn:
            if await version_of(conn) == LATEST:
                return await audit_books(conn)
        try:
            async with self._core.db.transaction() as conn:
                await migrate(conn)  # SchemaTooNew for a newer database
                raise _Audited(await audit_books(conn))
        except _Audited as undone:
            return undone.report

    async def copy_into(self, destination: "Storage") -> CopyReport:
        """Copy every row into `destination`, an empty database at the same schema, checked
        by the audit on both sides before it is committed (copy.py)."""
        return await copy_database(self._core.db, destination._core.db)
