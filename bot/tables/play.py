"""Drafts and placement: a seat's button clicks before it confirms, the placement itself, and
what a seat's controls show (R7, R8, R10). Computer seats place through the same path."""

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TypeVar

from bot.engine.cards import INDEX, Card, card_str, parse_card
from bot.engine.errors import RuleError
from bot.engine.match import Match
from bot.engine.placement import DISCARD, TARGETS
from bot.engine.text import Text
from bot.engine.views import PrivateView, TableView
from bot.i18n import Slash
from bot.process.workers import COMPUTER, PERSON, Workers
from bot.tables.drafting import is_complete, redraft
from bot.tables.errors import NoTable, NotYourSeat, StaleAction, TableError
from bot.tables.lobby import own_seat
from bot.tables.runtime import CLOSED, Live, TableCore
from bot.tables.seating import ComputerPlayers
from bot.tables.state import Draft, TableState, street_of
from bot.tables.status import SeatState

T = TypeVar("T")
HINTS_OFF = Text("Hints are off at this table: Suggest works at a table opened with hints on "
                 "({create} with hints on, or {practice}).",
                 create=Slash("ofc create"), practice=Slash("ofc practice"))
# A placement as the Discord layer sends it: engine cards or their text -> row.
Assignment = Mapping[Card, str] | Mapping[str, str] | Mapping[Card | str, str]


NOT_STARTED = Text("The match has not started yet: your cards come once the host presses "
                   "**Start**.")
OUT_OF_DATE = Text("This prompt is out of date: use your newest one, or **My hand** on the "
                   "table message.")


class Play:
    def __init__(self, core: TableCore, ai: ComputerPlayers, workers: Workers | None) -> None:
        self._core = core
        self._ai = ai
        self._workers = workers

    # ----------------------------------------------------------------- views
    def public_view(self, table_id: int) -> TableView | None:
        match = self._core.live(table_id).state.match
        return match.public_view(self._core.clock.now()) if match is not None else None

    def private_view(self, table_id: int, player_id: int) -> SeatState:
        state = self._core.live(table_id).state
        return self.seat_state(state, own_seat(state, player_id))

    def own_hand(self, table_id: int, player_id: int) -> SeatState:
        """`private_view` asked for by the player ("My hand", `/ofc hand`): refused with the
        reason on a closed table (a client still showing its last "My hand") and in a lobby,
        where a seated player has no cards yet."""
        state = self._core.live(table_id).state
        if state.status == "closed":
            raise NoTable(CLOSED)
        if state.match is None and any(s.player_id == player_id for s in state.seats):
            raise StaleAction(NOT_STARTED)
        return self.private_view(table_id, player_id)

    def seat_state(self, state: TableState, seat: int) -> SeatState:
        match = state.match
        assert match is not None
        rows = state.draft(seat)
        needs = match.legal_rows(seat)
        free = {row: needs.free(row) - sum(1 for r in rows.values() if r == row)
                for row in ("top", "middle", "bottom")}
        free[DISCARD] = needs.discards - sum(1 for r in rows.values() if r == DISCARD)
        player = match.player(seat)
        return SeatState(
            table_id=state.table_id, player_id=player.player_id, seat=seat,
            view=match.view_for(seat, self._core.clock.now()), hand_no=match.hand_no,
            street=street_of(match, seat), draft=dict(rows), to_act=seat in match.pending(),
            deadline=match.deadline(seat), free=free, away=player.away,
            complete=is_complete(rows, needs))

    # ----------------------------------------------------------------- actions
    async def set_draft(self, table_id: int, player_id: int, hand_no: int, street: int,
                        card: Card | str, row: str | None, seat: int | None) -> SeatState:
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, match):
            state = live.state
            rows = _drafted(match, own, dict(state.draft(own)), card, row)
            state.drafts[own] = Draft(hand_no, street, rows)
            await self._core.commit(live, ())
            return self.seat_state(state, own)

    async def set_row(self, table_id: int, player_id: int, hand_no: int, street: int,
                      row: str, cards: Sequence[Card | str], seat: int | None) -> SeatState:
        """`cards` are the ones drafted to `row` (a Fantasyland row menu, R8): the cards the
        row held and `cards` leaves out leave it. Whole or not at all: one card refused (not
        dealt, no room) and the draft stays as it was."""
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, match):
            state = live.state
            dealt = match.dealt_to(own)
            chosen = [_card(c, dealt) for c in cards]
            rows = dict(state.draft(own))
            for card in [c for c, r in rows.items() if r == row and c not in chosen]:
                rows = _drafted(match, own, rows, card, None)
            for card in chosen:
                rows = _drafted(match, own, rows, card, row)
            state.drafts[own] = Draft(hand_no, street, rows)
            await self._core.commit(live, ())
            return self.seat_state(state, own)

    async def reset_draft(self, table_id: int, player_id: int, hand_no: int, street: int,
                          seat: int | None) -> SeatState:
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, _):
            state = live.state
            state.drafts.pop(own, None)
            await self._core.commit(live, ())
            return self.seat_state(state, own)

    async def confirm(self, table_id: int, player_id: int, hand_no: int, street: int,
                      seat: int | None) -> SeatState:
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, match):
            state = live.state
            rows = dict(state.draft(own))
            left = [c for c in match.dealt_to(own) if c not in rows]
            due = match.legal_rows(own).discards - sum(1 for r in rows.values() if r == DISCARD)
            if left and len(left) == due:
                rows.update(dict.fromkeys(left, DISCARD))
            await self._place(live, own, rows)
            return self.seat_state(state, own)

    async def place(self, table_id: int, player_id: int, assignment: Assignment,
                    hand_no: int, street: int, seat: int | None) -> SeatState:
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, match):
            state = live.state
            dealt = match.dealt_to(own)
            await self._place(live, own, {_card(c, dealt): r for c, r in assignment.items()})
            return self.seat_state(state, own)

    async def best_arrangement(self, table_id: int, player_id: int, hand_no: int,
                               street: int, seat: int | None) -> SeatState:
        return await self._suggested(table_id, player_id, hand_no, street, seat, _fantasy_only)

    async def suggest(self, table_id: int, player_id: int, hand_no: int, street: int,
                      seat: int | None) -> SeatState:
        return await self._suggested(table_id, player_id, hand_no, street, seat, _hints_on)

    async def _suggested(self, table_id: int, player_id: int, hand_no: int, street: int,
                         seat: int | None, allowed: Callable[[TableState, int], None]
                         ) -> SeatState:
        """The seat's draft filled with the strong player's choice (the solver's in
        Fantasyland), thought out from that seat's own view only (R7), off the event loop;
        `allowed` refuses it where this kind of help is not offered."""
        state = self._core.live(table_id).state
        own = _acting_seat(state, player_id, hand_no, street, seat, self._core.clock.now())
        allowed(state, street)
        assert state.match is not None
        view = state.match.view_for(own)
        suggestion = await self.think(PERSON, self._ai.suggest, view)
        async with self._acting(table_id, player_id, hand_no, street, seat) as (live, own, _):
            state = live.state
            rows = {c: r for c, r in suggestion.items() if c in view.dealt and r in TARGETS}
            state.drafts[own] = Draft(hand_no, street, rows)
            await self._core.commit(live, ())
            return self.seat_state(state, own)

    async def back(self, table_id: int, player_id: int) -> None:
        core = self._core
        async with core.locked(table_id) as live:
            state = live.state
            seat = own_seat(state, player_id)
            assert state.match is not None
            match = state.match
            player = match.player(seat)
            if player.status != "out" and not player.away:
                return  # back already, by another "I'm back" (a "My hand" message keeps its own)
            await core.after_match(live, match.back(seat, core.clock.now()), match.pending())

    async def decide(self, view: PrivateView, level: str, seed: int | None) -> Mapping[Card, str]:
        """A computer seat's placement (off the event loop when the settings say so), within
        the settings' budget of wall time, waiting behind people's work included."""
        return await self.think(COMPUTER, self._ai.decide, view, level, seed,
                                budget=self._core.settings.ai_seconds)

    async def think(self, priority: int, decide: Callable[..., T], *args: object,
                    budget: float | None = None) -> T:
        """`decide(*args)`: in a worker process (people's work first), on a thread, or here
        (simulations: nothing else runs meanwhile, and seeded games replay exactly)."""
        if not self._core.settings.ai_in_thread:
            return decide(*args)
        if self._workers is not None:
            return await self._workers.run(decide, *args, priority=priority, budget=budget)
        return await asyncio.to_thread(decide, *args)

    @asynccontextmanager
    async def _acting(self, table_id: int, player_id: int, hand_no: int, street: int,
                      seat: int | None) -> AsyncIterator[tuple[Live, int, Match]]:
        """The table, locked, for an action of the clicker's seat (refused when the control
        is not theirs or not for the action they owe now): the table, the seat, the match."""
        async with self._core.locked(table_id) as live:
            own = _acting_seat(live.state, player_id, hand_no, street, seat,
                               self._core.clock.now())
            assert live.state.match is not None
            yield live, own, live.state.match

    async def _place(self, live: Live, seat: int, assignment: Mapping[Card, str]) -> None:
        match = live.state.match
        assert match is not None
        before = match.pending()
        events = match.place(seat, assignment, self._core.clock.now())
        await self._core.after_match(live, events, before)


def _acting_seat(state: TableState, player_id: int, hand_no: int, street: int,
                 seat: int | None, now: float) -> int:
    """The clicker's seat, if the control is theirs and for the action they owe now."""
    own = own_seat(state, player_id)
    if seat is not None and seat != own:
        raise NotYourSeat(Text("These controls belong to another player."))
    match = state.match
    assert match is not None
    # A control for a later hand or street than the table's was sent for play that a restore
    # from a backup undid: the table is back where the backup had it.
    if hand_no > match.hand_no:
        raise StaleAction(OUT_OF_DATE)
    if match.phase != "playing" or hand_no != match.hand_no:
        raise StaleAction(Text("That hand is over."))
    current = street_of(match, own)
    if street > current:
        raise StaleAction(OUT_OF_DATE)
    if street != current or not match.dealt_to(own):
        raise StaleAction(Text("Those cards are already placed."))
    deadline = match.deadline(own)
    if deadline is not None and now >= deadline:  # R10: the timer's due, even if not yet run
        raise StaleAction(Text("Your time ran out: the bot places these cards for you."))
    return own


def _drafted(match: Match, seat: int, rows: dict[Card, str], card: Card | str,
             row: str | None) -> dict[Card, str]:
    """The seat's draft `rows` with `card` given `row` (None: no row), refused when the card
    was not dealt to it or the row has no room."""
    dealt = match.dealt_to(seat)
    chosen = _card(card, dealt)
    needs = match.legal_rows(seat)
    if row is not None:
        if row not in TARGETS:
            raise TableError(Text("'{row}' is not a row (top, middle, bottom or "
                                  "discard).", row=row))
        room = needs.discards if row == DISCARD else needs.free(row)
        taken = sum(1 for c, r in rows.items() if r == row and c != chosen)
        if taken >= room and (row != DISCARD or not room):
            raise TableError(_no_room(row, room))
    return redraft(rows, dealt, needs, chosen, row)  # fewer taps: discards without a tap


def _fantasy_only(state: TableState, street: int) -> None:
    if street != 0:  # no hint on a normal street, whatever is sent (FL acts on street 0)
        raise TableError(Text("Solve is only for a Fantasyland hand."))


def _hints_on(state: TableState, street: int) -> None:
    if state.rules.hints != "on":  # refused, not merely hidden: a modified client may send it
        raise TableError(HINTS_OFF)


def _card(card: Card | str, dealt: tuple[Card, ...]) -> Card:
    """A dealt card from the engine int or its text; refuses a card not dealt (forged)."""
    try:
        value = parse_card(card) if isinstance(card, str) else card
    except RuleError as error:
        raise TableError(error.text) from error
    if isinstance(card, str) and value < 0:  # "X": whichever joker was dealt
        value = next((c for c in dealt if c < 0), value)
    if isinstance(value, bool) or not isinstance(value, int) or value not in dealt:
        name = card_str(value) if value in INDEX else repr(card)
        raise TableError(Text("{card} is not in your hand.", card=name))
    return value


_FULL = {"top": Text("Top row is full."), "middle": Text("Middle row is full."),
         "bottom": Text("Bottom row is full.")}


def _no_room(row: str, room: int) -> Text:
    if row == DISCARD:
        return (Text("No card is discarded on this street.") if not room
                else Text("Discard only {n} card.", "Discard only {n} cards.", n=room))
    return _FULL[row]

