"""`tests.e2e.bot_process` (the real `ofc-bot` against the Discord double), paused at the
worst moment for split brain:

    OFC_TEST_PAUSE_FILE=FILE python -m tests.e2e.paused_bot_process API_URL GATEWAY_URL -- ...

Once FILE exists, the next save of a table's snapshot deletes it and stops the process
(SIGSTOP) just before its transaction begins: the action has already found the lease held
(the table service checks it first), so once resumed (SIGCONT) the process writes at once,
whatever happened meanwhile. A real pause (a long garbage collection, a frozen virtual
machine) can fall there; here it always does.
"""

import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.storage import Tables
from tests.e2e import bot_process


def pause_before(write: Callable[..., Awaitable[Any]], flag: Path) -> Callable[..., Any]:
    async def paused(self: Tables, *args: Any, **options: Any) -> Any:
        if flag.exists():
            flag.unlink()
            os.kill(os.getpid(), signal.SIGSTOP)
        return await write(self, *args, **options)

    return paused


if __name__ == "__main__":
    flag = Path(os.environ["OFC_TEST_PAUSE_FILE"])
    # a batch of one snapshot takes the first, several the second (bot/tables/commits.py)
    Tables.save_snapshot = pause_before(Tables.save_snapshot, flag)  # type: ignore[method-assign]
    Tables.save_snapshots = pause_before(Tables.save_snapshots, flag)  # type: ignore[method-assign]
    sys.exit(bot_process.main(sys.argv[1:]))
