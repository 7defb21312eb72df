"""What a hand costs in requests to Discord: a click answered in time is its callback alone
(the updated prompt, UPDATE_MESSAGE), and DMs go out on each member's DM channel, opened once
and never by fetching the member (cogs/common/answers.py `update`, cogs/common/dms.py)."""

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import check_wallets, open_table, play_out, seats_of

COMPONENT = 3  # Discord's interaction type of a click
UPDATE_MESSAGE = 7  # Discord's interaction callback type: the clicked message, updated
EDIT_ORIGINAL = ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}")


async def test_each_click_of_a_hand_is_one_request_and_each_dm_channel_is_opened_once(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        held_deferral: None) -> None:
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    await play_out(double, table, seats_of((alice, bob)))
    await check_wallets(double, (alice, bob))

    clicks = [i for i in double.state.interactions.values()
              if i.type == COMPONENT and i.guild is None]  # on the DM prompts
    # 5 streets each: 5 placements and a confirm on the first, 3 on the others (R7)
    assert len(clicks) >= 2 * (6 + 4 * 3)
    assert {i.callback_type for i in clicks} == {UPDATE_MESSAGE}
    edited = {r.path.split("/")[-3] for r in double.requests_to(*EDIT_ORIGINAL)}
    assert not edited & {i.token for i in clicks}  # nothing sent again after the answer

    assert double.requests_to("GET", "/users/{user_id}") == []
    opened = double.requests_to("POST", "/users/@me/channels")
    assert sorted(int(r.json["recipient_id"]) for r in opened) == sorted((alice.id, bob.id))
