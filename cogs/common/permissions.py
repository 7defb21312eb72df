"""What the bot needs in a channel to run a table there, and how to say what is missing.

Discord sends the bot's permissions in the channel with every interaction
(`interaction.app_permissions`: roles and the channel's overwrites applied), so a command can
check them before anything changes.
"""

import discord

from bot.engine.text import joined, series
from bot.i18n import Text
from cogs.common.answers import Refusal
from cogs.common.client import Interaction

# (attribute of discord.Permissions, its name in Discord's settings, why the bot needs it)
Needed = tuple[tuple[str, Text, Text], ...]
NEEDED: Needed = (
    ("view_channel", Text("View Channel"), Text("to see the channel")),
    ("send_messages", Text("Send Messages"), Text("to post the lobby and the table")),
    ("embed_links", Text("Embed Links"), Text("for the lobby, table and showdown messages")),
    ("attach_files", Text("Attach Files"), Text("for the table and showdown images")),
    ("read_message_history", Text("Read Message History"),
     Text("to edit the table message in place")),
)
# A tournament's tables play in threads the bot opens in its channel (RULES.md R13).
THREADS: Needed = (
    ("create_public_threads", Text("Create Public Threads"),
     Text("to open a thread for each table")),
    ("send_messages_in_threads", Text("Send Messages in Threads"),
     Text("to run the tables in them")),
)
# In a thread the bot posts with Send Messages in Threads: the parent's Send Messages does
# not let it post there.
IN_A_THREAD: Needed = tuple(
    ("send_messages_in_threads", THREADS[1][1], why) if attribute == "send_messages"
    else (attribute, name, why) for attribute, name, why in NEEDED)
NO_CHIPS_TAKEN = Text("No chips were taken.")


def _bold(names: list[Text]) -> Text | str:
    """'**A**, **B**' in the reader's language."""
    return series([Text("**{a}**", a=name) for name in names])


class MissingPermissions(Refusal):
    """The bot lacks a permission it needs in the channel; nothing was changed."""


def missing(permissions: discord.Permissions, needed: Needed = NEEDED) -> list[Text]:
    """The names (as Discord's settings show them) of the permissions the bot lacks."""
    return [name for attribute, name, _ in needed if not getattr(permissions, attribute)]


def require_table_permissions(permissions: discord.Permissions, needed: Needed = NEEDED, *,
                              tournament: bool = False,
                              unchanged: Text = NO_CHIPS_TAKEN) -> None:
    """Refuse, naming each missing permission and how to grant it, unless the bot has every
    permission `needed` (by default: what a table needs) in this channel."""
    lacking = missing(permissions, needed)
    if not lacking:
        return
    why = {name: reason for _, name, reason in needed}
    lines = [Text("- **{name}**: {why}", name=name, why=why[name]) for name in lacking]
    n = len(lacking)
    head = (Text("I can't run a tournament's tables in this channel: I'm missing this "
                 "permission here:",
                 "I can't run a tournament's tables in this channel: I'm missing these "
                 "permissions here:", n=n) if tournament else
            Text("I can't run a table in this channel: I'm missing this permission here:",
                 "I can't run a table in this channel: I'm missing these permissions here:",
                 n=n))
    grant = Text("A member with Manage Channels can grant it: channel settings (the gear) -> "
                 "Permissions -> the bot's role (or the bot) -> allow {names}; or give the "
                 "bot's role these permissions in Server Settings -> Roles.",
                 "A member with Manage Channels can grant them: channel settings (the gear) -> "
                 "Permissions -> the bot's role (or the bot) -> allow {names}; or give the "
                 "bot's role these permissions in Server Settings -> Roles.",
                 n=n, names=_bold(lacking))
    raise MissingPermissions(joined([head, joined(lines), grant, unchanged]))


def table_needs(channel: object) -> Needed:
    """What a table needs in `channel` (the interaction's): NEEDED, or IN_A_THREAD there."""
    return IN_A_THREAD if isinstance(channel, discord.Thread) else NEEDED


def needed_line() -> Text | str:
    """The permissions a table needs, in one line (for /ofc help)."""
    return _bold([name for _, name, _ in NEEDED])


def can_open_threads(interaction: Interaction) -> bool:
    """The bot may open a public thread in this text channel and post in it (a tournament's
    tables, a practice table)."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or interaction.guild is None:
        return False
    mine = channel.permissions_for(interaction.guild.me)
    return mine.create_public_threads and mine.send_messages_in_threads
