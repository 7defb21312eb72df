"""`/ofc review` (the coach) as members run it, through the real bot and the local Discord
double, on hands recorded in real storage: the hand named or the latest, refused for another's
hand, another server's or an unreplayable history, and the member's recent hands offered as
they type."""

import json

import pytest

from bot.ai.players import Settings, decide
from bot.app import OFCBot
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from cogs.common.answers import Refusal
from cogs.economy.review import BAD_HAND, NO_HANDS, UNAVAILABLE, parse_hand
from tests.cogs.economy.test_history_stats import line, record_match
from tests.e2e.discord_double import DiscordDouble, Member

OTHER_GUILD = 111_111_111_111_111_222


def _history(alice: Member, bob: Member, seed: int) -> str:
    """A finished heads-up hand of Alice and Bob, both playing as the easy player."""
    match = Match.new(TableRules(seats=2), [PlayerSpec(alice.id, "Alice", 200),
                                            PlayerSpec(bob.id, "Bob", 200)], seed=seed)
    match.start_hand(0.0)
    while match.phase == "playing":
        seat = match.pending()[0]
        match.place(seat, decide(match.view_for(seat), Settings(level="easy")), 0.0)
    return json.dumps(match.history())


@pytest.mark.parametrize("text, expected", [
    ("12-3", (12, 3)), ("12/3", (12, 3)), (" #12 hand 3 ", (12, 3)), ("12 3", (12, 3)),
    ("7:1", (7, 1)),
])
def test_a_hand_is_written_match_then_hand(text: str, expected: tuple[int, int]) -> None:
    assert parse_hand(text) == expected


@pytest.mark.parametrize("text", ["12", "abc", "12-", "-3", "12-3-4", "1e3-2", "0-3", "12-0"])
def test_anything_else_is_refused_with_the_way_to_write_it(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_hand(text)
    assert str(refused.value) == str(BAD_HAND)


async def test_the_latest_hand_by_default_and_another_named(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    guild = double.guild.id
    first = await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)]],
                               [alice.id], guild=guild, history_json=_history(alice, bob, 1))
    second = await record_match(bot.storage, [[line(alice, -2, -2), line(bob, 2, 2)]],
                                [bob.id], guild=guild, start=1_700_000_500.0,
                                history_json=_history(alice, bob, 2))
    latest = await double.resolved(await alice.slash("ofc review"))
    assert latest.ephemeral and latest.embed is not None
    assert latest.embed["title"] == f"Review: match #{second}, hand 1"
    assert "you scored **-2 points" in latest.embed.get("description", "")
    named = await double.resolved(await bob.slash("ofc review", hand=f"{first}-1"))
    assert named.embed is not None
    assert named.embed["title"] == f"Review: match #{first}, hand 1"
    streets = [f["name"] for f in named.embed["fields"] if f["name"].startswith("Street")]
    assert [name.split(":")[0] for name in streets] == [f"Street {n}" for n in range(1, 6)]


@pytest.mark.parametrize("who, guild", [("carol", None), ("alice", OTHER_GUILD)])
async def test_a_hand_not_played_here_is_refused(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        who: str, guild: int | None) -> None:
    """Carol did not play it; Alice played it in another server (asked here)."""
    match = await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)]],
                               [alice.id], guild=guild or double.guild.id,
                               history_json=_history(alice, bob, 1))
    asker = {"alice": alice, "carol": carol}[who]
    asked = await double.resolved(await asker.slash("ofc review", hand=f"{match}-1"))
    assert asked.ephemeral and asked.embed is not None
    assert asked.embed["description"] == (
        f"You did not play hand 1 of match #{match} in this server.")


async def test_no_hand_yet_and_an_old_history_are_refused(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    nothing = await double.resolved(await alice.slash("ofc review"))
    assert nothing.embed is not None and nothing.embed["description"] == str(NO_HANDS)
    await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)]], [alice.id],
                       guild=double.guild.id, history_json='{"version": 0}')
    old = await double.resolved(await alice.slash("ofc review"))
    assert old.embed is not None and old.embed["description"] == str(UNAVAILABLE)


async def test_recent_hands_are_offered_as_the_member_types(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member) -> None:
    match = await record_match(bot.storage, [[line(alice, 4, 4), line(bob, -4, -4)],
                                             [line(alice, -1, -1), line(bob, 1, 1)]],
                               [alice.id], guild=double.guild.id)
    offered = await alice.autocomplete("ofc review", "hand", "")
    assert [(c["name"], c["value"]) for c in offered] == [
        (f"Match #{match}, hand 2: -1 point", f"{match}-2"),
        (f"Match #{match}, hand 1: +4 points", f"{match}-1")]
    typed = await alice.autocomplete("ofc review", "hand", f"{match}-1")
    assert [c["value"] for c in typed] == [f"{match}-1"]
    assert await carol.autocomplete("ofc review", "hand", "") == []


async def test_a_match_or_hand_zero_is_refused_with_the_way_to_write_it(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    """Matches and hands count from 1: a zero is a typo (told how to write a hand), or in a
    Review button's id a forged one, not a question for storage, whose refusal of it is an
    operator's English."""
    typed = await double.resolved(await alice.slash("ofc review", hand="0-1"))
    assert typed.embed is not None and typed.embed["description"] == str(BAD_HAND)
    before = alice.last_ephemeral()
    await alice.forge(typed, "ofc:review:0:1")
    forged = await alice.wait_for_ephemeral(lambda m: m.embed is not None, after=before)
    assert forged.embed["description"] == "That control is not valid."
