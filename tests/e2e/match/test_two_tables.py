"""A player at two tables at once: each DM prompt's title names its table's channel first,
so the two are told apart without following the link; at one table the title stays the
action alone (a phone's screen has no line to spare)."""

from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import dealt, draft, open_table, title


async def test_the_prompts_of_a_player_at_two_tables_name_their_channels(
        double: DiscordDouble, bot: object, alice: Member, bob: Member, carol: Member) -> None:
    await open_table(double, alice, bob, seats=2, format="hands", hands=1, fantasy="off")
    first = await alice.wait_for_dm(lambda m: title(m).startswith("Hand 1"))
    assert title(first) == "Hand 1 of 1 · street 1 of 5"  # one table: nothing to tell apart
    backroom = await double.create_text_channel("backroom")
    await open_table(double, alice, carol, seats=2, format="hands", hands=1, fantasy="off",
                     channel=backroom)
    second = await alice.wait_for_dm(lambda m: "backroom" in title(m))
    assert title(second) == "#backroom · Hand 1 of 1 · street 1 of 5"
    assert not any("backroom" in title(m) for m in carol.dms())  # Carol sits at one table
    # Drafting a card redraws the prompt: still named.
    await draft(double, alice, second, dealt(second)[0], "bottom")
    assert title(second) == "#backroom · Hand 1 of 1 · street 1 of 5"
