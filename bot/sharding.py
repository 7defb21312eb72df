"""Which servers a bot process serves: Discord's gateway shards.

A table belongs to its server and a server to one shard, by Discord's own rule
(`shard_id = (guild_id >> 22) % shard_count`, the routing discord.py's AutoShardedClient uses
too). A process runs the shards of its `ShardPlan`; with no flags it is the one process of
one shard that serves every server, as before sharding existed.

No import of the project or of discord: storage filters its rows with it, the table service
and the bot ask it whether a server is theirs.
"""

from dataclasses import dataclass

MAX_SHARDS = 65_536  # far above any real bot (Discord wants about 1,000 servers a shard)


class ShardPlanError(ValueError):
    """Flags that do not name a valid set of shards; the message says why."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers a server's events to."""
    return (guild_id >> 22) % shard_count


# shard_of in SQL, the same in SQLite and PostgreSQL (bigint): its parameter the shard count.
SHARD_OF_GUILD = "(guild_id >> 22) % ?"


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """`count` shards in all; this process runs `ids` (sorted, distinct)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ShardPlanError(f"the shard count must be from 1 to {MAX_SHARDS}")
        if not self.ids:
            raise ShardPlanError("a process runs at least one shard")
        if list(self.ids) != sorted(set(self.ids)):
            raise ShardPlanError("shard ids must be distinct and in order")
        if self.ids[0] < 0 or self.ids[-1] >= self.count:
            raise ShardPlanError(
                f"shard ids run from 0 to {self.count - 1} with --shard-count {self.count}")

    @classmethod
    def parse(cls, count: int | None, shards: str | None) -> "ShardPlan":
        """`--shard-count N --shards A-B` (or `A`, or `A,C,E-F`). No flags: one shard of one;
        a count alone: every shard of it in this process."""
        if count is None:
            if shards is not None:
                raise ShardPlanError("--shards needs --shard-count (the total of all processes)")
            return cls()
        if shards is None:
            return cls(count, tuple(range(count)))
        ids: set[int] = set()
        for part in shards.split(","):
            first, dash, last = part.strip().partition("-")
            try:
                low = int(first)
                high = int(last) if dash else low
            except ValueError:
                raise ShardPlanError(
                    f"--shards takes shard ids like 0-3 or 0,2,5-7, not {shards!r}") from None
            if high < low:
                raise ShardPlanError(f"--shards: {part.strip()} is an empty range")
            ids.update(range(low, high + 1))
        return cls(count, tuple(sorted(ids)))

    @property
    def sharded(self) -> bool:
        """Started with shard flags (an AutoShardedBot), rather than the plain one process."""
        return self != ShardPlan()

    @property
    def every(self) -> bool:
        """This process runs every shard: every server is its own."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        return self.every or shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """`shard 1 of 2`, `shards 0-3 of 8`, for messages and logs."""
        ids = self.ids
        if len(ids) == 1:
            return f"shard {ids[0]} of {self.count}"
        if list(ids) == list(range(ids[0], ids[-1] + 1)):
            return f"shards {ids[0]}-{ids[-1]} of {self.count}"
        return f"shards {','.join(map(str, ids))} of {self.count}"
