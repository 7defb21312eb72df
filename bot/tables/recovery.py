"""Recovery after a restart: every live table of this process's shards comes back from its
snapshot with its timers and prompts; a table that cannot is refunded and says so in its
channel.

Every timer of a table stood still while no bot ran: a hand in play resumes with the time
each pending action had left when the bot stopped (R10), and a lobby's idle time, the pause
before the next deal and a cash table's wait for players go on from where they were. The stop
is the latest save of any of these tables (the bot is known to have run until then; a clean
stop saves every open table again as it stops, runtime.py), so a crash counts the time up to
the bot's last sign of life, never the time the bot was down."""

import logging
from collections.abc import Mapping

from bot.engine.text import Text
from bot.tables import table_events as out
from bot.tables.lobby import Lobby
from bot.tables.runtime import Live, TableCore
from bot.tables.scheduling import waits_for_players
from bot.tables.seating import is_person
from bot.tables.state import BadSnapshot, TableState
from bot.tables.translate import dealt_event, turn_event

log = logging.getLogger(__name__)

UNRESTORABLE = Text("This table could not be restored after a restart: every stack went back "
                    "to its owner.")


class Recovery:
    def __init__(self, core: TableCore, lobby: Lobby) -> None:
        self._core = core
        self._lobby = lobby

    async def restore(self) -> list[int]:
        core = self._core
        restored = []
        rows = await core.storage.tables.live_tables(core.shards)  # this process's servers
        stopped = max((row.updated_at for row in rows), default=0.0)
        for row in rows:
            if row.id in core.tables:
                continue
            try:
                state = TableState.stored(row)
            except BadSnapshot as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                await self._refund_unrestorable(row.id, row.thread_id or row.channel_id)
                continue
            live = Live(state, row.state_json, row.changes_json)
            core.register(live)
            try:
                if not await self._resume(live, stopped):
                    continue
            except Exception:
                log.exception("table %s cannot be resumed", row.id)
                core.drop(live.state)
                await self._refund_unrestorable(row.id, live.state.home)
                continue
            restored.append(row.id)
        return restored

    async def _resume(self, live: Live, stopped: float) -> bool:
        """Bring a loaded table back to life, its timers on from `stopped`; False when it
        turned out to be closing."""
        core = self._core
        async with live.lock:
            state = live.state
            waiting = waits_for_players(state, core.settings)  # (before the stop moves it)
            gap = core.clock.now() - stopped
            if gap > 0:
                _stand_still(state, gap)  # saved below, so that a second restart counts it once
            computers_back = _computers_back(state, core.clock.now())
            if state.pending or gap > 0 or computers_back:
                await core.flush(live)
            if state.status == "closed":  # the crash came as it closed: finish closing
                core.rearm(live)
                await core.emit([out.TableClosed(table_id=state.table_id,
                                                 channel_id=state.home, reason="over")])
                return False
            stacks = (await core.storage.tables.table(state.table_id)).stacks
            if _nonzero(stacks) != _nonzero(_expected_stacks(state)):
                raise BadSnapshot(f"stacks {stacks} do not match the snapshot")
            events: list[out.TableEvent] = [out.TableRestored(
                table_id=state.table_id, channel_id=state.home, lobby=self._lobby.view(state))]
            match = state.match
            if match is not None and match.phase == "playing":
                events += [dealt_event(state, s) for s, p in enumerate(match.seats)
                           if p is not None and is_person(p.player_id) and match.dealt_to(s)]
                events.append(turn_event(state))
            elif waiting:  # the closing time the channel was told moved with the stop (R11)
                assert state.next_hand_at is not None
                events.append(out.TableWaiting(table_id=state.table_id, channel_id=state.home,
                                               closes_at=state.next_hand_at, busted=()))
            await core.emit(events)
            core.rearm(live)
            return True

    async def _refund_unrestorable(self, table_id: int, channel_id: int) -> None:
        core = self._core
        try:
            refund = await core.storage.tables.refund_table(table_id, str(UNRESTORABLE),
                                                            now=core.clock.now())
        except Exception:  # the other tables still come back; this one stays for an admin
            log.exception("table %s could not be refunded", table_id)
            return
        base = {"table_id": table_id, "channel_id": channel_id}
        await core.emit([out.TableRefunded(**base, reason=UNRESTORABLE, refunds=refund.refunds),
                         out.TableClosed(**base, reason="refunded")])


def _stand_still(state: TableState, seconds: float) -> None:
    """Every timer of the table moved on by the `seconds` no bot ran: the players' clocks
    (R10), a lobby's idle time, the pause before the next deal, a cash table's wait for
    players (R11)."""
    state.last_activity += seconds
    if state.next_hand_at is not None:
        state.next_hand_at += seconds
    if state.match is not None:
        state.match.pause(seconds)


def _computers_back(state: TableState, now: float) -> bool:
    """A computer that an older bot marked away when its clock ran out is back: only
    people are marked away (R10), and a computer has no "I'm back" to click, so it would be
    placed for until it sat out. Its hand's history records the return, as a person's."""
    match = state.match
    if match is None:
        return False
    away = [seat for seat, p in enumerate(match.seats) if p is not None
            and p.ai_level is not None and p.away and p.status != "out"]
    for seat in away:
        match.back(seat, now)
    return bool(away)


def _expected_stacks(state: TableState) -> dict[int, int]:
    if state.practice:  # play chips: storage holds no stack for them
        return {}
    if state.match is None:
        return {s.player_id: s.stack for s in state.seats}
    return {p.player_id: p.stack for p in state.match.seats if p is not None}


def _nonzero(stacks: Mapping[int, int]) -> dict[int, int]:
    return {k: v for k, v in stacks.items() if v}
