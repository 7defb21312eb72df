"""The match (R6, R8, R10, R11): seats, stacks, button, hands, time, showdown, formats.

`Match` is the one object the table service holds per table. Pure and synchronous: every call
that depends on time takes `now` (epoch seconds). Every call that changes state returns the
events it caused; a bad action raises RuleError and changes nothing.
"""

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from bot.engine import codec
from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.deal import (
    BOARD_CARDS,
    CODE,
    check_seats,
    shuffled_deck,
    streets,
    texts,
)
from bot.engine.errors import RuleError
from bot.engine.events import (
    Away,
    Back,
    Busted,
    Event,
    FantasySeat,
    HandOver,
    HandStarted,
    Joined,
    Leaving,
    Left,
    MatchOver,
    Payment,
    Rows,
    SatOut,
    SeatResult,
    Showdown,
    Standing,
    Staying,
    Timeout,
    Turn,
)
from bot.engine.hand import EMPTY, Hand, HandJson, SeatHand
from bot.engine.history import HAND_LOG, HandLog
from bot.engine.placement import (
    Assignment,
    Needs,
    auto_assignment,
    legal_assignments,
    needs,
    random_assignment,
)
from bot.engine.rules import RULES, TableRules
from bot.engine.showdown import show_down
from bot.engine.text import Text, Typed, listing
from bot.engine.views import Phase, PrivateView, SeatView, ShowdownView, TableView

STATE_VERSION = 1

Status = Literal["playing", "joining", "out"]


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player sitting down: `stack` chips brought from the wallet (R12)."""

    player_id: int  # Discord user id; negative for a computer player
    name: str
    stack: int
    ai_level: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = codec.dump(self)
        return data


@dataclass(slots=True)
class Player:
    """A seated player's match state."""

    player_id: int
    name: str
    stack: int
    ai_level: str | None
    start_stack: int  # chips brought to the table, for the net result
    time_bank: float  # R10, seconds left for the match
    status: Status = "playing"  # joining: dealt from the next hand (cash); out: left the match
    away: bool = False  # R10
    absences: int = 0  # times R10 marked the player away in this match (tournaments call each)
    fantasy: int = 0  # cards of the Fantasyland hand owed next hand (R8)
    leaving: bool = False  # cash: gets up once it owes no Fantasyland hand
    cashed_out: int = 0  # chips returned to the wallet on sitting out (then stack is 0)
    bank_filled: float | None = None  # when its time bank was last full (R10); None: not dealt


@dataclass(frozen=True, slots=True)
class KeptBank:
    """The time bank of a player whose seat was freed, kept for when it sits down again at
    the table (R10: getting up and back neither fills it nor restarts its period)."""

    time_bank: float
    filled: float  # when it was last full: its refill period's start


@dataclass(slots=True)
class MatchJson:
    """A match in state JSON (`Match.to_json`); `history` is the hand's log (history.py)."""

    version: int
    rules: Annotated[TableRules, RULES]
    seed: int | None
    seats: list[Player | None]
    button: int
    hand_no: int
    phase: Phase
    hands_total: int
    hand: HandJson | None
    showdown: ShowdownView | None
    history: Annotated[HandLog, HAND_LOG] | None
    kept_banks: dict[int, KeptBank] = field(default_factory=dict)


def _spec_player(spec: PlayerSpec, rules: TableRules) -> Player:
    if not isinstance(spec.stack, int) or isinstance(spec.stack, bool) or spec.stack <= 0:
        raise RuleError(Text("{name} needs chips to sit down.", name=Typed(spec.name))
                        if spec.name else Text("A player needs chips to sit down."))
    if not spec.name.strip():
        raise RuleError(Text("A player needs a name."))
    return Player(spec.player_id, spec.name, spec.stack, spec.ai_level, spec.stack,
                  float(rules.time_bank_seconds))


@dataclass(slots=True, eq=False)
class Match:
    """A table's whole state. Build with `Match.new` or `Match.from_json`."""

    rules: TableRules
    seed: int | None  # None: every deck from secrets.SystemRandom (R1)
    seats: list[Player | None]
    button: int
    hand_no: int = 0  # hands dealt so far; the current or last hand's number
    phase: Phase = "waiting"
    hands_total: int = 0  # hands the match will have, FL hands added as earned; 0 for cash
    hand: Hand | None = None  # the current hand, or the last one until the next deal
    showdown: ShowdownView | None = None  # the last hand's result while it is shown
    log: HandLog | None = field(default=None)  # history of the current or last hand
    # Cash (R10): the banks of players who got up, by player id, while their period matters.
    kept_banks: dict[int, KeptBank] = field(default_factory=dict)

    # ----------------------------------------------------------------- setup
    @staticmethod
    def new(rules: TableRules, players: list[PlayerSpec], button: int = 0,
            seed: int | None = None) -> "Match":
        """A match of `players` in seats 0.. (R7 seat limits); `button` is a seat index.

        `seed` None shuffles with secrets.SystemRandom; an int makes every deal reproducible
        (tests, simulations only)."""
        check_seats(rules, len(players))
        ids = [p.player_id for p in players]
        if len(set(ids)) != len(ids):
            raise RuleError(Text("A player can sit at a table only once."))
        if not 0 <= button < len(players):
            raise RuleError(Text("The button must be at one of seats 0-{last}.",
                                 last=len(players) - 1))
        table = min(rules.seats, rules.max_seats)
        seats: list[Player | None] = [_spec_player(p, rules) for p in players]
        seats += [None] * (table - len(players))
        total = {"match": len(players), "hands": rules.hands, "cash": 0}[rules.format]
        return Match(rules, seed, seats, button, hands_total=total)

    # ----------------------------------------------------------------- queries
    def player(self, seat: int) -> Player:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise RuleError(Text("There is no seat {seat}.", seat=seat))
        p = self.seats[seat]
        if p is None:
            raise RuleError(Text("Seat {seat} is empty.", seat=seat))
        return p

    def seat_of(self, player_id: int) -> int | None:
        for s, p in enumerate(self.seats):
            if p is not None and p.player_id == player_id and p.status != "out":
                return s
        return None

    def pending(self) -> tuple[int, ...]:
        """Seats whose action is awaited now, in acting order."""
        if self.phase != "playing" or self.hand is None:
            return ()
        return self.hand.pending()

    def dealt_to(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` holds to place (dealt, not yet placed); empty when none."""
        sh = self._seat_hand(seat)
        return sh.dealt if sh is not None else ()

    def legal_rows(self, seat: int) -> Needs:
        """Free places per row and the discards the seat's pending action needs."""
        sh = self._seat_hand(seat)
        if sh is None or not sh.dealt:
            board = sh.board if sh is not None else EMPTY
            return needs(board, (), 0)
        assert self.hand is not None
        return needs(sh.board, sh.dealt, self.hand.discards_due(seat))

    def legal_assignments(self, seat: int) -> Iterator[dict[Card, str]]:
        """Every legal assignment of the seat's street (not for Fantasyland: too many)."""
        sh = self._seat_hand(seat)
        if sh is None or not sh.dealt or sh.fantasy:
            return iter(())
        assert self.hand is not None
        return legal_assignments(sh.board, sh.dealt, self.hand.discards_due(seat))

    def random_assignment(self, seat: int, rng: random.Random) -> dict[Card, str]:
        """A random legal assignment of the seat's dealt cards (simulations, tests)."""
        sh = self._seat_hand(seat)
        if sh is None or not sh.dealt:
            raise RuleError(Text("You have no cards to place."))
        assert self.hand is not None
        return random_assignment(sh.board, sh.dealt, self.hand.discards_due(seat), rng)

    def deadline(self, seat: int) -> float | None:
        """When the seat's pending action times out (R10): turn time, then its time bank."""
        hand = self.hand
        if self.phase != "playing" or hand is None or seat not in hand.seats:
            return None
        sh = hand.seats[seat]
        if sh.since is None:
            return None
        player = self.seats[seat]
        assert player is not None
        return sh.since + self._turn_seconds(sh) + player.time_bank

    def next_deadline(self) -> float | None:
        """The earliest deadline of any pending action (arm one timer for it)."""
        times = [d for s in self.pending() if (d := self.deadline(s)) is not None]
        return min(times, default=None)

    def _turn_seconds(self, sh: SeatHand) -> float:
        """R10: the seconds the seat's pending action has before its time bank runs."""
        rules = self.rules
        if sh.fantasy:
            return rules.fantasy_turn_seconds
        if rules.clock == "per_hand":  # seed 000: one clock for the hand, less what was spent
            return max(0.0, rules.turn_seconds * len(streets(rules)) - sh.used)
        return rules.turn_seconds

    def _seat_hand(self, seat: int) -> SeatHand | None:
        if self.hand is None or self.phase != "playing":
            return None
        return self.hand.seats.get(seat)

    def _active(self) -> list[int]:
        return [s for s, p in enumerate(self.seats) if p is not None and p.status != "out"]

    # ----------------------------------------------------------------- the hand
    def start_hand(self, now: float) -> list[Event]:
        """Deal the next hand (R7, R8): Fantasyland seats get all their cards at once."""
        return self._start_hand(now, None)

    def _start_hand(self, now: float, deck: list[Card] | None) -> list[Event]:
        if self.phase == "over":
            raise RuleError(Text("The match is over."))
        if self.phase == "playing":
            raise RuleError(Text("A hand is already being played."))
        active = self._active()
        if len(active) < 2:
            raise RuleError(Text("At least two players are needed to deal a hand."))
        before = self._snapshot_json()
        if self.rules.format == "cash":
            for s, p in enumerate(self.seats):
                if p is not None and p.status == "out":
                    self._free(s)
            self._forget_banks(now)
        table = len(self.seats)
        order = tuple(sorted(active, key=lambda s: (s - self.button - 1) % table))
        fantasy: dict[int, int] = {}
        for s in order:
            p = self.seats[s]
            assert p is not None
            p.status = "playing"
            self._refill(p, now)
            if p.fantasy:
                fantasy[s], p.fantasy = p.fantasy, 0
        self.hand_no += 1
        if deck is None:
            deck = shuffled_deck(self.rules, self.seed, self.hand_no)
        events: list[Event] = [HandStarted(
            hand_no=self.hand_no, button=self.button, seats=order,
            fantasy=tuple([FantasySeat(s, n) for s, n in fantasy.items()]))]
        self.hand, started = Hand.deal(streets(self.rules), self.rules.order == "simultaneous",
                                       self.rules.fantasy_deal == "first", order, fantasy, deck,
                                       now, events)
        self.phase = "playing"
        self.showdown = None
        self.log = HandLog(self.hand_no, before, deck)
        self._after(started, now, events)
        self._record({"do": "start", "now": now}, events)
        return events

    def place(self, seat: int, assignment: Assignment, now: float) -> list[Event]:
        """Place the seat's dealt cards: each card -> "top" | "middle" | "bottom" | "discard".

        A street, or a whole Fantasyland arrangement. RuleError ("Top row is full", "Qs is not
        in your hand", "It is Bob's turn", ...) changes nothing."""
        hand = self.hand
        if self.phase != "playing" or hand is None:
            raise RuleError(Text("No hand is being played."))
        sh = hand.seats.get(seat)
        if sh is None:
            self.player(seat)  # names a seat that does not exist or is empty
            raise RuleError(Text("You are not in this hand."))
        since = sh.since
        if since is None:
            raise RuleError(self._not_your_turn(seat))
        player = self.seats[seat]
        assert player is not None
        events: list[Event] = []
        allowed = self._turn_seconds(sh)
        started = hand.place(seat, assignment, now, False, events)  # refuses before any change
        # R10: time past the turn's own seconds comes out of the time bank.
        over = now - since - allowed
        if over > 0:
            player.time_bank = max(0.0, player.time_bank - over)
        sh.used += now - since
        if player.away:
            player.away = False
            events.append(Back(seat=seat, player_id=player.player_id))
        self._after(started, now, events)
        code = CODE
        self._record({"do": "place", "seat": seat, "now": now,
                      "cards": {code[c]: row for c, row in assignment.items()}}, events)
        return events

    def timeout(self, now: float, *, computers_away: bool = False) -> list[Event]:
        """R10: place for every seat whose deadline has passed, and mark it away: a person
        only. A computer was kept waiting (the bot too busy), not away: it has no "I'm back",
        and its next action is its own. `computers_away`: marks them too, as histories
        recorded before that were played (replay.py)."""
        events: list[Event] = []
        computer = False
        while self.phase == "playing" and self.hand is not None:
            late = [s for s in self.hand.pending()
                    if (d := self.deadline(s)) is not None and d <= now]
            if not late:
                break
            seat = late[0]
            player = self.seats[seat]
            assert player is not None
            player.time_bank = 0.0
            sh = self.hand.seats[seat]
            # R10 per_hand: the street that ran out spent the player's time like any other.
            sh.used += now - (sh.since or now)
            street = 0 if sh.fantasy else self.hand.street
            events.append(Timeout(seat=seat, player_id=player.player_id, street=street))
            computer = computer or player.ai_level is not None
            if player.ai_level is None or computers_away:
                self._mark_away(seat, events)
            self._after(self._auto(seat, now, events), now, events)
        if events:
            # (a history says when a computer stayed, so that older ones replay as played)
            self._record({"do": "timeout", "now": now,
                          **({"computers_stay": True} if computer and not computers_away
                             else {})}, events)
        return events

    def pause(self, seconds: float) -> list[Event]:
        """The table stood still `seconds` (the bot was stopped): every pending action's
        clock goes on from where it stopped, since R10 times only what a player can act on.
        No event: the deadlines simply move."""
        if self.phase != "playing" or self.hand is None or seconds <= 0:
            return []
        for sh in self.hand.seats.values():
            if sh.since is not None:
                sh.since += seconds
        self._record({"do": "pause", "seconds": seconds}, [])
        return []

    def complete_hand(self, now: float) -> list[Event]:
        """Play the hand in progress to its end at once (the table is closing): every action
        still owed is placed by R10's rule, streets dealt as usual, then the hand is shown
        down and scored like any other. Nobody is marked away: nobody ran out of time."""
        if self.phase != "playing" or self.hand is None:
            raise RuleError(Text("No hand is being played."))
        events: list[Event] = []
        while self.phase == "playing":
            self._after(self._auto(self.hand.pending()[0], now, events), now, events)
        self._record({"do": "complete", "now": now}, events)
        return events

    def back(self, seat: int, now: float) -> list[Event]:
        """The away player is back (R10): its next actions wait for it again."""
        player = self.player(seat)
        if player.status == "out":
            raise RuleError(Text("You have left this match."))
        if not player.away:
            raise RuleError(Text("You are not marked away."))
        player.away = False
        events: list[Event] = [Back(seat=seat, player_id=player.player_id)]
        self._record({"do": "back", "seat": seat, "now": now}, events)
        return events

    def _not_your_turn(self, seat: int) -> Text:
        hand = self.hand
        assert hand is not None
        sh = hand.seats[seat]
        if sh.fantasy:
            return (Text("You have already set your Fantasyland board.") if sh.acted else
                    Text("Your Fantasyland cards come once the others have played their "
                         "streets."))
        if hand.street == 0:  # R8: the others' streets wait for the Fantasyland boards
            return Text("Fantasyland is set first: waiting for {names}.", names=listing(
                [Typed(self.player(s).name) for s in hand.pending()]))
        if hand.street == len(hand.plan) and sh.acted:
            return Text("Your board is complete.")
        waiting = [s for s in hand.pending() if not hand.seats[s].fantasy]
        names = listing([Typed(self.player(s).name) for s in waiting])
        if hand.simultaneous:
            return Text("You have placed this street; waiting for {names}.", names=names)
        return Text("It is {names}'s turn.", names=names)

    def _mark_away(self, seat: int, events: list[Event]) -> None:
        player = self.seats[seat]
        assert player is not None
        if not player.away:
            player.away = True
            player.absences += 1
            events.append(Away(seat=seat, player_id=player.player_id))

    def _auto(self, seat: int, now: float, events: list[Event]) -> list[int]:
        """R10's placement: bottom, middle, top in the order dealt; the rest discarded."""
        hand = self.hand
        assert hand is not None
        sh = hand.seats[seat]
        assignment = auto_assignment(sh.board, sh.dealt, hand.discards_due(seat))
        return hand.place(seat, assignment, now, True, events)

    def _after(self, started: list[int], now: float, events: list[Event]) -> None:
        """Prompt the seats whose action began; place at once for away ones (R10); show down
        when every board is complete."""
        hand = self.hand
        assert hand is not None
        queue = list(started)
        waiting = False
        while queue:
            seat = queue.pop(0)
            sh = hand.seats[seat]
            if sh.since is None:
                continue  # already placed at once (an away seat queued twice)
            player = self.seats[seat]
            assert player is not None
            if player.away:
                queue += self._auto(seat, now, events)
            else:
                waiting = True
                deadline = sh.since + self._turn_seconds(sh) + player.time_bank
                events.append(Turn(seat=seat, street=0 if sh.fantasy else hand.street,
                                   deadline=deadline))
        if not waiting and hand.complete:
            self._end_hand(events)

    # ----------------------------------------------------------------- hand end
    def _end_hand(self, events: list[Event]) -> None:
        hand = self.hand
        assert hand is not None
        players = {s: self._seated(s) for s in hand.order}
        view = show_down(
            self.rules, {s: sh.board for s, sh in hand.seats.items()},
            {s: sh.fantasy for s, sh in hand.seats.items()},
            {s: p.stack for s, p in players.items()}, self.button,
        )
        self.showdown = view
        self.phase = "showdown"
        for result in view.seats:
            p = players[result.seat]
            p.stack, p.fantasy = result.stack_after, result.fantasy_next
        events.append(self._showdown_event(view))
        for s, p in players.items():
            if p.stack == 0:  # R6: all-in, out for the rest of the match
                p.status, p.fantasy = "out", 0
                events.append(Busted(seat=s, player_id=p.player_id))
        earned = any(p.fantasy for p in players.values() if p.status != "out")
        if earned and self.hands_total:
            self.hands_total += 1  # R11: one extra hand however many earned Fantasyland
        if not earned or self.rules.button_moves_on_fantasy:  # R8: FL continues the hand
            self.button = self._next_button()
        for s, p in players.items():
            # R10, R11: away and leaving players get up once they owe no Fantasyland hand; an
            # away player also plays the FL hand an opponent earned (seed 003: FL continues
            # the hand, "only after it will the player be transferred to the Sit-out"). At a
            # tournament table an away player stays and is placed for (R13: all hands play).
            away = p.away and self.rules.sit_out_when_away
            if (p.status != "out" and (away or p.leaving) and not p.fantasy
                    and not (away and earned)):
                self._get_up(s, Left if p.leaving else SatOut, events)
        events.append(HandOver(
            hand_no=self.hand_no, button=self.button, hands_total=self.hands_total,
            fantasy=tuple([FantasySeat(s, p.fantasy) for s, p in players.items()
                           if p.fantasy])))
        if self.hands_total and (len(self._active()) < 2 or self.hand_no >= self.hands_total):
            self._over(events)

    def _refill(self, player: Player, now: float) -> None:
        """R10 (seed 003: the bank "resets after a certain period"): at a deal, a time bank
        last full `time_bank_refill_seconds` ago or more is full again."""
        period = self.rules.time_bank_refill_seconds
        if player.bank_filled is None:
            player.bank_filled = now  # dealt in for the first time: the period starts
        elif period and now - player.bank_filled >= period:
            player.time_bank, player.bank_filled = float(self.rules.time_bank_seconds), now

    def _free(self, seat: int) -> None:
        """Cash (R11): the seat is empty again; its player's time bank is kept (R10)."""
        p = self._seated(seat)
        if p.bank_filled is not None:
            self.kept_banks[p.player_id] = KeptBank(p.time_bank, p.bank_filled)
        self.seats[seat] = None

    def _forget_banks(self, now: float) -> None:
        """Drop the kept banks a player sitting down afresh would get anyway: a full one at
        a table that never refills, any once its period has passed (full at its next deal)."""
        period, full = self.rules.time_bank_refill_seconds, self.rules.time_bank_seconds
        self.kept_banks = {
            pid: kept for pid, kept in self.kept_banks.items()
            if (now - kept.filled < period if period else kept.time_bank < full)}

    def _get_up(self, seat: int, kind: type[Left | SatOut], events: list[Event]) -> None:
        """The player is out of the match; its stack goes back to its wallet (R10, R11, R12).

        It keeps its seat, shown as sitting out, until the next deal."""
        p = self._seated(seat)
        events.append(kind(seat=seat, player_id=p.player_id, stack=p.stack))
        p.status, p.cashed_out, p.stack = "out", p.cashed_out + p.stack, 0

    def _seated(self, seat: int) -> Player:
        p = self.seats[seat]
        assert p is not None
        return p

    def _next_button(self) -> int:
        active = self._active()
        if not active:
            return self.button
        table = len(self.seats)
        return min(active, key=lambda s: (s - self.button - 1) % table)

    def _showdown_event(self, view: ShowdownView) -> Showdown:
        pid = {s: self._seated(s).player_id for s in (r.seat for r in view.seats)}
        return Showdown(
            hand_no=self.hand_no,
            seats=tuple([SeatResult(
                seat=r.seat, player_id=pid[r.seat], fouled=r.fouled,
                rows=Rows(texts(r.board.top), texts(r.board.middle), texts(r.board.bottom)),
                names=tuple(r.names), royalties=tuple(r.royalties), points=r.points,
                chips=r.chips, stack_after=r.stack_after, fantasy_next=r.fantasy_next,
            ) for r in view.seats]),
            transfers=tuple([Payment(payer=t.payer, payer_id=pid[t.payer], payee=t.payee,
                                     payee_id=pid[t.payee], owed=t.owed, paid=t.paid)
                             for t in view.transfers]))

    def _over(self, events: list[Event]) -> None:
        """R11: the match ends; every stack still on the table goes back to its wallet."""
        self.phase = "over"
        standings = []
        for s, p in enumerate(self.seats):
            if p is None:
                continue
            final = p.stack + p.cashed_out
            standings.append(Standing(seat=s, player_id=p.player_id, name=p.name,
                                      stack=final, net=final - p.start_stack,
                                      returned=p.stack))
        events.append(MatchOver(standings=tuple(standings)))

    # ----------------------------------------------------------------- formats
    def finish(self) -> list[Event]:
        """End the match now (a closed table). A hand in play is abandoned: its chips never
        moved, so nothing is lost; every stack goes back to its wallet."""
        if self.phase == "over":
            raise RuleError(Text("The match is already over."))
        if self.phase == "playing":
            self.hand = None
        events: list[Event] = []
        self._over(events)
        self._record({"do": "finish"}, events)
        return events

    def join(self, spec: PlayerSpec, seat: int | None = None) -> list[Event]:
        """Cash format (R11): sit down in `seat` (or the first free one); dealt from the next
        hand."""
        if self.rules.format != "cash":
            raise RuleError(Text("Players can join only a cash table once the match has begun."))
        if self.phase == "over":
            raise RuleError(Text("The match is over."))
        mine = [s for s, p in enumerate(self.seats)
                if p is not None and p.player_id == spec.player_id]
        if mine:
            return self._sit_again(mine[0], spec, seat)
        # A seat whose player got up (or busted) is kept for it until the next deal, but a
        # newcomer may take it: with no hand in play nothing else would free it (a table
        # left with one player deals none). Empty seats go first.
        free = [s for s, p in enumerate(self.seats) if p is None]
        free += [s for s, p in enumerate(self.seats) if p is not None and p.status == "out"]
        if seat is None:
            if not free:
                raise RuleError(Text("The table is full."))
            seat = free[0]
        elif seat not in free:
            raise RuleError(Text("Seat {seat} is taken.", seat=seat) if 0 <= seat < len(self.seats)
                            else Text("There is no seat {seat}.", seat=seat))
        player = _spec_player(spec, self.rules)
        player.status = "joining"
        if self.seats[seat] is not None:
            self._free(seat)
        kept = self.kept_banks.pop(spec.player_id, None)
        if kept is not None:  # back at the table: its own bank, as it left it (R10)
            player.time_bank, player.bank_filled = kept.time_bank, kept.filled
        return self._sit(seat, player, spec)

    def _sit(self, seat: int, player: Player, spec: PlayerSpec) -> list[Event]:
        self.seats[seat] = player
        events: list[Event] = [Joined(seat=seat, player_id=spec.player_id, name=spec.name,
                                      stack=spec.stack, ai_level=spec.ai_level)]
        self._record({"do": "join", "seat": seat, "player": spec.to_json()}, events)
        return events

    def _sit_again(self, seat: int, spec: PlayerSpec, wanted: int | None) -> list[Event]:
        """Cash (R11): a player who busted (R6) or got up buys in again, in the seat it still
        holds until the next deal; its match totals carry on (net = out - in)."""
        old = self._seated(seat)
        if old.status != "out":
            raise RuleError(Text("You are already at this table."))
        if self.phase == "playing":
            raise RuleError(Text("You can sit down again once the next hand is dealt."))
        if wanted not in (None, seat):
            raise RuleError(Text("Your seat is still seat {seat} until the next hand is dealt.",
                                 seat=seat))

        player = _spec_player(spec, self.rules)
        player.status, player.time_bank = "joining", old.time_bank
        player.bank_filled = old.bank_filled  # getting up and back fills no bank (R10)
        player.start_stack, player.cashed_out = old.start_stack + spec.stack, old.cashed_out
        return self._sit(seat, player, spec)

    def leave(self, seat: int) -> list[Event]:
        """Cash format (R11): get up now, or after the hand in play and any Fantasyland hand
        earned ("leaving"); the stack goes back to the wallet with the "left" event."""
        if self.rules.format != "cash":
            raise RuleError(Text("Players can leave only a cash table; this match ends on its "
                                 "own."))
        player = self.player(seat)
        if player.status == "out":
            raise RuleError(Text("You have already left."))
        if player.leaving:
            raise RuleError(Text("You are already leaving after this hand."))
        in_hand = self.phase == "playing" and self.hand is not None and seat in self.hand.seats
        if in_hand or player.fantasy:
            player.leaving = True
            events: list[Event] = [Leaving(seat=seat, player_id=player.player_id)]
        elif player.status == "joining":
            events = [Left(seat=seat, player_id=player.player_id, stack=player.stack)]
            self._free(seat)
        else:
            events = []
            self._get_up(seat, Left, events)
        self._record({"do": "leave", "seat": seat}, events)
        return events

    def stay(self, seat: int) -> list[Event]:
        """Cash format (R11): the player who asked to leave after the hand (`leave`) stays
        after all, while it has not got up yet."""
        player = self.player(seat)
        if player.status == "out":
            raise RuleError(Text("You have already left."))
        if not player.leaving:
            raise RuleError(Text("You are not leaving this table."))
        player.leaving = False
        events: list[Event] = [Staying(seat=seat, player_id=player.player_id)]
        self._record({"do": "stay", "seat": seat}, events)
        return events

    # ----------------------------------------------------------------- views
    def public_view(self, now: float | None = None) -> TableView:
        """What a spectator may see (R7, R8): no dealt-but-unplaced card, no discard, no
        Fantasyland board before showdown, no placement of a simultaneous street before it
        ends, and no card of the one player outside Fantasyland when all the others are in it
        (seeds 000, 003: it lays out face down). With `now`, time banks show what is left at
        that moment."""
        hand = self.hand
        playing = self.phase == "playing"
        # Seeds 000, 003: when every player but one is in FL, that one lays out face down too.
        face_down = (playing and hand is not None and len(hand.normal) == 1
                     and len(hand.order) > 1)
        seats = []
        for s, p in enumerate(self.seats):
            if p is None:
                continue
            sh = self._hand_of(s, p)
            new_cards: tuple[Card, ...]
            board, hidden_cards, new_cards = EMPTY, 0, ()
            if sh is not None:
                new_cards = sh.last
                if not playing:
                    board = sh.board
                elif sh.fantasy:
                    hidden_cards = BOARD_CARDS if sh.acted else 0
                elif face_down:
                    hidden_cards, new_cards = len(sh.board.cards), ()
                elif sh.hidden:
                    board = Board(*(tuple(c for c in row if c not in sh.hidden)
                                    for row in sh.board.rows))
                else:
                    board = sh.board
            seats.append(SeatView(
                seat=s, player_id=p.player_id, name=p.name, stack=p.stack, board=board,
                hidden_cards=hidden_cards, new_cards=new_cards,
                in_fantasy=bool(sh is not None and sh.fantasy),
                fantasy_size=sh.fantasy if sh is not None else 0, away=p.away,
                sitting_out=p.status != "playing" or (playing and sh is None),
                out=p.status == "out",
                acted=bool(playing and sh is not None and sh.acted),
                is_ai=p.ai_level is not None, ai_level=p.ai_level,
                deadline=self.deadline(s), time_bank=self._bank_left(s, p, now),
            ))
        # The button moves on as the hand ends: a showdown shows the dealer of its own hand.
        shown = self.showdown.button if not playing and self.showdown is not None else None
        return TableView(
            rules=self.rules, hand_no=self.hand_no, phase=self.phase,
            street=hand.street if hand is not None else 0, streets=len(streets(self.rules)),
            button=self.button if shown is None else shown, seats=tuple(seats),
            to_act=self.pending(),
            fantasy_hand=bool(hand is not None and any(sh.fantasy for sh in hand.seats.values())),
            showdown=self.showdown, hands_total=self.hands_total,
        )

    def view_for(self, seat: int, now: float | None = None) -> PrivateView:
        """What the seat's player may see: the public view plus its own cards and discards."""
        player = self.player(seat)
        table = self.public_view(now)
        sh = self._hand_of(seat, player)
        if sh is None:
            return PrivateView(table=table, seat=seat, board=EMPTY)
        dealt = sh.dealt if self.phase == "playing" else ()
        assert self.hand is not None
        return PrivateView(table=table, seat=seat, board=sh.board, dealt=dealt,
                           discard_count=self.hand.discards_due(seat) if dealt else 0,
                           discards=sh.discards)

    def _hand_of(self, seat: int, player: Player) -> SeatHand | None:
        """The seat's part of the current or last hand. A player joining sits out that hand:
        the seat's part of it may be another's, who got up after it."""
        if self.hand is None or player.status == "joining":
            return None
        return self.hand.seats.get(seat)

    def _bank_left(self, seat: int, player: Player, now: float | None) -> float:
        sh = self._seat_hand(seat)
        if now is None or sh is None or sh.since is None:
            return player.time_bank
        over = now - sh.since - self._turn_seconds(sh)
        return max(0.0, player.time_bank - max(0.0, over))

    # ----------------------------------------------------------------- state
    def copy(self) -> "Match":
        """An independent copy (simulations): cheap, no JSON."""
        return replace(
            self, seats=[replace(p) if p is not None else None for p in self.seats],
            hand=self.hand.copy() if self.hand is not None else None,
            log=self.log.copy() if self.log is not None else None,
            kept_banks=dict(self.kept_banks),
        )

    def history(self) -> dict[str, Any] | None:
        """The current (or last) hand's history as JSON, from its deal until the next deal:
        `replay.replay(history)` reaches this very state. None before the first hand."""
        return self.log.to_json() if self.log is not None else None

    def _record(self, action: dict[str, Any], events: list[Event]) -> None:
        if self.log is not None:
            self.log.actions.append(action)
            self.log.events.extend(events)

    def _snapshot_json(self) -> dict[str, Any]:
        """The state before a deal, for the history: the last hand is not needed to replay."""
        return self._json(hand=None, showdown=None, history=None)

    def _state(self, hand: HandJson | None, showdown: ShowdownView | None,
                history: HandLog | None) -> MatchJson:
        return MatchJson(STATE_VERSION, self.rules, self.seed, self.seats, self.button,
                         self.hand_no, self.phase, self.hands_total, hand, showdown, history,
                         self.kept_banks)

    def _json(self, hand: HandJson | None, showdown: ShowdownView | None,
              history: HandLog | None) -> dict[str, Any]:
        data: dict[str, Any] = codec.dump(self._state(hand, showdown, history))
        return data

    def _whole(self) -> MatchJson:
        hand = self.hand.json_record() if self.hand is not None else None
        return self._state(hand, self.showdown, self.log)

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON (cards as text); `from_json` restores it exactly."""
        data: dict[str, Any] = codec.dump(self._whole())
        return data

    def text(self) -> str:
        """`to_json()` as compact JSON text (the same text), at the cost of what changed."""
        return codec.dumps(self._whole())

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Match":
        if data.get("version") != STATE_VERSION:
            raise RuleError(f"Unknown table state version {data.get('version')!r}")
        j = codec.load(MatchJson, data)
        rules = j.rules
        return Match(
            rules=rules, seed=j.seed, seats=j.seats, button=j.button, hand_no=j.hand_no,
            phase=j.phase, hands_total=j.hands_total,
            hand=(Hand.from_record(j.hand, streets(rules), rules.order == "simultaneous",
                                   rules.fantasy_deal == "first")
                  if j.hand is not None else None),
            showdown=j.showdown, log=j.history, kept_banks=j.kept_banks)

