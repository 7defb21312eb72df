"""`/ofc review [hand]`: the coach, to learn from. One of the member's own finished hands, street
by street: what they placed, what the strong computer would have placed from the same view,
and what its choice was worth over theirs, answered privately.

The hand must be the member's in this server (storage checks it: another's hand, or one that
does not exist, gets the same refusal). The replay and the strong computer's thinking (under a
second, `review_hand_ms`) run in the bot's worker processes as a person's work, after the answer is
deferred. "Review" under a hand of `/ofc history` does the same for that hand.
"""

import asyncio
import json
import re
import zlib
from functools import partial
from typing import Any, Self

import discord
from discord import app_commands

from bot.ai.review import review_hand
from bot.engine.errors import RuleError
from bot.i18n import Slash, Text, t
from bot.process.workers import PERSON
from cogs.common import images
from cogs.common.answers import PersistentItem, Refusal, send
from cogs.common.client import Interaction
from cogs.common.format import signed_points
from cogs.common.interactions import guild_id_of, per_member, storage_of, time_left
from cogs.common.language import lang
from cogs.economy import embeds

CHOICES = 25  # Discord's limit of autocomplete choices
MAX_HAND_TEXT = 40  # "#<match> hand <n>" with room to spare
NO_HANDS = Text("You have not finished a hand in this server yet: play one ({practice} deals "
                "one against the computer), then review it.", practice=Slash("ofc practice"))
BAD_HAND = Text("Write the hand as match-hand, e.g. `12-3` (match #12, hand 3; see {history}).",
                history=Slash("ofc history"))
UNAVAILABLE = Text("Review isn't available for this hand: its history cannot be replayed "
                   "(it was recorded by an older version of the bot).")
# The strong computer thinks under a second per review: /ofc review and the Review button
# under /ofc history share this limit.
REVIEW = per_member(3, 60)
_HAND = re.compile(r"\s*#?([0-9]{1,18})\s*[-/:, ]\s*(?:hand\s*)?([0-9]{1,9})\s*", re.IGNORECASE)


def parse_hand(text: str) -> tuple[int, int]:
    """(match id, hand number) from '12-3', '12/3', '#12 hand 3'."""
    found = _HAND.fullmatch(text)
    if found is None or not int(found[1]) or not int(found[2]):  # both count from 1
        raise Refusal(BAD_HAND)
    return int(found[1]), int(found[2])


async def answer_review(interaction: Interaction, match_id: int | None,
                        hand_no: int | None) -> None:
    """Review the member's hand (their latest with None), privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    guild_id = guild_id_of(interaction)
    storage = storage_of(interaction)
    user = interaction.user.id
    if match_id is None or hand_no is None:
        latest = await storage.history.played_hands(guild_id, user, limit=1)
        if not latest:
            raise Refusal(NO_HANDS)
        match_id, hand_no = latest[0].match_id, latest[0].hand_no
    played, history = await storage.history.played_hand(guild_id, user, match_id, hand_no)
    seed = zlib.crc32(f"{match_id}:{hand_no}".encode())  # the same review every time
    try:
        reviewed = await images.workers().run(
            partial(review_hand, json.loads(history), user, seed=seed), priority=PERSON)
    except (RuleError, ValueError, KeyError, TypeError) as error:
        raise Refusal(UNAVAILABLE) from error
    await send(interaction, ephemeral=True,
               embed=embeds.review(lang(interaction), played, reviewed))


@REVIEW
@app_commands.command(name="review",
                      description="Go over one of your finished hands with the strong computer "
                                  "(only you see it)")
@app_commands.describe(hand="match-hand, e.g. 12-3 (default: your latest hand); type to pick "
                            "from your recent hands")
async def review(interaction: Interaction,
                 hand: app_commands.Range[str, 1, MAX_HAND_TEXT] | None = None) -> None:
    match_id, hand_no = parse_hand(hand) if hand else (None, None)
    await answer_review(interaction, match_id, hand_no)


@review.autocomplete("hand")
async def recent_hands(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    """The member's latest hands in this server, newest first, those matching what is typed."""
    if interaction.guild_id is None:
        return []
    read = asyncio.ensure_future(storage_of(interaction).history.played_hands(
        interaction.guild_id, interaction.user.id, limit=CHOICES))
    # An autocomplete cannot be deferred, and Discord drops an answer past 3 s: a read that
    # waits its turn behind the process's writes offers no choice (typing still works).
    done, _ = await asyncio.wait({read}, timeout=time_left(interaction))
    if not done:  # left to finish (a read cancelled mid-statement would gain nothing)
        read.add_done_callback(lambda r: r.cancelled() or r.exception())  # none unretrieved
        return []
    hands = read.result()
    loc = lang(interaction)
    choices = []
    for h in hands:
        value = f"{h.match_id}-{h.hand_no}"
        fields = {"n": h.match_id, "hand": h.hand_no, "points": signed_points(loc, h.points)}
        name = t(loc, Text("Match #{n}, hand {hand}: {points} (practice)", **fields)
                 if h.practice else Text("Match #{n}, hand {hand}: {points}", **fields))
        if typed.strip() in value or typed.strip().lower() in name.lower():
            choices.append(app_commands.Choice(name=name, value=value))
    return choices


class ReviewButton(PersistentItem, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ofc:review:(?P<match>[1-9][0-9]{0,17}):(?P<hand>[1-9][0-9]{0,8})"):
    """"Review" under one of the member's hands in `/ofc history`: the coach for the clicker,
    on that hand (refused, like the command, when the clicker did not play it)."""

    def __init__(self, loc: str, match_id: int, hand_no: int) -> None:
        super().__init__(discord.ui.Button(
            label=t(loc, "Review with the strong computer"), style=discord.ButtonStyle.primary,
            custom_id=f"ofc:review:{match_id}:{hand_no}"))
        self.match_id = match_id
        self.hand_no = hand_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(lang(interaction), int(match["match"]), int(match["hand"]))

    async def clicked(self, interaction: Interaction) -> None:
        REVIEW.take(interaction)
        await answer_review(interaction, self.match_id, self.hand_no)
