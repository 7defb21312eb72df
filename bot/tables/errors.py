"""What a refused action raises: one error type whose message a player can read."""

from bot.engine.errors import RuleError


class TableError(RuleError):
    """A refused action; nothing changed. `str(error)` is a short sentence for the player."""


class NoTable(TableError):
    """No live table in that channel, or with that id."""


class NotAllowed(TableError):
    """Only the host or a member with Manage Server may do that."""


class NotYourSeat(TableError):
    """The player has no seat there, or the control belongs to another seat."""


class StaleAction(TableError):
    """The control is for a hand or street that is over."""
