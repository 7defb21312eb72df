"""A stateful property test of the table service: random sequences of what people, admins and
time do, on a real database, checked after every step.

Hypothesis's rule-based machine (`TableMachine`) drives one `TableService` (the fake clock,
the quick computers, no pauses) on a fresh SQLite file or PostgreSQL database per example:
tables opened with random legal options (cash, a number of hands or a match; 2-4 seats; the
variants; buy-ins around the starting wallet), practice tables, people sitting down and
getting up (mid-hand too), computers added and removed by the host or an admin, the start,
placements chosen at random from what the seat's controls offer (card by card then Confirm,
or a whole action at once), placements and lobby actions that must be refused, time run past
the deadlines, players coming back, daily claims, admin grants and corrections, the table
closed, the service restarted from storage (cleanly, or as after a crash), and the database
failing in the middle of an action's chip movements.

After every step: the database's independent audit (tests/storage/audit.py: chips conserved,
the ledger equals the wallets, stacks equal their moves, no settlement creates chips); the
external ledger rows equal what the machine gave out; every open table's snapshot in storage
is the state in memory, and its stacks the chips storage holds at it; no card is twice in a
hand (deck, boards, cards to place, discards) and every row is within its size; every
showdown scores zero-sum points and chips and leaves no stack negative. A refused action
raises a readable TableError and changes nothing (every table's state, the database's money
rows, the events told). A restart restores exactly the state the old service had (after a
crash, every timer moved on by the time the clocks stood still); the chip movements a
failure left are finished, once, before anything else happens at the table.

docs/maintainers/tests.md says how to run it longer (OFC_MACHINE_EXAMPLES).
"""

import asyncio
import os
import random
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import event as hypothesis_event
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from bot.engine.cards import DECK, JOKERS
from bot.engine.match import Match
from bot.engine.royalties import ROW_SIZES
from bot.storage import DailyNotReady, Storage, StorageError
from bot.tables import FakeClock, ShowdownDone, TableError, TableService
from bot.tables.match_runner import FAST
from bot.tables.state import TableState
from tests.backends import BACKENDS, Reader, postgres_of
from tests.storage.audit import audit

from .driver import QUICK_AI, Recorder

T = TypeVar("T")
GUILD = 10
ADMIN = 99
PEOPLE = (101, 102, 103)
CHANNELS = (20, 21, 22, 23, 24, 25)
START = 1000  # storage's default starting chips
DAILY = 200  # and daily chips
# Kinds of ledger rows that bring chips in (RULES.md R12), and every money row, whose
# counts a refused action must leave alone.
MONEY_ROWS = ("SELECT count(*), coalesce(sum(amount), 0) FROM ledger",
              "SELECT count(*), coalesce(sum(amount), 0) FROM stack_moves",
              "SELECT coalesce(sum(balance), 0) FROM wallets",
              "SELECT coalesce(sum(stack), 0) FROM table_seats",
              "SELECT count(*) FROM live_tables WHERE status = 'open'")

HUNT = os.environ.get("OFC_MACHINE_EXAMPLES")  # a longer, random run (docs/maintainers/tests.md)
# In the suite: a few seconds a backend (each PostgreSQL step costs more: its audit connects).
EXAMPLES = {"sqlite": 10, "postgresql": 3}
STEPS = int(os.environ.get("OFC_MACHINE_STEPS", "30"))

OPTIONS = st.fixed_dictionaries(
    {"format": st.sampled_from(["cash", "hands", "match"]),
     "variant": st.sampled_from(["pineapple", "turbo", "lowball", "joker"]),
     "buy_in": st.sampled_from([1, 10, 200, 600, START + 1]),
     "point_value": st.sampled_from([1, 5, 40]),
     "order": st.sampled_from(["sequential", "simultaneous"]),
     "turn_seconds": st.sampled_from([10, 60])},
    optional={"hands": st.integers(1, 3), "fantasy": st.sampled_from(["standard", "progressive",
                                                                        "off"]),
              "clock": st.sampled_from(["per_street", "per_hand"]),
              "time_bank_seconds": st.sampled_from([0, 30]),
              "fantasy_deal": st.sampled_from(["first", "last"])})


@dataclass
class World:
    """What the machine gave out (external chips) and the events it has checked so far."""

    wallets: set[int]
    daily: int = 0
    grants: int = 0
    corrections: int = 0
    events_checked: int = 0


class TableMachine(RuleBasedStateMachine):
    """One service on one fresh database; see the module's docstring."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.database = self.new_database()
        self.storage = self.run(Storage.open(self.database))
        self.clock = FakeClock()
        self.recorder = Recorder()
        self.service = self._service(self.storage, self.clock, self.recorder)
        self.world = World(wallets=set())
        self.abandoned: list[tuple[TableService, Storage]] = []

    # ----------------------------------------------------------------- plumbing
    def new_database(self) -> str:
        """An empty database for this example (the test's backend)."""
        raise NotImplementedError

    def run(self, coroutine: Coroutine[Any, Any, T] | asyncio.Future[T]) -> T:
        return self.loop.run_until_complete(coroutine)

    @staticmethod
    def _service(storage: Storage, clock: FakeClock, recorder: Recorder) -> TableService:
        service = TableService(storage, clock, QUICK_AI, FAST)
        service.add_listener(recorder)
        return service

    def teardown(self) -> None:
        try:
            self.run(self.service.close())
            for old, storage in self.abandoned:
                self.run(_crash(old))
                self.run(storage.close())
            self.run(self.storage.close())
        finally:
            self.loop.close()

    def tables(self) -> dict[int, TableState]:
        return {t: live.state for t, live in self.service._core.tables.items()
                if live.state.status != "closed"}

    def pick_table(self, data: st.DataObject) -> int | None:
        tables = sorted(self.tables())
        return data.draw(st.sampled_from(tables), label="table") if tables else None

    def seated_people(self, table: int) -> list[int]:
        return [p for p in self.service.seats(table).values() if p in PEOPLE]

    def note_wallet(self, person: int) -> None:
        self.world.wallets.add(person)

    def settle(self) -> None:
        self.run(self.service.idle())

    def picture(self) -> tuple[dict[int, str], list[tuple[Any, ...]], int]:
        """Everything a refused action must leave alone."""
        with Reader(self.database) as query:
            rows = [query(sql)[0] for sql in MONEY_ROWS]
        return ({t: s.dumps() for t, s in self.tables().items()}, rows,
                len(self.recorder.events))

    def refused(self, action: Callable[[], Coroutine[Any, Any, Any]], *,
                why: type[Exception] = TableError) -> None:
        """`action` must be refused, readably, and change nothing."""
        before = self.picture()
        with pytest.raises(why) as refusal:
            self.run(action())
        if isinstance(refusal.value, TableError):
            assert str(refusal.value.text), "a refusal with no sentence"
        self.settle()
        assert self.picture() == before, f"the refused action changed something: {refusal.value}"

    def attempt(self, action: Callable[[], Coroutine[Any, Any, T]]) -> T | None:
        """An action that may be refused (a full table, a wallet too short...): when it is,
        nothing changed."""
        before = self.picture()
        try:
            result = self.run(action())
        except (TableError, StorageError) as error:
            self.settle()
            assert self.picture() == before, f"the refused action changed something: {error}"
            return None
        self.settle()
        return result

    # ----------------------------------------------------------------- lobby
    @initialize()
    def start_clean(self) -> None:
        assert self.run(self.service.restore()) == []

    @rule(channel=st.sampled_from(CHANNELS), host=st.sampled_from(PEOPLE), options=OPTIONS,
          seats=st.integers(2, 4), seed=st.integers(0, 2**16))
    def create(self, channel: int, host: int, options: dict[str, Any], seats: int,
               seed: int) -> None:
        chosen = {**options, "seats": seats if options["variant"] == "turbo" else min(seats, 3)}
        lobby = self.attempt(lambda: self.service.create_table(GUILD, channel, host, "host",
                                                               chosen, seed=seed))
        if lobby is not None:
            self.note_wallet(host)

    @rule(channel=st.sampled_from(CHANNELS), options=OPTIONS, seed=st.integers(0, 2**16),
          people=st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=3, unique=True),
          computers=st.lists(st.sampled_from(["easy", "strong"]), max_size=2),
          spare=st.integers(0, 1))
    def deal(self, channel: int, options: dict[str, Any], seed: int, people: list[int],
             computers: list[str], spare: int) -> None:
        """A table filled and started at once (the common way to play)."""
        seats = len(people) + len(computers) + spare  # (a spare seat: a cash table's join)
        if not 2 <= seats <= (4 if options["variant"] == "turbo" else 3):
            return
        host, *others = people
        lobby = self.attempt(lambda: self.service.create_table(
            GUILD, channel, host, "host", {**options, "seats": seats}, seed=seed))
        if lobby is None:
            return
        self.note_wallet(host)
        for person in others:
            if self.attempt(partial(self.service.join, lobby.table_id, person, "p")):
                self.note_wallet(person)
        for level in computers:
            self.attempt(partial(self.service.add_computer, lobby.table_id, ADMIN, level,
                                 is_admin=True))
        self.attempt(lambda: self.service.start(lobby.table_id, host))

    @rule(channel=st.sampled_from(CHANNELS), person=st.sampled_from(PEOPLE),
          level=st.sampled_from(["easy", "strong"]), seed=st.integers(0, 2**16))
    def practice(self, channel: int, person: int, level: str, seed: int) -> None:
        self.attempt(lambda: self.service.practice(GUILD, channel, person, "p", level,
                                                   {"format": "hands", "hands": 2}, seed=seed))

    @rule(data=st.data(), person=st.sampled_from(PEOPLE))
    def join(self, data: st.DataObject, person: int) -> None:
        table = self.pick_table(data)
        if table is not None and self.attempt(
                lambda: self.service.join(table, person, "p")) is not None:
            self.note_wallet(person)

    @rule(data=st.data(), person=st.sampled_from(PEOPLE))
    def leave(self, data: st.DataObject, person: int) -> None:
        table = self.pick_table(data)
        if table is not None:
            self.attempt(lambda: self.service.leave(table, person))

    @rule(data=st.data(), level=st.sampled_from(["easy", "strong"]), admin=st.booleans())
    def add_computer(self, data: st.DataObject, level: str, admin: bool) -> None:
        table = self.pick_table(data)
        if table is None:
            return
        actor = ADMIN if admin else self.tables()[table].host_id
        self.attempt(lambda: self.service.add_computer(table, actor, level, is_admin=admin))

    @rule(data=st.data())
    def remove_computer(self, data: st.DataObject) -> None:
        table = self.pick_table(data)
        if table is None:
            return
        computers = [s.player_id for s in self.tables()[table].seats if s.player_id < 0]
        if computers:
            player = data.draw(st.sampled_from(computers))
            self.attempt(lambda: self.service.remove_computer(table, ADMIN, player,
                                                              is_admin=True))

    @rule(data=st.data(), admin=st.booleans())
    def start(self, data: st.DataObject, admin: bool) -> None:
        table = self.pick_table(data)
        if table is None:
            return
        actor = ADMIN if admin else self.tables()[table].host_id
        self.attempt(lambda: self.service.start(table, actor, is_admin=admin))

    @rule(data=st.data(), admin=st.booleans())
    def cancel(self, data: st.DataObject, admin: bool) -> None:
        table = self.pick_table(data)
        if table is None:
            return
        actor = ADMIN if admin else self.tables()[table].host_id
        self.attempt(lambda: self.service.cancel(table, actor, is_admin=admin))

    # ----------------------------------------------------------------- play
    @rule(data=st.data(), whole=st.booleans())
    def place(self, data: st.DataObject, whole: bool) -> None:
        """A person whose turn it is places a random legal action."""
        waiting = [(t, p) for t in sorted(self.tables()) if self.tables()[t].match is not None
                   for p in self.seated_people(t)
                   if self.service.private_view(t, p).to_act]
        if not waiting:
            return
        table, person = data.draw(st.sampled_from(waiting), label="turn")
        seat_state = self.service.private_view(table, person)
        rows = _random_rows(seat_state.view.dealt, seat_state.free,
                            seat_state.view.discard_count,
                            random.Random(data.draw(st.integers(0, 2**16), label="rng")))
        where = {"hand_no": seat_state.hand_no, "street": seat_state.street,
                 "seat": seat_state.seat}
        hypothesis_event("placed")  # --hypothesis-show-statistics: what the runs went through
        if whole:
            self.run(self.service.place(table, person, rows, **where))
        else:
            for card, row in rows.items():
                self.run(self.service.set_draft(table, person, card=card, row=row, **where))
            self.run(self.service.confirm(table, person, **where))
        self.settle()

    @rule(data=st.data(), how=st.sampled_from(["draft", "take back", "row", "reset", "suggest",
                                                "solve"]))
    def draft(self, data: st.DataObject, how: str) -> None:
        """Clicks before Confirm: a card to a row or back, a row menu, Reset, Suggest (hints
        on only) or Solve (Fantasyland only), at any seat holding cards; what is refused
        changes nothing."""
        holding = [(t, p) for t in sorted(self.tables()) if self.tables()[t].match is not None
                   for p in self.seated_people(t) if self.service.private_view(t, p).view.dealt]
        if not holding:
            return
        table, person = data.draw(st.sampled_from(holding), label="seat")
        seat_state = self.service.private_view(table, person)
        card = data.draw(st.sampled_from(seat_state.view.dealt), label="card")
        row = data.draw(st.sampled_from(["top", "middle", "bottom", "discard"]), label="row")
        where = {"hand_no": seat_state.hand_no, "street": seat_state.street,
                 "seat": seat_state.seat}
        service = self.service
        actions = {
            "draft": lambda: service.set_draft(table, person, card=card, row=row, **where),
            "take back": lambda: service.set_draft(table, person, card=card, row=None, **where),
            "row": lambda: service.set_row(table, person, row=row, cards=[card], **where),
            "reset": lambda: service.reset_draft(table, person, **where),
            "suggest": lambda: service.suggest(table, person, **where),
            "solve": lambda: service.best_arrangement(table, person, **where)}
        self.attempt(actions[how])

    @rule(data=st.data(), how=st.sampled_from(["old hand", "other street", "not dealt",
                                                "full row", "other seat", "not a row",
                                                "early confirm"]))
    def misplace(self, data: st.DataObject, how: str) -> None:
        """A placement the service must refuse, leaving everything as it was."""
        seated = [(t, p) for t in sorted(self.tables()) if self.tables()[t].match is not None
                  for p in self.seated_people(t)]
        if not seated:
            return
        table, person = data.draw(st.sampled_from(seated), label="seat")
        seat_state = self.service.private_view(table, person)
        dealt = seat_state.view.dealt
        where = {"hand_no": seat_state.hand_no, "street": seat_state.street,
                 "seat": seat_state.seat}
        service = self.service
        if not dealt:  # nothing to place: any card is refused
            self.refused(lambda: service.set_draft(table, person, card=DECK[0], row="bottom",
                                                   **where))
            return
        if not seat_state.to_act:  # dealt but not its turn: it may draft, not place
            rows = _random_rows(dealt, seat_state.free, seat_state.view.discard_count,
                                random.Random(0))
            self.refused(lambda: service.place(table, person, rows, **where))
            return
        if how == "old hand":
            where["hand_no"] -= 1
        elif how == "other street":
            where["street"] += 1
        elif how == "other seat":
            where["seat"] += 1
        if how in ("old hand", "other street", "other seat"):
            self.refused(lambda: service.confirm(table, person, **where))
        elif how == "not dealt":
            foreign = next(c for c in (*DECK, *JOKERS) if c not in dealt)
            self.refused(lambda: service.set_draft(table, person, card=foreign, row="bottom",
                                                   **where))
        elif how == "not a row":
            self.refused(lambda: service.set_draft(table, person, card=dealt[0], row="side",
                                                   **where))
        elif how == "full row":
            full = [r for r in ("top", "middle", "bottom") if seat_state.free[r] == 0]
            if full:
                self.refused(lambda: service.set_draft(table, person, card=dealt[0],
                                                       row=full[0], **where))
        elif len(dealt) - seat_state.view.discard_count > 0 and not seat_state.draft:
            self.refused(lambda: service.confirm(table, person, **where))

    @rule(data=st.data(), person=st.sampled_from(PEOPLE))
    def back(self, data: st.DataObject, person: int) -> None:
        table = self.pick_table(data)
        if table is not None:
            self.attempt(lambda: self.service.back(table, person))

    @rule(seconds=st.sampled_from([1.0, 15.0, 70.0, 400.0, 1000.0, 4000.0]))
    def wait(self, seconds: float) -> None:
        """Time passes: every timer due on the way fires, in order."""
        self.settle()
        target = self.clock.now() + seconds
        while (wake := self.clock.next_wake()) is not None and wake <= target:
            self.run(self.clock.advance(wake - self.clock.now()))
            self.settle()
        self.run(self.clock.advance(target - self.clock.now()))
        self.settle()

    @rule(data=st.data(), at=st.integers(0, 2))
    def storage_fails(self, data: st.DataObject, at: int) -> None:
        """The database fails at the `at`-th chip movement (buy-in, cash-out, settlement,
        match end, close, refund) of a person's action: what came before it stays done,
        the table is as last saved with the movements left listed in its snapshot (done by
        its next action or a restart), and a failure at the first one changed nothing."""
        tables = sorted(self.tables())
        if not tables:
            return
        table = data.draw(st.sampled_from(tables), label="table")
        person = data.draw(st.sampled_from(PEOPLE), label="person")
        service = self.service
        actions: list[Callable[[], Coroutine[Any, Any, Any]]] = [
            lambda: service.join(table, person, "p"), lambda: service.leave(table, person),
            lambda: service.cancel(table, ADMIN, is_admin=True)]
        if self.tables()[table].match is not None and person in self.seated_people(table) and (
                seat_state := service.private_view(table, person)).to_act:
            rows = _random_rows(seat_state.view.dealt, seat_state.free,
                                seat_state.view.discard_count, random.Random(at))
            actions.append(lambda: service.place(
                table, person, rows, hand_no=seat_state.hand_no, street=seat_state.street,
                seat=seat_state.seat))
        action = data.draw(st.sampled_from(actions), label="action")
        before = self.picture()
        calls: list[str] = []
        task = self.loop.create_task(action())
        parts = [(self.storage.tables, name) for name in MONEY_CALLS] + [
            (self.storage.history, "record_match_end")]
        for part, name in parts:
            setattr(part, name, _failing(getattr(part, name), task, calls, at))
        try:
            self.run(task)
        except DiskFailed:
            self.settle()
            if len(calls) == 1:
                assert self.picture() == before, "a failed first movement changed something"
        except (TableError, StorageError) as error:
            self.settle()
            assert self.picture() == before, f"the refused action changed something: {error}"
        finally:
            for part, name in parts:
                delattr(part, name)
        self.settle()
        self.world.wallets |= {person} if person in self.wallets_in_storage() else set()
        if table in self.tables() and self.tables()[table].pending:
            # The movements left are done before anything else: by a restart, or by the
            # table's next action even when that is refused (a stray click).
            if data.draw(st.booleans(), label="restart"):
                self.restart(crash=data.draw(st.booleans(), label="crash"))
            else:
                with pytest.raises(TableError):
                    self.run(self.service.back(table, ADMIN))
                self.settle()
            assert table not in self.tables() or not self.tables()[table].pending

    def wallets_in_storage(self) -> set[int]:
        with Reader(self.database) as query:
            return {u for (u,) in query("SELECT user_id FROM wallets")}

    # ----------------------------------------------------------------- wallets
    @rule(person=st.sampled_from(PEOPLE))
    def claim_daily(self, person: int) -> None:
        before = self.picture()
        try:
            claim = self.run(self.storage.wallets.claim_daily(GUILD, person,
                                                              now=self.clock.now()))
        except DailyNotReady:
            assert self.picture() == before
            return
        self.note_wallet(person)
        self.world.daily += claim.amount

    @rule(person=st.sampled_from(PEOPLE), amount=st.integers(1, 500))
    def grant(self, person: int, amount: int) -> None:
        self.run(self.storage.wallets.grant(GUILD, person, amount, reason="test",
                                            actor_id=ADMIN, now=self.clock.now()))
        self.note_wallet(person)
        self.world.grants += amount

    @rule(person=st.sampled_from(PEOPLE), amount=st.integers(-1500, 300).filter(bool))
    def correct(self, person: int, amount: int) -> None:
        before = self.picture()
        try:
            self.run(self.storage.wallets.correct(GUILD, person, amount, reason="test",
                                                  actor_id=ADMIN, now=self.clock.now()))
        except StorageError:  # (not below zero)
            assert self.picture() == before
            return
        self.note_wallet(person)
        self.world.corrections += amount

    # ----------------------------------------------------------------- restarts
    @rule(crash=st.booleans())
    def restart(self, crash: bool) -> None:
        """A new service on a new connection restores every open table from storage."""
        self.settle()
        before = self.tables()
        if crash:
            self.run(_crash(self.service))
            self.abandoned.append((self.service, self.storage))
        else:
            self.run(self.service.close())
            self.run(self.storage.close())
        stopped = self.last_save()
        restored = self.restore()
        # (a table whose close a failure interrupted closes as it comes back)
        assert {t for t, s in before.items() if not s.pending} <= set(restored) <= set(before)
        gap = self.clock.now() - stopped
        for table, state in before.items():
            if state.pending:  # (movements a failure left: the restore did them)
                assert table not in self.tables() or not self.tables()[table].pending
                continue
            now = self.service._core.tables[table].state
            if gap <= 0:
                assert now.dumps() == state.dumps()
                continue
            # The clocks stood still for the `gap` no bot ran (R10): every timer is that much
            # later, and the play is the same.
            assert now.last_activity == state.last_activity + gap
            assert now.next_hand_at == (None if state.next_hand_at is None
                                        else state.next_hand_at + gap)
            if state.match is not None:
                assert now.match is not None and now.match.pending() == state.match.pending()
                for seat in state.match.pending():
                    old = state.match.deadline(seat)
                    assert now.match.deadline(seat) == (None if old is None else old + gap)
                assert _play(now.match) == _play(state.match)

    def last_save(self) -> float:
        """The latest save of an open table: when the bot is known to have run."""
        with Reader(self.database) as query:
            return float(query("SELECT coalesce(max(updated_at), 0) FROM live_tables "
                               "WHERE status = 'open'")[0][0])

    def restore(self) -> list[int]:
        """A new service on a new connection, at the same moment, restores the tables."""
        self.storage = self.run(Storage.open(self.database))
        self.clock = FakeClock(self.clock.now())
        self.recorder = Recorder()
        self.service = self._service(self.storage, self.clock, self.recorder)
        self.world.events_checked = 0
        restored = self.run(self.service.restore())
        self.settle()
        return restored

    # ----------------------------------------------------------------- invariants
    @invariant()
    def audited(self) -> None:
        assert audit(self.database) == []

    @invariant()
    def external_chips(self) -> None:
        """Only the starting chips, daily claims, grants and corrections the machine made
        reached the wallets (R12); the house's rows are the computers' own."""
        with Reader(self.database) as query:
            sums = dict(query("SELECT kind, sum(amount) FROM ledger WHERE kind IN "
                              "('start', 'daily', 'grant', 'correction') GROUP BY kind"))
            wallets = {u for (u,) in query("SELECT user_id FROM wallets")}
        world = self.world
        assert wallets == world.wallets
        given = {"start": START * len(wallets), "daily": world.daily, "grant": world.grants,
                 "correction": world.corrections}
        assert {kind: sums.get(kind, 0) for kind in given} == given

    @invariant()
    def snapshots_are_the_truth(self) -> None:
        with Reader(self.database) as query:
            stored = {table: (whole, changes) for table, whole, changes in query(
                "SELECT id, state_json, changes_json FROM live_tables WHERE status = 'open'")}
        states = self.tables()
        assert set(stored) == set(states)
        for table, state in states.items():
            whole, changes = stored[table]
            held = TableState.loads(whole, changes=changes, table_id=table, guild_id=GUILD,
                                    channel_id=state.channel_id)
            assert held.dumps() == state.dumps(), f"table {table}: memory is not storage"

    @invariant()
    def stacks_are_the_chips(self) -> None:
        """The stacks a table's state plays with are the chips storage holds at it (play
        chips at a practice table: none)."""
        with Reader(self.database) as query:
            rows = query("SELECT table_id, user_id, stack FROM table_seats WHERE stack <> 0")
        held: dict[int, dict[int, int]] = {}
        for table, user, stack in rows:
            held.setdefault(table, {})[user] = stack
        for table, state in self.tables().items():
            if state.pending:  # (a failure's movements still to do)
                continue
            if state.practice:
                played: dict[int, int] = {}
            elif state.match is None:
                played = {s.player_id: s.stack for s in state.seats}
            else:
                played = {p.player_id: p.stack for p in state.match.seats if p is not None}
            assert held.get(table, {}) == {u: v for u, v in played.items() if v}

    @invariant()
    def seated_elsewhere(self) -> None:
        """Who sits at another table, as the service's index says, is what the tables hold:
        a lobby's seats, a match's players not out, at tables not closed."""
        tables = self.tables()
        for person in PEOPLE:
            sits = {t for t, s in tables.items() if s.status != "closed" and person in (
                [p.player_id for p in s.seats] if s.match is None else
                [p.player_id for p in s.match.seats if p is not None and p.status != "out"])}
            for table in [*tables, 0]:
                assert self.service.seated_elsewhere(person, table) == bool(sits - {table}), (
                    f"{person} at {sits}, asked for {table}")

    @invariant()
    def cards_and_boards(self) -> None:
        for state in self.tables().values():
            match = state.match
            if match is None or match.hand is None:
                continue
            hand = match.hand
            assert len(set(hand.deck)) == len(hand.deck)
            held = [c for sh in hand.seats.values()
                    for c in (*sh.board.cards, *sh.dealt, *sh.discards)]
            assert len(set(held)) == len(held), f"a card twice in hand {match.hand_no}"
            assert set(held) <= set(hand.deck[:hand.next_card])
            for sh in hand.seats.values():
                for row, size in ROW_SIZES.items():
                    assert len(sh.board.row(row)) <= size
            for player in match.seats:
                assert player is None or player.stack >= 0
            for seat in hand.seats:
                if not match.dealt_to(seat):  # (a placed action's draft is kept, unused)
                    continue
                draft = state.draft(seat)
                assert set(draft) <= set(match.dealt_to(seat)), "a draft of cards not held"
                needs = match.legal_rows(seat)
                room = {row: needs.free(row) for row in ROW_SIZES} | {"discard": needs.discards}
                for row, free in room.items():
                    taken = sum(1 for r in draft.values() if r == row)
                    assert taken <= free, f"a draft past the room of {row}"

    @invariant()
    def showdowns(self) -> None:
        events = self.recorder.events
        for event in events[self.world.events_checked:]:
            if isinstance(event, ShowdownDone):
                hypothesis_event("shown down")
                seats = event.view.seats
                assert sum(s.points for s in seats) == 0
                assert sum(s.chips for s in seats) == 0
                assert all(s.stack_after >= 0 for s in seats)
                assert all(s.board.complete for s in seats)
        self.world.events_checked = len(events)


class DiskFailed(Exception):
    """The database failing under the service (a full disk, a lost connection)."""


MONEY_CALLS = ("buy_in", "cash_out", "settle_hand", "close_table", "refund_table")


def _failing(method: Callable[..., Coroutine[Any, Any, T]], task: "asyncio.Task[Any]",
             calls: list[str], at: int) -> Callable[..., Coroutine[Any, Any, T]]:
    """`method`, failing at `task`'s `at`-th call of any method so wrapped (calls from other
    tasks, whose order depends on timing, pass: the failure point replays exactly)."""
    async def failing(*args: Any, **kwargs: Any) -> T:
        if asyncio.current_task() is task:
            calls.append(method.__name__)
            if len(calls) == at + 1:
                raise DiskFailed(method.__name__)
        return await method(*args, **kwargs)
    return failing


def _play(match: Match) -> tuple[object, ...]:
    """What a match's play is, its clocks aside: the hand, the street, whose turn, and each
    seat's stack, board, cards to place and whether it is away."""
    view = match.public_view()
    return (view.hand_no, view.street, view.to_act,
            tuple((s.seat, s.stack, s.board, s.hidden_cards, s.away, s.acted,
                   match.dealt_to(s.seat)) for s in view.seats))


async def _crash(service: TableService) -> None:
    """Stop a service as a crash would: its tasks end, nothing more is saved."""
    core = service._core
    core.closing = True
    tasks = list(core._tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _random_rows(dealt: tuple[int, ...], free: dict[str, int], discards: int,
                 rng: random.Random) -> dict[int, str]:
    """A legal action from what the controls show: the discards due, the rest in rows with
    room, at random."""
    cards = list(dealt)
    rng.shuffle(cards)
    places = [row for row in ("top", "middle", "bottom") for _ in range(free[row])]
    rng.shuffle(places)
    return {card: ("discard" if i < discards else places[i - discards])
            for i, card in enumerate(cards)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_table_service_machine(backend: str, request: pytest.FixtureRequest,
                               tmp_path: Path) -> None:
    postgres = postgres_of(request) if backend == "postgresql" else None
    count = iter(range(10**9))

    class OnBackend(TableMachine):
        def new_database(self) -> str:
            if postgres is None:
                return str(tmp_path / f"ofc{next(count)}.sqlite3")
            return self.run(postgres.empty("machine"))

    run_state_machine_as_test(
        OnBackend,
        settings=settings(max_examples=int(HUNT or EXAMPLES[backend]),
                          stateful_step_count=STEPS, deadline=None, database=None,
                          derandomize=HUNT is None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.filter_too_much]))
