"""A member whose DMs are closed (Discord error 50007) plays a whole hand through the table
message's "My hand" button: the ephemeral controls, never a DM, one notice in the channel."""

from bot.app import OFCBot
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import check_wallets, open_table, play_out, seats_of
from tests.e2e.privacy import PrivacyWatch

STREETS = 5  # R7: Pineapple


async def test_a_member_with_closed_dms_plays_every_street_through_my_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        watch: PrivacyWatch) -> None:
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1)
    notice = await double.wait_for_message(lambda m: m.content.startswith(bob.mention))
    assert "cannot send you direct messages" in notice.content and "My hand" in notice.content

    await play_out(double, table, seats_of((alice, bob), my_hand=(bob,)))

    # alice: a prompt per street and her result after the showdown
    assert bob.dms() == [] and len(alice.dms()) == STREETS + 1
    confirms = [i for i in double.state.interactions.values()
                if i.user.id == bob.id and i.data.get("custom_id", "").startswith("ofc:confirm")]
    assert len(confirms) == STREETS  # bob placed every street himself, from ephemerals
    assert all(i.source_message is not None and i.source_message.visible_to == bob.id
               for i in confirms)
    assert [m.content for m in double.messages() if m.content] == [notice.content]  # only once
    assert len(breakdowns.posted(double.messages())) == 1
    await check_wallets(double, (alice, bob))
    # bob's cards were shown only to bob (ephemerals), and never in the channel.
    assert watch.problems(double, double.channel, (alice, bob)) == []
