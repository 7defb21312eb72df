"""Where a table lives in Discord: its channel or thread, its lobby and table messages (kept
in storage's own columns), and the DM message holding each player's controls (kept in the
snapshot)."""

import asyncio
import contextlib

from bot.storage import UNCHANGED, TableClosed, Unchanged
from bot.tables.errors import TableError
from bot.tables.runtime import TableCore
from bot.tables.state import TableState
from bot.tables.status import DmPrompt, TableMessages


class Messages:
    def __init__(self, core: TableCore) -> None:
        self._core = core

    def table_for_channel(self, channel_id: int) -> int | None:
        """The live table of a channel (or of the thread it was opened in)."""
        return self._core.by_channel.get(channel_id)

    def messages(self, table_id: int) -> TableMessages:
        s = self._core.live(table_id).state
        return TableMessages(s.thread_id, s.lobby_message_id, s.table_message_id, dict(s.dm))

    async def set_messages(self, table_id: int, *,
                           thread_id: int | Unchanged | None = UNCHANGED,
                           lobby_message_id: int | Unchanged | None = UNCHANGED,
                           table_message_id: int | Unchanged | None = UNCHANGED) -> None:
        """Record where the table lives in Discord (omitted: kept, None: cleared). Safe to
        call from a listener: it does not take the table's lock."""
        core = self._core
        live = core.live(table_id)
        with contextlib.suppress(TableClosed):  # a closed table's last messages: memory only
            await core.storage.tables.set_table_messages(
                table_id, now=core.clock.now(), thread_id=thread_id,
                lobby_message_id=lobby_message_id, table_message_id=table_message_id)
        # The state as it is now: an action refused meanwhile replaced it with its last save
        # (its rollback), which an earlier reference would leave without these ids.
        state = live.state
        if not isinstance(thread_id, Unchanged):
            core.forget_channel(state)
            state.thread_id = thread_id
            core.register(live)
        if not isinstance(lobby_message_id, Unchanged):
            state.lobby_message_id = lobby_message_id
        if not isinstance(table_message_id, Unchanged):
            state.table_message_id = table_message_id

    async def set_dm_message(self, table_id: int, player_id: int,
                             prompt: DmPrompt | None) -> None:
        """Record (None: forget) the DM message holding a player's controls and the action it
        shows. Saved with the snapshot; from a listener the save happens right after the
        current action."""
        live = self._core.live(table_id)
        if live.owner is asyncio.current_task():
            self._set_dm(live.state, player_id, prompt)
            # finished even by a stop: else a restart sends the prompt again, a second DM
            self._core.spawn(self._save_dm(table_id, player_id, prompt), finish=True)
            return
        await self._save_dm(table_id, player_id, prompt)

    async def _save_dm(self, table_id: int, player_id: int, prompt: DmPrompt | None) -> None:
        try:
            async with self._core.locked(table_id) as live:
                self._set_dm(live.state, player_id, prompt)
                await self._core.commit(live, ())
        except TableError:
            pass  # the table closed meanwhile: nothing to keep

    @staticmethod
    def _set_dm(state: TableState, player_id: int, prompt: DmPrompt | None) -> None:
        if prompt is None:
            state.dm.pop(player_id, None)
        else:
            state.dm[player_id] = prompt
