"""`TableService`: live tables for the Discord layer (see /work/notes/SERVICE_API.md).

One live table per channel. Lobby: create, join, leave, computers, start, cancel, expiry.
Play: the engine's `Match` per table, per-seat drafts for the button UI, placements, timers
from the match's deadlines (R10), computer seats through the same path as people. Every
action is saved before anyone hears of it; chips move in the same transaction (money.py).
"""

import asyncio
import contextlib
import json
import logging
import random
import secrets
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.cards import INDEX, Card, card_str, parse_card
from bot.engine.errors import RuleError
from bot.engine.events import LEFT, SAT_OUT, Event
from bot.engine.match import Match, PlayerSpec
from bot.engine.placement import DISCARD, TARGETS, auto_assignment
from bot.engine.rules import TableRules
from bot.engine.views import TableView
from bot.storage import UNCHANGED, Storage, TableClosed, Unchanged
from bot.tables import events as out
from bot.tables import money
from bot.tables.clock import Clock, SystemClock
from bot.tables.drafting import is_complete, redraft
from bot.tables.errors import NotAllowed, NotYourSeat, StaleAction, TableError
from bot.tables.players import LEVELS, ComputerPlayers, default_players
from bot.tables.runtime import Live, TableCore
from bot.tables.settings import ServiceSettings
from bot.tables.state import BadSnapshot, Draft, TableState
from bot.tables.translate import dealt_event, street_of, translate, turn_event
from bot.tables.views import DmPrompt, LobbySeat, LobbyView, SeatState, TableMessages

log = logging.getLogger(__name__)

CANCELLED = "The table was cancelled: every stack went back to its owner."
EXPIRED = "The lobby expired: every stack went back to its owner."
RETRY_SECONDS = 5.0  # after a failed timer action (storage trouble)
UNRESTORABLE = ("This table could not be restored after a restart: every stack went back "
                "to its owner.")


class TableService(TableCore):
    def __init__(self, storage: Storage, clock: Clock | None = None,
                 ai: ComputerPlayers | None = None,
                 settings: ServiceSettings | None = None) -> None:
        super().__init__(storage, clock or SystemClock(), settings or ServiceSettings())
        self._ai = ai or default_players()
        self._creating = asyncio.Lock()  # one table per channel, even for racing creates

    # ================================================================= accessors
    def table_for_channel(self, channel_id: int) -> int | None:
        """The live table of a channel (or of the thread it was opened in)."""
        return self._by_channel.get(channel_id)

    def live_tables(self) -> list[int]:
        return [t for t, live in self._tables.items() if live.state.status != "closed"]

    def lobby(self, table_id: int) -> LobbyView:
        return self._lobby_view(self._live(table_id).state)

    def public_view(self, table_id: int) -> TableView | None:
        match = self._live(table_id).state.match
        return match.public_view(self._clock.now()) if match is not None else None

    def private_view(self, table_id: int, player_id: int) -> SeatState:
        state = self._live(table_id).state
        return self._seat_state(state, self._own_seat(state, player_id))

    def seats(self, table_id: int) -> dict[int, int]:
        """Seat -> player id: the match's seats once started, else lobby order."""
        state = self._live(table_id).state
        if state.match is None:
            return {i: s.player_id for i, s in enumerate(state.seats)}
        return {i: p.player_id for i, p in enumerate(state.match.seats)
                if p is not None and p.status != "out"}

    def messages(self, table_id: int) -> TableMessages:
        s = self._live(table_id).state
        return TableMessages(s.thread_id, s.lobby_message_id, s.table_message_id, dict(s.dm))

    async def set_messages(self, table_id: int, *,
                           thread_id: int | Unchanged | None = UNCHANGED,
                           lobby_message_id: int | Unchanged | None = UNCHANGED,
                           table_message_id: int | Unchanged | None = UNCHANGED) -> None:
        """Record where the table lives in Discord (omitted: kept, None: cleared). Safe to
        call from a listener: it does not take the table's lock."""
        live = self._live(table_id)
        state = live.state
        with contextlib.suppress(TableClosed):  # a closed table's last messages: memory only
            await self._storage.set_table_messages(
                table_id, now=self._clock.now(), thread_id=thread_id,
                lobby_message_id=lobby_message_id, table_message_id=table_message_id)
        if not isinstance(thread_id, Unchanged):
            self._forget_channel(state)
            state.thread_id = thread_id
            self._register(live)
        if not isinstance(lobby_message_id, Unchanged):
            state.lobby_message_id = lobby_message_id
        if not isinstance(table_message_id, Unchanged):
            state.table_message_id = table_message_id

    async def set_dm_message(self, table_id: int, player_id: int,
                             prompt: DmPrompt | None) -> None:
        """Record (None: forget) the DM message holding a player's controls and the action it
        shows. Saved with the snapshot; from a listener the save happens right after the
        current action."""
        live = self._live(table_id)
        if live.owner is asyncio.current_task():
            self._set_dm(live.state, player_id, prompt)
            self._spawn(self._save_dm(table_id, player_id, prompt))
            return
        await self._save_dm(table_id, player_id, prompt)

    async def _save_dm(self, table_id: int, player_id: int, prompt: DmPrompt | None) -> None:
        try:
            async with self._locked(table_id) as live:
                self._set_dm(live.state, player_id, prompt)
                await self._commit(live, ())
        except TableError:
            pass  # the table closed meanwhile: nothing to keep

    @staticmethod
    def _set_dm(state: TableState, player_id: int, prompt: DmPrompt | None) -> None:
        if prompt is None:
            state.dm.pop(player_id, None)
        else:
            state.dm[player_id] = prompt

    # ================================================================= lobby
    async def create_table(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any] | None = None, *,
                           thread_id: int | None = None, sit: bool = True,
                           seed: int | None = None) -> LobbyView:
        """Open a lobby in the channel; the host sits down and buys in (R12)."""
        async with self._creating:
            return await self._create(guild_id, channel_id, host_id, host_name, options,
                                      thread_id, sit, seed)

    async def _create(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                      options: Mapping[str, Any] | None, thread_id: int | None, sit: bool,
                      seed: int | None) -> LobbyView:
        for channel in (channel_id, thread_id):
            if channel is not None and self.table_for_channel(channel) is not None:
                raise TableError("This channel already has a table.")
        defaults = (await self._storage.guild_settings(guild_id)).table_options
        try:
            rules = TableRules.from_mapping({**defaults, **(options or {})})
        except RuleError as error:
            raise TableError(str(error)) from error
        now = self._clock.now()
        state = TableState(table_id=0, guild_id=guild_id, channel_id=channel_id,
                           host_id=host_id, rules=rules, created_at=now, last_activity=now,
                           seed=seed, thread_id=thread_id)
        table_id = await self._storage.create_table(guild_id, channel_id, state.dumps(),
                                                    now=now, thread_id=thread_id)
        state.table_id = table_id
        live = Live(state, state.dumps())
        self._register(live)
        try:
            async with self._locked(table_id) as live:
                ops = [self._seat(live.state, host_id, host_name, None)] if sit else []
                await self._commit(live, [self._lobby_event(live.state, "created")], ops)
                return self._lobby_view(live.state)
        except BaseException:
            self._tables.pop(table_id, None)
            self._forget_channel(state)
            await self._storage.close_table(table_id, now=now)
            raise

    async def join(self, table_id: int, player_id: int, name: str) -> LobbyView:
        """Sit down and buy in: in the lobby, or at a running cash table (R11)."""
        async with self._locked(table_id) as live:
            state = live.state
            if player_id <= 0:
                raise TableError("Only people can join; add computers with Add computer.")
            if state.match is None:
                if any(s.player_id == player_id for s in state.seats):
                    raise TableError("You are already at this table.")
                op = self._seat(state, player_id, name, None)
                return await self._lobby_action(live, "joined", [op])
            match = state.match
            if state.rules.format != "cash":
                raise TableError("This match has started; join the next one.")
            events = match.join(PlayerSpec(player_id, name, state.rules.buy_in))
            if match.phase != "playing" and state.next_hand_at is None:
                state.next_hand_at = self._clock.now() + self._settings.next_hand_seconds
            op = money.buy_in(player_id, state.rules.buy_in, self._key(state, "buy_in", player_id))
            await self._after_match(live, events, match.pending(), [op],
                                    [self._lobby_event(state, "joined")])
            return self._lobby_view(state)

    async def leave(self, table_id: int, player_id: int) -> LobbyView:
        """Get up: the stack goes back to the wallet (cash tables: after the hand in play)."""
        async with self._locked(table_id) as live:
            state = live.state
            if state.match is None:
                seat = self._lobby_seat(state, player_id)
                state.seats.remove(seat)
                ops = [money.cash_out(player_id, self._key(state, "cash_out", player_id))]
                if player_id != state.host_id:
                    return await self._lobby_action(live, "left", ops)
                people = [s for s in state.seats if s.player_id > 0]
                if people:
                    state.host_id = people[0].player_id
                    return await self._lobby_action(live, "host changed", ops)
                await self._close_with_refund(live, ops, CANCELLED, "cancelled")
                return self._lobby_view(state)
            match = state.match
            if state.rules.format != "cash":
                raise TableError("You can leave once the match is over; a player who stops "
                                 "playing is placed for and sits out after the hand (R10).")
            seat = self._own_seat(state, player_id)
            await self._after_match(live, match.leave(seat), match.pending(), [],
                                    [self._lobby_event(state, "left")])
            return self._lobby_view(state)

    async def add_computer(self, table_id: int, actor_id: int, level: str = "easy", *,
                           is_admin: bool = False) -> LobbyView:
        async with self._locked(table_id) as live:
            state = live.state
            self._check_host(state, actor_id, is_admin)
            self._check_lobby(state)
            if level not in LEVELS:
                raise TableError(f"'{level}' is not a computer level (choose {', '.join(LEVELS)}).")
            number = 1 + sum(1 for s in state.seats if s.player_id < 0)
            player_id = min([0, *(s.player_id for s in state.seats)]) - 1
            op = self._seat(state, player_id, f"Computer {number} ({level})", level)
            return await self._lobby_action(live, "computer added", [op])

    async def remove_computer(self, table_id: int, actor_id: int, player_id: int, *,
                              is_admin: bool = False) -> LobbyView:
        async with self._locked(table_id) as live:
            state = live.state
            self._check_host(state, actor_id, is_admin)
            self._check_lobby(state)
            if player_id >= 0:
                raise TableError("That is not a computer player.")
            state.seats.remove(self._lobby_seat(state, player_id))
            op = money.cash_out(player_id, self._key(state, "cash_out", player_id))
            return await self._lobby_action(live, "computer removed", [op])

    async def start(self, table_id: int, actor_id: int, *, is_admin: bool = False) -> LobbyView:
        """Deal the first hand (host or admin)."""
        async with self._locked(table_id) as live:
            state = live.state
            self._check_host(state, actor_id, is_admin)
            self._check_lobby(state)
            specs = [PlayerSpec(s.player_id, s.name, s.stack, s.ai_level) for s in state.seats]
            pick = (secrets.SystemRandom() if state.seed is None
                    else random.Random(f"{state.seed}:button"))
            match = Match.new(state.rules, specs, pick.randrange(max(1, len(specs))),
                              seed=state.seed)
            now = self._clock.now()
            state.match_id = await self._storage.record_match_start(
                table_id, json.dumps(state.rules.to_dict()), [s.player_id for s in specs],
                now=now)
            state.match, state.status = match, "playing"
            await self._after_match(live, match.start_hand(now), (), [],
                                    [self._lobby_event(state, "started")])
            return self._lobby_view(state)

    async def cancel(self, table_id: int, actor_id: int, *, is_admin: bool = False) -> None:
        """Close the table now (host or admin): every stack back to its wallet as it stands;
        a hand in play is abandoned (its chips never moved)."""
        async with self._locked(table_id) as live:
            self._check_host(live.state, actor_id, is_admin)
            ops = []
            if live.state.match_id is not None:
                ops.append(money.match_end(live.state.match_id, []))
            await self._close_with_refund(live, ops, CANCELLED, "cancelled")

    # ================================================================= play
    async def set_draft(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                        card: Card | str, row: str | None, seat: int | None = None) -> SeatState:
        """Put one dealt card in a row (or "discard"; None: take it back) before confirming."""
        async with self._locked(table_id) as live:
            state = live.state
            own = self._acting_seat(state, player_id, hand_no, street, seat)
            match = state.match
            assert match is not None
            dealt = match.dealt_to(own)
            chosen = _card(card, dealt)
            rows = dict(self._draft(state, own))
            needs = match.legal_rows(own)
            if row is not None:
                if row not in TARGETS:
                    raise TableError(f"'{row}' is not a row (top, middle, bottom or discard).")
                room = needs.discards if row == DISCARD else needs.free(row)
                taken = sum(1 for c, r in rows.items() if r == row and c != chosen)
                if taken >= room and (row != DISCARD or not room):
                    raise TableError(_no_room(row, room))
            rows = redraft(rows, dealt, needs, chosen, row)  # issue 14: discards without a tap
            state.drafts[own] = Draft(hand_no, street, rows)
            await self._commit(live, ())
            return self._seat_state(state, own)

    async def reset_draft(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                          seat: int | None = None) -> SeatState:
        async with self._locked(table_id) as live:
            state = live.state
            own = self._acting_seat(state, player_id, hand_no, street, seat)
            state.drafts.pop(own, None)
            await self._commit(live, ())
            return self._seat_state(state, own)

    async def confirm(self, table_id: int, player_id: int, *, hand_no: int, street: int,
                      seat: int | None = None) -> SeatState:
        """Place the draft. Cards left over are discarded when exactly the discards due are
        left (R7: 2 placed, 1 discarded)."""
        async with self._locked(table_id) as live:
            state = live.state
            own = self._acting_seat(state, player_id, hand_no, street, seat)
            match = state.match
            assert match is not None
            rows = dict(self._draft(state, own))
            left = [c for c in match.dealt_to(own) if c not in rows]
            due = match.legal_rows(own).discards - sum(1 for r in rows.values() if r == DISCARD)
            if left and len(left) == due:
                rows.update(dict.fromkeys(left, DISCARD))
            await self._place(live, own, rows)
            return self._seat_state(state, own)

    async def place(self, table_id: int, player_id: int, assignment: Mapping[Card | str, str],
                    *, hand_no: int, street: int, seat: int | None = None) -> SeatState:
        """A whole action at once: a street, or a Fantasyland arrangement (R8)."""
        async with self._locked(table_id) as live:
            state = live.state
            own = self._acting_seat(state, player_id, hand_no, street, seat)
            assert state.match is not None
            dealt = state.match.dealt_to(own)
            await self._place(live, own, {_card(c, dealt): r for c, r in assignment.items()})
            return self._seat_state(state, own)

    async def best_arrangement(self, table_id: int, player_id: int, *, hand_no: int,
                               street: int, seat: int | None = None) -> SeatState:
        """Fill the draft with the solver's (Fantasyland) or the computer's suggestion."""
        state = self._live(table_id).state
        own = self._acting_seat(state, player_id, hand_no, street, seat)
        assert state.match is not None
        view = state.match.view_for(own)
        suggestion = await self._think(self._ai.suggest, view)
        async with self._locked(table_id) as live:
            state = live.state
            own = self._acting_seat(state, player_id, hand_no, street, seat)
            rows = {c: r for c, r in suggestion.items() if c in view.dealt and r in TARGETS}
            state.drafts[own] = Draft(hand_no, street, rows)
            await self._commit(live, ())
            return self._seat_state(state, own)

    async def back(self, table_id: int, player_id: int) -> None:
        """An away player is back (R10): its actions wait for it again."""
        async with self._locked(table_id) as live:
            state = live.state
            seat = self._own_seat(state, player_id)
            assert state.match is not None
            match = state.match
            await self._after_match(live, match.back(seat, self._clock.now()), match.pending())

    # ================================================================= restart
    async def restore(self) -> list[int]:
        """Load every live table from storage, finish chip movements a crash interrupted,
        re-arm timers with the time left, and tell the cog to re-send prompts. A table that
        cannot be restored is refunded. Returns the ids of the tables restored."""
        restored = []
        for row in await self._storage.live_tables():
            if row.id in self._tables:
                continue
            try:
                state = TableState.loads(
                    row.state_json, table_id=row.id, guild_id=row.guild_id,
                    channel_id=row.channel_id, thread_id=row.thread_id,
                    lobby_message_id=row.lobby_message_id,
                    table_message_id=row.table_message_id)
            except BadSnapshot as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                await self._refund_unrestorable(row.id, row.thread_id or row.channel_id)
                continue
            live = Live(state, row.state_json)
            self._register(live)
            try:
                if not await self._resume(live):
                    continue
            except Exception:
                log.exception("table %s cannot be resumed", row.id)
                self._tables.pop(row.id, None)
                self._forget_channel(live.state)
                await self._refund_unrestorable(row.id, live.state.home)
                continue
            restored.append(row.id)
        return restored

    async def _resume(self, live: Live) -> bool:
        """Bring a loaded table back to life; False when it turned out to be closing."""
        async with live.lock:
            state = live.state
            if state.pending:
                await self._flush(live)
            if state.status == "closed":  # the crash came as it closed: finish closing
                self._schedule(live)
                await self._emit([self._closed(state, "over")])
                return False
            stacks = (await self._storage.table(state.table_id)).stacks
            if _nonzero(stacks) != _nonzero(_expected_stacks(state)):
                raise BadSnapshot(f"stacks {stacks} do not match the snapshot")
            events: list[out.TableEvent] = [out.TableRestored(
                table_id=state.table_id, channel_id=state.home, lobby=self._lobby_view(state))]
            match = state.match
            if match is not None and match.phase == "playing":
                events += [dealt_event(state, s) for s, p in enumerate(match.seats)
                           if p is not None and p.player_id > 0 and match.dealt_to(s)]
                events.append(turn_event(state))
            await self._emit(events)
            self._schedule(live)
            return True

    async def _refund_unrestorable(self, table_id: int, channel_id: int) -> None:
        try:
            refund = await self._storage.refund_table(table_id, UNRESTORABLE,
                                                      now=self._clock.now())
        except Exception:  # the other tables still come back; this one stays for an admin
            log.exception("table %s could not be refunded", table_id)
            return
        base = {"table_id": table_id, "channel_id": channel_id}
        await self._emit([out.TableRefunded(**base, reason=UNRESTORABLE, refunds=refund.refunds),
                          out.TableClosed(**base, reason="refunded")])

    # ================================================================= internals
    def _lobby_view(self, state: TableState) -> LobbyView:
        if state.match is None:
            seats = tuple(state.seats)
        else:
            seats = tuple(LobbySeat(p.player_id, p.name, p.ai_level, p.stack)
                          for p in state.match.seats if p is not None and p.status != "out")
        lobby = state.status == "lobby"
        return LobbyView(
            table_id=state.table_id, guild_id=state.guild_id, channel_id=state.channel_id,
            thread_id=state.thread_id, host_id=state.host_id, rules=state.rules, seats=seats,
            status=state.status, created_at=state.created_at,
            expires_at=state.last_activity + self._settings.lobby_idle_seconds if lobby else None,
            hand_no=state.match.hand_no if state.match is not None else 0)

    def _lobby_event(self, state: TableState, reason: str) -> out.LobbyChanged:
        return out.LobbyChanged(table_id=state.table_id, channel_id=state.home,
                                lobby=self._lobby_view(state), reason=reason)

    @staticmethod
    def _closed(state: TableState, reason: str) -> out.TableClosed:
        return out.TableClosed(table_id=state.table_id, channel_id=state.home, reason=reason)

    @staticmethod
    def _key(state: TableState, kind: str, user: int | None = None) -> str:
        hand_no = state.match.hand_no if state.match is not None else 0
        return money.key(state.table_id, hand_no, state.step, kind, user)

    def _seat(self, state: TableState, player_id: int, name: str,
              level: str | None) -> money.Op:
        """Seat a player in the lobby; returns the buy-in to apply (R12)."""
        self._check_lobby(state)
        limit = min(state.rules.seats, state.rules.max_seats)
        if len(state.seats) >= limit:
            raise TableError(f"The table is full ({limit} seats).")
        state.seats.append(LobbySeat(player_id, name, level, state.rules.buy_in))
        return money.buy_in(player_id, state.rules.buy_in, self._key(state, "buy_in", player_id))

    async def _lobby_action(self, live: Live, reason: str, ops: list[money.Op]) -> LobbyView:
        live.state.last_activity = self._clock.now()
        await self._commit(live, [self._lobby_event(live.state, reason)], ops)
        return self._lobby_view(live.state)

    async def _close_with_refund(self, live: Live, ops: list[money.Op], reason: str,
                                 why: str) -> None:
        results = await self._commit(live, (), [*ops, money.refund(reason)])
        state = live.state
        base = {"table_id": state.table_id, "channel_id": state.home}
        await self._emit([out.TableRefunded(**base, reason=reason, refunds=results[-1].refunds),
                          out.TableClosed(**base, reason=why)])

    @staticmethod
    def _lobby_seat(state: TableState, player_id: int) -> LobbySeat:
        for seat in state.seats:
            if seat.player_id == player_id:
                return seat
        raise NotYourSeat("You are not at this table.")

    @staticmethod
    def _check_lobby(state: TableState) -> None:
        if state.status != "lobby":
            raise TableError("The match has already started.")

    @staticmethod
    def _check_host(state: TableState, actor_id: int, is_admin: bool) -> None:
        if actor_id != state.host_id and not is_admin:
            raise NotAllowed("Only the host or a member with Manage Server can do that.")

    @staticmethod
    def _own_seat(state: TableState, player_id: int) -> int:
        seat = state.match.seat_of(player_id) if state.match is not None else None
        if seat is None:
            raise NotYourSeat("You are not playing at this table.")
        return seat

    def _acting_seat(self, state: TableState, player_id: int, hand_no: int, street: int,
                     seat: int | None) -> int:
        """The clicker's seat, if the control is theirs and for the action they owe now."""
        own = self._own_seat(state, player_id)
        if seat is not None and seat != own:
            raise NotYourSeat("These controls belong to another player.")
        match = state.match
        assert match is not None
        if match.phase != "playing" or hand_no != match.hand_no:
            raise StaleAction("That hand is over.")
        if street != street_of(match, own) or not match.dealt_to(own):
            raise StaleAction("Those cards are already placed.")
        return own

    @staticmethod
    def _draft(state: TableState, seat: int) -> dict[Card, str]:
        """The seat's draft for its current action (an older one is void)."""
        draft = state.drafts.get(seat)
        match = state.match
        if draft is None or match is None or (draft.hand_no, draft.street) != (
                match.hand_no, street_of(match, seat)):
            return {}
        return draft.rows

    def _seat_state(self, state: TableState, seat: int) -> SeatState:
        match = state.match
        assert match is not None
        rows = self._draft(state, seat)
        needs = match.legal_rows(seat)
        free = {row: needs.free(row) - sum(1 for r in rows.values() if r == row)
                for row in ("top", "middle", "bottom")}
        free[DISCARD] = needs.discards - sum(1 for r in rows.values() if r == DISCARD)
        player = match.player(seat)
        return SeatState(
            table_id=state.table_id, player_id=player.player_id, seat=seat,
            view=match.view_for(seat, self._clock.now()), hand_no=match.hand_no,
            street=street_of(match, seat), draft=dict(rows), to_act=seat in match.pending(),
            deadline=match.deadline(seat), free=free, away=player.away,
            complete=is_complete(rows, needs))

    async def _place(self, live: Live, seat: int, assignment: Mapping[Card, str]) -> None:
        match = live.state.match
        assert match is not None
        before = match.pending()
        events = match.place(seat, assignment, self._clock.now())
        await self._after_match(live, events, before)

    async def _after_match(self, live: Live, events: list[Event], pending_before: tuple[int, ...],
                           ops: list[money.Op] | None = None,
                           first: list[out.TableEvent] | None = None) -> None:
        """Save and announce what a match call did, with the chips it moved."""
        state = live.state
        match = state.match
        assert match is not None
        now = self._clock.now()
        if _last_person_gone(match, events):
            events = [*events, *match.finish()]  # nobody to play for: stacks go home
        outcome = translate(state, events, pending_before)
        state.drafts = {s: d for s, d in state.drafts.items() if self._draft(state, s)}
        if outcome.hand_over and not outcome.match_over:
            state.next_hand_at = now + self._settings.next_hand_seconds
        await self._commit(live, [*(first or ()), *outcome.events],
                           [*(ops or ()), *outcome.ops])

    async def _commit(self, live: Live, events: Sequence[out.TableEvent],
                      ops: Sequence[money.Op] = ()) -> list[Any]:
        """Save the action (with its chip movements), tell the listeners, re-arm the table.
        Returns the storage results of `ops`."""
        live.state.pending.extend(ops)
        results = await self._flush(live)
        await self._emit(events)
        self._schedule(live)
        return results

    # ----------------------------------------------------------------- timers
    def _schedule(self, live: Live) -> None:
        """Re-arm the table's timer for its next due time; start pending computer turns."""
        if self._closing:
            return
        state = live.state
        me = asyncio.current_task()
        if state.status == "closed":
            self._forget_channel(state)
            for task in (live.timer, *live.computers.values()):
                if task is not None and task is not me:
                    task.cancel()
            return
        wake = self._next_wake(state)
        if live.timer is None or live.timer.done() or live.timer_at != wake:
            if live.timer is not None and live.timer is not me:
                live.timer.cancel()
            live.timer, live.timer_at = None, wake
            if wake is not None:
                live.timer = self._spawn(self._on_timer(live.state.table_id, wake))
        self._start_computers(live)

    def _next_wake(self, state: TableState) -> float | None:
        if state.status == "lobby":
            return state.last_activity + self._settings.lobby_idle_seconds
        match = state.match
        if match is None or match.phase == "over":
            return None
        if match.phase == "playing":
            return match.next_deadline()
        return state.next_hand_at

    async def _on_timer(self, table_id: int, wake: float) -> None:
        await self._sleep(wake - self._clock.now())
        try:
            async with self._locked(table_id) as live:
                await self._due(live)
        except TableError as error:
            log.warning("table %s timer: %s", table_id, error)
        except Exception:  # storage trouble: the table is as last saved; try again soon
            log.exception("table %s timer failed; retrying in %s s", table_id, RETRY_SECONDS)
            live = self._tables.get(table_id)
            if live is not None and not self._closing:
                retry = self._clock.now() + RETRY_SECONDS
                live.timer, live.timer_at = self._spawn(self._on_timer(table_id, retry)), retry

    async def _due(self, live: Live) -> None:
        """Whatever is due now: lobby expiry, R10 timeouts, or the next deal."""
        state = live.state
        now = self._clock.now()
        match = state.match
        if state.status == "lobby":
            if now >= state.last_activity + self._settings.lobby_idle_seconds:
                await self._close_with_refund(live, [], EXPIRED, "expired")
            else:
                self._schedule(live)
        elif match is not None and match.phase == "playing":
            before = match.pending()
            await self._after_match(live, match.timeout(now), before)
        elif (match is not None and state.next_hand_at is not None
              and now >= state.next_hand_at):
            state.next_hand_at = None
            if sum(1 for p in match.seats if p is not None and p.status != "out") >= 2:
                await self._after_match(live, match.start_hand(now), ())
            else:
                await self._commit(live, ())  # a cash table waits for players to join
        else:
            self._schedule(live)

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
                live.computers[key] = self._spawn(self._computer_turn(live, *key))

    async def _computer_turn(self, live: Live, seat: int, hand_no: int, street: int) -> None:
        """A computer seat acts like a person would: it looks at its private view, decides,
        and places through the same checked path."""
        await self._sleep(self._settings.ai_delay_seconds)
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
            choice = await self._think(self._ai.decide, view, player.ai_level or "easy", seed)
        except Exception:
            log.exception("computer player failed at table %s; placing by R10", state.table_id)
            choice = auto_assignment(view.board, view.dealt, view.discard_count)
        try:
            await self.place(state.table_id, player.player_id, choice, hand_no=hand_no,
                             street=street, seat=seat)
        except StaleAction:
            return
        except TableError as error:
            log.error("computer move refused at table %s: %s", state.table_id, error)
            await self.place(state.table_id, player.player_id,
                             auto_assignment(view.board, view.dealt, view.discard_count),
                             hand_no=hand_no, street=street, seat=seat)

    async def _think(self, decide: Any, *args: Any) -> Any:
        if self._settings.ai_in_thread:
            return await asyncio.to_thread(decide, *args)
        return decide(*args)


def _card(card: Card | str, dealt: tuple[Card, ...]) -> Card:
    """A dealt card from the engine int or its text; refuses a card not dealt (forged)."""
    try:
        value = parse_card(card) if isinstance(card, str) else card
    except RuleError as error:
        raise TableError(f"{error}.") from error
    if isinstance(card, str) and value < 0:  # "X": whichever joker was dealt
        value = next((c for c in dealt if c < 0), value)
    if isinstance(value, bool) or not isinstance(value, int) or value not in dealt:
        name = card_str(value) if value in INDEX else repr(card)
        raise TableError(f"{name} is not in your hand.")
    return value


def _no_room(row: str, room: int) -> str:
    if row == DISCARD:
        return ("No card is discarded on this street." if not room
                else f"Discard only {room} card{'s' if room > 1 else ''}.")
    return f"{row.capitalize()} row is full."


def _last_person_gone(match: Match, events: list[Event]) -> bool:
    """A person got up (sat out, R10, or left a cash table, R11) between hands and no person
    is left: the match ends rather than computers playing on for nobody. (A table of
    computers only, a simulation, never had anyone to lose.)"""
    left = any(e.kind in (SAT_OUT, LEFT) and e.data["player_id"] > 0 for e in events)
    people = any(p is not None and p.player_id > 0 and p.status != "out" for p in match.seats)
    return left and not people and match.phase not in ("playing", "over")


def _expected_stacks(state: TableState) -> dict[int, int]:
    if state.match is None:
        return {s.player_id: s.stack for s in state.seats}
    return {p.player_id: p.stack for p in state.match.seats if p is not None}


def _nonzero(stacks: Mapping[int, int]) -> dict[int, int]:
    return {k: v for k, v in stacks.items() if v}
