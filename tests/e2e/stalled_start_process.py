"""`tests.e2e.bot_process` (the real `ofc-bot` against the Discord double) whose start never
ends:

    OFC_TEST_STARTING_FILE=FILE python -m tests.e2e.stalled_start_process API_URL GATEWAY_URL -- ...

When the start reaches the sync of the slash commands (its last step, which Discord's rate
limits can hold up for minutes) it creates FILE and waits there for ever: the test knows the
process is mid-start, whatever the machine's speed, and stops it then.
"""

import asyncio
import os
import sys
from pathlib import Path

from bot.app import OFCBot
from tests.e2e import bot_process


async def stalled_sync(self: OFCBot) -> None:
    Path(os.environ["OFC_TEST_STARTING_FILE"]).touch()
    await asyncio.Event().wait()


if __name__ == "__main__":
    OFCBot._sync = stalled_sync  # type: ignore[method-assign]
    sys.exit(bot_process.main(sys.argv[1:]))
