"""A member's past play: /ofc history (recent matches and the tournament warnings and
penalties received, then a match's hands, then one hand's boards, through two select menus)
and /ofc stats.

The menus are DynamicItems, so a menu still works after a restart: its custom_id says whose history
it shows (and which match). Every pick is checked again against that member's recent matches in
this server, so a forged id or value cannot show another server's match.
"""

import re
from collections.abc import Sequence
from typing import Any, Self

import discord
from discord import app_commands

from bot.i18n import Text, t
from bot.storage import (
    HandHistory,
    MatchSummary,
    PlayerStats,
    SanctionRecord,
    Storage,
    TournamentResult,
)
from cogs.common import images
from cogs.common.answers import PersistentItem, Refusal, send
from cogs.common.client import Interaction, Member, SlashCommand
from cogs.common.format import signed_chips
from cogs.common.interactions import about, guild_id_of, in_time, storage_of
from cogs.common.language import lang
from cogs.economy import embeds
from cogs.economy.review import ReviewButton
from rendering.player_card import Figures, PlayerCard

MAX_OPTIONS = 25  # Discord's limit of options in one select menu
CHECK_DEPTH = 100  # how far back a pick may reach among the member's matches
RECENT_MATCHES = 10
RECENT_SANCTIONS = 10  # tournament warnings and penalties (RULES.md R13)
FORM_MATCHES = 30  # the player card's line: net points over the latest finished matches
RECENT_TOURNAMENTS = 10  # finished tournaments played


def _picked(values: Sequence[str]) -> int:
    if len(values) != 1 or not values[0].isdigit() or not values[0].isascii():
        raise Refusal(Text("That menu choice is not valid."))
    return int(values[0])


def _seen_by(interaction: Interaction, user_id: int,
             matches: Sequence[MatchSummary]) -> list[MatchSummary]:
    """The member's matches as the asker may see them. A member's own are all theirs, and so
    is a match the asker played in; another's only from a channel the asker can view now
    (its boards were shown down there, to that channel's readers). A channel the bot no
    longer knows, or a private thread, is left out: nothing says who could read it."""
    asker = interaction.user
    if user_id == asker.id:
        return list(matches)
    guild = interaction.guild

    def seen(match: MatchSummary) -> bool:
        if any(p.user_id == asker.id for p in match.players):
            return True
        channel = guild.get_channel_or_thread(match.channel_id) if guild else None
        if channel is None or not isinstance(asker, discord.Member):
            return False
        if isinstance(channel, discord.Thread) and channel.is_private():
            return False
        return channel.permissions_for(asker).view_channel
    return [m for m in matches if seen(m)]


async def _recent_match(interaction: Interaction, storage: Storage, guild_id: int,
                        user_id: int, match_id: int) -> MatchSummary:
    recent = await storage.history.recent_matches(guild_id, user_id, limit=CHECK_DEPTH)
    for match in _seen_by(interaction, user_id, recent):
        if match.match_id == match_id:
            return match
    raise Refusal(Text("Match #{n} is not among that member's matches in this server.",
                       n=match_id))


async def _match_and_hands(interaction: Interaction, user_id: int,
                           match_id: int) -> tuple[MatchSummary, list[HandHistory]]:
    """One of the member's recent matches and its hands, read in Discord's 3 s (a read waits
    its turn behind the process's writes)."""
    storage = storage_of(interaction)
    guild_id = guild_id_of(interaction)

    async def read() -> tuple[MatchSummary, list[HandHistory]]:
        summary = await _recent_match(interaction, storage, guild_id, user_id, match_id)
        return summary, await storage.history.match_hands(match_id)
    return await in_time(interaction, read(), ephemeral=True)


class MatchPicker(PersistentItem, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"ofc:hist:(?P<user>[0-9]{1,20})"):
    """Under a `/ofc history` answer: pick a match to list its hands."""

    def __init__(self, user_id: int, matches: Sequence[MatchSummary] = (),
                 loc: str = "en-US") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"ofc:hist:{user_id}",
            placeholder=t(loc, "Show the hands of a match"),
            options=[
                discord.SelectOption(
                    label=t(loc, "Match #{n}", n=m.match_id), value=str(m.match_id),
                    description=f"{t(loc, embeds.hands_count(m.hands))} · "
                                f"{signed_chips(loc, m.player(user_id).net_chips)}")
                for m in matches[:MAX_OPTIONS]
            ],
        ))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["user"]))

    async def clicked(self, interaction: Interaction) -> None:
        summary, hands = await _match_and_hands(interaction, self.user_id,
                                                _picked(self.item.values))
        view = discord.ui.View(timeout=None)
        if hands:
            view.add_item(HandPicker(self.user_id, summary.match_id, hands, lang(interaction)))
        await send(interaction, ephemeral=True,
                   embed=embeds.match_hands(lang(interaction), summary, hands), view=view)


class HandPicker(PersistentItem, discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"ofc:histhand:(?P<user>[0-9]{1,20}):(?P<match>[0-9]{1,20})"):
    """Under a match's hands: pick a hand to see every board as shown down."""

    def __init__(self, user_id: int, match_id: int, hands: Sequence[HandHistory] = (),
                 loc: str = "en-US") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"ofc:histhand:{user_id}:{match_id}",
            placeholder=t(loc, "Show the boards of a hand"),
            options=[
                discord.SelectOption(label=t(loc, "Hand {n}", n=h.hand_no),
                                     value=str(h.hand_no))
                for h in hands[-MAX_OPTIONS:]
            ],
        ))
        self.user_id = user_id
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["user"]), int(match["match"]))

    async def clicked(self, interaction: Interaction) -> None:
        hand_no = _picked(self.item.values)
        summary, hands = await _match_and_hands(interaction, self.user_id, self.match_id)
        hand = next((h for h in hands if h.hand_no == hand_no), None)
        if hand is None:
            raise Refusal(Text("Match #{n} has no hand {hand}.", n=self.match_id, hand=hand_no))
        view = discord.ui.View(timeout=None)
        if self.user_id == interaction.user.id and any(
                r.user_id == self.user_id for r in hand.results):
            view.add_item(ReviewButton(lang(interaction), self.match_id, hand_no))  # the coach
        await send(interaction, ephemeral=True, view=view,
                   embed=embeds.hand_detail(lang(interaction), summary, hand))


@app_commands.command(name="history", description="Recent matches, with their hands")
@app_commands.describe(member="Whose matches to show (default: yours)")
async def history(interaction: Interaction, member: Member | None = None) -> None:
    guild_id, target = about(interaction, member)
    storage = storage_of(interaction)

    async def read() -> tuple[list[MatchSummary], list[SanctionRecord], list[TournamentResult]]:
        recent = await storage.history.recent_matches(guild_id, target.id, limit=CHECK_DEPTH)
        return (_seen_by(interaction, target.id, recent)[:RECENT_MATCHES],
                await storage.tournaments.member_sanctions(guild_id, target.id,
                                                           limit=RECENT_SANCTIONS),
                await storage.tournaments.member_tournaments(guild_id, target.id,
                                                             limit=RECENT_TOURNAMENTS))
    matches, sanctions, tournaments = await in_time(interaction, read(), ephemeral=True)
    view = discord.ui.View(timeout=None)
    if matches:
        view.add_item(MatchPicker(target.id, matches, lang(interaction)))
    await send(interaction, ephemeral=True, view=view,
               embed=embeds.history(lang(interaction), target.mention, target.id, matches,
                                    sanctions, tournaments))


@app_commands.command(name="stats",
                      description="Your player card: rating, recent form, fouls, Fantasyland")
@app_commands.describe(member="Whose statistics to show (default: yours)")
async def stats(interaction: Interaction, member: Member | None = None) -> None:
    """The numbers as text (what a screen reader reads) with the player card drawn from them
    (rendering/player_card.py) under it."""
    guild_id, target = about(interaction, member)
    storage, loc = storage_of(interaction), lang(interaction)
    figures = await in_time(interaction, storage.history.stats(guild_id, target.id),
                            ephemeral=True)
    if not figures.hands:
        await send(interaction, ephemeral=True, embed=embeds.stats(loc, target.mention, figures))
        return
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)  # the card takes a moment
    server = await storage.history.server_stats(guild_id)
    nets = await storage.history.recent_nets(guild_id, target.id, limit=FORM_MATCHES)
    rating, rated = await storage.ratings.rating_of(guild_id, target.id)
    embed = embeds.stats(loc, target.mention, figures, server=server, nets=nets, rating=rating,
                         rated=rated)
    card = PlayerCard(
        name=getattr(target, "display_name", target.name),
        server=interaction.guild.name if interaction.guild else "",
        rating=rating.shown if rating else None, rank=rating.rank if rating else None,
        rated=rated, matches=figures.matches, hands=figures.hands, nets=tuple(nets),
        mine=_figures(figures), average=_figures(server), best_royalties=figures.best_royalties)
    embed.set_image(url=f"attachment://{images.STATS_IMAGE}")
    await send(interaction, ephemeral=True, embed=embed,
               file=await images.player_card_file(loc, card))


def _figures(s: PlayerStats) -> Figures:
    return Figures(s.foul_rate, s.fantasy_entry_rate, s.royalties_per_hand)


COMMANDS: tuple[SlashCommand, ...] = (history, stats)
MENUS = (MatchPicker, HandPicker)
