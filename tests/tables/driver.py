"""Test helpers: an event recorder, people who play through the button path, chip totals."""

from collections.abc import Iterable, Sequence
from typing import TypeVar

from bot.ai.players import AIPlayers, Settings, decide
from bot.storage import SanctionRecord, Storage, TournamentResult
from bot.tables import FakeClock, ServiceSettings, TableEvent, TableService
from bot.tables.match_runner import FAST
from bot.tables.state import TableState
from tests.backends import Reader

GUILD = 10
CHANNEL = 20
ALICE = 101
BOB = 102
CAROL = 103
START = 1000  # storage's default starting chips

E = TypeVar("E", bound=TableEvent)

# Strong computers on a small playout budget: reproducible and quick.
QUICK_AI = AIPlayers(seconds=None, playouts=6)


class Recorder:
    """A listener keeping every event, and every batch as the listener got it."""

    def __init__(self) -> None:
        self.batches: list[list[TableEvent]] = []

    async def __call__(self, events: Sequence[TableEvent]) -> None:
        self.batches.append(list(events))

    @property
    def events(self) -> list[TableEvent]:
        return [e for batch in self.batches for e in batch]

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    def clear(self) -> None:
        self.batches.clear()


async def act(service: TableService, table_id: int, player_id: int,
              settings: Settings | None = None) -> None:
    """Play the seat's pending action the way the DM buttons do: one draft click per placed
    card, then Confirm (the discard is left for Confirm to fill in); the cards where the
    easy computer (or `settings`' computer) would put them."""
    state = service.private_view(table_id, player_id)
    choice = decide(state.view, settings or Settings(level="easy"))
    for card, row in choice.items():
        if row != "discard":
            await service.set_draft(table_id, player_id, hand_no=state.hand_no,
                                    street=state.street, card=card, row=row, seat=state.seat)
    await service.confirm(table_id, player_id, hand_no=state.hand_no, street=state.street,
                          seat=state.seat)


async def play(service: TableService, clock: FakeClock, table_id: int,
               people: Iterable[int], max_steps: int = 10_000) -> None:
    """Run the table to its end: people act whenever it is their turn, computers on their
    own, and the clock jumps to the next timer when nobody can act."""
    people = list(people)
    for _ in range(max_steps):
        await service.idle()
        if table_id not in service.live_tables():
            return
        acted = False
        for pid in people:
            seated = pid in service.seats(table_id).values()
            if seated and service.private_view(table_id, pid).to_act:
                await act(service, table_id, pid)
                acted = True
        if not acted and not await clock.advance_to_next():
            raise AssertionError("the table is stuck")
    raise AssertionError("the table did not finish")


async def stored(storage: Storage, table_id: int) -> str:
    """The table's whole snapshot as storage holds it: the last whole one, with the changes
    saved since applied (runtime.py)."""
    return TableState.stored(await storage.tables.table(table_id)).dumps()


def chips(database: str, guild: int = GUILD) -> tuple[dict[int, int], dict[int, int], int]:
    """(wallets, stacks at open tables, external chips) read with plain sqlite3 or asyncpg."""
    with Reader(database) as query:
        wallets = dict(query(
            "SELECT user_id, balance FROM wallets WHERE guild_id = ?", (guild,)))
        stacks = dict(query(
            "SELECT s.user_id, sum(s.stack) FROM table_seats AS s JOIN live_tables AS t "
            "ON t.id = s.table_id WHERE t.status = 'open' GROUP BY s.user_id"))
        external = query(
            "SELECT coalesce(sum(amount), 0) FROM ledger WHERE guild_id = ? AND kind IN "
            "('start', 'daily', 'grant', 'correction', 'house')", (guild,))[0][0]
    return wallets, stacks, external


def fresh_service(storage: Storage, now: float,
                  settings: ServiceSettings = FAST) -> tuple[TableService, FakeClock, Recorder]:
    """A new service on `storage` (a restart, or other settings), its clock and recorder."""
    clock = FakeClock(now)
    service = TableService(storage, clock, QUICK_AI, settings)
    recorder = Recorder()
    service.add_listener(recorder)
    return service, clock, recorder


async def populated(database: str) -> int:
    """A database with something in every table, through the table service: a finished match
    of two people and a computer, a table still in play mid-hand (its id is returned), daily
    claims and a grant, a server's settings, a player's preferences, a tournament's pool and
    a sanction, a finished tournament's result, and the lease of a bot process that stopped
    without releasing it (it has expired: a bot on the copy claims its shard as usual)."""
    storage = await Storage.open(database)
    try:
        service, clock, _ = fresh_service(storage, 1000.0)
        done = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                           {"format": "hands", "hands": 2}, seed=3)).table_id
        await service.join(done, BOB, "Bob")
        await service.add_computer(done, ALICE, "easy", is_admin=True)
        await service.start(done, ALICE)
        await play(service, clock, done, [ALICE, BOB])
        live = (await service.create_table(GUILD, CHANNEL + 1, CAROL, "Carol",
                                           seed=4)).table_id
        await service.join(live, ALICE, "Alice")
        await service.start(live, CAROL)
        first = next(p for p in (ALICE, CAROL) if service.private_view(live, p).to_act)
        await act(service, live, first)
        await service.close()
        now = clock.now()
        await storage.wallets.claim_daily(GUILD, BOB, now=now)
        await storage.wallets.grant(GUILD, CAROL, 50, reason="welcome", actor_id=ALICE, now=now,
                                    key="grant:carol")
        await storage.settings.update_guild_settings(GUILD, actor_id=ALICE, now=now,
                                                     daily_chips=300)
        await storage.preferences.set_preferences(BOB, now=now, four_colour=True)
        tournaments = storage.tournaments
        tournament = await tournaments.create_tournament(GUILD, CHANNEL + 2, "{}", now=now)
        await tournaments.tournament_move(tournament, BOB, 100, "buy_in", key="t:bob", now=now)
        await tournaments.record_sanctions(
            tournament, [("t:warn", SanctionRecord(BOB, "warning", 0, "late", 1, ALICE, False,
                                                   now))], now=now, snapshot="{}")
        over = await tournaments.create_tournament(GUILD, CHANNEL + 3, '{"tables": []}', now=now)
        await tournaments.tournament_move(over, CAROL, 10, "buy_in", key=f"T{over}:in", now=now)
        await tournaments.tournament_move(over, CAROL, 10, "prize", key=f"T{over}:prize", now=now)
        await tournaments.save_tournament(over, '{"tables": []}', now=now, status="finished",
                                          results=[TournamentResult(CAROL, 1, 1, 10, 0, False)])
        await storage.leases.claim_shards("crashed-bot", 1, [0], now=now, seconds=30)
    finally:
        await storage.close()
    return live
