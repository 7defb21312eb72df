"""Skill ratings and seasons through the real bot: two finished matches rate their players in
season 1 (as bot/ratings.py computes from each match's places by points), each match's
standings and each member's last result DM show the new rating and its change, an admin starts
a new season, and both boards read as they should: the new one empty, the old one final."""

from bot import ratings
from bot.app import OFCBot
from bot.ratings import DEFAULT
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD
from tests.e2e.flows import description, display_name, open_table, play_out, seats_of


async def test_two_matches_a_new_season_and_both_boards(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    expected = {alice.id: DEFAULT, bob.id: DEFAULT}
    for played, name in enumerate(("table-1", "table-2"), start=1):
        table = await open_table(double, alice, bob, channel=double.add_text_channel(name),
                                 format="hands", hands=1, fantasy="off")
        over = await play_out(double, table, seats_of((alice, bob)))
        (match,) = await bot.storage.history.recent_matches(double.guild.id, alice.id, limit=1)
        players = sorted(match.players, key=lambda p: p.user_id)  # as storage rates them
        after = ratings.rate([expected[p.user_id] for p in players],
                             ratings.places([p.net_points for p in players]))
        for member in (alice, bob):  # the standings say each one's rating and its change
            line = next(line for line in description(over).splitlines()
                        if display_name(member) in line)
            new = after[[p.user_id for p in players].index(member.id)].shown
            change = f"{new:,} ({new - expected[member.id].shown:+,})"
            assert line.endswith(f" · rating {change}")
            # and the last result DM says it too, to that member alone (DMs go out beside
            # the channel's posts, not after them: it may come after the standings)
            await double.wait_until(lambda m=member, n=played: len(_ratings_said(m)) == n,
                                    what=f"{display_name(member)}'s result DM")
            assert _ratings_said(member)[-1] == f"{change} after this match"
        expected.update({p.user_id: r for p, r in zip(players, after, strict=True)})

    board = await double.resolved(await alice.slash("ofc leaderboard"))
    assert not board.ephemeral and board.embed["title"] == "Ratings of OFC Test Server: Season 1"
    first = sorted(expected, key=lambda user: -expected[user].shown)
    assert [line.split()[1] for line in description(board).splitlines()] == \
        [f"<@{user}>" for user in first]
    for line, user in zip(description(board).splitlines(), first, strict=True):
        assert f"{expected[user].shown:,} (2 matches)" in line
    mine = expected[alice.id].shown
    assert board.embed["footer"]["text"].endswith(f"with a rating of {mine:,}.")

    role = double.add_role("Croupier", MANAGE_GUILD)
    admin = double.add_member("croupier", roles=(role,))
    started = await double.resolved(await admin.slash("ofc-admin season start", name="Winter"))
    assert not started.ephemeral and started.embed["title"] == "Winter begins"
    empty = await double.resolved(await bob.slash("ofc leaderboard"))
    assert empty.embed["title"] == "Ratings of OFC Test Server: Winter"
    assert description(empty) == "No finished match has been rated here yet."
    assert empty.embed["footer"]["text"].startswith("You have no rating in this season yet")

    old = await double.resolved(await bob.slash("ofc leaderboard", season=1))
    assert old.embed["title"] == "Ratings of OFC Test Server: Season 1"
    assert description(old) == description(board)  # final: the new season did not touch it
    assert [f["name"] for f in old.embed["fields"]] == ["Season over"]

    chips = await double.resolved(await bob.slash("ofc leaderboard", by="chips"))
    assert chips.embed["title"] == "Leaderboard of OFC Test Server"
    refused = await double.resolved(await bob.slash("ofc leaderboard", by="chips", season=1))
    assert refused.ephemeral and "chips have no seasons" in description(refused)
    missing = await double.resolved(await bob.slash("ofc leaderboard", season=7))
    assert missing.ephemeral and description(missing) == "This server has no season 7."
    forged = await double.resolved(await bob.forge_slash("ofc-admin season start"))
    assert forged.ephemeral and "Manage Server" in description(forged)
    # the refusals changed nothing
    assert len(await bot.storage.ratings.seasons(double.guild.id)) == 2


def _ratings_said(member: Member) -> list[str]:
    """What the member's result DMs said of their rating, oldest first."""
    return [f["value"] for m in member.dms() if m.embed
            for f in m.embed.get("fields", []) if f["name"] == "Your rating"]
