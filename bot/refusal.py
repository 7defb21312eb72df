"""The one line a command (`ofc`, `ofc-bot`) prints on stderr when it refuses: below the
command line, so that the bot's own start-up refusals (bot/app.py) end the same way."""

import argparse

SENTENCE_ENDS = (".", "!", "?")
# The offline try suggested to newcomers (ofc-bot without a token, `ofc --help`): a few
# seconds' run.
TRY_OFFLINE = "ofc simulate --players 2 --hands 20 --seed 1 --ai strong,easy"


def error_line(program: str, message: str) -> str:
    """The one line a refusal prints: the command, then the message as a sentence. Some
    messages are not ours to word (argparse's, the storage's, the system's) and end without
    one, while the engine's always do: every line ends the same."""
    return f"{program}: {message}" if message.endswith(SENTENCE_ENDS) \
        else f"{program}: {message}."


def named(text: str) -> str:
    """A command-line value naming a file, folder or database (argparse's `type`). An empty
    one is what `--database "$DB"` gives with DB unset: read as no option at all, it would
    fall back to the default database, or to none, without a word."""
    if not text.strip():
        raise argparse.ArgumentTypeError("names nothing")
    return text
