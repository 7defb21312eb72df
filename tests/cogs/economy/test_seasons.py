"""/ofc-admin season start as an admin uses it, through the real bot and the local Discord
double: a redelivered start (a resumed gateway) starts one season, not two."""

import pytest

from bot.app import OFCBot
from tests.cogs.economy.test_wallets import redelivered
from tests.e2e.discord_double import DiscordDouble, Member


@pytest.fixture
def markdown_server(double: DiscordDouble) -> None:
    double.guild.name = "**Club** ||x||"


async def test_a_redelivered_season_start_starts_one_season(
        double: DiscordDouble, croupier: Member, bot: OFCBot) -> None:
    asked = await croupier.slash("ofc-admin season start", name="Winter")
    started = await double.resolved(asked)
    assert started.embed is not None and started.embed["title"] == "Winter begins"
    repeat = await redelivered(double, croupier, asked)
    assert "already started" in repeat["embeds"][0]["description"]  # type: ignore[index]
    seasons = await bot.storage.ratings.seasons(double.guild.id)
    assert [(s.number, s.name, s.ended_at) for s in seasons] == [(1, "Winter", None)]
    again = await double.resolved(await croupier.slash("ofc-admin season start"))
    assert again.embed is not None and again.embed["title"] == "Season 2 begins"


async def test_an_ended_seasons_board_does_not_invite_a_match(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member) -> None:
    """A member with no rating in a season that is over cannot get one there any more."""
    for name in ("Winter", "Spring"):
        await double.resolved(await croupier.slash("ofc-admin season start", name=name))
    over = await double.resolved(await alice.slash("ofc leaderboard", season=1))
    assert over.embed is not None
    assert over.embed["footer"]["text"] == "You had no rating in this season."
    now = await double.resolved(await alice.slash("ofc leaderboard"))
    assert now.embed is not None
    assert now.embed["footer"]["text"].startswith("You have no rating in this season yet")


async def test_a_server_and_season_named_in_markdown_are_shown_as_typed(
        double: DiscordDouble, markdown_server: None, croupier: Member, bot: OFCBot,
        alice: Member) -> None:
    """A server's name (set before the bot connects: its fixture comes first) and a
    season's are the admins' free text: the board's title shows their markdown as typed."""
    await double.resolved(await croupier.slash("ofc-admin season start", name="__W__"))
    board = await double.resolved(await alice.slash("ofc leaderboard"))
    assert board.embed is not None
    assert board.embed["title"] == r"Ratings of \*\*Club\*\* \|\|x\|\|: \_\_W\_\_"
    chips = await double.resolved(await alice.slash("ofc leaderboard", by="chips"))
    assert chips.embed is not None
    assert chips.embed["title"] == r"Leaderboard of \*\*Club\*\* \|\|x\|\|"
