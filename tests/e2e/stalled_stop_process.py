"""`tests.e2e.bot_process` (the real `ofc-bot` against the Discord double) whose clean stop
never ends:

    OFC_TEST_STOPPING_FILE=FILE python -m tests.e2e.stalled_stop_process API_URL GATEWAY_URL -- ...

When the stop reaches the release of its shards' lease it creates FILE and waits there for
ever, as a stop held up by a database that no longer answers would: the test knows the process
is mid-stop, whatever the machine's speed, and sends it a second signal then.
"""

import asyncio
import os
import sys
from pathlib import Path

from bot.cluster.shard_lease import ShardKeeper
from tests.e2e import bot_process


async def stalled_release(self: ShardKeeper) -> None:
    Path(os.environ["OFC_TEST_STOPPING_FILE"]).touch()
    await asyncio.Event().wait()


if __name__ == "__main__":
    ShardKeeper.release = stalled_release  # type: ignore[method-assign]
    sys.exit(bot_process.main(sys.argv[1:]))
