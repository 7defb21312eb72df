"""Per-member limits on the controls that cost the bot a core's work, through the real bot and
the Discord double on a fake clock: `/ofc review` and the Review button under `/ofc history`
share one limit (3 a minute); Suggest (6 a minute) and Solve, the best arrangement (3 a
minute), have theirs, beyond the first press for each street. Every other press counts, refused
or not; a limit is per member and frees up on the clock."""

import sys

import pytest

from bot.app import OFCBot
from bot.storage import Storage
from bot.tables import FakeClock
from cogs.common.answers import send
from cogs.common.client import Interaction
from cogs.tables.ids import StepId, Turn
from tests.cogs.economy.test_history_stats import line, record_match
from tests.cogs.test_guard import seat_of
from tests.cogs.test_play import opening
from tests.e2e.discord_double import DiscordDouble, Member, Message

SLOWED = "Slow down: try again in "
REVIEW_BUTTON = "Review with the strong computer"


def said(answer: Message) -> str:
    return str(answer.embed["description"]) if answer.embed else str(answer.content)


async def pressed(member: Member, message: Message, custom_id: str) -> str:
    """What the member is told after a press of `custom_id` on `message` (a DM prompt)."""
    before = member.last_ephemeral()
    await member.forge(message, custom_id)
    return said(await member.wait_for_ephemeral(after=before))


async def test_review_and_the_review_button_share_one_limit_per_member(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    storage: Storage = bot.storage
    match = await record_match(storage, [[line(alice.id, 4, 4), line(bob.id, -4, -4)]],
                               [alice.id], guild=double.guild.id)

    async def reviewed(interaction: Interaction, match_id: int | None,
                       hand_no: int | None) -> None:
        await send(interaction, ephemeral=True, content="reviewed")  # no computer's work

    # (the module the running bot loaded: each load of an extension imports it anew)
    monkeypatch.setattr(sys.modules["cogs.economy.review"], "answer_review", reviewed)

    assert said(await double.resolved(await alice.slash("ofc review"))) == "reviewed"
    listed = await double.resolved(await alice.slash("ofc history"))
    hands = await double.resolved(await alice.select(listed, str(match)))
    shown = await double.resolved(await alice.select(hands, "1"))
    for _ in range(2):  # the 2nd and 3rd reviews of the minute
        assert said(await double.resolved(await alice.click(shown, REVIEW_BUTTON))) == "reviewed"
    slowed = [said(await double.resolved(await alice.slash("ofc review"))),
              said(await double.resolved(await alice.click(shown, REVIEW_BUTTON)))]
    assert all(text.startswith(SLOWED) for text in slowed), slowed
    assert said(await double.resolved(await bob.slash("ofc review"))) == "reviewed"
    await clock.advance(60)
    assert said(await double.resolved(await alice.click(shown, REVIEW_BUTTON))) == "reviewed"


async def test_suggest_and_best_arrangement_each_have_a_limit_per_member(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        clock: FakeClock) -> None:
    table, first, _second, prompt, _dealt = await opening(double, bot, alice, bob)
    turn = Turn(table, 1, 1, seat_of(bot, table, first))
    suggest, best = str(StepId(turn, "suggest")), str(StepId(turn, "best"))
    # Hints are off and this is no Fantasyland hand: each press is refused by the table
    # service, after its limit counted it (the work a forged press asks for is the same).
    # The first press for the street is not counted: 1 + 6 pass.
    hints_off = [await pressed(first, prompt, suggest) for _ in range(7)]
    assert not any(text.startswith(SLOWED) for text in hints_off), hints_off
    assert (await pressed(first, prompt, suggest)).startswith(SLOWED)
    for _ in range(4):  # 1 + 3
        assert await pressed(first, prompt, best) == \
            "Solve is only for a Fantasyland hand."
    assert (await pressed(first, prompt, best)).startswith(SLOWED)
    await clock.advance(60)
    assert not (await pressed(first, prompt, suggest)).startswith(SLOWED)
    assert not (await pressed(first, prompt, best)).startswith(SLOWED)


async def test_one_suggest_a_street_is_never_slowed(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """However fast the streets come (a practice against computers plays ten in a minute),
    the first Suggest of each is not counted; presses again on one street are."""
    table, first, _second, prompt, _dealt = await opening(double, bot, alice, bob)
    seat = seat_of(bot, table, first)
    turns = [Turn(table, hand, street, seat) for hand in (1, 2) for street in range(1, 6)]
    firsts = [await pressed(first, prompt, str(StepId(turn, "suggest"))) for turn in turns]
    assert not any(text.startswith(SLOWED) for text in firsts), firsts
    again = str(StepId(turns[0], "suggest"))
    repeats = [await pressed(first, prompt, again) for _ in range(6)]
    assert not any(text.startswith(SLOWED) for text in repeats), repeats
    assert (await pressed(first, prompt, again)).startswith(SLOWED)
