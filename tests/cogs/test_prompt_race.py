"""A DM prompt always shows the action it was sent for, however late Discord is.

The bot sends each action's controls as a DM and later redraws that message (its turn came,
time ran out, the seat went away). When Discord is slow, those redraws run after the table
has moved on. These tests make Discord slow on purpose (`DiscordDouble.hold`), so the race
that once turned an old street's prompt into the next hand's Fantasyland prompt, with no
controls, happens every time rather than now and then.
"""

import re

from bot.app import OFCBot
from bot.tables import FakeClock
from cogs.common.format import card_label
from tests.cogs.conftest import EXTENSIONS, buttons, enabled, placement, started
from tests.cogs.test_play import (
    auto,
    fantasy_table,
    play_hand,
    seat_state,
    table_id,
    to_act,
    toward_fantasy,
)
from tests.e2e.discord_double import DiscordDouble, Member, Message

SUCCESS = 3  # Discord's green button style: the row a card is drafted to
POST = "/channels/{channel_id}/messages"
PATCH = "/channels/{channel_id}/messages/{message_id}"


def action_of(title: str) -> tuple[int, str]:
    """The hand and the action a prompt's title names: (2, "Fantasyland"), (1, "street 3")."""
    hand = re.search(r"Hand (\d+)", title)
    assert hand is not None, title
    street = re.search(r"street (\d+)", title)
    kind = f"street {street.group(1)}" if street else "Fantasyland"
    assert street or "Fantasyland" in title, title
    return int(hand.group(1)), kind


def actions_shown(message: Message) -> set[tuple[int, str]]:
    """Every action the message has shown, in any of its versions."""
    versions = [snap.embeds for snap in message.history] + [message.embeds]
    return {action_of(embeds[0]["title"]) for embeds in versions
            if embeds and "your result" not in embeds[0]["title"]}  # a showdown's result DM


def menus(message: Message) -> list[str]:
    return [str(c.get("placeholder")) for row in message.components
            for c in row.get("components", ()) if c.get("type") == 3]


def assert_one_action_per_message(member: Member) -> None:
    for message in member.dms():
        if message.embeds and "your result" in message.embeds[0]["title"]:
            continue  # a showdown's result, never a prompt
        assert len(actions_shown(message)) == 1, (message.id, actions_shown(message))


async def test_a_late_redraw_never_turns_an_old_prompt_into_the_fantasyland_prompt(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table = await fantasy_table(double, bot, alice, bob)
    first = await alice.wait_for_dm()  # hand 1, street 1
    assert alice.dm_channel is not None
    # Discord stalls on alice's DMs while the whole hand is played: every prompt job for
    # her runs late, after the table has dealt hand 2, her Fantasyland hand.
    holds = [double.hold(method, route, channel_id=alice.dm_channel.id)
             for method, route in (("POST", POST), ("PATCH", PATCH))]
    await play_hand(bot, table, (alice, bob), toward_fantasy(alice.id))
    await double.wait_until(lambda: seat_state(bot, table, alice).street == 0,
                            what="hand 2, alice's Fantasyland hand, dealt")
    # Dealt in memory is not told yet: the deal is saved first, then its events reach the
    # presenter, whose drain below would otherwise find no Fantasyland prompt queued.
    await bot.tables.idle()
    await double.wait_until(lambda: sum(h.held for h in holds) > 0, what="a held DM")
    for hold in holds:
        hold.release()
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]

    fantasy = [m for m in alice.dms() if (2, "Fantasyland") in actions_shown(m)]
    assert len(fantasy) == 1 and fantasy[0] is not first
    assert menus(fantasy[0]) == ["Top (3)", "Middle (5)", "Bottom (5)"]
    assert {"Solve", "Confirm"} <= set(buttons(fantasy[0]))
    assert_one_action_per_message(alice)
    # Every earlier prompt is over: none of them still offers controls.
    for message in alice.dms():
        if message is not fantasy[0]:
            assert message.components == [], actions_shown(message)


async def test_a_prompt_placed_elsewhere_is_closed_and_the_next_street_comes_new(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    await started(double, alice, bob)
    table = table_id(bot, double)
    prompts = {m.id: await m.wait_for_dm() for m in (alice, bob)}
    for _ in (alice, bob):  # street 1 placed as "My hand" does, not from the DM prompts
        view = bot.tables.public_view(table)
        assert view is not None
        acting = next(m for m in (alice, bob) if m.id == bot.tables.seats(table)[view.to_act[0]])
        state = seat_state(bot, table, acting)
        await bot.tables.place(table, acting.id, auto(acting, state), hand_no=1, street=1)
    await double.wait_until(lambda: all(len(m.dms()) == 2 for m in (alice, bob)),
                            what="the street-2 prompts")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    for member in (alice, bob):
        old, latest = member.dms()
        assert old is prompts[member.id]
        assert old.components == [], "the superseded prompt still offers its buttons"
        assert actions_shown(old) == {(1, "street 1")}
        assert actions_shown(latest) == {(1, "street 2")} and "Confirm" in buttons(latest)


async def test_a_prompt_whose_action_ended_while_the_dms_lagged_closes_when_they_catch_up(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    await started(double, alice, bob)
    table = table_id(bot, double)
    first, second = to_act(bot, table, alice, bob)
    prompt = await first.wait_for_dm()
    await second.wait_for_dm()
    assert second.dm_channel is not None
    # Discord stalls on the second player's DMs, and the table's DM jobs queue behind them
    # while the first player places streets 1 to 5 through the service (the hand goes on).
    holds = [double.hold(method, route, channel_id=second.dm_channel.id)
             for method, route in (("POST", POST), ("PATCH", PATCH))]
    while not ((state := seat_state(bot, table, first)).street == 5 and not state.view.dealt):
        acting, _ = to_act(bot, table, alice, bob)
        now = seat_state(bot, table, acting)
        await bot.tables.place(table, acting.id, auto(acting, now), hand_no=1, street=now.street)
    await double.wait_until(lambda: sum(h.held for h in holds) > 0, what="a held DM")
    for hold in holds:
        hold.release()
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]

    # Every job for the first player's streets 2-5 came after its street was placed: none
    # sends a prompt, and the first one closes street 1's, though no next deal comes yet.
    assert seat_state(bot, table, second).street == 5
    assert first.dms() == [prompt] and actions_shown(prompt) == {(1, "street 1")}
    assert prompt.components == []


async def test_after_a_restart_the_open_prompt_is_redrawn_not_sent_again(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        clock: FakeClock) -> None:
    await started(double, alice, bob)
    table = table_id(bot, double)
    prompt = await alice.wait_for_dm()
    dealt = seat_state(bot, table, alice).view.dealt
    await double.stop_client(bot)

    restarted = OFCBot(bot.settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(restarted)
    try:
        await restarted.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
        assert alice.dms() == [prompt]  # no second DM for the same street
        assert actions_shown(prompt) == {(1, "street 1")} and buttons(prompt)
        await play_hand(restarted, table, (alice, bob), auto)
        await restarted.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
        assert prompt.components == []  # superseded by the next streets' prompts
        assert_one_action_per_message(alice)
        assert dealt  # the restored prompt was for real cards
    finally:
        await double.stop_client(restarted)


async def test_the_dm_prompt_follows_what_my_hand_drafts_and_confirms(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table_msg = await started(double, alice, bob)
    table = table_id(bot, double)
    view = bot.tables.public_view(table)
    assert view is not None
    first = next(m for m in (alice, bob) if m.id == bot.tables.seats(table)[view.to_act[0]])
    dm = await first.wait_for_dm()
    await first.click(table_msg, "My hand")
    mine = await first.wait_for_ephemeral(lambda m: "Confirm" in buttons(m))
    state = seat_state(bot, table, first)
    plan = auto(first, state)
    for card, row in plan.items():
        await first.click(mine, custom_id=str(placement(mine, card, row)["custom_id"]))
        await double.wait_until(
            lambda card=card, row=row: placement(dm, card, row).get("style") == SUCCESS,
            what=f"the DM showing {card_label('en-US', card)} drafted to {row}")
    await double.wait_until(lambda: enabled(mine, "Confirm"), what="Confirm on a whole street")
    await first.click(mine, "Confirm")
    await double.wait_until(lambda: dm.components == [], what="the DM prompt closed")
    assert actions_shown(dm) == {(1, "street 1")}
    assert_one_action_per_message(first)


async def test_a_prompt_job_that_runs_after_the_match_ended_sends_nothing(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    table = table_id(bot, double)
    await alice.wait_for_dm()
    assert alice.dm_channel is not None
    holds = [double.hold(method, route, channel_id=alice.dm_channel.id)
             for method, route in (("POST", POST), ("PATCH", PATCH))]
    await play_hand(bot, table, (alice, bob), auto)  # the match ends: everyone gets up
    await double.wait_until(lambda: bot.tables.table_for_channel(double.channel.id) is None,
                            what="the table closed")
    for hold in holds:
        hold.release()
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    # No prompt of the closed table still offers controls, and (checked by the double's
    # teardown) no job failed for a player no longer seated.
    assert [m.components for m in alice.dms()] == [[]] * len(alice.dms())


async def test_the_next_prompts_and_results_never_wait_behind_a_slow_channel(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """Discord holds every new message of the table's channel (the showdown with its image,
    then the notices): the players' results and the next hand's prompts still come by DM."""
    lobby = await bot.tables.create_table(double.guild.id, double.channel.id, alice.id,
                                          "alice", {"seats": 2, "format": "hands", "hands": 2,
                                                    "fantasy": "off"})
    table = lobby.table_id
    await bot.tables.join(table, bob.id, "bob")
    await bot.tables.start(table, alice.id)
    await double.wait_until(lambda: bot.tables.messages(table).table_message_id is not None,
                            what="the table message")
    channel = double.hold("POST", POST, channel_id=double.channel.id)
    await play_hand(bot, table, (alice, bob), auto)
    await double.wait_until(lambda: channel.held > 0, what="the showdown held")
    for member in (alice, bob):
        await member.wait_for_dm(lambda m: m.embed is not None
                                 and m.embed["title"] == "Hand 1: your result")
        await member.wait_for_dm(lambda m: m.embed is not None
                                 and m.embed["title"].startswith("Hand 2"))
    assert not any(m.embed and "showdown" in str(m.embed["title"])
                   for m in double.messages())
    channel.release()
    await double.wait_for_message(lambda m: m.embed is not None
                                  and m.embed["title"] == "Hand 1: showdown")
