"""`TournamentDirector`: shootout tournaments over the table service (RULES.md R13).

Each tournament is the engine's `Tournament` (bot/engine/tournament.py) saved after every
action, with its chips moved in the same transaction (keyed: a replay never pays twice):
- registering: a person's buy-in goes from the wallet to the prize pool (a computer pays
  none and wins none: only people's chips are at stake); registration closes by itself
  when its window ends (a timer on the service's clock, armed again at restore); a
  tournament of fewer than 2 players is then cancelled;
- each level, every table is a TableService table (format "hands") opened where the
  `TableOpener` says (the Discord layer: a thread of its own). The chips a player sits down
  with are lent by the house and taken back when the table is over, each in the table's own
  buy-in and cash-out (they never rest in a wallet); what counts is the points (chips won or
  lost at point value 1);
- a table's points are its hands' history (R5 points); when its match is over its winner
  advances (tie rule R13). A table closed early (`/ofc cancel`, or a table that could not be
  restored) is decided on the hands it played, the one in play completed (R13); an away
  player never sits out at a tournament table, so every table plays all its hands;
- a table's timeout is a called clock (seed 001): 10 points and a warning, unless the
  director turned that off at create;
- the final's ranking is paid from the pool by the payout table, to people only, and each
  person's final standing is kept (/ofc history);
- cooldowns and caps (limits.py) keep a member, and a server, from taking the machine;
- cancelling closes the tables (their stacks back to the house) and refunds every person
  registered but the excluded.
A restart (`restore()`, before the table service's) brings every tournament back where it
was; its tables come back with the table service, and a cancel it cut off is finished.
"""

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot.engine.errors import RuleError
from bot.engine.rules import TableRules
from bot.engine.text import Text, series
from bot.engine.tournament import Sanction, Tournament, TournamentTable
from bot.i18n.names import computer_name
from bot.storage import SanctionRecord, Storage, StorageError, TournamentResult
from bot.tables import table_events as out
from bot.tables.clock import Clock
from bot.tables.errors import TableError
from bot.tables.lobby import OTHER_SHARD
from bot.tables.seating import LEVELS
from bot.tables.service import TableService
from bot.tournaments.limits import Cooldowns, TournamentLimits

# (tournament, table) -> the channel (or thread) id the table is opened in.
TableOpener = Callable[[Tournament, TournamentTable], Awaitable[int]]


TABLE_STACK = 100_000  # the chips a player sits down with, lent by the house: nobody busts
RETRY_SECONDS = 5.0  # after a registration timer or a payout failed (storage trouble)
# Seed 001's table rules where they differ from a cash table's (the director may change them).
SEED_001_OPTIONS = {"fantasy_stay_full_house_middle": True}
THE_CLOCK = 0  # who gave a time penalty the table's clock called
log = logging.getLogger(__name__)


class TournamentError(RuleError):
    """A refused action, with a sentence for the member; nothing changed."""


@dataclass(frozen=True, slots=True)
class TournamentChanged:
    """Tell the Discord layer: `reason` is created, joined, computer (one registered), left,
    closed (the registration window ended), started, level, blocked (a table could not open:
    `detail` says why; the director's start opens it), table over, table closed early,
    warning, penalty, time (a time penalty: `sanctions` holds what was given), finished (the
    final is over; its table's end is not told apart) or cancelled."""

    tournament: Tournament
    reason: str
    channel_id: int
    detail: Text | None = None
    sanctions: tuple[Sanction, ...] = ()


Listener = Callable[[TournamentChanged], Awaitable[None]]
T = TypeVar("T")


def _key(t: Tournament, *parts: object) -> str:
    """A chip move's idempotency key. Registrations are numbered by `t.registrations` under
    "join" and "leave": the "buy_in" and "left" keys of before, numbered by entries, repeated
    when a player left and came back, and the repeat was skipped as already done."""
    return ":".join(["T" + str(t.tournament_id), *(str(p) for p in parts)])


def _table_rules(t: Tournament, table: TournamentTable) -> TableRules:
    """A table's rules: the tournament's, its players' number of seats, chips at point value 1
    from the house's deep stacks (nobody busts), and an away player stays, placed for (R10):
    the table plays all its hands (R13)."""
    return TableRules.from_mapping({**t.options, "seats": len(table.players),
                                    "point_value": 1, "sit_out_when_away": False})


class TournamentDirector:
    def __init__(self, storage: Storage, tables: TableService, clock: Clock,
                 opener: TableOpener, limits: TournamentLimits | None = None, *,
                 seeded_tables: bool = False) -> None:
        """`seeded_tables`: each table deals from the tournament's seed, so that simulations
        and tests replay exactly; the bot's tables deal unpredictably (R1), whatever the
        seed, which is kept in the tournament's record for the seating lots."""
        self.limits = limits or TournamentLimits()
        self._seeded_tables = seeded_tables
        self._cooldowns = Cooldowns()
        self._storage = storage
        self._tables = tables
        self._clock = clock
        self._opener = opener
        self._live: dict[int, Tournament] = {}
        self._channels: dict[int, int] = {}  # tournament -> its registration channel
        self._locks: dict[int, asyncio.Lock] = {}
        self._creating = asyncio.Lock()  # one tournament per channel, even for racing creates
        self._listeners: list[Listener] = []
        self._tasks: set[asyncio.Task[None]] = set()
        # registration windows and payouts tried again (not in idle)
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._opening: set[tuple[int, int, int]] = set()  # (tournament, level, table)
        tables.add_listener(self._on_table_events)

    # ================================================================= running
    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def idle(self) -> None:
        """Wait until the tables and the tournaments' own work are at rest (the registration
        timers wait on the clock: they are not work in progress)."""
        while True:
            await self._tables.idle()
            if not self._tasks:
                return
            await asyncio.gather(*list(self._tasks))

    async def close(self) -> None:
        """Stop the timers (a restart arms them again, or pays)."""
        timers = list(self._timers.values())
        self._timers.clear()
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    def tournament(self, tournament_id: int) -> Tournament:
        if tournament_id not in self._live:
            raise TournamentError(Text("There is no such tournament running."))
        return self._live[tournament_id]

    def for_channel(self, channel_id: int) -> Tournament | None:
        """The newest tournament registered in a channel, or played at a table there."""
        for tid in sorted(self._live, reverse=True):
            t = self._live[tid]
            if self._channels.get(tid) == channel_id or any(
                    table.thread_id == channel_id for table in t.tables):
                return t
        return None

    def channel_of(self, tournament_id: int) -> int:
        """The channel the tournament was created (and its tables' threads opened) in."""
        return self._channels[tournament_id]

    def live(self) -> list[Tournament]:
        return list(self._live.values())

    async def last_finished(self, channel_id: int) -> Tournament | None:
        """The channel's last finished tournament: its final standings stay on show."""
        record = await self._storage.tournaments.last_tournament(channel_id, "finished")
        return None if record is None else Tournament.from_json(record.state_json)

    def _cooldown(self, action: str, member: int, guild_id: int) -> int:
        return self._cooldowns.wait(self.limits, action, member, guild_id, self._clock.now())

    # ================================================================= registration
    async def create(self, guild_id: int, channel_id: int, director_id: int, *, buy_in: int,
                     seats: int = 3, hands: int = 20, payouts: Sequence[int] = (100,),
                     options: Mapping[str, Any] | None = None,
                     window_seconds: float = 3600.0, seed: int | None = None,
                     clock_penalty: bool = True) -> Tournament:
        """Open registration. `clock_penalty`: a table's timeout is a called clock (seed
        001: 10 points and a warning); the director may turn that off."""
        if not self._tables.shards.owns(guild_id):  # Discord sends a server to its process
            raise TournamentError(OTHER_SHARD)
        async with self._creating:
            if any(self._channels.get(tid) == channel_id for tid in self._live):
                # A second one would hide the first from the channel's commands, its buy-ins
                # with it.
                raise TournamentError(Text("This channel already has a tournament."))
            self._check_create(guild_id, director_id)
            t = await self._create(guild_id, channel_id, director_id, buy_in=buy_in,
                                   seats=seats, hands=hands, payouts=payouts,
                                   options=options, window_seconds=window_seconds,
                                   seed=seed, clock_penalty=clock_penalty)
            self._cooldowns.done("create", director_id, guild_id, self._clock.now())
            return t

    def _check_create(self, guild_id: int, director_id: int) -> None:
        wait = self._cooldown("create", director_id, guild_id)
        if wait:
            raise TournamentError(Text("Wait {n} s before opening another tournament.",
                                       n=wait))
        live = [t for t in self._live.values() if t.guild_id == guild_id]
        if sum(t.director_id == director_id for t in live) >= self.limits.live_per_member:
            raise TournamentError(Text(
                "You already direct {n} tournament that is not over.",
                "You already direct {n} tournaments that are not over.",
                n=self.limits.live_per_member))
        if len(live) >= self.limits.live_per_server:
            raise TournamentError(Text(
                "This server already has {n} tournament that is not over.",
                "This server already has {n} tournaments that are not over.",
                n=self.limits.live_per_server))

    async def _create(self, guild_id: int, channel_id: int, director_id: int, *, buy_in: int,
                      seats: int, hands: int, payouts: Sequence[int],
                      options: Mapping[str, Any] | None, window_seconds: float,
                      seed: int | None, clock_penalty: bool) -> Tournament:
        options = {**(await self._storage.settings.guild_settings(guild_id)).table_options,
                   **SEED_001_OPTIONS, "buy_in": TABLE_STACK, **(options or {}),
                   "format": "hands", "hands": hands, "seats": seats, "hints": "off",
                   "point_value": 1}  # no help in competition
        try:
            TableRules.from_mapping(options)
            seed = secrets.randbits(62) if seed is None else seed
            state = Tournament.new(0, guild_id, director_id, buy_in=buy_in, seats=seats,
                                   hands=hands, payouts=tuple(payouts), seed=seed,
                                   closes_at=self._clock.now() + window_seconds,
                                   clock_penalty=clock_penalty,
                                   min_hands=self.limits.min_hands)
        except RuleError as error:
            raise TournamentError(error.text) from error
        state.options = dict(options)
        now = self._clock.now()
        state.tournament_id = await self._storage.tournaments.create_tournament(
            guild_id, channel_id, state.to_json(), now=now)
        await self._storage.tournaments.save_tournament(state.tournament_id, state.to_json(),
                                                        now=now)
        self._live[state.tournament_id] = state
        self._channels[state.tournament_id] = channel_id
        self._arm(state)
        await self._emit(state, "created")
        return state

    async def join(self, tournament_id: int, player_id: int, name: str,
                   ai_level: str | None = None) -> Tournament:
        async with self._locked(tournament_id) as t:
            return await self._register(t, player_id, name, ai_level)

    async def _register(self, t: Tournament, player_id: int, name: str,
                        ai_level: str | None) -> Tournament:
        """Register a person (their buy-in into the pool) or a computer (under the lock)."""
        self._rule(lambda: t.join(player_id, name, self._clock.now(), ai_level))
        try:
            if ai_level is None:
                await self._storage.tournaments.tournament_move(
                    t.tournament_id, player_id, t.buy_in, "buy_in",
                    key=_key(t, "join", player_id, t.registrations),
                    now=self._clock.now(), snapshot=t.to_json())
            else:  # a computer plays for no one's chips
                await self._save(t)
        except StorageError as error:
            entry = t.entry(player_id)
            if entry is not None:
                t.entries.remove(entry)
            raise TournamentError(error.text) from error
        await self._emit(t, "joined" if ai_level is None else "computer")
        return t

    async def add_computer(self, tournament_id: int, actor_id: int, level: str = "easy", *,
                           is_admin: bool = False) -> Tournament:
        """Register a computer. Its checks, its id and its registration are one step under
        the tournament's lock: clicks at once (a double click, the director beside an admin)
        each see the computers the others registered, and so the cooldown and the caps."""
        async with self._locked(tournament_id) as t:
            self.check_director(t, actor_id, is_admin)
            if level not in LEVELS:
                raise TournamentError(Text("'{level}' is not a computer level ({levels}).",
                                           level=level, levels=series(LEVELS)))
            self._check_computer(t, actor_id)
            player_id = min([0, *(e.player_id for e in t.entries)]) - 1
            joined = await self._register(t, player_id, str(computer_name(-player_id, level)),
                                          level)
            self._cooldowns.done("computer", actor_id, t.guild_id, self._clock.now())
            return joined

    def _check_computer(self, t: Tournament, actor_id: int) -> None:
        """The caps and cooldowns on computers (a buy-in's own cap is the engine's)."""
        wait = self._cooldown("computer", actor_id, t.guild_id)
        if wait:
            raise TournamentError(Text("Wait {n} s before adding another computer.", n=wait))
        if len(t.computers) >= self.limits.computers_per_tournament:
            raise TournamentError(Text("A tournament takes at most {n} computers.",
                                       n=self.limits.computers_per_tournament))
        server = sum(len(x.computers) for x in self._live.values() if x.guild_id == t.guild_id)
        if server >= self.limits.computers_per_server:
            raise TournamentError(Text(
                "This server's tournaments already have {n} computers: the most they take.",
                n=self.limits.computers_per_server))

    async def leave(self, tournament_id: int, player_id: int) -> Tournament:
        async with self._locked(tournament_id) as t:
            entries = list(t.entries)
            self._rule(lambda: t.leave(player_id, self._clock.now()))
            try:
                await self._storage.tournaments.tournament_move(
                    tournament_id, player_id, t.buy_in, "refund",
                    key=_key(t, "leave", player_id, t.registrations), now=self._clock.now(),
                    snapshot=t.to_json())
            except StorageError as error:
                # Still registered, the buy-in in the pool; a retry reuses the refund's key.
                t.entries, t.registrations = entries, t.registrations - 1
                raise TournamentError(error.text) from error
            await self._emit(t, "left")
            return t

    async def start(self, tournament_id: int, actor_id: int, *,
                    is_admin: bool = False) -> Tournament:
        """Close registration and open the first level's tables. The tables' channels are
        opened first: when one cannot be (TournamentError), nothing changed. On a running
        tournament whose tables could not all open (the bot lost a permission), open them."""
        async with self._locked(tournament_id) as t:
            self.check_start(t, actor_id, is_admin)
            if t.status == "running":
                tables = self._unopened(t)
            else:
                trial = Tournament.from_json(t.to_json())
                planned = self._rule(trial.start)
                channels = [await self._opener(trial, table) for table in planned
                            if not self._by_lot(trial, table)]
                tables = t.start()
                for table in tables:
                    if not self._by_lot(t, table):
                        table.thread_id = channels.pop(0)
                self._disarm(tournament_id)
                await self._save(t)
                self._cooldowns.done("start", actor_id, t.guild_id, self._clock.now())
                await self._emit(t, "started")
        await self._open_tables(tournament_id, tables)
        return t

    def check_start(self, t: Tournament, actor_id: int, is_admin: bool) -> None:
        """What start refuses before it changes anything: someone not directing, a tournament
        already started whose tables are all open. Asked first by a command that must answer
        privately before the slow part."""
        self.check_director(t, actor_id, is_admin)
        if t.status == "running":
            if not self._unopened(t):
                raise TournamentError(Text("The tournament has already started."))
            return
        wait = self._cooldown("start", actor_id, t.guild_id)
        if wait:
            raise TournamentError(Text("Wait {n} s before starting another tournament.",
                                       n=wait))

    def _unopened(self, t: Tournament) -> list[TournamentTable]:
        """The level's tables that could not open (the bot lost a permission), none opening."""
        return [table for table in t.current_tables if table.status == "waiting"
                and (t.tournament_id, table.level, table.index) not in self._opening]

    # ================================================================= director
    async def warn(self, tournament_id: int, actor_id: int, player_id: int, reason: str, *,
                   is_admin: bool = False) -> Sanction:
        async with self._locked(tournament_id) as t:
            self.check_director(t, actor_id, is_admin)
            (sanction,) = await self._give(t, player_id, "warning", lambda: (
                t.warn(player_id, reason, actor_id, self._clock.now()),))
            return sanction

    async def penalty(self, tournament_id: int, actor_id: int, player_id: int, points: int,
                      reason: str, *, is_admin: bool = False) -> Sanction:
        async with self._locked(tournament_id) as t:
            self.check_director(t, actor_id, is_admin)
            (sanction,) = await self._give(t, player_id, "penalty", lambda: (
                t.penalty(player_id, points, reason, actor_id, self._clock.now()),))
            return sanction

    async def time_penalty(self, tournament_id: int, actor_id: int, player_id: int, *,
                           is_admin: bool = False) -> tuple[Sanction, ...]:
        """Seed 001's time rule, called by the director: 10 points and a warning."""
        async with self._locked(tournament_id) as t:
            self.check_director(t, actor_id, is_admin)
            return await self._time_penalty(t, player_id, actor_id)

    async def _time_penalty(self, t: Tournament, player_id: int, by: int,
                            absence: int = 0) -> tuple[Sanction, ...]:
        return await self._give(t, player_id, "time", lambda: t.time_penalty(
            player_id, by, self._clock.now(), absence=absence))

    async def _give(self, t: Tournament, player_id: int, reason: str,
                    give: Callable[[], tuple[Sanction, ...]]) -> tuple[Sanction, ...]:
        """Give sanctions to a player, record them, tell the listeners. A sanction counts only
        once recorded: if the record fails, the tournament takes them back."""
        entry = t.entry(player_id)
        before = {} if entry is None else {player_id: (entry.status, entry.level_out)}
        given = self._rule(give)
        try:
            await self._record(t, *given)
        except BaseException:
            t.withdraw(given, before)
            raise
        await self._emit(t, reason, sanctions=given)
        return given

    async def _called_clocks(self, tournament_id: int, table_id: int,
                             absences: dict[int, int]) -> None:
        """A person's time ran out at a tournament table (R10): a called clock for each time
        the table marked them away (`absences`, as the table saved them), unless the director
        turned that off; nothing for a player excluded, or once the table is over. Each clock
        records the absence it called, so each is called once: one a stop cut off is called
        when the table is restored."""
        if tournament_id not in self._live:
            return
        async with self._locked(tournament_id) as t:
            table = t.table_of(table_id)
            if not t.clock_penalty or table is None or table.status != "playing":
                return
            for player_id, count in absences.items():
                for absence in t.uncalled(player_id, table.level, count):
                    entry = t.entry(player_id)
                    if player_id < 0 or entry is None or entry.status == "excluded":
                        break
                    await self._time_penalty(t, player_id, THE_CLOCK, absence)

    async def cancel(self, tournament_id: int, actor_id: int, *,
                     is_admin: bool = False) -> Tournament:
        """Close every table (stacks back to wallets, stakes back to the house) and refund
        every person registered but the excluded."""
        async with self._locked(tournament_id) as t:
            self.check_director(t, actor_id, is_admin)
            status = t.status
            players = self._rule(t.cancel)
            try:
                await self._save(t)
            except BaseException:  # not cancelled: the director may try again
                t.status = status
                raise
        await self._close_tables(t)
        await self.idle()
        async with self._locked(tournament_id) as t:
            await self._refund(t, players)
            return t

    async def _close_tables(self, t: Tournament) -> None:
        """A cancelled tournament's tables still playing close (their stacks back to the
        house)."""
        for table in t.tables:
            if table.status == "playing" and table.table_id in self._tables.live_tables():
                with contextlib.suppress(TableError):  # closed meanwhile (its channel gone)
                    await self._tables.cancel(table.table_id, t.director_id, is_admin=True)

    async def _cancel_again(self, t: Tournament) -> None:
        """A cancel the bot stopped in the middle of, finished after the restart: once the
        table service has restored its tables, those still playing close, then every refund
        not yet paid is (they are keyed: nobody is refunded twice)."""
        await self._tables.restored()
        before = set(self._tasks)
        await self._close_tables(t)
        # Their ends (told as they closed) first, while the tournament is still known here.
        await asyncio.gather(*(self._tasks - before))
        async with self._locked(t.tournament_id) as t:
            await self._refund(t, t.refunded())

    async def _refund(self, t: Tournament, players: Sequence[int]) -> None:
        """The cancelled tournament's buy-ins back to `players` (keyed: once each; a
        computer paid none)."""
        await self._house_back(t)
        for player in players:
            if player < 0:
                continue
            await self._storage.tournaments.tournament_move(
                t.tournament_id, player, t.buy_in, "refund", key=_key(t, "refund", player),
                now=self._clock.now())
        await self._save(t, "cancelled")
        self._live.pop(t.tournament_id, None)
        self._disarm(t.tournament_id)
        await self._emit(t, "cancelled")

    # ================================================================= registration window
    def _arm(self, t: Tournament, due: float | None = None) -> None:
        """Close registration when its window ends (`due`: a retry), on the service's clock;
        the closing is tracked work (idle() waits for it)."""
        tid = t.tournament_id
        if t.status == "registering":
            self._at(tid, t.closes_at if due is None else due,
                     lambda: self._close_registration(tid))

    def _at(self, tournament_id: int, when: float,
            work: Callable[[], Awaitable[None]]) -> None:
        """Do a tournament's `work` at `when` on the service's clock (at once when past, e.g.
        it was due while the bot was off), unless a timer is already armed for it; the work
        is tracked (idle() waits for it), the timer is not."""
        if tournament_id in self._timers:
            return
        if when <= self._clock.now():
            self._spawn(work())
            return

        async def on_time() -> None:
            await self._clock.sleep(when - self._clock.now())
            self._timers.pop(tournament_id, None)
            self._spawn(work())

        self._timers[tournament_id] = asyncio.get_running_loop().create_task(on_time())

    def _disarm(self, tournament_id: int) -> None:
        timer = self._timers.pop(tournament_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _close_registration(self, tournament_id: int) -> None:
        """The window has ended: registration closes; with fewer than 2 players the
        tournament can never start, so it is cancelled and every buy-in refunded."""
        if tournament_id not in self._live:
            return
        async with self._locked(tournament_id) as t:
            if not t.close_registration(self._clock.now()):
                return
            try:
                if t.to_seat() < 2:  # the start would refuse it
                    await self._refund(t, t.cancel())
                    return
                await self._save(t)
            except Exception:  # storage trouble: as last saved; try again soon
                log.exception("tournament %s: closing registration failed", tournament_id)
                t.status = "registering"
                self._arm(t, self._clock.now() + RETRY_SECONDS)
                return
            await self._emit(t, "closed")

    # ================================================================= restart
    async def restore(self) -> list[int]:
        """Load every tournament not over. Call before TableService.restore(): the tables
        it brings back report to this service. A table that was being opened when the bot
        stopped is opened again (its stakes are keyed, so nothing is paid twice)."""
        for record in await self._storage.tournaments.open_tournaments(self._tables.shards):
            t = Tournament.from_json(record.state_json)
            self._live[t.tournament_id] = t
            self._channels[t.tournament_id] = record.channel_id
        for t in list(self._live.values()):
            if t.status == "cancelled":  # stopped while cancelling
                self._spawn(self._cancel_again(t))
                continue
            self._arm(t)  # registering: closes now if its window ended while the bot was off
            if t.status == "finished":  # stopped while paying: the prizes are keyed
                self._spawn(self._pay_again(t.tournament_id))
                continue
            waiting = [table for table in t.current_tables if table.status == "waiting"]
            if t.status == "running" and waiting:
                self._spawn(self._open_again(t.tournament_id, waiting))
            for table in t.current_tables:
                if table.status == "playing" and table.table_id is not None:
                    await self._ended_unheard(t, table, table.table_id)
        return sorted(self._live)

    async def _ended_unheard(self, t: Tournament, table: TournamentTable,
                             table_id: int) -> None:
        """A table whose match ended as the bot stopped, before this service heard of it:
        its result comes from the hands' history (computers are -1, -2, ... at the table, in
        the order they sat down)."""
        record = await self._storage.tables.table(table_id)
        if record.status == "open":
            return  # the table service brings it back
        results = await self._results(table, table_id)
        stake = _table_rules(t, table).buy_in
        returned = {p: stake + chips for p, (_, chips) in results.items()}
        absences = self._tables.saved_absences(record)

        async def decide() -> None:  # its last timeouts' clocks first, while it still plays
            await self._called_clocks(t.tournament_id, table_id, absences)
            await self._table_over(t.tournament_id, table, table_id, returned,
                                   early=record.status != "closed")

        self._spawn(decide())

    async def _results(self, table: TournamentTable,
                       table_id: int) -> dict[int, tuple[int, int]]:
        """Each player's (points, chips) over the table's hands, from their history
        (computers are -1, -2, ... at the table, in the order they sat down)."""
        at_table, computers = {}, 0
        for player in table.players:
            if player < 0:
                computers += 1
            at_table[player] = player if player > 0 else -computers
        results = await self._storage.history.table_results(table_id)
        return {p: results.get(at_table[p], (0, 0)) for p in table.players}

    # ================================================================= tables
    async def _open_again(self, tournament_id: int,
                          tables: Sequence[TournamentTable]) -> None:
        """After a restart, the tables that were being opened: once the table service has
        restored its tables, so that a table already made for one is seen, and closed,
        rather than left to play unheard beside a new one."""
        await self._tables.restored()
        await self._open_tables(tournament_id, tables)

    async def _open_tables(self, tournament_id: int,
                           tables: Sequence[TournamentTable]) -> None:
        # Every one marked before the first await: a start waiting for the lock meanwhile
        # (a double click) finds none left to open and says the tournament has started.
        places = {(tournament_id, table.level, table.index): table for table in tables}
        mine = [place for place in places if place not in self._opening]
        self._opening.update(mine)  # (one already being opened: a start beside a restart's)
        try:
            for place in mine:
                try:
                    await self._open_table(tournament_id, places[place])
                except TournamentError as error:  # the others wait with it for the director
                    t = self._live.get(tournament_id)
                    if t is not None:
                        await self._emit(t, "blocked", error.text)
                    return
        finally:
            self._opening.difference_update(mine)

    async def _open_table(self, tournament_id: int, table: TournamentTable) -> None:
        """Open the table where the opener says (a TournamentError there leaves it waiting
        for the director's start), lend its stakes, seat its players, start its match.
        Under the tournament's lock: a cancel comes first (no table opens) or waits until
        the table plays (and closes it)."""
        if tournament_id not in self._live:
            return
        async with self._locked(tournament_id) as t:
            if t.status != "running" or table.status != "waiting":
                return
            if self._by_lot(t, table):
                self._spawn(self._decide_by_lot(tournament_id, table))
                return
            if table.table_id is not None and table.table_id in self._tables.live_tables():
                await self._tables.cancel(table.table_id, t.director_id, is_admin=True)
            if table.thread_id is None:
                table.thread_id = await self._opener(t, table)
                await self._save(t)
            channel = table.thread_id
            rules = _table_rules(t, table)
            await self._unstake_wallets(t, table, {p: rules.buy_in for p in table.players})
            director = t.director_id
            seed = random.Random(f"{t.seed}:{table.level}:{table.index}:table") \
                .getrandbits(62) if self._seeded_tables else None
            lobby = await self._tables.create_table(
                t.guild_id, channel, director, "director", rules.to_dict(), sit=False,
                seed=seed, lent=True)
            table.table_id = lobby.table_id
            await self._save(t)
            for player in table.players:
                entry = t.entry(player)
                assert entry is not None
                if entry.ai_level is None:
                    await self._tables.join(lobby.table_id, player, entry.name,
                                            by_tournament=True)
                else:
                    await self._tables.add_computer(lobby.table_id, director, entry.ai_level,
                                                    is_admin=True, name=entry.name,
                                                    by_tournament=True)
            await self._tables.start(lobby.table_id, director, is_admin=True, by_tournament=True)
            table.status = "playing"
            await self._save(t)
            await self._emit(t, "level")

    def _by_lot(self, t: Tournament, table: TournamentTable) -> bool:
        """A table of computers only, beyond the caps on such tables playing at once (the
        director's, the server's), is decided by lot without being played."""
        if any(p > 0 for p in table.players) or table.table_id is not None:
            return False
        playing = [(x.director_id, tb) for x in self._live.values() if x.guild_id == t.guild_id
                   for tb in x.current_tables if tb.status == "playing"
                   and all(p < 0 for p in tb.players)]
        mine = sum(director == t.director_id for director, _ in playing)
        return (mine >= self.limits.computer_tables_per_member
                or len(playing) >= self.limits.computer_tables_per_server)

    async def _decide_by_lot(self, tournament_id: int, table: TournamentTable) -> None:
        """No hand played: the tie rule's lot from the seed decides (R13)."""
        async with self._locked(tournament_id) as t:
            if t.status != "running" or table.status != "waiting":
                return
            table.by_lot = True
            following = await self._decided(t, table, {}, early=False)
        if following:
            await self._open_tables(tournament_id, following)

    async def _on_table_events(self, events: Sequence[out.TableEvent]) -> None:
        for event in events:
            if isinstance(event, out.PlayerAway | out.TableRestored):
                found = self._table_of(event.table_id)
                if found is not None:  # (read now: the state these events were saved with)
                    self._spawn(self._called_clocks(found[0], event.table_id,
                                                    self._tables.absences(event.table_id)))
            if isinstance(event, out.MatchOver | out.TableRefunded):
                found = self._table_of(event.table_id)
                # (a table cancelled while it was being opened is opened again: no unstake)
                if found is None or found[1].status != "playing":
                    continue
                tid, table = found
                if isinstance(event, out.MatchOver):
                    returned = {table.players[s.seat]: s.stack for s in event.standings}
                else:  # /ofc cancel, or a table that could not be restored: R13
                    returned = dict(event.refunds)
                self._spawn(self._table_over(tid, table, event.table_id, returned,
                                             early=isinstance(event, out.TableRefunded)))

    def _table_of(self, table_id: int) -> tuple[int, TournamentTable] | None:
        for t in self._live.values():
            table = t.table_of(table_id)
            if table is not None:
                return t.tournament_id, table
        return None

    async def _table_over(self, tournament_id: int, table: TournamentTable, table_id: int,
                          returned: dict[int, int], *, early: bool) -> None:
        """The points of the hands played advance the table's winner (`early`: closed before
        its last hand, R13). The stacks went back to the house with the table's cash-outs;
        a table opened when its stakes were lent through the wallets takes the chips
        `returned` there back to the house."""
        async with self._locked(tournament_id) as t:
            await self._unstake_wallets(t, table, returned)
            if t.status != "running" or table.status != "playing":
                return
            points = {p: result[0] for p, result in
                      (await self._results(table, table_id)).items()}
            following = await self._decided(t, table, points, early=early)
        if following:
            await self._open_tables(tournament_id, following)

    async def _unstake_wallets(self, t: Tournament, table: TournamentTable,
                               returned: dict[int, int]) -> None:
        """A table whose stakes an older bot lent through the wallets (keyed 'stake'): the
        chips `returned` there go back to the house (keyed 'unstake', once). Stakes the
        table's buy-ins lent themselves never reach a wallet: nothing to do for them."""
        level = "L" + str(table.level)
        for player in table.players:
            if player > 0 and await self._storage.tournaments.moved(
                    _key(t, level, table.index, "stake", player)):
                await self._storage.tournaments.tournament_move(
                    t.tournament_id, player, returned.get(player, 0), "unstake",
                    key=_key(t, level, table.index, "unstake", player), now=self._clock.now())

    async def _decided(self, t: Tournament, table: TournamentTable, points: dict[int, int],
                       *, early: bool) -> list[TournamentTable]:
        """A table's result (under the tournament's lock): saved and told, the prizes paid
        when it was the final (told once, as the final's end); returns the next level's
        tables to open."""
        following = t.table_done(table.level, table.index, points, early)
        if t.placings:  # the final is over
            await self._pay(t)
            return []
        await self._save(t)
        await self._emit(t, "table closed early" if early else "table over")
        if following:
            await self._emit(t, "level")
        return following

    async def _house_back(self, t: Tournament) -> None:
        """A tournament registered before computers played for no one's chips holds their
        buy-ins, paid by the house: they go back to it (keyed), before any prize or refund,
        so the house's net over the tournament is zero."""
        pool = (await self._storage.tournaments.tournament(t.tournament_id)).pool
        paid = (pool - t.pool) // t.buy_in if t.buy_in else 0
        for entry in t.computers[:max(0, paid)]:
            await self._storage.tournaments.tournament_move(
                t.tournament_id, entry.player_id, t.buy_in, "refund",
                key=_key(t, "house", entry.player_id), now=self._clock.now())

    async def _pay(self, t: Tournament) -> None:
        """The final's prizes paid (under the tournament's lock), then its end told. Storage
        trouble leaves it finished and unpaid: it is tried again soon, each prize keyed so
        that nobody is paid twice, and told once, when paid."""
        try:
            await self._save(t)  # finished: a restart pays it
            await self._house_back(t)
            for placing in t.placings:
                if placing.prize:
                    await self._storage.tournaments.tournament_move(
                        t.tournament_id, placing.player_id, placing.prize, "prize",
                        key=_key(t, "prize", placing.player_id), now=self._clock.now())
            results = [TournamentResult(p.player_id, p.place, len(t.placings), p.prize,
                                        t.warnings(p.player_id), p.excluded)
                       for p in t.placings if not p.computer]
            await self._save(t, "finished", results)
        except Exception:
            log.exception("tournament %s: paying the prizes failed", t.tournament_id)
            self._at(t.tournament_id, self._clock.now() + RETRY_SECONDS,
                     lambda: self._pay_again(t.tournament_id))
            return
        self._live.pop(t.tournament_id, None)
        await self._emit(t, "finished")

    async def _pay_again(self, tournament_id: int) -> None:
        """A finished tournament's payout, again (after storage trouble, or a restart)."""
        if tournament_id not in self._live:
            return
        async with self._locked(tournament_id) as t:
            if t.status == "finished":
                await self._pay(t)

    # ================================================================= internals
    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("tournament work failed; a restart resumes it")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    class _Locked:
        def __init__(self, service: "TournamentDirector", tournament_id: int) -> None:
            self._service, self._id = service, tournament_id
            self._lock = service._locks.setdefault(tournament_id, asyncio.Lock())

        async def __aenter__(self) -> Tournament:
            await self._lock.acquire()
            try:
                return self._service.tournament(self._id)
            except BaseException:
                self._lock.release()
                raise

        async def __aexit__(self, *exc: object) -> None:
            self._lock.release()

    def _locked(self, tournament_id: int) -> "TournamentDirector._Locked":
        return TournamentDirector._Locked(self, tournament_id)

    @staticmethod
    def _rule(action: Callable[[], T]) -> T:
        try:
            return action()
        except (RuleError, TableError) as error:
            raise TournamentError(error.text) from error

    @staticmethod
    def check_director(t: Tournament, actor_id: int, is_admin: bool) -> None:
        """Refuse anyone but the director or a member with Manage Server."""
        if actor_id != t.director_id and not is_admin:
            raise TournamentError(Text("Only the director or a member with Manage Server can "
                                       "do that."))

    async def _save(self, t: Tournament, status: str | None = None,
                    results: Sequence[TournamentResult] = ()) -> None:
        await self._storage.tournaments.save_tournament(
            t.tournament_id, t.to_json(), now=self._clock.now(),
            status="finished" if status == "finished" else
            "cancelled" if status == "cancelled" else None, results=results)

    async def _record(self, t: Tournament, *sanctions: Sanction) -> None:
        """The sanctions just given (the last of `t.sanctions`), each keyed by its number,
        in one transaction with the snapshot holding them all."""
        first = len(t.sanctions) - len(sanctions) + 1
        records = [(_key(t, "sanction", number),
                    SanctionRecord(s.player_id, s.kind, s.points, s.reason, s.level, s.by,
                                   s.excluded))
                   for number, s in enumerate(sanctions, start=first)]
        await self._storage.tournaments.record_sanctions(
            t.tournament_id, records, now=self._clock.now(), snapshot=t.to_json())

    async def _emit(self, t: Tournament, reason: str, detail: Text | None = None,
                    sanctions: tuple[Sanction, ...] = ()) -> None:
        changed = TournamentChanged(replace(t), reason, self._channels.get(t.tournament_id, 0),
                                    detail, sanctions)
        for listener in self._listeners:
            await listener(changed)
