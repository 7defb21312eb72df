"""The one error type of the engine: its message is written for a player to read."""


class RuleError(ValueError):
    """An input or action the rules do not allow. Raising it never changes any state."""
