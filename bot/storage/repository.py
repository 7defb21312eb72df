"""`Storage`: the one object the bot uses for everything kept on disk."""

from pathlib import Path

from bot.storage import validate
from bot.storage.core import Defaults
from bot.storage.db import Database
from bot.storage.errors import InvalidInput
from bot.storage.history import HistoryMixin
from bot.storage.leases import LeasesMixin
from bot.storage.preferences import PreferencesMixin
from bot.storage.settings import SettingsMixin
from bot.storage.tables import TablesMixin
from bot.storage.tournaments import TournamentsMixin
from bot.storage.wallets import WalletsMixin


class Storage(WalletsMixin, TablesMixin, HistoryMixin, SettingsMixin, PreferencesMixin,
              TournamentsMixin, LeasesMixin):
    """Wallets and ledger, live tables and their chips, history, guild settings, players'
    preferences, tournaments, shard leases.

    Open with `await Storage.open(path)`; close with `await storage.close()`.
    """

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        starting_chips: int = Defaults.starting_chips,
        daily_chips: int = Defaults.daily_chips,
        daily_cooldown_seconds: float = Defaults.daily_cooldown_seconds,
        exclusive: bool = False,
    ) -> "Storage":
        """Open (or create) the database file and bring its schema up to date.

        Raises SchemaTooNew for a file written by a newer bot, StorageError for a file that
        is not a usable SQLite database: damaged (DatabaseDamaged), read-only
        (DatabaseReadOnly), or, with `exclusive` (the bot), held by another process
        (DatabaseInUse) - see db.Database.open.
        """
        if not isinstance(daily_cooldown_seconds, int | float) or daily_cooldown_seconds < 0:
            raise InvalidInput("The daily cooldown must be a number of seconds >= 0.")
        defaults = Defaults(
            validate.chips(starting_chips, allow_zero=True),
            validate.chips(daily_chips, allow_zero=True),
            daily_cooldown_seconds,
        )
        return cls(await Database.open(path, exclusive=exclusive), defaults)
