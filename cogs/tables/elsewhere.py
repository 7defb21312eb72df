"""Whether a DM prompt's player sits at another table too: its title then names the table's
channel, since the prompts of both tables come by the same DM.

This process's tables are asked directly. A sharded bot's other processes run tables whose
prompts come by the same DM, so the shared database is asked too; that answer is read once
for each action of a seat (a hand's street, or its Fantasyland hand), not on each redraw of
its prompt (every card drafted, every turn passed): a player sitting down at another
process's table is named from their next action on, as an action already prompted keeps its
title. Once a hand would be too coarse: the player's next street at this table must already
say which table it is for.
"""

from bot.sharding import ShardPlan
from bot.storage.tables import Tables
from bot.tables import SeatState, TableService

KEPT = 10_000  # answers kept, the oldest dropped first: one per (player, table) playing


class Elsewhere:
    def __init__(self, tables: TableService, stored: Tables, plan: ShardPlan) -> None:
        self._tables = tables
        self._stored = stored
        self._plan = plan
        # (player, table) -> ((hand, street), whether seated elsewhere) as last read
        self._read: dict[tuple[int, int], tuple[tuple[int, int], bool]] = {}

    async def seated(self, table: int, state: SeatState) -> bool:
        """Whether the seat's player sits at another open table than `table`."""
        if self._tables.seated_elsewhere(state.player_id, table):
            return True
        if self._plan.every:  # every table is this process's
            return False
        key, action = (state.player_id, table), (state.hand_no, state.street)
        known = self._read.get(key)
        if known is None or known[0] != action:
            known = (action, await self._stored.seated_elsewhere(state.player_id, table))
        self._read.pop(key, None)
        self._read[key] = known  # the newest last
        if len(self._read) > KEPT:
            del self._read[next(iter(self._read))]
        return known[1]
