"""The lobby: opening a table, sitting down and getting up, computer seats, start, cancel,
and closing with every stack refunded (R11, R12). Also the lobby as the Discord layer sees it.
"""

import asyncio
import json
import random
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.engine.errors import RuleError
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.text import Text, series
from bot.i18n import Slash
from bot.i18n.names import computer_name
from bot.storage import InvalidInput, UnknownTable
from bot.tables import money
from bot.tables import table_events as out
from bot.tables.errors import NotAllowed, NotYourSeat, StaleAction, TableError
from bot.tables.runtime import NOT_HELD, Live, TableCore
from bot.tables.seating import LEVELS, is_person
from bot.tables.state import BadSnapshot, TableState, in_match
from bot.tables.status import LobbySeat, LobbyView
from bot.tables.translate import translate
from bot.tables.tunables import ServiceSettings

NOT_SEATED = Text("You are not at this table.")
REMOVED = Text("That computer player was already removed.")
CANCELLED = Text("The table was cancelled: every stack went back to its owner.")
EXPIRED = Text("The lobby expired: every stack went back to its owner.")
# A practice table (/ofc practice): heads-up, hints on; the rest is the server's defaults.
PRACTICE_OPTIONS: dict[str, Any] = {"seats": 2, "hints": "on"}
OTHER_SHARD = Text("This server is served by another process of the bot; nothing was changed.")
# R12: a computer's stack comes from the house, so what people win from it is chips the house
# pays; only a member who may grant chips (Manage Server) lets the house do that.
# R13: a tournament's table seats the players its draw put there, with stacks the house
# lends them; nobody else sits down there, nor gets up before its match ends.
TOURNAMENT_SEATS = Text("This is a tournament's table: the tournament seats its players, "
                        "and they play it to the end.")
HOUSE_CHIPS = Text("A computer plays with the house's chips, so at a table with chips at stake "
                   "only a member with Manage Server can seat one. Play the computer for play "
                   "chips with {practice}.", practice=Slash("ofc practice"))


def lobby_view(state: TableState, settings: ServiceSettings) -> LobbyView:
    if state.match is None:
        seats = tuple(state.seats)
    else:
        seats = tuple(LobbySeat(p.player_id, p.name, p.ai_level, p.stack)
                      for p in in_match(state.match))
    lobby = state.status == "lobby"
    return LobbyView(
        table_id=state.table_id, guild_id=state.guild_id, channel_id=state.channel_id,
        thread_id=state.thread_id, host_id=state.host_id, rules=state.rules, seats=seats,
        status=state.status, created_at=state.created_at,
        expires_at=state.last_activity + settings.lobby_idle_seconds if lobby else None,
        hand_no=state.match.hand_no if state.match is not None else 0, practice=state.practice,
        lent=state.lent, match_id=state.match_id,
        leaving=tuple(p.player_id for p in in_match(state.match) if p.leaving)
        if state.match is not None else ())


def own_seat(state: TableState, player_id: int) -> int:
    """The player's seat in the match; NotYourSeat when not playing."""
    seat = state.match.seat_of(player_id) if state.match is not None else None
    if seat is None:
        raise NotYourSeat(Text("You are not playing at this table."))
    return seat


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise TableError(Text("'{level}' is not a computer level (choose {levels}).",
                              level=level, levels=series(LEVELS)))


class Lobby:
    def __init__(self, core: TableCore) -> None:
        self._core = core
        self._creating = asyncio.Lock()  # one table per channel, even for racing creates

    def view(self, state: TableState) -> LobbyView:
        return lobby_view(state, self._core.settings)

    async def rematch_offer(self, table_id: int) -> LobbyView | None:
        """The closed table of a match over that offers "Rematch" (one click), as its lobby:
        where it was played and its rules. Kept in memory until a newer table takes its
        channel, else read from its closing snapshot, so a restart loses no offer. None when
        the table offers none (cancelled, expired, still playing, unknown)."""
        live = self._core.tables.get(table_id)
        state = live.state if live is not None else await self._stored(table_id)
        if state is None or state.status != "closed" or not state.rematch:
            return None
        return self.view(state)

    async def _stored(self, table_id: int) -> TableState | None:
        try:
            row = await self._core.storage.tables.table(table_id)
            return TableState.stored(row)
        except (UnknownTable, BadSnapshot, InvalidInput):  # InvalidInput: no table's id
            return None

    def event(self, state: TableState, reason: str) -> out.LobbyChanged:
        return out.LobbyChanged(table_id=state.table_id, channel_id=state.home,
                                lobby=self.view(state), reason=reason)

    async def create_table(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                           options: Mapping[str, Any] | None, thread_id: int | None, sit: bool,
                           seed: int | None, *, lent: bool = False) -> LobbyView:
        async with self._creating:
            return await self._create(guild_id, channel_id, host_id, host_name, options,
                                      thread_id, sit, seed, lent=lent)

    async def practice(self, guild_id: int, channel_id: int, player_id: int, name: str,
                       level: str, options: Mapping[str, Any] | None,
                       seed: int | None) -> LobbyView:
        """For newcomers: a heads-up match of the player against a computer of `level`, hints on,
        for play chips (no wallet moves, not in /ofc stats), dealt at once."""
        if not is_person(player_id):
            raise TableError(Text("Only people can practice."))
        _check_level(level)
        chosen = {**(options or {}), **PRACTICE_OPTIONS}
        async with self._creating:
            lobby = await self._create(guild_id, channel_id, player_id, name, chosen, None,
                                       True, seed, practice=True)
        await self.add_computer(lobby.table_id, player_id, level, False)
        return await self.start(lobby.table_id, player_id, False)

    async def _create(self, guild_id: int, channel_id: int, host_id: int, host_name: str,
                      options: Mapping[str, Any] | None, thread_id: int | None, sit: bool,
                      seed: int | None, *, practice: bool = False,
                      lent: bool = False) -> LobbyView:
        core = self._core
        if not core.shards.owns(guild_id):  # Discord sends a server to its shard's process
            raise TableError(OTHER_SHARD)
        if not core.held():
            raise TableError(NOT_HELD)
        for channel in (channel_id, thread_id):
            if channel is not None and core.by_channel.get(channel) is not None:
                raise TableError(Text("This channel already has a table."))
        defaults = (await core.storage.settings.guild_settings(guild_id)).table_options
        try:
            rules = TableRules.from_mapping({**defaults, **(options or {})})
        except RuleError as error:
            raise TableError(error.text) from error
        now = core.clock.now()
        state = TableState(table_id=0, guild_id=guild_id, channel_id=channel_id,
                           host_id=host_id, rules=rules, created_at=now, last_activity=now,
                           seed=seed, thread_id=thread_id, practice=practice, lent=lent)
        table_id = await core.storage.tables.create_table(guild_id, channel_id, state.dumps(),
                                                          now=now, thread_id=thread_id, lent=lent)
        state.table_id = table_id
        live = Live(state, state.dumps())
        core.register(live)
        try:
            async with core.locked(table_id) as live:
                ops = [self._seat(live.state, host_id, host_name, None)] if sit else []
                await core.commit(live, [self.event(live.state, "created")], ops)
                return self.view(live.state)
        except BaseException:
            core.drop(state)
            await core.storage.tables.close_table(table_id, now=now)
            raise

    async def join(self, table_id: int, player_id: int, name: str,
                   by_tournament: bool = False) -> LobbyView:
        core = self._core
        async with core.locked(table_id) as live:
            state = live.state
            if not is_person(player_id):
                raise TableError(Text("Only people can join; add computers with Add computer."))
            if state.lent and not by_tournament:
                raise NotAllowed(TOURNAMENT_SEATS)
            if state.practice and player_id != state.host_id:  # (its lobby lives a moment)
                raise TableError(Text("This practice table is its player's alone: {cmd} opens "
                                      "one of your own.", cmd=Slash("ofc practice")))
            if state.match is None:
                if any(s.player_id == player_id for s in state.seats):
                    raise TableError(Text("You are already at this table."))
                op = self._seat(state, player_id, name, None)
                return await self._lobby_action(live, "joined", [op])
            match = state.match
            if state.rules.format != "cash":
                raise TableError(Text("This match has started; join the next one."))
            events = match.join(PlayerSpec(player_id, name, state.rules.buy_in))
            soon = core.clock.now() + core.settings.next_hand_seconds
            if match.phase != "playing" and (state.next_hand_at is None
                                             or state.next_hand_at > soon):
                state.next_hand_at = soon  # (a table waiting for players deals soon)
            op = money.BuyIn(player_id, state.rules.buy_in, state.op_key("buy_in", player_id))
            await core.after_match(live, events, match.pending(), [op],
                                   [self.event(state, "joined")])
            return self.view(state)

    async def leave(self, table_id: int, player_id: int) -> LobbyView:
        core = self._core
        async with core.locked(table_id) as live:
            state = live.state
            if state.lent:
                raise NotAllowed(TOURNAMENT_SEATS)
            if state.match is None:
                lobby_seat = self._lobby_seat(state, player_id)
                state.seats.remove(lobby_seat)
                ops = [money.CashOut(player_id, state.op_key("cash_out", player_id))]
                if player_id != state.host_id:
                    return await self._lobby_action(live, "left", ops)
                people = [s for s in state.seats if is_person(s.player_id)]
                if people:
                    state.host_id = people[0].player_id
                    return await self._lobby_action(live, "host changed", ops)
                await self.close_with_refund(live, ops, CANCELLED, "cancelled")
                return self.view(state)
            match = state.match
            if state.practice:  # its one person hosts it: they end it
                raise TableError(Text("To end this practice, use {cmd}.",
                                      cmd=Slash("ofc cancel")))
            if state.rules.format != "cash":
                raise TableError(Text("You can leave once the match is over. If you stop "
                                      "playing, the bot places your cards when your time "
                                      "runs out."))
            if match.seat_of(player_id) is None and any(
                    p is not None and p.player_id == player_id for p in match.seats):
                return self.view(state)  # busted (R6) or got up: nothing to move
            seat = own_seat(state, player_id)
            await core.after_match(live, match.leave(seat), match.pending(), [],
                                   [self.event(state, "left")])
            return self.view(state)

    async def stay(self, table_id: int, player_id: int) -> LobbyView:
        core = self._core
        async with core.locked(table_id) as live:
            state = live.state
            match = state.match
            if match is None or player_id not in lobby_view(state, core.settings).leaving:
                # (stale: a leave seen a moment ago may have been done since, the hand over)
                raise StaleAction(Text("You are not leaving this table."))
            await core.after_match(live, match.stay(own_seat(state, player_id)),
                                   match.pending(), [], [self.event(state, "stayed")])
            return self.view(state)

    async def add_computer(self, table_id: int, actor_id: int, level: str,
                           is_admin: bool, name: str | None = None,
                           by_tournament: bool = False) -> LobbyView:
        async with self._hosting(table_id, actor_id, is_admin, by_tournament=by_tournament) as live:
            state = live.state
            _check_level(level)
            if not (is_admin or state.practice):
                raise NotAllowed(HOUSE_CHIPS)
            number = 1 + sum(1 for s in state.seats if not is_person(s.player_id))
            player_id = min([0, *(s.player_id for s in state.seats)]) - 1
            op = self._seat(state, player_id, name or str(computer_name(number, level)), level)
            return await self._lobby_action(live, "computer added", [op])

    async def remove_computer(self, table_id: int, actor_id: int, player_id: int,
                              is_admin: bool) -> LobbyView:
        async with self._hosting(table_id, actor_id, is_admin) as live:
            state = live.state
            if player_id >= 0:
                raise TableError(Text("That is not a computer player."))
            # (a second click on Remove computer names the one the first removed)
            state.seats.remove(self._lobby_seat(state, player_id, REMOVED))
            op = money.CashOut(player_id, state.op_key("cash_out", player_id))
            return await self._lobby_action(live, "computer removed", [op])

    async def start(self, table_id: int, actor_id: int, is_admin: bool,
                    by_tournament: bool = False) -> LobbyView:
        core = self._core
        async with self._hosting(table_id, actor_id, is_admin, by_tournament=by_tournament) as live:
            state = live.state
            specs = [PlayerSpec(s.player_id, s.name, s.stack, s.ai_level) for s in state.seats]
            pick = (secrets.SystemRandom() if state.seed is None
                    else random.Random(f"{state.seed}:button"))
            match = Match.new(state.rules, specs, pick.randrange(max(1, len(specs))),
                              seed=state.seed)
            now = core.clock.now()
            state.match_id = await core.storage.history.record_match_start(
                table_id, json.dumps(state.rules.to_dict()), [s.player_id for s in specs],
                now=now, practice=state.practice)
            state.match, state.status = match, "playing"
            await core.after_match(live, match.start_hand(now), (), [],
                                   [self.event(state, "started")])
            return self.view(state)

    async def cancel(self, table_id: int, actor_id: int, is_admin: bool) -> None:
        async with self._hosting(table_id, actor_id, is_admin, in_lobby=False) as live:
            state = live.state
            ops: list[money.Op] = []
            shown: list[out.TableEvent] = []
            match = state.match
            if match is not None and match.phase == "playing":
                outcome = translate(state, match.complete_hand(self._core.clock.now()),
                                    match.pending())
                if outcome.match_over:  # that was the last hand: the match ends as usual
                    await self._core.commit(live, outcome.events, outcome.ops)
                    return
                shown, ops = list(outcome.events), list(outcome.ops)
            if state.match_id is not None:
                ops.append(money.MatchEnd(state.match_id, (), cancelled=True))
            await self.close_with_refund(live, ops, CANCELLED, "cancelled", shown)

    async def expire(self, live: Live) -> None:
        """An idle lobby is cancelled and refunded (called when its time is due)."""
        await self.close_with_refund(live, [], EXPIRED, "expired")

    async def close_with_refund(self, live: Live, ops: Sequence[money.Op], reason: Text,
                                why: str, events: Sequence[out.TableEvent] = ()) -> None:
        results = await self._core.commit(live, (), [*ops, money.RefundTable(str(reason))])

        state = live.state
        base = {"table_id": state.table_id, "channel_id": state.home}
        # The hand the close completed comes in one batch with the close: its placements are
        # then known to be the close's, not a clock's (R10).
        await self._core.emit([
            *events,
            out.TableRefunded(**base, reason=reason, refunds=results[-1].refunds),
            out.TableClosed(**base, reason=why)])

    # ----------------------------------------------------------------- internals
    @asynccontextmanager
    async def _hosting(self, table_id: int, actor_id: int, is_admin: bool, *,
                       by_tournament: bool = False, in_lobby: bool = True
                       ) -> AsyncIterator[Live]:
        """The table, locked, for an action of its host (or an admin): before the start
        unless not `in_lobby` (a cancel). At a tournament's table only the tournament seats
        and starts (its director hosts it, and a seat it did not draw would hold a stack the
        house lent)."""
        async with self._core.locked(table_id) as live:
            _check_host(live.state, actor_id, is_admin)
            if in_lobby:
                if live.state.lent and not by_tournament:
                    raise NotAllowed(TOURNAMENT_SEATS)
                _check_lobby(live.state)
            yield live

    def _seat(self, state: TableState, player_id: int, name: str,
              level: str | None) -> money.Op:
        """Seat a player in the lobby; returns the buy-in to apply (R12)."""
        _check_lobby(state)
        limit = min(state.rules.seats, state.rules.max_seats)
        if len(state.seats) >= limit:
            raise TableError(Text("The table is full ({n} seats).", n=limit))
        state.seats.append(LobbySeat(player_id, name, level, state.rules.buy_in))
        return money.BuyIn(player_id, state.rules.buy_in, state.op_key("buy_in", player_id))

    async def _lobby_action(self, live: Live, reason: str,
                            ops: Sequence[money.Op]) -> LobbyView:
        live.state.last_activity = self._core.clock.now()
        await self._core.commit(live, [self.event(live.state, reason)], ops)
        return self.view(live.state)

    @staticmethod
    def _lobby_seat(state: TableState, player_id: int,
                    missing: Text = NOT_SEATED) -> LobbySeat:
        for seat in state.seats:
            if seat.player_id == player_id:
                return seat
        raise NotYourSeat(missing)


def _check_lobby(state: TableState) -> None:
    if state.status != "lobby":
        raise TableError(Text("The match has already started."))


def _check_host(state: TableState, actor_id: int, is_admin: bool) -> None:
    if actor_id != state.host_id and not is_admin:
        raise NotAllowed(Text("Only the host or a member with Manage Server can do that."))
