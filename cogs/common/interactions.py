"""What the commands and controls take from an interaction: the bot's services, the server,
the member, the table of this channel, and the moment.

The bot object (bot/app.py) carries the services as `client.storage` (bot.storage.Storage) and
`client.tables` (bot.tables.TableService). A command's clock is the moment Discord created the
interaction (its snowflake), so a test's interaction double fixes the time exactly.
"""

import asyncio
import math
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import Slash, Text
from bot.storage import Storage
from bot.tables import TableService
from cogs.common.answers import ALREADY_ANSWERED, Refusal, Refused
from cogs.common.client import Interaction

NO_TABLE = Text("There is no table in this channel. Open one with {cmd}.",
                cmd=Slash("ofc create"))
T = TypeVar("T")
DEFER_AFTER = 1.5  # seconds from its receipt to an unanswered interaction's defer (Discord: 3)


def time_left(interaction: Interaction) -> float:
    """Seconds until DEFER_AFTER has passed since the bot received the interaction (0 once
    it has): how long its work may take before its answer is deferred."""
    received = interaction.client.received_at(interaction)
    return max(0.0, received + DEFER_AFTER - asyncio.get_running_loop().time())


def storage_of(interaction: Interaction) -> Storage:
    return interaction.client.storage


def tables_of(interaction: Interaction) -> TableService:
    return interaction.client.tables


def now_of(interaction: Interaction) -> float:
    return interaction.created_at.timestamp()


def guild_id_of(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal(Text("This command works in a server, not in direct messages."))
    return interaction.guild_id


def channel_id_of(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise Refusal(Text("This command works in a channel."))
    return interaction.channel_id


def require_human(member: discord.abc.User) -> None:
    if member.bot:
        raise Refusal(Text("{member} is a bot: bots have no wallet.", member=member.mention))


def written(value: str, refusal: Text) -> str:
    """A text option without its outer spaces; refused with `refusal` when nothing else is
    left (spaces pass Discord's length check)."""
    if not value.strip():
        raise Refusal(refusal)
    return value.strip()


def about(interaction: Interaction,
          member: discord.abc.User | None) -> tuple[int, discord.abc.User]:
    """The server and the member a command is about (by default the invoker), never a bot."""
    guild_id = guild_id_of(interaction)
    target = member or interaction.user
    require_human(target)
    return guild_id, target


def table_here(interaction: Interaction) -> int:
    """The live table of the channel (or thread) the command was used in."""
    table = tables_of(interaction).table_for_channel(interaction.channel_id or 0)
    if table is None:
        raise Refusal(NO_TABLE)
    return table


def name_of(user: discord.abc.User) -> str:
    return user.display_name


async def in_time(interaction: Interaction, work: Awaitable[T], *, ephemeral: bool) -> T:
    """`work` (a write, or a read: on SQLite a read waits its turn behind the process's
    writes, which may wait on a busy database), answered in Discord's 3 s: when it takes
    longer than DEFER_AFTER the interaction is deferred ("thinking", with the visibility of
    its answer), and the answer then comes as the follow-up. A quick refusal stays an
    immediate private answer. DEFER_AFTER counts from when the bot received the interaction,
    for every call it makes: a callback that waited for a busy loop has less of it, and two
    reads of 1.4 s each are deferred before the second ends."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=time_left(interaction))
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException as error:
            # A redelivered interaction (a resumed gateway) was answered the first time: its
            # work goes on, and its answer is refused as when the work is quick.
            if error.code != ALREADY_ANSWERED:
                raise
    return await task


class Slowed(Refused):
    """A member ran a costly command or control again before its limit allowed."""


class Limit:
    """A member may use what this limits `uses` times per `seconds` (a typo fixed at once is
    not refused). One Limit may guard a command (as its decorator: an app_commands check)
    and a control (`take` in its callback), which then share the count: `/ofc review` and
    the Review button. Timed by the table service's clock (the bot's `clock`: a test's fake
    clock) and kept on the bot, so a restart or another bot in the same process starts
    afresh. Refused through the one error path with the time to wait."""

    FIRSTS = 32  # per member: the latest `once` keys remembered (a street of each table)
    MEMBERS = 10_000  # members remembered before the oldest are forgotten (counts, `once`)

    def __init__(self, uses: int, seconds: float) -> None:
        self.uses = uses
        self.seconds = seconds

    def __call__(self, command: T) -> T:
        def check(interaction: Interaction) -> bool:
            self.take(interaction)
            return True
        return app_commands.check(check)(command)

    def take(self, interaction: Interaction, once: object = None) -> None:
        """Count one use by the interaction's member, or raise Slowed with the wait. With
        `once` (a control's action: a street of a table), the member's first use for it is
        not counted: the one a street that play asks for is never refused, however fast the
        table goes, and only presses again on the same action use up the limit."""
        client: Any = interaction.client
        key = (self, interaction.user.id)
        if once is not None:
            firsts: dict[tuple[Limit, int], list[object]] = client.__dict__.setdefault(
                "ofc_firsts", {})
            seen = firsts[key] = firsts.pop(key, [])  # the newest last
            if len(firsts) > self.MEMBERS:
                del firsts[next(iter(firsts))]
            if once not in seen:
                seen.append(once)
                del seen[:-self.FIRSTS]
                return
        runs: dict[tuple[Limit, int], list[float]] = client.__dict__.setdefault(
            "ofc_cooldowns", {})
        now: float = client.clock.now()
        recent = [t for t in runs.get(key, []) if t > now - self.seconds]
        if len(recent) >= self.uses:
            left = recent[0] + self.seconds - now
            raise Slowed(Text("Slow down: try again in {n} s.", n=max(1, math.ceil(left))))
        if len(runs) > self.MEMBERS:  # forget the members whose limit is over
            for old in [k for k, times in runs.items() if times[-1] <= now - k[0].seconds]:
                del runs[old]
        runs[key] = [*recent, now]


def per_member(uses: int, seconds: float) -> Limit:
    """A Limit of its own for one command: `@per_member(3, 60)`."""
    return Limit(uses, seconds)
