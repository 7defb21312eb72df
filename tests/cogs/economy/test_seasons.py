"""/ofc-admin season start as an admin uses it, through the real bot and the local Discord
double: a redelivered start (a resumed gateway) starts one season, not two."""

from bot.app import OFCBot
from tests.cogs.economy.test_wallets import redelivered
from tests.e2e.discord_double import DiscordDouble, Member


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
