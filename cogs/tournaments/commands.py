"""`/ofc tournament ...`: registration, start, the director's warnings and penalties,
standings, cancel (RULES.md R13). Refusals take the one error path (TournamentError is a
RuleError).

One language a message, each posted once: the director's commands are answered privately,
in the director's language; what the channel must know (opened, a computer registered,
started, a sanction, the tables' ends, the final, cancelled) the service tells it, and
cogs.tournaments posts that once, in the server's language. A member's own join or leave is
the channel's news, answered there in the server's language."""

from typing import Any

import discord
from discord import app_commands

from bot.engine.tournament import MAX_REASON, Tournament, parse_payouts
from bot.i18n import Slash, Text, t
from bot.i18n.names import seat_name
from bot.tables import TableService
from bot.tournaments import TournamentDirector
from cogs.common.answers import UNCHANGED, Refusal, manages_server, send
from cogs.common.client import Interaction, Member
from cogs.common.interactions import (
    channel_id_of,
    guild_id_of,
    in_time,
    name_of,
    require_human,
    tables_of,
)
from cogs.common.language import lang, server_locale
from cogs.common.options import table_options
from cogs.common.permissions import NEEDED, THREADS, require_table_permissions
from cogs.tournaments import embeds

NO_TOURNAMENT = Text("There is no tournament in this channel. Open one with {cmd}.",
                     cmd=Slash("ofc tournament create"))
NO_THREADS = Text("I cannot open the tables' threads here: give me the Create Public Threads "
                  "and Send Messages in Threads permissions in this channel, then the director "
                  "opens them with {cmd}.", cmd=Slash("ofc tournament start"))
NOT_TEXT = Text("A tournament opens in a server's text channel: its tables get threads there.")
Reason = app_commands.Range[str, 1, MAX_REASON]
MAX_PAYOUTS_TEXT = 100  # "65/35"-style percentages: far more places than any tournament pays
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in ("easy", "strong")]

tournament = app_commands.Group(name="tournament",
                                description="Shootout tournaments (seed 001's rules)")


def _(interaction: Interaction, text: Text) -> str:
    return t(lang(interaction), text)


async def tell_director(interaction: Interaction, text: Text) -> None:
    """The director's private answer, in the director's language (the channel is told by
    the service's post)."""
    await send(interaction, ephemeral=True, content=_(interaction, text))


async def tell_channel(interaction: Interaction, text: Text) -> None:
    """A member's own registration news, public, in the server's language."""
    loc = await server_locale(interaction.client, guild_id_of(interaction))
    await send(interaction, ephemeral=False, content=t(loc, text))


def service_of(interaction: Interaction) -> TournamentDirector:
    return interaction.client.tournaments


def here(interaction: Interaction) -> Tournament:
    found = service_of(interaction).for_channel(channel_id_of(interaction))
    if found is None:
        raise Refusal(NO_TOURNAMENT)
    return found


def require_threads(interaction: Interaction, unchanged: Text) -> None:
    """Refuse unless this is a text channel where the bot can post and open the tables'
    threads (the permissions Discord sends with the interaction)."""
    if not isinstance(interaction.channel, discord.TextChannel):
        raise Refusal(NOT_TEXT)
    require_table_permissions(interaction.app_permissions, NEEDED + THREADS, tournament=True,
                              unchanged=unchanged)


@tournament.command(name="create", description="Open a shootout tournament in this channel")
@app_commands.describe(
    buy_in="Chips each player pays into the prize pool",
    table_seats="Players per table: 2 or 3 (odd numbers give heads-up tables)",
    table_hands="Hands per table (default 20), plus one per Fantasyland hand",
    payouts="Percent per place, e.g. 65/35 (default: everything to the winner)",
    window_minutes="How long registration stays open (default 60)",
    clock_penalty="A table's timeout costs 10 points and a warning, as a called clock "
                  "(seed 001; default on)",
)
@app_commands.choices(table_seats=[
    app_commands.Choice(name=app_commands.locale_str(str(n), fixed=True), value=n)
    for n in (2, 3)])
@table_options("variant", "scoring", "royalties", "fantasy")  # the rest: seed 001's
async def create(interaction: Interaction, buy_in: app_commands.Range[int, 0, 10**9],
                 table_seats: int = 3, table_hands: app_commands.Range[int, 1, 1000] = 20,
                 payouts: app_commands.Range[str, 1, MAX_PAYOUTS_TEXT] = "",
                 window_minutes: app_commands.Range[int, 1, 10080] = 60,
                 clock_penalty: bool = True, *, options: dict[str, Any]) -> None:
    require_threads(interaction, Text("No tournament was opened."))
    t = await in_time(interaction, service_of(interaction).create(
        guild_id_of(interaction), channel_id_of(interaction), interaction.user.id,
        buy_in=buy_in, seats=table_seats, hands=table_hands, payouts=parse_payouts(payouts),
        options=options, window_seconds=window_minutes * 60.0, clock_penalty=clock_penalty),
        ephemeral=True)
    await tell_director(interaction, Text("Tournament #{n} is open; the channel was told.",
                                          n=t.tournament_id))


@tournament.command(name="join", description="Register for this channel's tournament")
async def join(interaction: Interaction) -> None:
    require_human(interaction.user)
    t = await in_time(interaction, service_of(interaction).join(
        here(interaction).tournament_id, interaction.user.id, name_of(interaction.user)),
        ephemeral=False)
    await tell_channel(interaction, Text("{who} joined ({n} registered, prize pool {pool}).",
                                         who=interaction.user.mention, n=len(t.entries),
                                         pool=t.pool))


@tournament.command(name="leave", description="Unregister (while registration is open)")
async def leave(interaction: Interaction) -> None:
    t = await in_time(interaction, service_of(interaction).leave(
        here(interaction).tournament_id, interaction.user.id), ephemeral=False)
    await tell_channel(interaction, Text("{who} left; the buy-in went back ({n} registered).",
                                         who=interaction.user.mention, n=len(t.entries)))


@tournament.command(name="computer", description="Register a computer player (director)")
@app_commands.describe(level="How strong it plays (default: easy)")
@app_commands.choices(level=LEVEL_CHOICES)
async def computer(interaction: Interaction, level: str = "easy") -> None:
    t = await in_time(interaction, service_of(interaction).add_computer(
        here(interaction).tournament_id, interaction.user.id, level,
        is_admin=manages_server(interaction)), ephemeral=True)
    await tell_director(interaction, Text("{who} registered; the channel was told.",
                                          who=seat_name(lang(interaction), t.entries[-1].name)))


@tournament.command(name="start", description="Close registration and seat the first level "
                                              "by lot (director)")
async def start(interaction: Interaction) -> None:
    t = here(interaction)
    require_threads(interaction, UNCHANGED)
    service_of(interaction).check_start(t, interaction.user.id, manages_server(interaction))
    await interaction.response.defer(ephemeral=True)
    await service_of(interaction).start(t.tournament_id, interaction.user.id,
                                        is_admin=manages_server(interaction))
    await tell_director(interaction, Text("Started; the channel was told."))


@tournament.command(name="warn", description="Warn a player: the 2nd costs 25 points, the 3rd "
                                             "excludes (director)")
@app_commands.describe(member="The player warned", reason="Why (shown in the standings)")
async def warn(interaction: Interaction, member: Member, reason: Reason) -> None:
    s = await in_time(interaction, service_of(interaction).warn(
        here(interaction).tournament_id, interaction.user.id, member.id, reason,
        is_admin=manages_server(interaction)), ephemeral=True)
    await send(interaction, ephemeral=True,
               content=embeds.sanction_line(lang(interaction), s, member.mention))


@tournament.command(name="penalty", description="Take points from a player (director)")
@app_commands.describe(member="The player penalised", points="Points taken",
                       reason="Why (shown in the standings)")
async def penalty(interaction: Interaction, member: Member,
                  points: app_commands.Range[int, 1, 1000], reason: Reason) -> None:
    s = await in_time(interaction, service_of(interaction).penalty(
        here(interaction).tournament_id, interaction.user.id, member.id, points, reason,
        is_admin=manages_server(interaction)), ephemeral=True)
    await send(interaction, ephemeral=True,
               content=embeds.sanction_line(lang(interaction), s, member.mention))


@tournament.command(name="time", description="Seed 001's time penalty: 10 points and a "
                                             "warning (director)")
@app_commands.describe(member="The player who did not act in time")
async def time(interaction: Interaction, member: Member) -> None:
    given = await in_time(interaction, service_of(interaction).time_penalty(
        here(interaction).tournament_id, interaction.user.id, member.id,
        is_admin=manages_server(interaction)), ephemeral=True)
    await send(interaction, ephemeral=True, content="\n".join(
        embeds.sanction_line(lang(interaction), s, member.mention) for s in given))


@tournament.command(name="standings", description="Levels, tables, points, warnings and "
                                                  "penalties; after the final, its results")
async def standings(interaction: Interaction) -> None:
    service = service_of(interaction)
    channel = channel_id_of(interaction)
    found = service.for_channel(channel) or await in_time(
        interaction, service.last_finished(channel), ephemeral=True)
    if found is None:
        raise Refusal(NO_TOURNAMENT)
    await send(interaction, ephemeral=True, embed=embeds.standings(
        lang(interaction), found, in_play=hands_at(tables_of(interaction), found)))


def hands_at(tables: TableService, tm: Tournament) -> dict[int, tuple[int, int]]:
    """Table id -> (the hand it is at, the hands of its match so far), for the level's tables
    in play here."""
    live = set(tables.live_tables())
    views = {table.table_id: tables.public_view(table.table_id)
             for table in tm.current_tables if table.table_id in live}
    return {table_id: (view.hand_no, view.hands_total) for table_id, view in views.items()
            if table_id is not None and view is not None and view.hand_no}


@tournament.command(name="cancel", description="Cancel: everyone but the excluded gets the "
                                               "buy-in back (director)")
async def cancel(interaction: Interaction) -> None:
    t = here(interaction)
    service_of(interaction).check_director(t, interaction.user.id, manages_server(interaction))
    await interaction.response.defer(ephemeral=True)
    await service_of(interaction).cancel(t.tournament_id, interaction.user.id,
                                         is_admin=manages_server(interaction))
    await tell_director(interaction, Text("Cancelled; the channel was told."))
