"""A member whose DMs are closed (Discord error 50007) plays a whole hand through the table
message's "My hand" button: the ephemeral controls, never a DM, one notice in the channel."""

from pathlib import Path

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import (
    TAPS,
    Seat,
    act,
    action_of,
    check_wallets,
    description,
    match_over,
    open_table,
    play_out,
    play_until,
    ready,
    seats_of,
    seed_decks,
    start_bot,
    title,
    waiting_for,
)
from tests.e2e.privacy import PrivacyWatch

STREETS = 5  # R7: Pineapple
WEBHOOK_SECONDS = 15 * 60  # Discord: how long an interaction's token may edit its messages


async def test_a_member_with_closed_dms_plays_every_street_through_my_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        watch: PrivacyWatch) -> None:
    double.close_dms(bob)
    # One hand, five streets: a Fantasyland earned would add a hand (R11).
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    notice = await double.wait_for_message(lambda m: m.content.startswith(bob.mention))
    assert "cannot send you direct messages" in notice.content and "My hand" in notice.content

    await play_out(double, table, seats_of((alice, bob), my_hand=(bob,)))

    # alice: a prompt per street and her result after the showdown (DMs go out beside the
    # channel's posts: her result may come after the match's end there)
    await double.wait_until(lambda: len(alice.dms()) >= STREETS + 1, what="alice's result")
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


async def test_a_restart_tells_the_channel_no_second_time(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        database: Path) -> None:
    """The channel was told that Bob gets no DMs; a restart mid-hand tries his DMs again for
    the hand it resumes (they may have opened), and when they are still closed it does not
    tell the channel a second time, nor at the next hand: once a table."""
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=2,
                             fantasy="off")
    notice = await double.wait_for_message(lambda m: m.content.startswith(bob.mention))
    seats = seats_of((alice, bob), my_hand=(bob,))
    await play_until(double, table, seats, lambda: True if any(
        "street 3" in title(m) for m in alice.dms()) else None)
    await double.stop_client(bot)
    restarted = await start_bot(double, database, clock)
    try:
        await play_out(double, table, seats)
        assert [m.content for m in double.messages() if m.content] == [notice.content]
        assert bob.dms() == []
        await check_wallets(double, (alice, bob))
    finally:
        await double.stop_client(restarted)


async def test_my_hand_loses_its_controls_when_the_table_closes_while_discord_allows(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        clock: FakeClock) -> None:
    """/ofc cancel with "My hand" messages open: the one shown within the last 15 minutes (an
    interaction's webhook edits its messages that long) becomes the record of its action,
    without controls; one shown earlier is out of the bot's reach and keeps its buttons,
    whose click says the table is closed."""
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=2,
                             fantasy="off", turn_seconds=3600)
    await double.wait_until(lambda: "Waiting for" in description(table), what="the deal")
    early = await double.resolved(await bob.click(table, "My hand"))
    await clock.advance(WEBHOOK_SECONDS + 60)  # the first one's token has expired by now
    late = await double.resolved(await bob.click(table, "My hand"))
    assert "Confirm" in early.labels() and "Confirm" in late.labels()
    await double.resolved(await alice.slash("ofc cancel"))
    await double.wait_until(lambda: not late.components, what="the late My hand closed")
    assert description(late).startswith("Table closed: your cards were placed for you.")
    assert title(late) == "Hand 1: street 1 placed"
    assert "Confirm" in early.labels()  # never edited: Discord would refuse the old token
    before = bob.last_ephemeral()
    await bob.click(early, "Top", row=0)
    answer = await bob.wait_for_ephemeral(lambda m: m.embed is not None, after=before)
    assert description(answer) == "This table is closed."


async def test_a_my_hand_placed_by_its_player_only_says_the_table_closed(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """A match played out through "My hand": its last street was confirmed there, so at the
    end (the table closes) that message loses its controls and says the table is closed,
    never that the close placed the cards."""
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    await play_out(double, table, seats_of((alice, bob), my_hand=(bob,)))
    # Bob's newest My hand message: a press of My hand that came after the close (the table
    # message still named him for a moment, its edits being coalesced) is refused with a
    # reason of its own, without a hand's title.
    last = max((m for m in bob.ephemerals() if title(m).startswith("Hand ")),
               key=lambda m: m.id)
    await double.wait_until(lambda: last.content == "This table is closed.",
                            what="the last My hand closed")
    assert not last.components and "placed for you" not in description(last)


async def test_my_hand_becomes_the_record_of_a_street_the_clock_placed(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        clock: FakeClock) -> None:
    """Bob's time runs out with his "My hand" open (R10 places his street): that message
    becomes the record of the street, as his DM prompt would, instead of keeping "Your turn"
    and buttons whose click could only say the cards are already placed."""
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off", turn_seconds=10, time_bank_seconds=0)
    await play_until(double, table, seats_of((alice,)),
                     lambda: True if "Bob" in waiting_for(table) else None)
    mine = await double.resolved(await bob.click(table, "My hand"))
    assert "Confirm" in mine.labels() and title(mine) == "Hand 1 of 1 · street 1 of 5"
    await clock.advance(10)
    await double.wait_until(lambda: not mine.components, what="the My hand closed")
    assert description(mine).startswith("Time ran out: your cards were placed for you.")
    assert title(mine) == "Hand 1: street 1 placed"
    await double.resolved(await alice.slash("ofc cancel"))


async def test_a_restart_while_my_hand_waits_tells_the_channel_no_second_time(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        database: Path) -> None:
    """The restart comes after Bob placed his street through "My hand" and before Alice
    placed hers: nothing is dealt to him to announce again, yet the channel was told at his
    first street; the next hand's deal does not tell it a second time."""
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=2,
                             fantasy="off", order="simultaneous")
    notice = await double.wait_for_message(lambda m: m.content.startswith(bob.mention))
    mine = await double.resolved(await bob.click(table, "My hand"))
    await act(double, bob, mine)
    await double.wait_until(lambda: waiting_for(table) == ["Alice"], what="Bob's street placed")
    await double.stop_client(bot)
    restarted = await start_bot(double, database, clock)
    try:
        await play_out(double, table, seats_of((alice, bob), my_hand=(bob,)))
        assert [m.content for m in double.messages() if m.content] == [notice.content]
        assert bob.dms() == []
    finally:
        await double.stop_client(restarted)


async def test_one_press_of_my_hand_follows_the_whole_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """With DMs closed, one press of "My hand" is enough for the hand: the message follows
    the seat's action as a DM prompt does (its turn comes: "Your turn" and Confirm; the next
    street is dealt: its cards), so the hand is 18 taps and that press (playing.md), not a
    press more each time the message went stale ("Waiting for Alice" long after she acted,
    or nothing to place while the next street was out)."""
    seed_decks(bot, 4)  # filled bottom up, neither board fouls: no Confirm anyway
    double.close_dms(bob)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    await double.resolved(await bob.click(table, "My hand"))
    seats = [Seat(alice), Seat(bob, my_hand=True)]
    TAPS.pop(bob.id, None)
    while True:
        seat = await double.wait_until(
            lambda: "over" if match_over(double) is not None
            else next((s for s in seats if ready(s.prompt())), None), what="a turn or the end")
        if seat == "over":
            break
        assert isinstance(seat, Seat)
        prompt = seat.prompt()
        assert prompt is not None
        seat.done.add(str(action_of(prompt)))
        await act(double, seat.member, prompt)
    presses = [i for i in double.state.interactions.values() if i.user.id == bob.id
               and str(i.data.get("custom_id", "")).startswith("ofc:hand:")]
    assert len(presses) == 1
    assert TAPS[bob.id] == 18  # 6 on street 1, 3 on each later street
