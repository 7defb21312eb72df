"""What a hand costs in requests to Discord beside its clicks: each member's DMs go out on
their DM channel, opened once and never by fetching the member (cogs/common/dms.py)."""

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import check_wallets, open_table, play_out, seats_of

STREETS = 5  # R7: Pineapple


async def test_each_members_dm_channel_is_opened_once_and_no_member_is_fetched(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    await play_out(double, table, seats_of((alice, bob)))
    await check_wallets(double, (alice, bob))
    # a prompt per street and the result: each member's DMs, on the channel opened for them
    await double.wait_until(lambda: len(alice.dms()) == len(bob.dms()) == STREETS + 1,
                            what="each member's prompts and result")

    assert double.requests_to("GET", "/users/{user_id}") == []
    opened = double.requests_to("POST", "/users/@me/channels")
    assert sorted(int(r.json["recipient_id"]) for r in opened) == sorted((alice.id, bob.id))
    channels = {m.channel_id for m in alice.dms()}, {m.channel_id for m in bob.dms()}
    assert all(len(c) == 1 for c in channels) and channels[0] != channels[1]
