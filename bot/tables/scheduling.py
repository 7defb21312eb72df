"""Scheduling: each table's one timer (lobby expiry, R10 timeouts, the next deal) and its
computer turns, re-armed after every commit (runtime.py's `rearm`)."""

import asyncio
import logging
import zlib

from bot.engine.match import Match
from bot.engine.placement import auto_assignment
from bot.tables.errors import StaleAction, TableError
from bot.tables.lobby import Lobby
from bot.tables.play import Play
from bot.tables.runtime import Live, TableCore, can_deal
from bot.tables.seating import is_person
from bot.tables.state import TableState, street_of
from bot.tables.table_events import TableWaiting
from bot.tables.tunables import ServiceSettings

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # after a failed timer action (storage trouble)


class Scheduler:
    def __init__(self, core: TableCore, lobby: Lobby, play: Play) -> None:
        self._core = core
        self._lobby = lobby
        self._play = play

    def schedule(self, live: Live) -> None:
        """Re-arm the table's timer for its next due time; start pending computer turns."""
        core = self._core
        if core.closing:
            return
        state = live.state
        me = asyncio.current_task()
        if state.status == "closed":
            core.forget_channel(state)
            for task in (live.timer, *live.computers.values()):
                if task is not None and task is not me:
                    task.cancel()
            return
        wake = self._next_wake(state)
        # (the timer running this is ending: a wake due at its own time needs a new one)
        if (live.timer is None or live.timer.done() or live.timer is me
                or live.timer_at != wake):
            if live.timer is not None and live.timer is not me:
                live.timer.cancel()
            live.timer, live.timer_at = None, wake
            if wake is not None:
                live.timer = core.spawn(self._on_timer(live.state.table_id, wake))
        self._start_computers(live)

    def _next_wake(self, state: TableState) -> float | None:
        if state.status == "lobby":
            return state.last_activity + self._core.settings.lobby_idle_seconds
        match = state.match
        if match is None or match.phase == "over":
            return None
        if match.phase == "playing":
            return match.next_deadline()
        return state.next_hand_at

    async def _on_timer(self, table_id: int, wake: float) -> None:
        core = self._core
        await core.sleep(wake - core.clock.now())
        try:
            async with core.locked(table_id) as live:
                await self._due(live)
        except TableError as error:
            log.warning("table %s timer: %s", table_id, error)
        except Exception:  # storage trouble: the table is as last saved; try again soon
            log.exception("table %s timer failed; retrying in %s s", table_id, RETRY_SECONDS)
            again = core.tables.get(table_id)
            if again is not None and not core.closing:
                retry = core.clock.now() + RETRY_SECONDS
                again.timer, again.timer_at = core.spawn(self._on_timer(table_id, retry)), retry

    async def _due(self, live: Live) -> None:
        """Whatever is due now: lobby expiry, R10 timeouts, or the next deal."""
        core = self._core
        state = live.state
        now = core.clock.now()
        match = state.match
        if state.status == "lobby":
            if now >= state.last_activity + core.settings.lobby_idle_seconds:
                await self._lobby.expire(live)
            else:
                self.schedule(live)
        elif match is not None and match.phase == "playing":
            before = match.pending()
            await core.after_match(live, match.timeout(now), before)
        elif (match is not None and state.next_hand_at is not None
              and now >= state.next_hand_at):
            state.next_hand_at = None
            wait_until = closing_time(state, core.settings)
            if can_deal(state):
                await core.after_match(live, match.start_hand(now), ())
            elif now < wait_until:  # cash: a busted player may buy in again, others join
                state.next_hand_at = wait_until
                await core.commit(live, [TableWaiting(
                    table_id=state.table_id, channel_id=state.home, closes_at=wait_until,
                    busted=_busted_people(match))])
            else:  # R11: fewer than two can play: the match ends, stacks go home
                await core.after_match(live, match.finish(), ())
        else:
            self.schedule(live)

    # ----------------------------------------------------------------- computers
    def _start_computers(self, live: Live) -> None:
        state = live.state
        match = state.match
        if match is None or match.phase != "playing":
            return
        live.computers = {k: t for k, t in live.computers.items() if not t.done()}
        for seat in match.pending():
            player = match.player(seat)
            key = (seat, match.hand_no, street_of(match, seat))
            if player.ai_level is not None and key not in live.computers:
                live.computers[key] = self._core.spawn(self._computer_turn(live, *key))

    async def _computer_turn(self, live: Live, seat: int, hand_no: int, street: int) -> None:
        """A computer seat acts like a person would: it looks at its private view, decides,
        and places through the same checked path."""
        await self._core.sleep(self._core.settings.ai_delay_seconds)
        state = live.state
        match = state.match
        if (state.status == "closed" or match is None or match.hand_no != hand_no
                or seat not in match.pending() or street_of(match, seat) != street):
            return
        player = match.player(seat)
        view = match.view_for(seat)
        seed = None if state.seed is None else zlib.crc32(
            f"{state.seed}:{hand_no}:{street}:{seat}".encode())
        try:
            choice = await self._play.decide(view, player.ai_level or "easy", seed)
        except Exception:
            log.exception("computer player failed at table %s; placing by R10", state.table_id)
            choice = auto_assignment(view.board, view.dealt, view.discard_count)
        while True:
            try:
                await self._play.place(state.table_id, player.player_id, choice, hand_no,
                                       street, seat)
                return
            except StaleAction:  # the table moved on meanwhile (R10's clock, a new street)
                return
            except TableError as error:
                fallback = auto_assignment(view.board, view.dealt, view.discard_count)
                if choice == fallback:
                    raise
                # (not the refusal's text: it may name a card of the computer's hidden hand)
                log.error("computer move refused at table %s (%s); placing by R10",
                          state.table_id, type(error).__name__)
                choice = fallback
            except Exception:  # storage trouble: the table is as last saved; try again soon,
                # or R10's clock would place this street and mark the computer away
                log.exception("computer move at table %s failed; retrying in %s s",
                              state.table_id, RETRY_SECONDS)
                await self._core.sleep(RETRY_SECONDS)


def closing_time(state: TableState, settings: ServiceSettings) -> float:
    """When a cash table short of players closes if nobody buys in (R11): the lobby's idle
    time after its last hand."""
    return state.last_activity + settings.lobby_idle_seconds


def waits_for_players(state: TableState, settings: ServiceSettings) -> bool:
    """Whether the table has put its next deal off until it closes, for want of players, and
    told its channel so (TableWaiting); the pause before a deal is shorter."""
    match = state.match
    return (match is not None and match.phase != "playing" and state.next_hand_at is not None
            and state.next_hand_at == closing_time(state, settings))


def _busted_people(match: Match) -> tuple[int, ...]:
    """The people the last showdown left without chips (R6), still out: those who may buy
    in again (one who got up instead has a stack gone home, not lost)."""
    emptied = {r.seat for r in match.showdown.seats if r.stack_after == 0} \
        if match.showdown is not None else set()
    return tuple(p.player_id for s, p in enumerate(match.seats)
                 if s in emptied and p is not None and p.status == "out"
                 and is_person(p.player_id))
