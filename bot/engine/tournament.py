"""A shootout tournament as a pure state machine (RULES.md R13, seed 001).

Registration, then levels: the players still in are seated by lot (from the tournament's
recorded seed, so the draw can be replayed and audited) at tables of at most `seats` players,
as even as possible (an odd number makes heads-up tables beside three-handed ones); each table
plays its hands and its best player advances (the tie rule of R13); the level whose single
table is the final crowns the winner. The director's warnings and penalties become points:
the second warning costs 25 points, the third excludes the player (no refund, no prize). A
time penalty is 10 points and a warning (seed 001: "10 poängs avdrag från aktuell ställning
och en varning").

Only people's chips are at stake: a computer pays no buy-in and takes no prize, so the pool is
the people's buy-ins and it is paid to people by their rank among people (the standings still
show where each computer finished). In a tournament with a buy-in, computers only fill the
people's tables.

No I/O and no clock: every time-dependent call takes `now`, and every state round-trips
through `to_json()` / `Tournament.from_json()`.
"""

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine import codec
from bot.engine.errors import RuleError
from bot.engine.text import Text, excerpt

# "closed": the registration window ended; the director starts it (or cancels).
Status = Literal["registering", "closed", "running", "finished", "cancelled"]
EntryStatus = Literal["in", "out", "excluded"]
TableStatus = Literal["waiting", "playing", "done"]

SECOND_WARNING_POINTS = 25
TIME_PENALTY_POINTS = 10  # seed 001's time rule, with a warning
TIME_REASON = "time"  # the reason of a time penalty the table's clock called
MAX_REASON = 200  # characters of a director's reason
EXCLUDING_WARNING = 3
MAX_PLAYERS = 243
MIN_HANDS = 20  # seed 001: "Minsta antal spel är 20 händer", plus one per Fantasyland hand
MAX_HANDS = 1000


@dataclass(slots=True)
class Entry:
    player_id: int
    name: str
    ai_level: str | None = None
    status: EntryStatus = "in"
    level_out: int = 0  # the level the player left the tournament at (0: still in)

    @property
    def person(self) -> bool:
        return self.ai_level is None


@dataclass(frozen=True, slots=True)
class Sanction:
    """A director's warning or penalty, recorded for standings and history."""

    kind: Literal["warning", "penalty"]
    player_id: int
    points: int  # points taken off (a warning: 25 for the second, else 0)
    reason: str
    level: int
    at: float
    by: int
    excluded: bool = False
    absence: int = 0  # a called clock's absence at its table (R10's n-th time away there)


@dataclass(slots=True)
class TournamentTable:
    level: int
    index: int
    players: tuple[int, ...]  # in seat order, as drawn
    status: TableStatus = "waiting"
    table_id: int | None = None  # the service's live table
    thread_id: int | None = None
    points: dict[int, int] = field(default_factory=dict)  # the table's result per player
    winner: int | None = None
    early: bool = False  # closed before its hands were played: decided on those played
    by_lot: bool = False  # computers only, beyond the cap of such tables: decided by lot


@dataclass(frozen=True, slots=True)
class Placing:
    player_id: int
    name: str
    place: int
    prize: int
    computer: bool = False
    excluded: bool = False  # third warning: no prize, listed after everyone (seed 001)


@dataclass(slots=True)
class Tournament:
    tournament_id: int
    guild_id: int
    director_id: int
    buy_in: int
    seats: int  # 2 or 3
    hands: int
    payouts: tuple[int, ...]  # percent per place, summing to 100
    seed: int
    closes_at: float  # end of the registration window
    status: Status = "registering"
    level: int = 0
    entries: list[Entry] = field(default_factory=list)
    tables: list[TournamentTable] = field(default_factory=list)
    sanctions: list[Sanction] = field(default_factory=list)
    placings: list[Placing] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # the tables' rules (R1-R12)
    registrations: int = 0  # joins and leaves so far: numbers each one's chip move
    # A table's timeout is a called clock: 10 points and a warning (seed 001). Snapshots
    # written before this rule read False: a tournament keeps the rules it started with.
    clock_penalty: bool = False

    # ================================================================= registration
    @staticmethod
    def new(tournament_id: int, guild_id: int, director_id: int, *, buy_in: int, seats: int,
            hands: int, payouts: tuple[int, ...], seed: int, closes_at: float,
            clock_penalty: bool = True, min_hands: int = MIN_HANDS) -> "Tournament":
        """`min_hands`: seed 001's 20; simulations and tests play shorter tables."""
        if seats not in (2, 3):
            raise RuleError(Text("Tournament tables seat 2 or 3 players."))
        if buy_in < 0:
            raise RuleError(Text("The buy-in cannot be negative."))
        if not min_hands <= hands <= MAX_HANDS:
            raise RuleError(Text("A tournament table plays {low} to {high} hands (seed 001: at "
                                 "least 20).", low=min_hands, high=MAX_HANDS))
        check_payouts(payouts)
        return Tournament(tournament_id, guild_id, director_id, buy_in, seats, hands,
                          tuple(payouts), seed, closes_at, clock_penalty=clock_penalty)

    def join(self, player_id: int, name: str, now: float, ai_level: str | None = None) -> None:
        self._check_registering(now)
        if self.entry(player_id) is not None:
            raise RuleError(Text("You are already registered."))
        if len(self.entries) >= MAX_PLAYERS:
            raise RuleError(Text("The tournament is full ({n} players).", n=MAX_PLAYERS))
        if ai_level is not None and self.buy_in and self.computer_room() <= 0:
            raise RuleError(Text(
                "With a buy-in, computers only fill the people's tables: {people} registered "
                "at tables of {seats} leave no seat for another computer.",
                people=len(self.people), seats=self.seats))
        self.entries.append(Entry(player_id, name, ai_level))
        self.registrations += 1

    @property
    def people(self) -> list[Entry]:
        return [e for e in self.entries if e.person]

    @property
    def computers(self) -> list[Entry]:
        return [e for e in self.entries if not e.person]

    def computer_room(self) -> int:
        """In a tournament with a buy-in, how many more computers may register: computers
        only fill the tables the people need (their number rounded up to full tables)."""
        people = len(self.people)
        tables = -(-people // self.seats)
        return tables * self.seats - people - len(self.computers)

    def leave(self, player_id: int, now: float) -> None:
        self._check_registering(now)
        entry = self.entry(player_id)
        if entry is None:
            raise RuleError(Text("You are not registered."))
        if entry.status == "excluded":  # seed 001: "inköp återbetalas ej"
            raise RuleError(Text("You are excluded from this tournament: the buy-in is not "
                                 "refunded."))
        self.entries.remove(entry)
        self.registrations += 1

    def _check_registering(self, now: float) -> None:
        if self.status != "registering":
            raise RuleError(Text("Registration is closed."))
        if now >= self.closes_at:
            raise RuleError(Text("The registration window has closed."))

    def close_registration(self, now: float) -> bool:
        """The window has ended: nobody joins or leaves any more; the director starts the
        tournament. False when there is nothing to close (not registering, or too soon)."""
        if self.status != "registering" or now < self.closes_at:
            return False
        self.status = "closed"
        return True

    # ================================================================= levels
    def start(self) -> list[TournamentTable]:
        """Close registration (if still open) and draw the first level."""
        if self.status not in ("registering", "closed"):
            raise RuleError(Text("The tournament has already started."))
        if self.to_seat() < 2:
            raise RuleError(Text("A tournament needs at least 2 players."))
        surplus = self._surplus()
        for entry in self.computers[len(self.computers) - surplus:]:
            self.entries.remove(entry)
        self.status = "running"
        return self._draw()

    def _surplus(self) -> int:
        """Computers beyond the people's tables (people left after computers filled them):
        the last added do not play."""
        return max(0, -self.computer_room()) if self.buy_in else 0

    def to_seat(self) -> int:
        """How many players the start seats: the excluded play not, nor the surplus
        computers."""
        return sum(e.status == "in" for e in self.entries) - self._surplus()

    def _draw(self) -> list[TournamentTable]:
        self.level += 1
        alive = [e.player_id for e in self.entries if e.status == "in"]
        drawn = draw(alive, self.seed, self.level)
        tables = [TournamentTable(self.level, i, group)
                  for i, group in enumerate(split(drawn, self.seats))]
        self.tables.extend(tables)
        return tables

    @property
    def current_tables(self) -> list[TournamentTable]:
        return [t for t in self.tables if t.level == self.level]

    @property
    def is_final(self) -> bool:
        return self.status == "running" and len(self.current_tables) == 1

    def table(self, level: int, index: int) -> TournamentTable:
        for table in self.tables:
            if table.level == level and table.index == index:
                return table
        raise RuleError(Text("There is no table {table} at level {level}.", table=index + 1,
                             level=level))

    def table_of(self, table_id: int) -> TournamentTable | None:
        for table in self.tables:
            if table.table_id == table_id:
                return table
        return None

    def table_done(self, level: int, index: int, points: dict[int, int],
                   early: bool = False) -> list[TournamentTable]:
        """A table's match is over with these points per player (`early`: the table was
        closed before all its hands were played; the hands played decide, R13): its winner
        advances (tie rule R13). Returns the next level's tables once every table of the
        level is done (empty while some still play, or when this was the final)."""
        table = self.table(level, index)
        if table.status == "done" or self.status != "running":
            return []
        table.points = {p: points.get(p, 0) for p in table.players}
        table.status, table.early = "done", early
        ranking = self.rank_table(table)
        table.winner = ranking[0] if ranking else None
        if any(t.status != "done" for t in self.current_tables):
            return []
        return self._next_level()

    def _next_level(self) -> list[TournamentTable]:
        tables = self.current_tables
        winners = set(self._going_on(tables))
        for table in tables:
            for player in table.players:
                entry = self._entry(player)
                if entry.status == "in" and player not in winners:
                    entry.status, entry.level_out = "out", self.level
        if len(tables) == 1 or len(winners) <= 1:
            self._finish(tables)
            return []
        return self._draw()

    def _going_on(self, tables: list[TournamentTable]) -> list[int]:
        """The tables' winners, in table order. A winner excluded once its table was decided
        does not go on, and nobody in its place."""
        return [t.winner for t in tables
                if t.winner is not None and self._entry(t.winner).status != "excluded"]

    def _finish(self, tables: list[TournamentTable]) -> None:
        """The final standings: the final table's ranking, then those who went out, the
        later first (at one level: R13's tie rule, on their points there), the excluded
        last. The pool is paid to people only, by their rank among people (not excluded)."""
        # The final table's ranking first; when a level ends with one winner left (the others
        # excluded), that winner.
        order = self.rank_table(tables[0]) if len(tables) == 1 else self._going_on(tables)
        out = [e for e in self.entries if e.player_id not in order]
        lots = {level: draw([e.player_id for e in out if e.level_out == level], self.seed,
                            level, "places") for level in {e.level_out for e in out}}
        out.sort(key=lambda e: (e.status == "excluded", -e.level_out,
                                *self._last_points(e), lots[e.level_out].index(e.player_id)))
        order.extend(e.player_id for e in out)
        paid = [p for p in order if self._entry(p).person and self._entry(p).status != "excluded"]
        prizes = dict(zip(paid, split_pool(self.pool, self.payouts[:len(paid)]), strict=False))
        self.placings = [Placing(p, self._entry(p).name, i + 1, prizes.get(p, 0),
                                 not self._entry(p).person,
                                 self._entry(p).status == "excluded")
                         for i, p in enumerate(order)]
        self.status = "finished"

    def _last_points(self, entry: Entry) -> tuple[int, int]:
        """How a player who went out ranks by the points of the table they went out at, the
        best first: less that level's penalties, then before them (R13's tie rule)."""
        for table in self.tables:
            if table.level == entry.level_out and entry.player_id in table.players:
                points = table.points.get(entry.player_id, 0)
                return -(points - self.penalty_points(entry.player_id, table.level)), -points
        return 0, 0

    def rank_table(self, table: TournamentTable) -> list[int]:
        """R13's tie rule: tournament points at the table (the table's points less this
        level's penalties), then the table's points before penalties, then a lot drawn from
        the tournament's seed. Excluded players never rank."""
        lot = draw(list(table.players), self.seed, table.level, f"tie{table.index}")
        players = [p for p in table.players if self._entry(p).status != "excluded"]
        return sorted(players, key=lambda p: (
            -(table.points.get(p, 0) - self.penalty_points(p, table.level)),
            -table.points.get(p, 0), lot.index(p)))

    # ================================================================= director
    def warn(self, player_id: int, reason: str, by: int, now: float) -> Sanction:
        """A warning: the second costs 25 points, the third excludes (no refund, no prize)."""
        reason = _reason(reason)
        entry = self._playing(player_id)
        count = 1 + self.warnings(player_id)
        points = SECOND_WARNING_POINTS if count == 2 else 0
        excluded = count >= EXCLUDING_WARNING
        sanction = Sanction("warning", player_id, points, reason,
                            self.sanction_level(player_id), now, by, excluded)
        self.sanctions.append(sanction)
        if excluded:  # its table plays on; out at the level it would have counted at
            entry.status, entry.level_out = "excluded", sanction.level
        return sanction

    def penalty(self, player_id: int, points: int, reason: str, by: int,
                now: float, absence: int = 0) -> Sanction:
        if points <= 0:
            raise RuleError(Text("A penalty takes at least 1 point."))
        reason = _reason(reason)
        self._playing(player_id)
        sanction = Sanction("penalty", player_id, points, reason,
                            self.sanction_level(player_id), now, by, absence=absence)
        self.sanctions.append(sanction)
        return sanction

    def time_penalty(self, player_id: int, by: int, now: float, reason: str = TIME_REASON,
                     absence: int = 0) -> tuple[Sanction, Sanction]:
        """Seed 001's time rule: 10 points off the current standing and a warning (whose
        own consequences follow: the second costs 25 more, the third excludes). `absence`:
        the player's absence at its table whose clock this calls (0: a person gave it)."""
        return (self.penalty(player_id, TIME_PENALTY_POINTS, reason, by, now, absence),
                self.warn(player_id, reason, by, now))

    def withdraw(self, sanctions: Sequence[Sanction],
                 before: Mapping[int, tuple[EntryStatus, int]]) -> None:
        """Take back the sanctions just given (the last of the tournament's), as if never given:
        their record could not be stored. `before`: each sanctioned player's status and level
        out before them, which an exclusion changed."""
        assert tuple(self.sanctions[len(self.sanctions) - len(sanctions):]) == tuple(sanctions)
        del self.sanctions[len(self.sanctions) - len(sanctions):]
        for player_id, (status, level_out) in before.items():
            entry = self._entry(player_id)
            entry.status, entry.level_out = status, level_out

    def uncalled(self, player_id: int, level: int, absences: int) -> list[int]:
        """Of the player's absences at its table of `level` (R10 marked it away there
        `absences` times), those whose clock was not called yet, in order."""
        called = {s.absence for s in self.sanctions
                  if s.player_id == player_id and s.level == level and s.kind == "penalty"}
        return [n for n in range(1, absences + 1) if n not in called]

    def sanction_level(self, player_id: int) -> int:
        """The level a sanction counts at: the player's current standing (seed 001, "från
        aktuell ställning"). Before the start: the first level; at a table still to finish:
        its level; a winner whose table is decided: the next level, the one they play next;
        a player already out: the level they went out at, where it lowers their final place
        among those who went out with them."""
        entry = self.entry(player_id)
        if self.level == 0 or entry is None:
            return 1
        if entry.status != "in":
            return entry.level_out
        for table in self.current_tables:
            if player_id in table.players and table.status == "done":
                return self.level + 1
        return self.level

    def warnings(self, player_id: int) -> int:
        return sum(1 for s in self.sanctions if s.kind == "warning" and s.player_id == player_id)

    def penalty_points(self, player_id: int, level: int | None = None) -> int:
        return sum(s.points for s in self.sanctions
                   if s.player_id == player_id and (level is None or s.level == level))

    def _playing(self, player_id: int) -> Entry:
        if self.status not in ("registering", "closed", "running"):
            raise RuleError(Text("The tournament is over."))
        entry = self.entry(player_id)
        if entry is None:
            raise RuleError(Text("That member is not in the tournament."))
        if entry.status == "excluded":
            raise RuleError(Text("That member is already excluded."))
        return entry

    # ================================================================= end
    def cancel(self) -> list[int]:
        """Cancel: returns the players to refund (everyone registered, those already out
        included; an excluded player's buy-in is not refunded, seed 001)."""
        if self.status in ("finished", "cancelled"):
            raise RuleError(Text("The tournament is already over."))
        self.status = "cancelled"
        return self.refunded()

    def refunded(self) -> list[int]:
        """Who a cancel refunds: everyone registered but the excluded (seed 001)."""
        return [e.player_id for e in self.entries if e.status != "excluded"]

    @property
    def pool(self) -> int:
        """People's buy-ins: a computer pays none."""
        return self.buy_in * len(self.people)

    def entry(self, player_id: int) -> Entry | None:
        for entry in self.entries:
            if entry.player_id == player_id:
                return entry
        return None

    def _entry(self, player_id: int) -> Entry:
        entry = self.entry(player_id)
        if entry is None:
            raise RuleError(Text("That member is not in the tournament."))
        return entry

    # ================================================================= JSON
    def to_json(self) -> str:
        return json.dumps({"version": 1, **codec.dump(self)}, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> "Tournament":
        data: dict[str, Any] = json.loads(text)
        data.pop("version", None)
        return codec.load(Tournament, data)


def _reason(text: str) -> str:
    text = " ".join(text.split())
    if not 1 <= len(text) <= MAX_REASON:
        raise RuleError(Text("Give a reason of 1 to {most} characters.", most=MAX_REASON))
    return text


def check_payouts(payouts: tuple[int, ...]) -> None:
    if not payouts or any(p <= 0 for p in payouts) or sum(payouts) != 100:
        raise RuleError(Text("The payout table is percentages that add up to 100 (e.g. 65/35)."))


def parse_payouts(text: str) -> tuple[int, ...]:
    """`"65/35"` -> (65, 35); empty: everything to the winner."""
    text = text.strip()
    if not text:
        return (100,)
    try:
        payouts = tuple(int(part) for part in text.replace(",", "/").split("/"))
    except ValueError:
        raise RuleError(Text("'{text}' is not a payout table (write e.g. 65/35).",
                             text=excerpt(text))) from None

    check_payouts(payouts)
    return payouts


def split_pool(pool: int, payouts: tuple[int, ...]) -> list[int]:
    """Each place's share of the pool; the chips rounding leaves go to the first place.
    Fewer people to pay than places (payouts cut to their number): the shares are scaled up
    to the whole pool, which is always paid out when someone can be paid."""
    if not payouts:
        return []
    total = sum(payouts)
    prizes = [pool * p // total for p in payouts]
    prizes[0] += pool - sum(prizes)
    return prizes


def draw(players: list[int], seed: int, level: int, what: str = "seats") -> list[int]:
    """The players in the order a lot drawn from (seed, level) puts them: replayable."""
    order = sorted(players)
    random.Random(f"{seed}:{level}:{what}").shuffle(order)
    return order


def split(players: list[int], seats: int) -> list[tuple[int, ...]]:
    """Tables of at most `seats` players, as even as possible, none of one player. With
    seats 2 and an odd number, one table seats three (seed 001: at most three-handed)."""
    n = len(players)
    if n < 2:
        return [tuple(players)] if players else []
    count = max(1, n // seats) if seats == 2 else -(-n // seats)
    sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(players[start:start + size]))
        start += size
    return tables
