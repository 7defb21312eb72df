"""Getting up from a cash table in the middle of a hand (R11), as a player sees it: the reply
says when the chips come back, they come back then, and a table left with one player waits
for another instead of promising a deal."""

from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import (
    balance,
    description,
    display_name,
    open_table,
    play_until,
    seats_of,
    title,
)


async def test_leaving_mid_hand_says_when_and_the_table_then_waits(
        double: DiscordDouble, bot: object, alice: Member, bob: Member) -> None:
    before = await balance(double, bob)
    table = await open_table(double, alice, bob, seats=2, format="cash", fantasy="off")
    seats = seats_of((alice, bob))
    await play_until(double, table, seats, lambda: True if "street 2" in title(table) else None)
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
