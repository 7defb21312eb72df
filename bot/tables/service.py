"""`TableService`: live tables for the Discord layer, one facade over the service's parts.

One live table per channel. Each part fits in one's head and holds the shared core
(runtime.py: tables in memory, locks, tasks, saving and announcing each action):
- lobby.py: create, join, leave, computers, start, cancel, expiry, refunds on close;
- play.py: the engine's `Match` per table, per-seat drafts for the button UI, placements;
- scheduling.py: timers from the match's deadlines (R10) and computer turns;
- recovery.py: restore after a restart, or refund a table that cannot come back;
- messages.py: where the table lives in Discord (thread, lobby/table messages, DMs).
Every action is saved before anyone hears of it; chips move in the same transaction (money.py).
"""

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.cards import Card
from bot.engine.views import TableView
from bot.process.workers import Workers
from bot.sharding import ShardPlan
from bot.storage import UNCHANGED, LiveTable, Storage, Unchanged
from bot.tables.clock import Clock, SystemClock
from bot.tables.lobby import Lobby
from bot.tables.messages import Messages
from bot.tables.play import Assignment, Play
from bot.tables.recovery import Recovery
from bot.tables.runtime import Listener, TableCore
from bot.tables.scheduling import Scheduler
from bot.tables.seating import ComputerPlayers, default_players
from bot.tables.snapshot_versions import BadSnapshot
from bot.tables.state import TableState
from bot.tables.status import DmPrompt, LobbyView, SeatState, TableMessages
from bot.tables.tunables import ServiceSettings


class TableService:
    def __init__(self, storage: Storage, clock: Clock | None = None,
                 ai: ComputerPlayers | None = None,
                 settings: ServiceSettings | None = None,
                 workers: Workers | None = None, shards: ShardPlan | None = None,
                 held: Callable[[], bool] | None = None) -> None:
        """`workers`: the processes computer decisions and "Best arrangement" run in (None:
        a thread of this process). `shards`: the servers whose tables this process restores
        and runs (None: every server); `held()`: whether its lease on them still holds
        (bot/cluster/shard_lease.py; None: always)."""
        core = TableCore(storage, clock or SystemClock(), settings or ServiceSettings(),
                         shards or ShardPlan(), held or (lambda: True))
        self._core = core
        self._lobby = Lobby(core)
        self._play = Play(core, ai or default_players(), workers)
        self._scheduler = Scheduler(core, self._lobby, self._play)
        core.rearm = self._scheduler.schedule
        self._recovery = Recovery(core, self._lobby)
        self._messages = Messages(core)
        self._restored = asyncio.Event()

    # ================================================================= running
    def add_listener(self, listener: Listener) -> None:
        """`await listener(events)` after every action, in order, under the table's lock."""
        self._core.add_listener(listener)

    async def idle(self) -> None:
        """Wait until no background work is in progress: every computer turn and fired timer
        has finished, and what is left sleeps on the clock (tests advance a FakeClock)."""
        await self._core.idle()

    async def close(self) -> None:
        """Stop timers and computer turns (every state is already saved), let the saves of
        DM prompts finish, and mark the stop on every hand in play: the players' clocks
        resume from it at the next restore (R10)."""
        await self._core.close()

    # ================================================================= accessors
    def table_for_channel(self, channel_id: int) -> int | None:
        """The live table of a channel (or of the thread it was opened in)."""
        return self._messages.table_for_channel(channel_id)

    @property
    def shards(self) -> ShardPlan:
        return self._core.shards

    def live_tables(self) -> list[int]:
        return [t for t, live in self._core.tables.items() if live.state.status != "closed"]

    def lobby(self, table_id: int) -> LobbyView:
        return self._lobby.view(self._core.live(table_id).state)

    def seated_elsewhere(self, player_id: int, table_id: int) -> bool:
        """Whether the player sits at another live table of this process (its lobby or its
        match, not out), as last saved: read on every prompt, so from the core's index."""
        return any(t != table_id for t in self._core.seated_at(player_id))

    async def rematch_offer(self, table_id: int) -> LobbyView | None:
        """The closed table whose match over offers "Rematch", or None (survives a restart)."""
        return await self._lobby.rematch_offer(table_id)

    def public_view(self, table_id: int) -> TableView | None:
        return self._play.public_view(table_id)

    def private_view(self, table_id: int, player_id: int) -> SeatState:
        return self._play.private_view(table_id, player_id)

    def own_hand(self, table_id: int, player_id: int) -> SeatState:
        return self._play.own_hand(table_id, player_id)

    def absences(self, table_id: int) -> dict[int, int]:
        """Player id -> the times R10 marked the player away in the table's match. Read by a
        listener of the table's events, it is what those events were saved with. Empty when
        the table is not live here or has no match."""
        live = self._core.tables.get(table_id)
        return {} if live is None else _absences(live.state)

    @staticmethod
    def saved_absences(record: LiveTable) -> dict[int, int]:
        """`absences` from a table's last snapshot, as storage holds it: for a table that ended
        while no process ran it (empty when its snapshot cannot be read)."""
        try:
            state = TableState.stored(record)
        except BadSnapshot:
            return {}
        return _absences(state)

    def seats(self, table_id: int) -> dict[int, int]:
        """Seat -> player id: the match's seats once started, else lobby order."""
        state = self._core.live(table_id).state
        if state.match is None:
            return {i: s.player_id for i, s in enumerate(state.seats)}
        return {i: p.player_id for i, p in enumerate(state.match.seats)
                if p is not None and p.status != "out"}

    # ================================================================= messages
    def messages(self, table_id: int) -> TableMessages:
        return self._messages.messages(table_id)

    async def set_messages(self, table_id: int, *,
                           thread_id: int | Unchanged | None = UNCHANGED,
                           lobby_message_id: int | Unchanged | None = UNCHANGED,
                           table_message_id: int | Unchanged | None = UNCHANGED) -> None:
        """Record where the table lives in Discord (omitted: kept, None: cleared). Safe to
        call from a listener: it does not take the table's lock."""
        await self._messages.set_messages(table_id, thread_id=thread_id,
                                          lobby_message_id=lobby_message_id,
                                          table_message_id=table_message_id)

    async def set_dm_message(self, table_id: int, player_id: int,
                             prompt: DmPrompt | None) -> None:
        """Record (None: forget) the DM message holding a player's controls and the action it
        shows (DmPrompt). Saved with the snapshot; from a listener the save happens right
        after the current action."""
        await self._messages.set_dm_message(table_id, player_id, prompt)

    # ================================================================= lobby
    async def create_table(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any] | None = None, *,
                           thread_id: int | None = None, sit: bool = True,
                           seed: int | None = None, lent: bool = False) -> LobbyView:
        """Open a lobby in the channel; the host sits down and buys in (R12). `lent`: the
        house lends the players their stacks (a tournament's table, R13)."""
        return await self._lobby.create_table(guild_id, channel_id, host_id, host_name, options,
                                              thread_id, sit, seed, lent=lent)

    async def practice(self, guild_id: int, channel_id: int, player_id: int, name: str,
                       level: str = "strong", options: Mapping[str, Any] | None = None, *,
                       seed: int | None = None) -> LobbyView:
        """For newcomers: open a practice table in the channel (a thread of its own, for the
        Discord layer) and deal: the player heads-up against a computer of `level`, hints on,
        for play chips (no wallet moves; the match is in the history, not in /ofc stats)."""
        return await self._lobby.practice(guild_id, channel_id, player_id, name, level,
                                          options, seed)

    async def join(self, table_id: int, player_id: int, name: str, *,
                   by_tournament: bool = False) -> LobbyView:
        """Sit down and buy in: in the lobby, or at a running cash table (R11). At a
        tournament's table (its stacks lent) only the tournament seats its players
        (`by_tournament`)."""
        return await self._lobby.join(table_id, player_id, name, by_tournament)

    async def leave(self, table_id: int, player_id: int) -> LobbyView:
        """Get up: the stack goes back to the wallet (cash tables: after the hand in play);
        not at a tournament's table, whose players the tournament seated."""
        return await self._lobby.leave(table_id, player_id)

    async def stay(self, table_id: int, player_id: int) -> LobbyView:
        """Cash (R11): take back a `leave` that waits for the hand's end; chips stay put."""
        return await self._lobby.stay(table_id, player_id)

    async def add_computer(self, table_id: int, actor_id: int, level: str = "easy", *,
                           is_admin: bool = False, name: str | None = None,
                           by_tournament: bool = False) -> LobbyView:
        """Seat a computer, named `name` or numbered at this table ("Computer 2 (easy)"); at
        a tournament's table only the tournament does (`by_tournament`)."""
        return await self._lobby.add_computer(table_id, actor_id, level, is_admin, name,
                                              by_tournament)

    async def remove_computer(self, table_id: int, actor_id: int, player_id: int, *,
                              is_admin: bool = False) -> LobbyView:
        return await self._lobby.remove_computer(table_id, actor_id, player_id, is_admin)

    async def start(self, table_id: int, actor_id: int, *, is_admin: bool = False,
                    by_tournament: bool = False) -> LobbyView:
        """Deal the first hand (host or admin; at a tournament's table, the tournament)."""
        return await self._lobby.start(table_id, actor_id, is_admin, by_tournament)

    async def cancel(self, table_id: int, actor_id: int, *, is_admin: bool = False) -> None:
        """Close the table now (host or admin): every stack back to its wallet. A hand in
        play is never voided: it is completed at once (what is owed placed by R10's rule),
        shown down and settled first. The match counts as cancelled (not in /stats)."""
        await self._lobby.cancel(table_id, actor_id, is_admin)

    # ================================================================= play
    async def set_draft(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                        card: Card | str, row: str | None, seat: int | None = None) -> SeatState:
        """Put one dealt card in a row (or "discard"; None: take it back) before confirming."""
        return await self._play.set_draft(table_id, player_id, hand_no, street, card, row, seat)

    async def set_row(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                      row: str, cards: Sequence[Card | str], seat: int | None = None
                      ) -> SeatState:
        """Draft exactly `cards` to `row` (a Fantasyland row menu): the row's other cards leave
        it. Whole or not at all: a refused card leaves the draft as it was."""
        return await self._play.set_row(table_id, player_id, hand_no, street, row, cards, seat)

    async def reset_draft(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                          seat: int | None = None) -> SeatState:
        return await self._play.reset_draft(table_id, player_id, hand_no, street, seat)

    async def confirm(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                      seat: int | None = None) -> SeatState:
        """Place the draft. Cards left over are discarded when exactly the discards due are
        left (R7: 2 placed, 1 discarded)."""
        return await self._play.confirm(table_id, player_id, hand_no, street, seat)

    async def place(self, table_id: int, player_id: int, assignment: Assignment,
                    *, hand_no: int, street: int, seat: int | None = None) -> SeatState:
        """A whole action at once: a street, or a Fantasyland arrangement (R8)."""
        return await self._play.place(table_id, player_id, assignment, hand_no, street, seat)

    async def best_arrangement(self, table_id: int, player_id: int, *, hand_no: int,
                               street: int, seat: int | None = None) -> SeatState:
        """Fill the draft with the solver's arrangement: a Fantasyland hand only."""
        return await self._play.best_arrangement(table_id, player_id, hand_no, street, seat)

    async def suggest(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                      seat: int | None = None) -> SeatState:
        """Fill the draft with the strong player's choice from the seat's own view (the
        solver's in Fantasyland): only at a table with hints on (R10: a table option)."""
        return await self._play.suggest(table_id, player_id, hand_no, street, seat)

    async def back(self, table_id: int, player_id: int) -> None:
        """An away player is back (R10): its actions wait for it again. A player back already
        (through another "I'm back": a "My hand" message the bot can no longer edit keeps its
        own) changes nothing, and the click shows the action to play as the first did."""
        await self._play.back(table_id, player_id)

    # ================================================================= restart
    async def restore(self) -> list[int]:
        """Load every live table from storage, finish chip movements a crash interrupted,
        re-arm timers with the time left when the bot stopped (R10: the clocks stood still
        meanwhile), and tell the cog to re-send prompts. A table that cannot be restored is
        refunded. Returns the ids of the tables restored."""
        try:
            return await self._recovery.restore()
        finally:
            self._restored.set()

    async def restored(self) -> None:
        """Wait until `restore` has run: what was live before a restart is known here."""
        await self._restored.wait()


def _absences(state: TableState) -> dict[int, int]:
    match = state.match
    return {} if match is None else {p.player_id: p.absences for p in match.seats
                                     if p is not None}
