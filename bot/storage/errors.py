"""Errors of the storage layer. Each message is written for a player or an admin to read."""

import math
from collections.abc import Sequence

from bot.engine.text import Text, plain


class StorageError(Exception):
    """Refused input or operation. Raising it never changes anything: the transaction rolls back.

    `text` is the message as a Text (for a player's language, bot.i18n); `str(error)` is the
    English sentence. Messages only an operator reads stay plain strings."""

    def __init__(self, text: Text | str = "") -> None:
        self.text = text if isinstance(text, Text) else plain(text)
        super().__init__(str(self.text))


class NotOurs(StorageError):
    """A database that is not the bot's (no schema_version table), opened as one that must be
    (`Storage.open(accept=...)`): refused untouched, never given the bot's tables. `held`:
    the tables it holds, when it had to be the bot's or empty."""

    def __init__(self, where: str, held: Sequence[str] = ()) -> None:
        listed = ", ".join(sorted(held))
        super().__init__(
            f"{where} is not a database of this bot, nor empty (it holds {listed}): give the "
            "bot's database or an empty one" if held else
            f"{where} is not a database of this bot (it has no schema_version table)")


class InvalidInput(StorageError, ValueError):
    """A malformed argument: a negative or non-integer amount, an empty reason or key..."""


class InsufficientChips(StorageError):
    """A wallet or a table stack cannot pay what was asked (nothing was moved)."""

    def __init__(self, message: Text | str, *, available: int, needed: int) -> None:
        super().__init__(message)
        self.available = available
        self.needed = needed


class DailyNotReady(StorageError):
    """The daily claim was made too early; `seconds_left` says how long to wait."""

    def __init__(self, seconds_left: float) -> None:
        super().__init__(Text("You can claim again in {wait}.", wait=duration(seconds_left)))
        self.seconds_left = seconds_left


class DailyOff(StorageError):
    """The server's daily chips are 0: there is nothing to claim, and no cooldown starts."""

    def __init__(self) -> None:
        super().__init__(Text("This server gives no daily chips."))


class UnknownTable(StorageError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"There is no table #{table_id}.")
        self.table_id = table_id


class UnknownMatch(StorageError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no match #{match_id}.")
        self.match_id = match_id


class UnknownHand(StorageError):
    """A hand that is not the player's in that server (or no such hand): the same answer, so
    asking does not tell whether another's hand exists."""

    def __init__(self, match_id: int, hand_no: int) -> None:
        super().__init__(f"You did not play hand {hand_no} of match #{match_id} in this server.")
        self.match_id = match_id
        self.hand_no = hand_no


class TableClosed(StorageError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"Table #{table_id} is closed.")
        self.table_id = table_id


class NotSeated(StorageError):
    def __init__(self, table_id: int, user_id: int) -> None:
        super().__init__(f"Player {user_id} has no seat at table #{table_id}.")
        self.table_id = table_id
        self.user_id = user_id


class TableNotEmpty(StorageError):
    """A table cannot close while a stack still holds chips: cash out (or refund) first."""


class KeyConflict(StorageError):
    """An idempotency key already used by a different operation (a caller bug, never a retry)."""


class DatabaseInUse(StorageError):
    """Another process (another ofc-bot) holds the database's lock file."""


class ShardsTaken(StorageError):
    """Another live process holds a lease on a shard asked for, or runs another shard count."""


class LeaseLost(StorageError):
    """A shard's lease passed to another process (this one was too slow to renew it)."""


class WriteFenced(LeaseLost):
    """A write refused (nothing written) because its table's shard has a newer owner than
    this process: its lease was taken over while this process was paused or cut off."""


class DatabaseDamaged(StorageError):
    """SQLite's quick_check found the file damaged."""


class DatabaseReadOnly(StorageError):
    """The file (or its folder, where WAL keeps its -wal and -shm files) cannot be written."""


class SchemaTooNew(StorageError):
    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this bot ({supported}); "
            "upgrade the bot"
        )
        self.found = found
        self.supported = supported


def duration(seconds: float) -> Text:
    """'3 h 12 min', '4 h', '12 min' or '45 s', rounded up so a wait never reads as zero."""
    if math.ceil(seconds) < 60:
        return Text("{s} s", s=max(1, math.ceil(seconds)))
    hours, minutes = divmod(math.ceil(seconds / 60), 60)
    if not hours:
        return Text("{min} min", min=minutes)
    return Text("{h} h {min} min", h=hours, min=minutes) if minutes else Text("{h} h", h=hours)


def format_duration(seconds: float) -> str:
    return str(duration(seconds))
