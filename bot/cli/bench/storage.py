"""Storage figures: hand settlements per second on a real SQLite file in WAL mode
(`settle_per_s`) and on PostgreSQL (`settle_per_s_pg`), in alternating rounds so that both
meet the same load on the machine."""

import asyncio
import json
import tempfile
import time
from pathlib import Path

from bot.cli.bench.postgres import bench_database
from bot.storage import Storage, Transfer

GUILD, CHANNEL = 1, 2
PLAYERS = (101, 102, -1)  # two people and a computer seat
# about the size of a three-player table's serialized state
SNAPSHOT = json.dumps({"hand": 0, "boards": [["Ah Kd 2c"] * 13] * 3, "log": ["x" * 60] * 40})


class _Bench:
    """One database with a table of three seats, settling hand after hand."""

    def __init__(self, storage: Storage, table: int) -> None:
        self.storage, self.table, self.hand, self.best = storage, table, 0, 0.0

    @classmethod
    async def open(cls, target: str) -> "_Bench":
        storage = await Storage.open(target, starting_chips=10**9)
        table = await storage.tables.create_table(GUILD, CHANNEL, SNAPSHOT, now=0.0)
        for user in PLAYERS:
            await storage.tables.buy_in(table, user, 10**6, key=f"in:{user}", now=0.0)
        return cls(storage, table)

    async def round(self, seconds: float) -> None:
        a, b, c = PLAYERS
        transfers = [Transfer(a, b, 3), Transfer(b, c, 2), Transfer(c, a, 1)]
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.hand += 1
            await self.storage.tables.settle_hand(self.table, self.hand, transfers,
                                                  key=f"{self.table}:{self.hand}:settle",
                                                  now=float(self.hand), snapshot=SNAPSHOT)
            done += 1
        self.best = max(self.best, done / (time.perf_counter() - start))


async def _settle_per_s(targets: dict[str, str], seconds: float) -> dict[str, float]:
    benches = {key: await _Bench.open(target) for key, target in targets.items()}
    try:
        for _ in range(3):  # best of three, as the other figures, the backends in turn
            for bench in benches.values():
                await bench.round(seconds / 3)
    finally:
        for bench in benches.values():
            await bench.storage.close()
    return {key: bench.best for key, bench in benches.items()}


def run(keys: set[str]) -> dict[str, float]:
    """Settlements (three transfers plus the snapshot, one transaction each) per second."""
    with tempfile.TemporaryDirectory() as folder, \
            bench_database("settle_per_s_pg" in keys) as postgres:
        targets = {"settle_per_s": str(Path(folder) / "bench.sqlite3"),
                   "settle_per_s_pg": postgres}
        wanted = {key: target for key, target in targets.items()
                  if key in keys and target is not None}
        return asyncio.run(_settle_per_s(wanted, 3.0)) if wanted else {}
