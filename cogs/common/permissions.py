"""What the bot needs in a channel to run a table there, and how to say what is missing.

Discord sends the bot's permissions in the channel with every interaction
(`interaction.app_permissions`: roles and the channel's overwrites applied), so a command can
check them before anything changes.
"""

import discord

from bot.engine.text import joined
from bot.i18n import Text
from cogs.common.answers import Refusal

# (attribute of discord.Permissions, its name in Discord's settings, why the bot needs it)
NEEDED: tuple[tuple[str, Text, Text], ...] = (
    ("view_channel", Text("View Channel"), Text("to see the channel")),
    ("send_messages", Text("Send Messages"), Text("to post the lobby and the table")),
    ("embed_links", Text("Embed Links"), Text("for the lobby, table and showdown messages")),
    ("attach_files", Text("Attach Files"), Text("for the table and showdown images")),
    ("read_message_history", Text("Read Message History"),
     Text("to edit the table message in place")),
)


class MissingPermissions(Refusal):
    """The bot lacks a permission it needs in the channel; nothing was changed."""


def missing(permissions: discord.Permissions) -> list[Text]:
    """The names (as Discord's settings show them) of the permissions the bot lacks."""
    return [name for attribute, name, _ in NEEDED if not getattr(permissions, attribute)]


def _bold(names: list[Text]) -> Text:
    """'**A**, **B**' in the reader's language."""
    return Text("**{a}**", a=names[0]) if len(names) == 1 else Text(
        "{first}, **{last}**", first=_bold(names[:-1]), last=names[-1])


def require_table_permissions(permissions: discord.Permissions) -> None:
    """Refuse, naming each missing permission and how to grant it, unless the bot has every
    permission a table needs in this channel."""
    lacking = {attribute for attribute, _, _ in NEEDED if not getattr(permissions, attribute)}
    if not lacking:
        return
    lines = [Text("- **{name}**: {why}", name=name, why=why)
             for attribute, name, why in NEEDED if attribute in lacking]
    names = _bold([name for attribute, name, _ in NEEDED if attribute in lacking])
    raise MissingPermissions(Text(
        "I can't run a table in this channel: I'm missing this permission here:\n"
        "{lines}\nA member with Manage Channels can grant it: channel settings (the gear) -> "
        "Permissions -> the bot's role (or the bot) -> allow {names}; or give the bot's role "
        "these permissions in Server Settings -> Roles.\nNo chips were taken.",
        "I can't run a table in this channel: I'm missing these permissions here:\n"
        "{lines}\nA member with Manage Channels can grant it: channel settings (the gear) -> "
        "Permissions -> the bot's role (or the bot) -> allow {names}; or give the bot's role "
        "these permissions in Server Settings -> Roles.\nNo chips were taken.",
        n=len(lines), lines=joined(lines), names=names))


def needed_line() -> Text:
    """The permissions a table needs, in one line (for /ofc help)."""
    return _bold([name for _, name, _ in NEEDED])
