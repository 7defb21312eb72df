"""`/ofc history member:X` shows another member's matches only from the channels the asker
can see (a private channel's boards stay there); a member's own history keeps every match
they played, wherever it was."""

import re

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.discord_double.model import VIEW_CHANNEL
from tests.e2e.flows import description, open_table, play_out, seats_of, title


def matches_listed(answer: Message) -> list[int]:
    assert answer.embed is not None
    return [int(n) for n in re.findall(r"Match #(\d+)", str(answer.embed))]


async def test_history_of_another_member_leaves_out_channels_the_asker_cannot_see(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member) -> None:
    backroom = await double.create_text_channel("backroom")
    await play_out(double, await open_table(double, alice, bob, seats=2, format="hands",
                                            hands=1, fantasy="off"), seats_of((alice, bob)))
    await play_out(double, await open_table(double, alice, bob, seats=2, format="hands",
                                            hands=1, fantasy="off", channel=backroom),
                   seats_of((alice, bob)))
    own = matches_listed(await double.resolved(await bob.slash("ofc history")))
    assert len(own) == 2  # newest first: the backroom's, then the public channel's
    hidden, public = own
    # Carol sees both channels: both matches; she keeps that menu open.
    shown = await double.resolved(await carol.slash("ofc history", member=bob))
    assert matches_listed(shown) == [hidden, public]

    await double.set_permissions(backroom, carol, deny=VIEW_CHANNEL)
    again = await double.resolved(await carol.slash("ofc history", member=bob))
    assert matches_listed(again) == [public]
    # The menu she opened before cannot reach it either.
    refused = await double.resolved(await carol.select(shown, str(hidden)))
    assert refused.ephemeral and f"Match #{hidden} is not among" in str(refused.embed), refused
    hands = await double.resolved(await carol.select(shown, str(public)))
    assert title(hands).startswith(f"Match #{public}")
    # Bob's own history, and Alice's look at his (she sees the backroom), keep both.
    assert matches_listed(await double.resolved(await bob.slash("ofc history"))) == own
    assert matches_listed(await double.resolved(
        await alice.slash("ofc history", member=bob))) == own
    assert description(again)  # the answer still says whose history it is
