"""Getting up from a cash table in the middle of a hand (R11), as a player sees it: the reply
says when the chips come back, they come back then, and a table left with one player waits
for another instead of promising a deal."""

import asyncio
from pathlib import Path

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.flows import (
    Seat,
    balance,
    description,
    display_name,
    open_table,
    play_until,
    seats_of,
    seed_decks,
    start_bot,
    title,
    waiting_for,
)

BUST_SEED = 3  # Alice, two easy computers, buy-in 3: Alice alone busts in hand 1


async def _heads_up_cash_at_street_2(double: DiscordDouble, alice: Member, bob: Member
                                     ) -> tuple[Message, list[Seat]]:
    """Alice's heads-up cash table with Bob, played to the first hand's second street."""
    table = await open_table(double, alice, bob, seats=2, format="cash", fantasy="off")
    seats = seats_of((alice, bob))
    await play_until(double, table, seats, lambda: True if "street 2" in title(table) else None)
    return table, seats


async def test_leaving_mid_hand_says_when_and_the_table_then_waits(
        double: DiscordDouble, bot: object, alice: Member, bob: Member) -> None:
    before = await balance(double, bob)
    table, seats = await _heads_up_cash_at_street_2(double, alice, bob)
    left = await double.resolved(await bob.slash("ofc leave"))
    assert left.content == ("You will get up after this hand; your chips go back to your "
                                 "wallet then.")
    assert await balance(double, bob) == before - 200  # the buy-in is still on the table
    await play_until(double, table, seats,
                     lambda: True if breakdowns.posted(double.messages()) else None)
    await double.wait_until(lambda: "Waiting for another player" in description(table),
                            what="the table waiting for a player")
    assert table.embed is not None
    stacks = table.embed["fields"][0]["value"]
    assert stacks.startswith(display_name(alice)) and display_name(bob) not in stacks
    stack = 400 - int(stacks.split()[-1])  # the table's 400 chips: Bob has what Alice has not
    assert await balance(double, bob) == before - 200 + stack


async def test_the_busted_last_person_is_told_the_table_waits_and_a_buy_in_deals_again(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        clock: FakeClock) -> None:
    """R11: the computers of a cash table deal no hand among themselves. When its last
    person busts, the channel says so, naming them and when the table closes (the lobby's
    idle time, 15 minutes, from the hand's end), and the table message says it waits; the
    person's buy-in deals the next hand."""
    seed_decks(bot, BUST_SEED)
    table = await open_table(double, alice, seats=3, format="cash", buy_in=3,
                             computers=("easy", "easy"), seater=croupier)
    notice = await play_until(double, table, seats_of((alice,)), lambda: next(
        (m for m in double.messages() if "out of chips" in m.content), None))
    ended = int(clock.now())  # no pause between hands: the deal found nobody at once
    assert notice.content == (
        f"{alice.mention}: out of chips. This cash table waits for a player to buy in "
        f"(/ofc join) before it deals again, and closes <t:{ended + 900}:R> if nobody does.")
    # The table message is redrawn on its own, after the notice or before it (the channel's
    # table images wait behind people's messages): wait for it, never read it at once.
    await double.wait_until(lambda: "Waiting for another player to sit down" in description(
        table), what="the table message waiting for a player")
    assert "Hand 1" in title(table)
    await double.resolved(await alice.slash("ofc join"))
    await double.wait_until(lambda: "Hand 2" in title(table), what="the next hand")


async def test_a_restart_while_the_table_waits_says_again_when_it_closes(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        clock: FakeClock, database: Path) -> None:
    """R11, R10: the bot stopped for an hour five minutes into the wait for a buy-in. The
    clocks stood still, so the table closes an hour later than the channel was told: the
    restarted bot says when it closes now (naming no one again), and a buy-in still deals."""
    seed_decks(bot, BUST_SEED)
    table = await open_table(double, alice, seats=3, format="cash", buy_in=3,
                             computers=("easy", "easy"), seater=croupier)
    await play_until(double, table, seats_of((alice,)), lambda: next(
        (m for m in double.messages() if "out of chips" in m.content), None))
    ended = int(clock.now())  # the wait starts: it closes at ended + 900 (15 minutes)
    await clock.advance(300)
    await double.stop_client(bot)
    await clock.advance(3600)
    restarted = await start_bot(double, database, clock)
    try:
        now = ("This cash table waits for a player to buy in (/ofc join) before it deals "
               f"again, and closes <t:{ended + 900 + 3600}:R> if nobody does.")
        await double.wait_for_message(lambda m: m.content == now)
        await double.resolved(await alice.slash("ofc join"))
        await double.wait_until(lambda: "Hand 2" in title(table), what="the next hand")
    finally:
        await double.stop_client(restarted)


async def _alice_sits_out(double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
                          clock: FakeClock) -> list[Message]:
    """R10 at a heads-up cash table that plays on: Alice never clicks, is placed for and sits
    out after the first hand. Her prompts of that hand, once the bot is done with them."""
    seed_decks(bot, 5)
    table = await open_table(double, alice, bob, seats=2, format="cash", fantasy="off",
                             turn_seconds=10, time_bank_seconds=0)

    async def run_out_alices_clock() -> None:
        while True:
            await double.wait_until(lambda: "Alice" in waiting_for(table), timeout=60,
                                    what="Alice's turn")
            shown = len(table.history)
            await clock.advance(10)
            await double.wait_until(lambda shown=shown: len(table.history) > shown,
                                    what="the table redrawn")

    idle = asyncio.create_task(run_out_alices_clock())
    try:
        await play_until(double, table, seats_of((bob,)),
                         lambda: True if breakdowns.posted(double.messages()) else None)
    finally:
        idle.cancel()
    await double.wait_until(lambda: any("sat out (away)" in m.content
                                        for m in double.messages()), what="Alice sat out")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    return [m for m in alice.dms() if "your result" not in title(m)]


async def test_a_player_sat_out_keeps_no_way_back_on_the_prompt_of_the_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        clock: FakeClock) -> None:
    """Alice's last prompt (sent while Bob acted, then placed for her at once) loses its
    "I'm back", which could only be refused now that she is no longer seated (a /ofc join
    buys in again), instead of keeping it until the table closes. It becomes the record of
    its street and says what is true now: she sat out, her stack is in her wallet, and
    /ofc join sits her down again; not that it waits for Bob, nor to press a button that is
    gone."""
    prompts = await _alice_sits_out(double, bot, alice, bob, clock)
    assert len(prompts) == 5
    last = prompts[-1]
    assert last.labels() == []
    assert title(last) == "Hand 1: street 5 placed"
    told = description(last)
    assert "Waiting for" not in told and "I'm back" not in told
    stack = int(told.split("You sat out (away): ")[1].split()[0])
    assert 0 < stack <= 200  # hand 1's result, read by hand in the result DM below
    result = next(m for m in alice.dms() if "your result" in title(m))
    assert f"(stack {stack})" in description(result)
    assert told.endswith(
        f"You sat out (away): {stack} chips went back to your wallet. "
        "Use `/ofc join` in the table channel to sit down again.")


async def test_a_newcomer_takes_the_seat_of_a_player_who_got_up(
        double: DiscordDouble, bot: object, alice: Member, bob: Member, carol: Member) -> None:
    """Heads-up, Bob gets up during a hand: once it is over, Alice's table waits for a
    player, and Carol's /ofc join seats her in Bob's seat and deals the next hand (no hand
    is dealt with Alice alone, so nothing else would free it)."""
    table, seats = await _heads_up_cash_at_street_2(double, alice, bob)
    await double.resolved(await bob.slash("ofc leave"))
    await play_until(double, table, seats,
                     lambda: True if breakdowns.posted(double.messages()) else None)
    await double.wait_until(lambda: "Waiting for another player" in description(table),
                            what="the table waiting for a player")
    joined = await double.resolved(await carol.slash("ofc join"))
    assert joined.content == "You sat down with 200 chips from your wallet."
    await double.wait_until(lambda: "Hand 2" in title(table), what="the next hand")
    await carol.wait_for_dm()  # her cards


async def test_a_player_who_asked_to_leave_takes_it_back_with_join(
        double: DiscordDouble, bot: object, alice: Member, bob: Member) -> None:
    before = await balance(double, bob)
    table, seats = await _heads_up_cash_at_street_2(double, alice, bob)
    await double.resolved(await bob.slash("ofc leave"))
    stay = await double.resolved(await bob.slash("ofc join"))
    assert stay.ephemeral and stay.content == (
        "You stay at the table: you will not get up after this hand, and your chips stay "
        "where they are.")
    assert await balance(double, bob) == before - 200  # no second buy-in
    again = await double.resolved(await bob.slash("ofc join"))
    assert again.embed is not None and again.embed["description"] == (
        "You are already at this table.")
    await play_until(double, table, seats, lambda: True if "Hand 2" in title(table) else None)
    assert display_name(bob) in table.embed["fields"][0]["value"]  # type: ignore[index]
    assert await balance(double, bob) == before - 200
