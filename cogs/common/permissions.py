"""What the bot needs in a channel to run a table there, and how to say what is missing.

Discord sends the bot's permissions in the channel with every interaction
(`interaction.app_permissions`: roles and the channel's overwrites applied), so a command can
check them before anything changes.
"""

import discord

from cogs.common.answers import Refusal
from cogs.common.client import Interaction

# (attribute of discord.Permissions, its name in Discord's settings, why the bot needs it)
Needed = tuple[tuple[str, str, str], ...]
NEEDED: Needed = (
    ("view_channel", "View Channel", "to see the channel"),
    ("send_messages", "Send Messages", "to post the lobby and the table"),
    ("embed_links", "Embed Links", "for the lobby, table and showdown messages"),
    ("attach_files", "Attach Files", "for the table and showdown images"),
    ("read_message_history", "Read Message History", "to edit the table message in place"),
)
# A tournament's tables play in threads the bot opens in its channel (RULES.md R13).
THREADS: Needed = (
    ("create_public_threads", "Create Public Threads", "to open a thread for each table"),
    ("send_messages_in_threads", "Send Messages in Threads", "to run the tables in them"),
)
HOW_TO_GRANT = (
    "A member with Manage Channels can grant it: channel settings (the gear) -> Permissions -> "
    "the bot's role (or the bot) -> allow {names}; or give the bot's role these permissions "
    "in Server Settings -> Roles.")


class MissingPermissions(Refusal):
    """The bot lacks a permission it needs in the channel; nothing was changed."""


def missing(permissions: discord.Permissions, needed: Needed = NEEDED) -> list[str]:
    """The names (as Discord's settings show them) of the permissions the bot lacks."""
    return [name for attribute, name, _ in needed if not getattr(permissions, attribute)]


def require_table_permissions(permissions: discord.Permissions, needed: Needed = NEEDED, *,
                              what: str = "run a table",
                              unchanged: str = "No chips were taken.") -> None:
    """Refuse, naming each missing permission and how to grant it, unless the bot has every
    permission `needed` (by default: what a table needs) in this channel."""
    lacking = missing(permissions, needed)
    if not lacking:
        return
    why = {name: reason for _, name, reason in needed}
    lines = [f"- **{name}**: {why[name]}" for name in lacking]
    names = ", ".join(f"**{name}**" for name in lacking)
    raise MissingPermissions(
        f"I can't {what} in this channel: I'm missing "
        f"{'this permission' if len(lacking) == 1 else 'these permissions'} here:\n"
        + "\n".join(lines) + "\n" + HOW_TO_GRANT.format(names=names)
        + f"\n{unchanged}")


def needed_line() -> str:
    """The permissions a table needs, in one line (for /ofc help)."""
    return ", ".join(f"**{name}**" for _, name, _ in NEEDED)


def can_open_threads(interaction: Interaction) -> bool:
    """The bot may open a public thread in this text channel and post in it (a tournament's
    tables, a practice table)."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or interaction.guild is None:
        return False
    mine = channel.permissions_for(interaction.guild.me)
    return mine.create_public_threads and mine.send_messages_in_threads
