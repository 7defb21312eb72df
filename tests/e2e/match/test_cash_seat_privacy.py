"""Who sees what when a cash table's seats change owner (R7, R11): a member who sits down in
the middle of a hand looks at "My hand" before being dealt, a player gets up after that hand,
and the next hand is dealt to the newcomer. Every image and text people saw is checked
(tests/e2e/privacy.py): no one is shown a card of a hand they were not dealt in, nor anyone
else's dealt cards or discards."""

from bot.app import OFCBot
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.flows import open_table, play_until, seats_of, title
from tests.e2e.privacy import PrivacyWatch


async def test_a_newcomer_and_a_leaver_see_only_their_own_cards(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        watch: PrivacyWatch) -> None:
    members = (alice, bob, carol)
    table = await open_table(double, alice, bob, seats=3, format="cash", fantasy="off")
    seats = seats_of(members)
    await play_until(double, table, seats, lambda: True if "street 3" in title(table) else None)

    joined = await double.resolved(await carol.slash("ofc join"))
    assert joined.ephemeral
    early = await double.resolved(await carol.slash("ofc hand"))  # seated, not dealt in
    assert early.ephemeral and early.visible_to == carol.id
    left = await double.resolved(await bob.slash("ofc leave"))
    assert "after this hand" in str(left.content)

    def shown_down() -> list[Message]:  # the table message of a cash table has that title too
        return [m for m in breakdowns.posted(double.messages()) if m is not table]

    await play_until(double, table, seats, lambda: True if len(shown_down()) == 2 else None)
    hands = [breakdowns.read(m) for m in shown_down()]
    assert [sorted(h.seats) for h in hands] == [["Alice", "Bob"], ["Alice", "Carol"]]
    assert all(title(m).startswith("Hand 1") for m in bob.dms())  # no card of hand 2
    assert not any(title(m).startswith("Hand 1") for m in carol.dms())  # none of hand 1
    assert watch.problems(double, double.channel, members) == []
