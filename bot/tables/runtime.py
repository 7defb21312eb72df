"""The service's machinery: live tables in memory, their locks, background tasks, persistence.

Snapshot-only saves of many tables arriving together share one transaction (commits.py);
chip movements keep their own, with their snapshot. Within a street of a hand, a snapshot-only
save writes what changed since the last whole snapshot (`TableState.changes`); a street's
end, a hand's end, the lobby and every chip movement write the whole snapshot.

Every action on a table runs inside `TableCore.locked`: one at a time per table, and any
failure puts the table back exactly as it was last saved (so a refused action changes nothing,
in memory as on disk). `commit` applies the action's chip movements with the snapshot, tells
the listeners, and re-arms the table's timer and computer turns (`rearm`, which the service
points at its scheduler, scheduling.py).

The parts of the service (lobby.py, play.py, scheduling.py, recovery.py, messages.py) each
hold this core and work through it; service.py puts them behind one facade.
"""

import asyncio
import logging
import os
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence, Set
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import RuleError
from bot.engine.events import Busted, Event, Left, SatOut
from bot.engine.match import Match
from bot.engine.text import Text
from bot.sharding import ShardPlan
from bot.storage import InsufficientChips, LeaseLost, NotSeated, Storage, TableClosed
from bot.tables import money
from bot.tables import table_events as out
from bot.tables.clock import Clock
from bot.tables.commits import GroupCommit
from bot.tables.errors import NoTable, TableError
from bot.tables.seating import is_person
from bot.tables.state import Point, TableState
from bot.tables.translate import translate
from bot.tables.tunables import ServiceSettings

log = logging.getLogger(__name__)

Listener = Callable[[list[out.TableEvent]], Awaitable[None]]
# Said when this process's lease on its shards has run out (bot/cluster/shard_lease.py): another
# process may be taking its tables over, so nothing is done here.
NOT_HELD = Text("This table is moving to another process of the bot; nothing was changed. "
                "Try again in a minute.")
# Storage refusals a player can cause and read (anything else is a bug or an I/O failure).
_PLAYER_STORAGE_ERRORS = (InsufficientChips, NotSeated, TableClosed)
CLOSED = Text("This table is closed.")
# The test suite sets it (tests/conftest.py): every save of changes is first checked to rebuild
# the table exactly as its whole snapshot would (`_check_changes`).
CHECK_CHANGES = os.environ.get("OFC_CHECK_CHANGES") == "1"
# For that check: each table's whole snapshot and match text whose rebuild it last checked.
_CHECKED: "weakref.WeakKeyDictionary[Live, tuple[str, str]]" = weakref.WeakKeyDictionary()


@dataclass(eq=False)
class Live:
    """One table in memory: its state, the last snapshot saved, its lock and tasks."""

    state: TableState
    # What storage holds, and a failed action rolls back to: the last whole snapshot, and the
    # changes saved since it (None: none); where the match stood at `saved` (None: the next
    # save is whole).
    saved: str
    changes: str | None = None
    base: Point | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owner: asyncio.Task[Any] | None = None  # the task holding `lock`
    timer: asyncio.Task[Any] | None = None
    timer_at: float | None = None
    computers: dict[tuple[int, int, int], asyncio.Task[Any]] = field(default_factory=dict)

    def whole(self, text: str, at: Point | None) -> None:
        """Storage now holds this whole snapshot, taken at `at`."""
        self.saved, self.changes, self.base = text, None, at

    def rebuilt(self, changes: str | None) -> TableState:
        """The table from its whole snapshot and `changes`, where it lives as it is now."""
        return TableState.loads(self.saved, changes=changes, **self.state.located())


class TableCore:
    def __init__(self, storage: Storage, clock: Clock, settings: ServiceSettings,
                 shards: ShardPlan, held: Callable[[], bool]) -> None:
        self.storage = storage
        self.clock = clock
        self.settings = settings
        self.shards = shards  # the servers whose tables this process runs
        self.held = held  # is this process's lease on them still good?
        self.saves = GroupCommit(storage.tables)  # snapshot-only saves, many tables per transaction
        self.tables: dict[int, Live] = {}
        self.by_channel: dict[int, int] = {}
        # Player -> the open tables here they sit at, and table -> its seated players: the
        # question every DM prompt asks (`seated_at`), kept as tables are saved and dropped
        # rather than by scanning every table.
        self._where: dict[int, set[int]] = {}
        self._seated: dict[int, frozenset[int]] = {}
        self.closing = False
        # Re-arm a table's timer and computer turns after each commit (the scheduler's).
        self.rearm: Callable[[Live], None] = lambda live: None
        self._listeners: list[Listener] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._parked: set[asyncio.Task[Any]] = set()  # tasks asleep on the clock
        self._finishing: set[asyncio.Task[Any]] = set()  # saves the stop waits for
        self._settled = asyncio.Event()  # set when a task parks or ends (for idle())

    # ----------------------------------------------------------------- listeners, tasks
    def add_listener(self, listener: Listener) -> None:
        """`await listener(events)` after every action, in order, under the table's lock."""
        self._listeners.append(listener)

    async def emit(self, events: Sequence[out.TableEvent]) -> None:
        if not events:
            return
        batch = list(events)
        for listener in self._listeners:
            try:
                await listener(batch)
            except Exception:  # the game goes on whatever a listener does
                log.exception("table event listener failed")

    def spawn(self, coro: Coroutine[Any, Any, None], *,
              finish: bool = False) -> asyncio.Task[None]:
        """Run `coro` in the background; `finish`: a save the stop waits for rather than
        cancels (what it records would be lost with it)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        if finish:
            self._finishing.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        self._finishing.discard(task)
        self._parked.discard(task)
        self._settled.set()
        if not task.cancelled() and task.exception() is not None:
            log.error("table service task failed", exc_info=task.exception())

    async def sleep(self, seconds: float) -> None:
        """Sleep on the service's clock, marked as parked so `idle()` does not wait for it."""
        if seconds <= 0:
            return
        task = asyncio.current_task()
        assert task is not None
        self._parked.add(task)
        self._settled.set()
        try:
            await self.clock.sleep(seconds)
        finally:
            self._parked.discard(task)

    async def idle(self) -> None:
        """Wait until no background work is in progress: every computer turn and fired timer
        has finished, and what is left sleeps on the clock (tests advance a FakeClock)."""
        while True:
            busy = [t for t in self._tasks
                    if not t.done() and t not in self._parked and t is not asyncio.current_task()]
            if not busy:
                return
            self._settled.clear()
            await self._settled.wait()

    async def close(self) -> None:
        """Stop timers and computer turns (every state is already saved), let the saves of
        DM messages finish, then mark the stop on every open table: a restart resumes its
        timers from that moment (recovery.py)."""
        first = not self.closing  # a second close marks nothing: the tables may be run anew
        self.closing = True
        tasks = [task for task in self._tasks if task not in self._finishing]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*self._finishing, return_exceptions=True)
        if first and self.held():  # else another process runs these tables now
            open_ = [live for live in self.tables.values() if live.state.status != "closed"]
            for failed in await asyncio.gather(*map(self._mark_stop, open_),
                                               return_exceptions=True):
                if failed is not None:  # the restart counts from the table's last save
                    log.warning("the stop could not be marked on a table: %r", failed)
        await self.saves.close()

    async def _mark_stop(self, live: Live) -> None:
        """Save the table's last snapshot again, at the time of the stop. An action in
        progress saves at its own moment: the stop does not wait for it (a click's
        announcement may be waiting on Discord)."""
        if live.lock.locked():
            return
        async with live.lock:  # taken at once: nothing runs between the test and here
            await self.saves.save(live.state.table_id, live.changes or live.saved,
                                  self.clock.now(), changes=live.changes is not None)

    # ----------------------------------------------------------------- tables
    def live(self, table_id: int) -> Live:
        live = self.tables.get(table_id)
        if live is None:
            raise NoTable(Text("There is no such table."))
        return live

    def register(self, live: Live) -> None:
        state = live.state
        self.tables[state.table_id] = live
        self._seat(state.table_id, state.seated())
        for channel in (state.channel_id, state.thread_id):
            if channel is not None:
                old = self.by_channel.get(channel)
                if old is not None and old != state.table_id:
                    self.tables.pop(old, None)  # a closed table kept for its last views
                    self._seat(old, frozenset())
                self.by_channel[channel] = state.table_id

    def drop(self, state: TableState) -> None:
        """Forget a table this process no longer runs (it failed to open or to resume)."""
        self.tables.pop(state.table_id, None)
        self._seat(state.table_id, frozenset())
        self.forget_channel(state)

    def forget_channel(self, state: TableState) -> None:
        for channel in (state.channel_id, state.thread_id):
            if channel is not None and self.by_channel.get(channel) == state.table_id:
                del self.by_channel[channel]

    def seated_at(self, player_id: int) -> Set[int]:
        """The open tables of this process the player sits at, as last saved."""
        return self._where.get(player_id, set())

    def _seat(self, table_id: int, now: frozenset[int]) -> None:
        """The table's seated players are now `now`."""
        before = self._seated.pop(table_id, frozenset())
        for player in before - now:
            tables = self._where[player]
            tables.discard(table_id)
            if not tables:
                del self._where[player]
        for player in now - before:
            self._where.setdefault(player, set()).add(table_id)
        if now:
            self._seated[table_id] = now

    @asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[Live]:
        """Hold the table's lock for one action; on any failure restore the last save."""
        live = self.live(table_id)
        me = asyncio.current_task()
        if live.owner is me:
            raise RuntimeError("a table event listener awaited an action on its own table")
        async with live.lock:
            live.owner = me
            try:
                if not self.held():
                    raise TableError(NOT_HELD)
                if live.state.status == "closed":
                    raise NoTable(CLOSED)
                if live.state.pending:
                    await self.flush(live)  # finish what a failure left undone
                live.state.step += 1
                yield live
            except BaseException as error:
                self._rollback(live)
                readable = _readable(error)
                if readable is error:
                    raise
                raise readable from error
            finally:
                live.owner = None

    def _rollback(self, live: Live) -> None:
        live.state = live.rebuilt(live.changes)
        self._seat(live.state.table_id, live.state.seated())

    async def flush(self, live: Live) -> list[Any]:
        """Apply the pending chip movements, each with a snapshot listing the ones left;
        with none, just save the snapshot."""
        results = await self._apply(live)
        self._seat(live.state.table_id, live.state.seated())
        return results

    async def _apply(self, live: Live) -> list[Any]:
        state = live.state
        now = self.clock.now()
        if not state.pending:
            await self._save(live, now)
            return []
        results = []
        unsaved = False
        while state.pending:
            op, *rest = state.pending
            state.pending, status = rest, state.status
            if op.terminal:
                state.status = "closed"
            text, at = state.dumps(), state.point()
            try:
                results.append(await op.apply(self.storage, state.table_id, text, now))
            except BaseException:
                state.pending, state.status = [op, *rest], status
                raise
            unsaved = not op.with_snapshot
            if not unsaved or state.status == "closed":
                live.whole(text, at)
            if state.status == "closed":
                return results
        if unsaved:
            await self._save(live, now)
        return results

    async def _save(self, live: Live, now: float) -> None:
        """Save the table alone: what changed since its last whole snapshot when its match
        is still on that snapshot's street of that hand, else whole."""
        state = live.state
        at = state.point()
        if live.base is not None and live.base.holds(at):
            text = state.changes(live.base.actions)
            if CHECK_CHANGES:
                _check_changes(live, text)
            await self.saves.save(state.table_id, text, now, changes=True)
            live.changes = text
            return
        text = state.dumps()
        await self.saves.save(state.table_id, text, now)
        live.whole(text, at)

    # ----------------------------------------------------------------- committing actions
    async def commit(self, live: Live, events: Sequence[out.TableEvent],
                     ops: Sequence[money.Op] = ()) -> list[Any]:
        """Save the action (with its chip movements), tell the listeners, re-arm the table.
        Returns the storage results of `ops` (a practice table's: of those it keeps)."""
        live.state.pending.extend(money.play_chips(ops) if live.state.practice else ops)
        results = await self.flush(live)
        await self.emit(events)
        self.rearm(live)
        return results

    async def after_match(self, live: Live, events: list[Event],
                          pending_before: tuple[int, ...], ops: list[money.Op] | None = None,
                          first: list[out.TableEvent] | None = None) -> None:
        """Save and announce what a match call did, with the chips it moved."""
        state = live.state
        match = state.match
        assert match is not None
        now = self.clock.now()
        if _last_person_gone(state, events):
            events = [*events, *match.finish()]  # nobody to play for: stacks go home
        outcome = translate(state, events, pending_before)
        state.drafts = {s: d for s, d in state.drafts.items() if state.draft(s)}
        if outcome.hand_over and not outcome.match_over:
            state.next_hand_at = now + self.settings.next_hand_seconds
            state.last_activity = now  # a cash table short of players waits from here
        await self.commit(live, [*(first or ()), *outcome.events],
                          [*(ops or ()), *outcome.ops])


def _check_changes(live: Live, changes: str) -> None:
    """Rebuild the table from its snapshot and these changes; it must be the table. A save
    whose match is, to the byte, one already rebuilt from the same snapshot (a draft, a DM
    prompt's message) changed only the table's other fields, which are written whole."""
    s = live.state
    assert s.match is not None
    done = (live.saved, s.match.text())
    if _CHECKED.get(live) == done:
        return
    if live.rebuilt(changes).dumps() != s.dumps():
        raise AssertionError(f"table {s.table_id}: its changes rebuild another table")
    _CHECKED[live] = done


def _readable(error: BaseException) -> BaseException:
    """A refusal as a TableError with the player's sentence; anything else unchanged."""
    if isinstance(error, TableError):
        return error
    if isinstance(error, LeaseLost):  # a write fenced: another process owns the table now
        return TableError(NOT_HELD)
    if isinstance(error, (RuleError, *_PLAYER_STORAGE_ERRORS)):
        return TableError(error.text)

    return error


def _last_person_gone(state: TableState, events: list[Event]) -> bool:
    """A person got up (sat out, R10, or left a cash table, R11) or busted (R6) between hands
    and no person is left: the match ends rather than computers playing on for nobody. Not
    for a bust at a cash table, which waits for a buy-in (`can_deal`), nor at a tournament's
    table, which plays all its hands (R13). (A table of computers only, a simulation, never
    had anyone to lose.)"""
    match = state.match
    assert match is not None
    bust_ends = match.rules.format != "cash" and not state.lent
    left = any(is_person(e.player_id) for e in events
               if isinstance(e, SatOut | Left) or (bust_ends and isinstance(e, Busted)))
    return left and not _person_plays(match) and match.phase not in ("playing", "over")


def can_deal(state: TableState) -> bool:
    """Whether the table's next hand may be dealt: two players or more have chips (R6) and,
    at a cash table where people sat down, one of them is a person. When the last person
    busts, the computers deal no hand among themselves (no end, nobody to play for): the
    table waits for a person to buy in again, as one short of players does (R11). Who sat
    down is read from the lobby's seats, which the match's deals leave alone."""
    match = state.match
    assert match is not None
    players = sum(1 for p in match.seats if p is not None and p.status != "out")
    simulation = not any(is_person(s.player_id) for s in state.seats)
    return players >= 2 and (match.rules.format != "cash" or simulation or _person_plays(match))


def _person_plays(match: Match) -> bool:
    return any(p is not None and is_person(p.player_id) and p.status != "out"
               for p in match.seats)
