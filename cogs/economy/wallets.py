"""Wallets (R12): /ofc balance, /ofc daily, /ofc leaderboard (by skill rating or by chips),
/ofc-admin grant.

Every chip movement goes through storage, which writes its ledger row in the same transaction;
these commands only read, claim and grant. Personal answers are ephemeral; the leaderboard and
grants are public.
"""

import discord
from discord import app_commands

from bot.i18n import Text
from bot.storage import DailyNotReady, DailyOff, InsufficientChips
from bot.storage.validate import MAX_CHIPS
from cogs.common.answers import Refusal, manage_server, send
from cogs.common.client import Interaction, Member, SlashCommand
from cogs.common.format import chips, when
from cogs.common.interactions import (
    about,
    guild_id_of,
    in_time,
    now_of,
    require_human,
    storage_of,
    written,
)
from cogs.common.language import lang
from cogs.economy import embeds

LEADERBOARD_SIZE = 10
MAX_REASON = 200
MAX_SEASON = 10_000
NO_REASON = Text("A reason is required. Nothing was changed.")


@app_commands.command(name="balance", description="Your chips in this server (or a member's)")
@app_commands.describe(member="Whose wallet to show (default: yours)")
async def balance(interaction: Interaction, member: Member | None = None) -> None:
    guild_id, target = about(interaction, member)
    storage, now = storage_of(interaction), now_of(interaction)
    next_daily: float | Text | None = None
    if target.id == interaction.user.id:  # a member's first command opens their wallet (R12)
        wallet = await in_time(interaction, storage.wallets.wallet(guild_id, target.id, now=now),
                               ephemeral=True)  # a first wallet is a write
        last = wallet.last_daily_at
        next_daily = now if last is None else last + storage.defaults.daily_cooldown_seconds
        given = (await in_time(interaction, storage.settings.guild_settings(guild_id),
                               ephemeral=True)).daily_chips
        if (storage.defaults.daily_chips if given is None else given) == 0:
            next_daily = DailyOff().text  # nothing to claim: not "ready"
    else:  # looking at another's never writes, even for a user who is not in the server
        wallet = await in_time(interaction, storage.wallets.read_wallet(guild_id, target.id),
                               ephemeral=True)
    line = await in_time(interaction, storage.wallets.rank_of(guild_id, target.id),
                         ephemeral=True)
    await send(interaction, ephemeral=True,
               embed=embeds.balance(lang(interaction), target.mention, wallet, line, next_daily,
                                    now))


@app_commands.command(name="daily", description="Claim your daily chips")
async def daily(interaction: Interaction) -> None:
    guild_id = guild_id_of(interaction)
    storage, now = storage_of(interaction), now_of(interaction)
    try:
        claim = await in_time(interaction, storage.wallets.claim_daily(
            guild_id, interaction.user.id, now=now), ephemeral=True)
    except DailyOff as error:
        raise Refusal(error.text) from error
    except DailyNotReady as error:
        raise Refusal(Text("Already claimed. {reason} ({when})", reason=error.text,
                           when=when(now + error.seconds_left, "t"))) from error
    await send(interaction, ephemeral=True, embed=embeds.daily(lang(interaction), claim))


@app_commands.command(name="leaderboard",
                      description="The best players of this server, by skill rating or chips")
@app_commands.describe(by="Rank by skill rating (default) or by chips",
                       season="A season's number, for its board (default: the current one)")
@app_commands.choices(by=[app_commands.Choice(name="rating", value="rating"),
                          app_commands.Choice(name="chips", value="chips")])
async def leaderboard(interaction: Interaction, by: str = "rating",
                      season: app_commands.Range[int, 1, MAX_SEASON] | None = None) -> None:
    guild_id = guild_id_of(interaction)
    storage = storage_of(interaction)
    name = interaction.guild.name if interaction.guild else None
    if by == "chips":
        if season is not None:
            raise Refusal(Text("Seasons are for the rating board: chips have no seasons."))
        rows = await in_time(interaction, storage.wallets.leaderboard(
            guild_id, limit=LEADERBOARD_SIZE), ephemeral=False)
        me = await in_time(interaction, storage.wallets.rank_of(guild_id, interaction.user.id),
                           ephemeral=False)
        await send(interaction, ephemeral=False,
                   embed=embeds.leaderboard(lang(interaction), rows, me, name))
        return
    # the whole board in one read: its top lines, and the member's own line wherever it is
    shown, board = await in_time(interaction, storage.ratings.rating_board(
        guild_id, season, limit=None), ephemeral=False)
    if season is not None and shown is None:
        raise Refusal(Text("This server has no season {number}.", number=season))
    mine = next((row for row in board if row.user_id == interaction.user.id), None)
    await send(interaction, ephemeral=False,
               embed=embeds.rating_board(lang(interaction), shown, board[:LEADERBOARD_SIZE],
                                         mine, name))


@app_commands.command(name="grant", description="Give chips to a member (Manage Server)")
@app_commands.describe(member="Who receives the chips", amount="How many chips",
                       reason="Why (kept in the ledger)")
@manage_server
async def grant(interaction: Interaction, member: Member,
                amount: app_commands.Range[int, 1, MAX_CHIPS],
                reason: app_commands.Range[str, 1, MAX_REASON]) -> None:
    guild_id = guild_id_of(interaction)
    require_member(member)
    reason = written(reason, NO_REASON)
    # The interaction id as idempotency key: a redelivered interaction grants once.
    move = await in_time(interaction, storage_of(interaction).wallets.grant(
        guild_id, member.id, amount, reason=reason, actor_id=interaction.user.id,
        now=now_of(interaction), key=f"grant:{interaction.id}"), ephemeral=False)
    if not move.applied:
        raise Refusal(Text("This grant was already made."))
    await send(interaction, ephemeral=False, embed=embeds.granted(
        lang(interaction), member.mention, amount, move.balance, reason,
        interaction.user.mention))


@app_commands.command(name="correct",
                      description="Add or take a member's chips, to put a mistake right "
                                  "(Manage Server)")
@app_commands.describe(member="Whose wallet to correct",
                       amount="Chips to add (negative: chips to take)",
                       reason="Why (kept in the ledger)")
@manage_server
async def correct(interaction: Interaction, member: Member,
                  amount: app_commands.Range[int, -MAX_CHIPS, MAX_CHIPS],
                  reason: app_commands.Range[str, 1, MAX_REASON]) -> None:
    """R12's admin correction: a wrong grant taken back, say. Only the wallet: never below 0,
    and chips at tables stay where they are."""
    guild_id = guild_id_of(interaction)
    require_member(member)
    reason = written(reason, NO_REASON)
    if amount == 0:
        raise Refusal(Text("A correction adds or takes at least 1 chip. Nothing was changed."))
    try:  # keyed as a grant is: a redelivered interaction corrects once
        move = await in_time(interaction, storage_of(interaction).wallets.correct(
            guild_id, member.id, amount, reason=reason, actor_id=interaction.user.id,
            now=now_of(interaction), key=f"correct:{interaction.id}"), ephemeral=False)
    except InsufficientChips as error:
        raise Refusal(Text(
            "{member}'s wallet holds {balance}: a correction takes at most that (chips at "
            "tables are not in the wallet). Nothing was changed.", member=member.mention,
            balance=chips(lang(interaction), error.available))) from error
    if not move.applied:
        raise Refusal(Text("This correction was already made."))
    await send(interaction, ephemeral=False, embed=embeds.corrected(
        lang(interaction), member.mention, amount, move.balance, reason,
        interaction.user.mention))


def require_member(member: discord.abc.User) -> None:
    """Chips are the server's (R12): an admin's move is for a person in it. A user option
    may name anyone (a pasted id, someone who left)."""
    require_human(member)
    if not isinstance(member, discord.Member):
        raise Refusal(Text("{member} is not a member of this server.", member=member.mention))


COMMANDS: tuple[SlashCommand, ...] = (balance, daily, leaderboard)  # under /ofc
ADMIN: tuple[SlashCommand, ...] = (grant, correct)  # under /ofc-admin
