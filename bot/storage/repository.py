"""`Storage`: the one object the bot uses for everything kept on disk."""

from pathlib import Path

from bot.storage import validate
from bot.storage.audit import AuditMixin
from bot.storage.backend import open_database
from bot.storage.copy import CopyMixin
from bot.storage.core import Defaults
from bot.storage.errors import InvalidInput
from bot.storage.guild_settings import SettingsMixin
from bot.storage.leases import LeasesMixin
from bot.storage.matches import HistoryMixin
from bot.storage.preferences import PreferencesMixin
from bot.storage.ratings import RatingsMixin
from bot.storage.tables import TablesMixin
from bot.storage.tournaments import TournamentsMixin
from bot.storage.wallets import WalletsMixin


class Storage(WalletsMixin, TablesMixin, HistoryMixin, RatingsMixin, SettingsMixin,
              PreferencesMixin, TournamentsMixin, LeasesMixin, AuditMixin, CopyMixin):
    """Wallets and ledger, live tables and their chips, history, skill ratings, guild
    settings, players' preferences, tournaments, shard leases; the audit of the books, and a
    copy into another database.

    Open with `await Storage.open(target)`: an SQLite file (a path, or `sqlite:PATH`) or a
    `postgresql://` URL; close with `await storage.close()`.
    """

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
    ) -> "Storage":
        """Open (or create) the database and bring its schema up to date.

        Raises SchemaTooNew for a database written by a newer bot, StorageError for one that
        cannot be used: an SQLite file damaged (DatabaseDamaged) or read-only
        (DatabaseReadOnly), a PostgreSQL server that cannot be reached, or, with `exclusive`
        (the bot), a database another bot holds (DatabaseInUse) - see sqlite.py and
        postgres.py. `shared` (a process of sharded bots): PostgreSQL is held with the other
        processes of the fleet, which share it by their shard leases, and refused to a bot
        holding it alone; an SQLite file is held alone all the same (one process per file).
        """
        if not isinstance(daily_cooldown_seconds, int | float) or daily_cooldown_seconds < 0:
            raise InvalidInput("The daily cooldown must be a number of seconds >= 0.")
        defaults = Defaults(
            validate.chips(starting_chips, allow_zero=True),
            validate.chips(daily_chips, allow_zero=True),
            daily_cooldown_seconds,
        )
        return cls(await open_database(str(target), exclusive=exclusive, shared=shared),
                   defaults)
