"""A second process for the lease tests: claims shards on a database and says how it went.

    python -m tests.cluster.claim DATABASE COUNT IDS SECONDS [--hold]

Prints `claimed OWNER EXPIRES_AT`, or `refused: MESSAGE` and exits 2. With --hold it keeps the
lease (renewing nothing) until its standard input closes, then releases it and prints
`released`. The database is opened as the lease tests share one SQLite file between
processes: without the bot's lock file.
"""

import asyncio
import sys
import time

from bot.cluster.shard_lease import new_owner
from bot.sharding import ShardPlan
from bot.storage import ShardsTaken, Storage


async def main(path: str, count: int, ids: str, seconds: float, hold: bool) -> int:
    plan = ShardPlan.parse(count, ids)
    storage = await Storage.open(path)
    owner = new_owner()
    try:
        try:
            leases = await storage.leases.claim_shards(owner, plan.count, plan.ids, now=time.time(),
                                                       seconds=seconds)
        except ShardsTaken as error:
            print(f"refused: {error}", flush=True)
            return 2
        print(f"claimed {owner} {min(lease.expires_at for lease in leases)}", flush=True)
        if hold:
            await asyncio.to_thread(sys.stdin.read)
            await storage.leases.release_shards(owner)
            print("released", flush=True)
        return 0
    finally:
        await storage.close()


if __name__ == "__main__":
    database, count, ids, seconds = sys.argv[1:5]
    sys.exit(asyncio.run(main(database, int(count), ids, float(seconds),
                              "--hold" in sys.argv[5:])))
