"""The coach and the history after a hand of three people (R7: dealt cards and discards are
their owner's alone, even once the hand is shown down): each player's `/ofc review` and a
member's look at another's hand in `/ofc history` write no card but their reader's own and
those face up on a board. Every image and text people saw is checked
(tests/e2e/privacy.py)."""

import re

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import open_table, play_out, seats_of, title
from tests.e2e.privacy import PrivacyWatch

LONG = 120.0  # a review thinks for about a second a street


async def test_reviews_and_history_show_nobody_another_players_discards(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        watch: PrivacyWatch) -> None:
    members = (alice, bob, carol)
    # Pineapple: each player discards a card on streets 2-5 (R7); no Fantasyland hand added.
    table = await open_table(double, *members, seats=3, format="hands", hands=1,
                             fantasy="off")
    await play_out(double, table, seats_of(members))
    assert len(watch.discards[1]) == 12  # 3 players x 4 streets, each seen by its owner only

    for member in members:
        reviewed = await double.resolved(await member.slash("ofc review"), timeout=LONG)
        assert reviewed.ephemeral and reviewed.visible_to == member.id
        found = re.fullmatch(r"Review: match #(\d+), hand 1", title(reviewed))
        assert found is not None
    listed = await double.resolved(await alice.slash("ofc history", member=bob))
    hands = await double.resolved(await alice.select(listed, found[1]))
    shown = await double.resolved(await alice.select(hands, "1"))
    assert title(shown) == f"Match #{found[1]}, hand 1"
    assert "Review with the strong computer" not in shown.labels()  # Bob's hand, not hers

    assert watch.problems(double, double.channel, members) == []
