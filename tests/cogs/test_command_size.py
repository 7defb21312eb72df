"""The commands the bot registers stay well inside Discord's 8,000-character size of a command
(every name, description and choice value, each at its longest localization): one more
language or a few more options must not be what breaks registration."""

from pathlib import Path

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import settings_for
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_double.limits import COMMAND_SIZE_LIMIT, command_size

HEADROOM = 0.15
GUILD_SYNC = ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


async def test_every_command_keeps_15_percent_under_discords_size_limit(
    double: DiscordDouble, tmp_path: Path
) -> None:
    bot = OFCBot(settings_for(double, tmp_path / "ofc.sqlite3"), clock=FakeClock())
    await double.start_client(bot)  # every extension, as the bot runs
    try:
        (sync,) = double.requests_to(*GUILD_SYNC)
    finally:
        await double.stop_client(bot)
    sizes = {command["name"]: command_size(command) for command in sync.json}
    assert {"ofc", "ofc-admin"} <= set(sizes)
    # Every language reaches Discord: the size counts the longest of them.
    ofc = next(c for c in sync.json if c["name"] == "ofc")
    assert {"ru", "sv-SE", "zh-CN"} <= set(ofc["description_localizations"])
    ceiling = COMMAND_SIZE_LIMIT * (1 - HEADROOM)
    assert all(size <= ceiling for size in sizes.values()), (sizes, ceiling)
