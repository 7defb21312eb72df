"""The one error type of the engine: its message is written for a player to read."""

from bot.engine.text import Text, plain


class RuleError(ValueError):
    """An input or action the rules do not allow. Raising it never changes any state.

    `text` is the message as a Text, so the layer that shows it can say it in the player's
    language; `str(error)` is the English sentence. A plain string (a message no player is
    meant to read) is kept as it is."""

    def __init__(self, text: Text | str) -> None:
        self.text = text if isinstance(text, Text) else plain(text)
        super().__init__(str(self.text))
