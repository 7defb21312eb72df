"""The real `ofc-bot` command in a process of its own, connected to a Discord double.

    python -m tests.e2e.bot_process API_URL GATEWAY_URL -- [ofc-bot arguments]

Points discord.py at the double (as tests/e2e/load_run.py's bot process does), skips the
pauses meant for Discord's real gateway (5 s between two shards' IDENTIFYs, 2 s waiting for
guilds), then runs `bot.__main__.main` with the arguments: the settings come from the
environment, the exit status is ofc-bot's own (2 with one line on stderr when its shard is
held by another live process). SIGTERM stops it as Ctrl+C would; SIGKILL is a crash.
"""

import sys
from typing import Any


def main(argv: list[str]) -> int:
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    import bot.app
    from bot.__main__ import main as ofc_bot

    api, gateway, separator, *arguments = argv
    assert separator == "--", "usage: API_URL GATEWAY_URL -- [ofc-bot arguments]"
    Route.BASE = api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    async def at_once(self: discord.Client, shard_id: int | None, *,
                      initial: bool = False) -> None:
        return None

    discord.Client.before_identify_hook = at_once  # type: ignore[method-assign]
    make_bot = bot.app.make_bot

    def quick(*args: Any, **options: Any) -> bot.app.OFCBot:
        return make_bot(*args, guild_ready_timeout=0.05, **options)

    bot.app.make_bot = quick
    return ofc_bot(arguments)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
