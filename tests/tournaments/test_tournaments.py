"""Shootout tournaments through the real table service on a fake clock (RULES.md R13).
tests/conftest.py's storage fixture audits every chip after each test."""

from collections.abc import AsyncIterator
from dataclasses import replace
from itertools import count

import pytest

from bot.ai.players import Settings
from bot.engine.cards import Card
from bot.engine.deal import shuffled_deck
from bot.engine.rules import TableRules
from bot.engine.tournament import Tournament, TournamentTable, draw
from bot.storage import Storage, Tournaments
from bot.tables import FakeClock, TableService
from bot.tables.match_runner import FAST
from bot.tournaments import TournamentChanged, TournamentDirector, TournamentError
from bot.tournaments.limits import UNLIMITED, TournamentLimits
from tests.tables.driver import ALICE, BOB, CAROL, CHANNEL, GUILD, QUICK_AI, START, act

DAVE = 104
EVE = 105
DIRECTOR = 900
OPTIONS = {"buy_in": 100, "turn_seconds": 10, "time_bank_seconds": 0}
SHORT = replace(UNLIMITED, min_hands=1)  # short tables, no cooldowns: the rules under test
STRONG = Settings(level="strong", seed=1, seconds=None, playouts=6)  # a member's helper


class Bot:
    """A table service and a tournament service over one storage, as the bot runs them."""

    def __init__(self, storage: Storage, clock: FakeClock,
                 limits: TournamentLimits = SHORT) -> None:
        self.clock = clock
        self.tables = TableService(storage, clock, QUICK_AI, FAST)
        threads = count(5000)
        self.opened: list[tuple[int, int, int]] = []
        self.refuse = False  # the bot lacks the permission to open threads

        async def opener(t: Tournament, table: TournamentTable) -> int:
            if self.refuse:
                raise TournamentError("no threads")
            self.opened.append((t.tournament_id, table.level, table.index))
            return next(threads)

        self.service = TournamentDirector(storage, self.tables, clock, opener, limits,
                                          seeded_tables=True)
        self.changes: list[TournamentChanged] = []

        async def listen(changed: TournamentChanged) -> None:
            self.changes.append(changed)

        self.service.add_listener(listen)

    async def run(self, tid: int, until: int | None = None) -> None:
        """Play on (people are placed for by R10) until the tournament is over, or until
        level `until` has started."""
        for _ in range(20_000):
            await self.service.idle()
            live = {t.tournament_id: t for t in self.service.live()}
            if tid not in live or (until is not None and live[tid].level >= until):
                return
            if not await self.clock.advance_to_next():
                raise AssertionError("the tournament is stuck")
        raise AssertionError("the tournament did not end")

    async def play(self, tid: int, people: list[int]) -> None:
        """Play on until the tournament is over, `people` acting at every turn of theirs
        through the buttons' path, each card where the strong computer would put it."""
        for _ in range(20_000):
            await self.service.idle()
            t = next((x for x in self.service.live() if x.tournament_id == tid), None)
            if t is None:
                return
            acted = False
            for table in t.current_tables:
                if table.status != "playing" or table.table_id not in self.tables.live_tables():
                    continue
                for person in people:
                    if person in table.players and self.tables.private_view(
                            table.table_id, person).to_act:
                        await act(self.tables, table.table_id, person, STRONG)
                        acted = True
            if not acted and not await self.clock.advance_to_next():
                raise AssertionError("the tournament is stuck")
        raise AssertionError("the tournament did not end")

    async def close(self) -> None:
        await self.service.idle()
        await self.service.close()
        await self.tables.close()

    def reasons(self) -> list[str]:
        return [c.reason for c in self.changes]


@pytest.fixture
async def bot(storage: Storage, clock: FakeClock) -> AsyncIterator[Bot]:
    running = Bot(storage, clock)
    yield running
    await running.close()


async def create(bot: Bot, players: list[int], computers: int = 0, *, seats: int = 3,
                 payouts: tuple[int, ...] = (100,), seed: int = 3,
                 buy_in: int = 50) -> Tournament:
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=buy_in, seats=seats, hands=2,
                                 payouts=payouts, options=OPTIONS, window_seconds=600,
                                 seed=seed)
    for player in players:
        await bot.service.join(t.tournament_id, player, f"P{player}")
    for _ in range(computers):
        await bot.service.add_computer(t.tournament_id, DIRECTOR, "easy")
    return t


async def balance(storage: Storage, user: int) -> int:
    return (await storage.wallets.wallet(GUILD, user, now=0.0)).balance


async def restarted(storage: Storage, clock: FakeClock) -> Bot:
    """A new bot on the same storage after a stop: its tournaments, then its tables, restored
    in the order the bot restores them."""
    bot = Bot(storage, clock)
    await bot.service.restore()
    await bot.tables.restore()
    return bot


async def heads_up(bot: Bot, hands: int, options: dict[str, object] = OPTIONS,
                   **create: object) -> int:
    """ALICE and BOB at one heads-up table (the final), started: the tournament's id."""
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=hands,
                                 options=options, seed=3, **create)  # type: ignore[arg-type]
    for player in (ALICE, BOB):
        await bot.service.join(t.tournament_id, player, f"P{player}")
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.service.idle()
    return t.tournament_id


async def all_but_the_last_action(bot: Bot, table_id: int) -> int:
    """Both seats of a heads-up table act, the easy computer's way, every action of its hand
    but the last: the player whose action that is."""
    for _ in range(20):
        view = bot.tables.public_view(table_id)
        assert view is not None
        (seat,) = view.to_act
        late = view.seats[seat].player_id
        if all(len(s.board.cards) == 13 for s in view.seats if s.seat != seat) and len(
                view.seats[seat].board.cards) == 11:
            return late
        await act(bot.tables, table_id, late)
        await bot.service.idle()
    raise AssertionError("the hand did not come to its last action")


async def test_registration_moves_buy_ins_into_the_pool(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB], computers=1)
    # a computer pays none
    assert (await storage.tournaments.tournament(t.tournament_id)).pool == 100
    assert await balance(storage, ALICE) == START - 50
    with pytest.raises(TournamentError, match="already registered"):
        await bot.service.join(t.tournament_id, ALICE, "again")
    await bot.service.leave(t.tournament_id, BOB)
    assert await balance(storage, BOB) == START
    with pytest.raises(TournamentError, match="director"):
        await bot.service.start(t.tournament_id, ALICE)


async def test_leaving_and_coming_back_pays_and_refunds_every_time(bot: Bot,
                                                                   storage: Storage) -> None:
    # Each registration moves its own buy-in, each leave its own refund, however the entries
    # come and go: the pool is always 50 per player registered.
    t = await create(bot, [CAROL])
    tid = t.tournament_id
    steps = [("join", BOB), ("leave", BOB), ("leave", CAROL), ("join", BOB), ("join", CAROL),
             ("leave", BOB), ("join", BOB), ("join", ALICE), ("leave", CAROL)]
    for step, player in steps:
        if step == "join":
            await bot.service.join(tid, player, f"P{player}")
        else:
            await bot.service.leave(tid, player)
        registered = {e.player_id for e in bot.service.tournament(tid).entries}
        assert (await storage.tournaments.tournament(tid)).pool == 50 * len(registered)
        for who in (ALICE, BOB, CAROL):
            assert await balance(storage, who) == START - 50 * (who in registered)
    assert registered == {ALICE, BOB}


async def test_one_tournament_a_channel_until_it_ends(bot: Bot) -> None:
    t = await create(bot, [ALICE])
    with pytest.raises(TournamentError, match="already has a tournament"):
        await create(bot, [BOB])
    assert [x.tournament_id for x in bot.service.live()] == [t.tournament_id]
    await bot.service.cancel(t.tournament_id, DIRECTOR)
    again = await create(bot, [BOB])  # the channel is free once the first one is over
    assert bot.service.for_channel(CHANNEL) is again


async def test_registration_closes_by_itself_when_its_window_ends(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB])  # a window of 600 s
    tid = t.tournament_id
    await bot.clock.advance(599)
    assert bot.service.tournament(tid).status == "registering"
    await bot.clock.advance(1)
    await bot.service.idle()
    assert bot.service.tournament(tid).status == "closed"
    assert bot.reasons()[-1] == "closed"
    stored = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert stored.status == "closed"
    with pytest.raises(TournamentError, match="Registration is closed"):
        await bot.service.join(tid, CAROL, "late")
    with pytest.raises(TournamentError, match="Registration is closed"):
        await bot.service.leave(tid, BOB)
    assert await balance(storage, CAROL) == START and await balance(storage, BOB) == START - 50
    await bot.service.start(tid, DIRECTOR)  # the director starts it
    await bot.run(tid)
    assert (await storage.tournaments.tournament(tid)).status == "finished"


async def test_a_window_that_ends_with_one_player_cancels_and_refunds(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE])
    await bot.clock.advance(600)
    await bot.service.idle()
    assert bot.service.live() == []
    assert bot.reasons()[-1] == "cancelled"
    assert await balance(storage, ALICE) == START
    record = await storage.tournaments.tournament(t.tournament_id)
    assert (record.pool, record.status) == (0, "cancelled")


async def test_a_whole_tournament_seated_by_lot_heads_up_when_odd(bot: Bot,
                                                                storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], computers=1, payouts=(65, 35))
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    level1 = bot.service.tournament(tid).current_tables
    assert sorted(len(table.players) for table in level1) == [2, 3]  # five: 3 + heads-up
    order = [p for table in level1 for p in table.players]
    assert order == draw([e.player_id for e in t.entries], t.seed, 1)
    names = {e.player_id: e.name for e in t.entries if e.ai_level is not None}
    seated = [s.name for table in level1 if table.table_id is not None
              for s in bot.tables.lobby(table.table_id).seats if s.ai_level is not None]
    assert sorted(seated) == sorted(names.values())  # computers named as in the standings
    for person in (ALICE, BOB):  # at a table on chips the house lent: ranked by the wallet
        row = await storage.wallets.rank_of(GUILD, person)
        assert row is not None and (row.balance, row.at_tables) == (START - 50, 0)
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.status == "finished" and final.level == 2
    assert len(final.current_tables) == 1 and len(final.current_tables[0].players) == 2
    people = [p for p in final.placings if not p.computer]
    assert [p.prize for p in people] == [130, 70, 0, 0]  # 65/35 of the people's 200
    assert len(final.placings) == 5  # the computer is placed too
    record = await storage.tournaments.tournament(tid)
    assert (record.pool, record.status) == (0, "finished")
    assert [c.reason for c in bot.changes].count("finished") == 1
    for person in (ALICE, BOB, CAROL, DAVE):  # the stakes went back: buy-in and prize moved
        prize = next(p.prize for p in final.placings if p.player_id == person)
        assert await balance(storage, person) == START - 50 + prize


async def test_warnings_penalties_and_exclusion(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL], seats=3)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    with pytest.raises(TournamentError, match="director"):
        await bot.service.warn(tid, ALICE, BOB, "no")
    await bot.service.penalty(tid, DIRECTOR, ALICE, 10, "time")
    await bot.service.warn(tid, DIRECTOR, BOB, "slow")
    assert (await bot.service.warn(tid, DIRECTOR, BOB, "mucked open")).points == 25
    assert (await bot.service.warn(tid, DIRECTOR, BOB, "again")).excluded
    standing = bot.service.tournament(tid)
    assert standing.entry(BOB).status == "excluded"  # type: ignore[union-attr]
    assert standing.penalty_points(ALICE) == 10 and standing.warnings(BOB) == 3
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.kind, s.user_id, s.points) for s in recorded] == [
        ("penalty", ALICE, 10), ("warning", BOB, 0), ("warning", BOB, 25), ("warning", BOB, 0)]
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.placings[0].player_id != BOB and final.placings[-1].player_id == BOB


async def test_cancel_refunds_everyone_still_in(bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    for _ in range(3):
        await bot.service.warn(tid, DIRECTOR, DAVE, "unsporting")
    await bot.service.cancel(tid, DIRECTOR)
    await bot.service.idle()
    assert bot.tables.live_tables() == []
    for person in (ALICE, BOB, CAROL):
        assert await balance(storage, person) == START
    assert await balance(storage, DAVE) == START - 50  # excluded: no refund
    record = await storage.tournaments.tournament(tid)
    assert (record.pool, record.status) == (50, "cancelled")


@pytest.mark.parametrize("stage", ["registering", "closed", "level 1", "final"])
async def test_a_restart_resumes_where_it_was(storage: Storage, clock: FakeClock,
                                              stage: str) -> None:
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB, CAROL, DAVE], seats=2)  # people wait on the clock
    tid = t.tournament_id
    if stage == "closed":
        await clock.advance(600)
        await first.service.idle()
    elif stage != "registering":
        await first.service.start(tid, DIRECTOR)
        await first.run(tid, until=1 if stage == "level 1" else 2)
    await first.close()

    second = Bot(storage, clock)
    assert await second.service.restore() == [tid]
    await second.tables.restore()
    if stage == "registering":
        await second.service.join(tid, EVE, "Eve")
        await clock.advance(600)  # the window, armed again at the restart, ends
        await second.service.idle()
        assert second.service.tournament(tid).status == "closed"
        await second.service.start(tid, DIRECTOR)
    elif stage == "closed":
        assert second.service.tournament(tid).status == "closed"
        await second.service.start(tid, DIRECTOR)
    else:
        assert second.service.tournament(tid).level == (1 if stage == "level 1" else 2)
    await second.run(tid)
    await second.close()
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.status == "finished"
    assert sum(p.prize for p in final.placings) == final.pool


async def test_tables_that_ended_unheard_before_a_restart_count(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    async def deaf(self: TournamentDirector, events: object) -> None:
        return None  # the bot stops before it hears of the tables' ends

    monkeypatch.setattr(TournamentDirector, "_on_table_events", deaf)
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB], computers=2, seats=2, buy_in=0)
    tid = t.tournament_id
    await first.service.start(tid, DIRECTOR)
    for _ in range(5000):
        await first.tables.idle()
        if not first.tables.live_tables():
            break
        await clock.advance_to_next()
    assert first.service.tournament(tid).level == 1
    assert all(table.status == "playing" for table in first.service.tournament(tid).tables)
    await first.close()
    monkeypatch.undo()

    second = await restarted(storage, clock)
    await second.run(tid)
    await second.close()
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.status == "finished" and final.level == 2
    assert all(table.winner is not None for table in final.tables)


async def test_tournament_tables_have_no_hints_even_where_the_server_has_them(
        bot: Bot, storage: Storage) -> None:
    """Hints (R10) are help; a shootout (R13) is played without them."""
    await storage.settings.update_guild_settings(GUILD, actor_id=DIRECTOR, now=0.0,
                                                 table_options={"hints": "on"})
    t = await create(bot, [ALICE, BOB])
    assert t.options["hints"] == "off"


async def test_a_window_that_ended_while_the_bot_was_off_closes_at_the_restart(
        storage: Storage, clock: FakeClock) -> None:
    first = Bot(storage, clock)
    t = await create(first, [ALICE])
    await first.close()  # its timer stops with it
    await clock.advance(3600)  # nobody sleeps: only the time moves
    assert (await storage.tournaments.tournament(t.tournament_id)).status == "open"

    second = Bot(storage, clock)
    await second.service.restore()
    await second.service.idle()
    assert second.reasons() == ["cancelled"]  # one player: it can never start
    assert await balance(storage, ALICE) == START
    await second.close()


async def test_an_away_player_stays_and_every_table_plays_all_its_hands(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB], seats=2)  # nobody acts: placed for (R10), away
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)
    (match,) = await storage.history.recent_matches(GUILD, ALICE, limit=5)
    assert match.hands >= 2  # 2 hands a table (3 with a Fantasyland hand); nobody sat out
    final = Tournament.from_json((await storage.tournaments.tournament(t.tournament_id)).state_json)
    assert final.status == "finished"


async def test_a_table_cancelled_with_ofc_cancel_is_decided_on_its_hands(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2, payouts=(65, 35))
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    await bot.service.idle()
    cut = bot.service.tournament(tid).current_tables[0]
    assert cut.table_id is not None
    await bot.tables.cancel(cut.table_id, DIRECTOR)  # /ofc cancel in its thread
    await bot.service.idle()
    cut = bot.service.tournament(tid).table(1, cut.index)
    assert cut.status == "done" and cut.early
    assert "table closed early" in bot.reasons()
    # The hand in play was completed and settled (the table service's cancel): its points
    # are the table's, zero-sum (R5), and the better player goes on.
    (match,) = await storage.history.recent_matches(GUILD, cut.players[0], limit=5)
    assert match.hands == 1
    assert sum(cut.points.values()) == 0
    assert {p: match.player(p).net_points for p in cut.players} == cut.points
    low, high = sorted(cut.players, key=lambda p: cut.points[p])
    assert cut.winner == high or cut.points[low] == cut.points[high]  # a tie: the lot
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.status == "finished" and final.level == 2
    assert cut.winner in final.tables[-1].players
    record = await storage.tournaments.tournament(tid)
    assert (record.pool, record.status) == (0, "finished")
    for placing in final.placings:  # only the buy-in and the prize touched a wallet
        assert await balance(storage, placing.player_id) == START - 50 + placing.prize


async def test_a_start_whose_threads_cannot_open_changes_nothing(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB])
    bot.refuse = True
    with pytest.raises(TournamentError, match="no threads"):
        await bot.service.start(t.tournament_id, DIRECTOR)
    assert bot.service.tournament(t.tournament_id).status == "registering"
    record = await storage.tournaments.tournament(t.tournament_id)
    stored = Tournament.from_json(record.state_json)
    assert stored.status == "registering" and stored.tables == []
    assert bot.tables.live_tables() == [] and "started" not in bot.reasons()
    assert (await storage.tournaments.tournament(t.tournament_id)).pool == 100
    bot.refuse = False
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)


async def test_a_level_that_cannot_open_waits_for_the_directors_start(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL, DAVE], seats=2)
    tid = t.tournament_id
    await bot.service.start(tid, DIRECTOR)
    bot.refuse = True  # the bot loses the permission during level 1
    for _ in range(20_000):
        await bot.service.idle()
        if bot.service.tournament(tid).level == 2:
            break
        assert await bot.clock.advance_to_next()
    await bot.service.idle()
    (final,) = bot.service.tournament(tid).current_tables
    assert final.status == "waiting" and final.table_id is None
    blocked = [c for c in bot.changes if c.reason == "blocked"]
    assert [str(c.detail) for c in blocked] == ["no threads"]
    for person in (ALICE, BOB, CAROL, DAVE):  # no stakes lent for a table not opened
        assert await balance(storage, person) == START - 50
    bot.refuse = False
    await bot.service.start(tid, DIRECTOR)  # granted again: the director opens it
    with pytest.raises(TournamentError, match="already started"):
        await bot.service.start(tid, DIRECTOR)
    await bot.run(tid)
    assert (await storage.tournaments.tournament(tid)).status == "finished"


async def test_closing_registration_is_tried_again_after_a_storage_failure(
        bot: Bot, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    t = await create(bot, [ALICE, BOB])
    real = Tournaments.save_tournament
    failures = [RuntimeError("disk full")]

    async def flaky(self: Tournaments, *args: object, **kwargs: object) -> None:
        if failures:
            raise failures.pop()
        await real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Tournaments, "save_tournament", flaky)
    await bot.clock.advance(600)
    await bot.service.idle()
    assert bot.service.tournament(t.tournament_id).status == "registering"  # as saved
    assert "closed" not in bot.reasons()
    await bot.clock.advance(5)
    await bot.service.idle()
    assert bot.service.tournament(t.tournament_id).status == "closed"
    record = await storage.tournaments.tournament(t.tournament_id)
    stored = Tournament.from_json(record.state_json)
    assert stored.status == "closed"


async def test_ties_at_a_table_go_to_the_lot_drawn_from_the_seed(storage: Storage,
                                                                 clock: FakeClock) -> None:
    """R13's tie rule through the services: heads-up tables of one hand where nobody acts
    (R10 places for them) often end 0 to 0 (two fouled boards score nothing); then the lot
    of (seed, level, table) decides, else the most points."""
    ties = 0
    for seed in range(1, 9):
        bot = Bot(storage, clock)
        t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=1,
                                     options={**OPTIONS, "fantasy": "off"}, window_seconds=600,
                                     seed=seed)
        for player in (ALICE, BOB):
            await bot.service.join(t.tournament_id, player, f"P{player}")
        await bot.service.start(t.tournament_id, DIRECTOR)
        await bot.run(t.tournament_id)
        await bot.close()
        (table,) = Tournament.from_json(
            (await storage.tournaments.tournament(t.tournament_id)).state_json).tables
        if table.points[ALICE] == table.points[BOB]:
            ties += 1
            assert table.winner == draw([ALICE, BOB], seed, 1, "tie0")[0]
        else:
            assert table.winner == max(table.points, key=table.points.__getitem__)
    assert ties >= 2  # the lot was put to the test


async def test_tables_play_at_point_value_one_and_keep_away_players(bot: Bot) -> None:
    tid = await heads_up(bot, 2, {**OPTIONS, "point_value": 500})
    (table,) = bot.service.tournament(tid).current_tables
    assert table.table_id is not None
    assert bot.tables.lobby(table.table_id).rules.hints == "off"
    rules = bot.tables.lobby(table.table_id).rules
    assert (rules.point_value, rules.sit_out_when_away) == (1, False)


# ------------------------------------------------------------------ no chips from nowhere
async def test_the_mint_yields_nothing(bot: Bot, storage: Storage) -> None:
    """A member with a buy-in tournament of easy computers, playing every hand as the
    strong computer would: computers only fill the member's table, pay no buy-in and win no
    prize, so whatever the member's place, their wallet ends where it began; the house gave
    nothing."""
    for seed in (1, 2, 3):
        t = await create(bot, [ALICE], seed=seed)
        tid = t.tournament_id
        await bot.service.add_computer(tid, DIRECTOR, "easy")
        await bot.service.add_computer(tid, DIRECTOR, "easy")
        with pytest.raises(TournamentError, match="only fill the people's tables"):
            await bot.service.add_computer(tid, DIRECTOR, "easy")
        assert (await storage.tournaments.tournament(tid)).pool == 50
        await bot.service.start(tid, DIRECTOR)
        await bot.play(tid, [ALICE])
        final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
        assert final.status == "finished" and len(final.placings) == 3
        assert [p.prize for p in final.placings if not p.computer] == [50]
        assert await balance(storage, ALICE) == START
    report = await storage.audit()
    assert report.ok, report.problems


async def test_a_free_tournament_of_computers_plays_one_computer_table_at_a_time(
        storage: Storage, clock: FakeClock) -> None:
    limits = replace(SHORT, computer_tables_per_member=1, computers_per_tournament=9)
    bot = Bot(storage, clock, limits)
    t = await create(bot, [], computers=9, buy_in=0)  # three tables of computers
    with pytest.raises(TournamentError, match="at most 9 computers"):
        await bot.service.add_computer(t.tournament_id, DIRECTOR)
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)
    await bot.close()
    final = Tournament.from_json((await storage.tournaments.tournament(t.tournament_id)).state_json)
    level1 = [table for table in final.tables if table.level == 1]
    assert [table.by_lot for table in level1] == [False, True, True]
    assert all(table.winner is not None for table in final.tables)
    lot = [table for table in level1 if table.by_lot]
    for table in lot:  # no hand played: the lot from the seed decides
        assert table.table_id is None
        assert table.winner == draw(list(table.players), final.seed, 1, f"tie{table.index}")[0]
    assert final.status == "finished" and final.placings[0].prize == 0


async def test_cooldowns_and_caps_per_member_and_per_server(storage: Storage,
                                                            clock: FakeClock) -> None:
    limits = TournamentLimits(min_hands=1)  # the bot's numbers
    bot = Bot(storage, clock, limits)
    first = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=0, hands=1)
    with pytest.raises(TournamentError, match="Wait 60 s before opening"):
        await bot.service.create(GUILD, CHANNEL + 1, ALICE, buy_in=0, hands=1)
    await clock.advance(limits.create_server_seconds)
    with pytest.raises(TournamentError, match="Wait 540 s before opening"):
        await bot.service.create(GUILD, CHANNEL + 1, DIRECTOR, buy_in=0, hands=1)
    await clock.advance(limits.create_member_seconds)
    with pytest.raises(TournamentError, match="already direct 1 tournament"):
        await bot.service.create(GUILD, CHANNEL + 1, DIRECTOR, buy_in=0, hands=1)
    for n, member in enumerate((ALICE, BOB), start=1):
        await bot.service.create(GUILD, CHANNEL + n, member, buy_in=0, hands=1)
        await clock.advance(limits.create_server_seconds)
    with pytest.raises(TournamentError, match="server already has 3 tournaments"):
        await bot.service.create(GUILD, CHANNEL + 3, CAROL, buy_in=0, hands=1)
    await bot.service.create(GUILD + 1, CHANNEL + 9, CAROL, buy_in=0, hands=1)  # elsewhere

    tid = first.tournament_id
    await bot.service.add_computer(tid, DIRECTOR)
    with pytest.raises(TournamentError, match="Wait 3 s before adding"):
        await bot.service.add_computer(tid, DIRECTOR)
    for _ in range(limits.computers_per_tournament - 1):
        await clock.advance(limits.computer_member_seconds)
        await bot.service.add_computer(tid, DIRECTOR)
    await clock.advance(limits.computer_member_seconds)
    with pytest.raises(TournamentError, match="at most 8 computers"):
        await bot.service.add_computer(tid, DIRECTOR)
    assert len(bot.service.tournament(tid).entries) == 8

    await bot.service.start(tid, DIRECTOR)
    other = bot.service.for_channel(CHANNEL + 1)
    assert other is not None
    await bot.service.join(other.tournament_id, ALICE, "Alice")
    await bot.service.join(other.tournament_id, BOB, "Bob")
    with pytest.raises(TournamentError, match="Wait 10 s before starting"):
        await bot.service.start(other.tournament_id, ALICE)
    await clock.advance(limits.start_server_seconds)
    await bot.service.start(other.tournament_id, ALICE)
    await bot.close()


# ------------------------------------------------------------------ seed 001
async def test_tournament_tables_follow_seed_001_by_default(bot: Bot, storage: Storage,
                                                            clock: FakeClock) -> None:
    t = await create(bot, [ALICE, BOB])
    assert t.options["fantasy_stay_full_house_middle"] is True  # seed 001's Fantasyland
    assert t.clock_penalty
    seeded = Bot(storage, clock, TournamentLimits())
    with pytest.raises(TournamentError, match="at least 20"):
        await seeded.service.create(GUILD, CHANNEL + 1, DIRECTOR, buy_in=0, hands=19)
    made = await seeded.service.create(GUILD, CHANNEL + 1, DIRECTOR, buy_in=0)
    assert made.hands == 20
    await seeded.service.cancel(made.tournament_id, DIRECTOR)
    await seeded.close()


async def test_a_live_tournament_deals_its_tables_unpredictably(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """R1: a tournament as the bot runs it (the director made as the bot makes it, no seed
    chosen) shuffles every table's hands from the system's unpredictable source. Its recorded
    seed draws the seating lots and is kept with the tournament: whoever reads that record
    must not be able to compute the cards still to come."""
    shuffles: list[int | None] = []

    def recorded(rules: TableRules, seed: int | None, hand_no: int) -> list[Card]:
        shuffles.append(seed)
        return shuffled_deck(rules, seed, hand_no)

    monkeypatch.setattr("bot.engine.match.shuffled_deck", recorded)
    tables = TableService(storage, clock, QUICK_AI, FAST)
    threads = count(7000)

    async def opener(t: Tournament, table: TournamentTable) -> int:
        return next(threads)

    service = TournamentDirector(storage, tables, clock, opener, SHORT)
    try:
        t = await service.create(GUILD, CHANNEL, DIRECTOR, buy_in=0, seats=2, hands=1,
                                 options=OPTIONS)
        for player in (ALICE, BOB, CAROL, DAVE):
            await service.join(t.tournament_id, player, f"P{player}")
        await service.start(t.tournament_id, DIRECTOR)
        await service.idle()
        assert len(service.tournament(t.tournament_id).current_tables) == 2
        assert shuffles == [None, None]  # each table's first hand
    finally:
        await service.idle()
        await service.close()
        await tables.close()


@pytest.mark.parametrize("called", [True, False])
async def test_a_timeout_at_a_tournament_table_is_a_called_clock(
        bot: Bot, storage: Storage, called: bool) -> None:
    # Nobody acts: each player's first turn runs out (then R10 places for them, away).
    t = await bot.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=1,
                                 options=OPTIONS, seed=3, clock_penalty=called)
    for player in (ALICE, BOB):
        await bot.service.join(t.tournament_id, player, f"P{player}")
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)
    recorded = await storage.tournaments.sanctions(t.tournament_id)
    expected = [("penalty", 10, 1), ("warning", 0, 1)] if called else []
    for player in (ALICE, BOB):
        assert [(s.kind, s.points, s.level) for s in recorded if s.user_id == player] == expected
    final = Tournament.from_json((await storage.tournaments.tournament(t.tournament_id)).state_json)
    assert final.warnings(ALICE) == (1 if called else 0)
    assert "time" in bot.reasons() if called else "time" not in bot.reasons()


async def test_a_called_clock_a_stop_cut_off_is_called_once_at_the_restart(
        storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    async def stopped(self: TournamentDirector, tournament_id: int, table_id: int,
                      absences: dict[int, int]) -> None:
        return None  # the bot stops after the timeout's save, before its called clock

    monkeypatch.setattr(TournamentDirector, "_called_clocks", stopped)
    first = Bot(storage, clock)
    t = await first.service.create(GUILD, CHANNEL, DIRECTOR, buy_in=50, seats=2, hands=2,
                                   options=OPTIONS, seed=3)
    tid = t.tournament_id
    for player in (ALICE, BOB):
        await first.service.join(tid, player, f"P{player}")
    await first.service.start(tid, DIRECTOR)
    await first.service.idle()
    (table,) = first.service.tournament(tid).current_tables
    assert table.table_id is not None
    await clock.advance(OPTIONS["turn_seconds"])  # the first to act runs out of time
    await first.service.idle()
    absences = first.tables.absences(table.table_id)
    (late,) = [p for p, n in absences.items() if n == 1]
    assert sorted(absences.values()) == [0, 1]
    await first.close()
    assert await storage.tournaments.sanctions(tid) == []
    monkeypatch.undo()

    for restart in range(2):  # called at the first restart, and not again at the next
        again = await restarted(storage, clock)
        await again.service.idle()
        recorded = await storage.tournaments.sanctions(tid)
        assert [(s.user_id, s.kind, s.points, s.level) for s in recorded] == [
            (late, "penalty", 10, 1), (late, "warning", 0, 1)]
        assert again.service.tournament(tid).warnings(late) == 1
        assert again.reasons() == (["time"] if restart == 0 else [])
        await again.close()


async def test_a_timeout_that_ends_the_tables_match_is_still_a_called_clock(
        bot: Bot, storage: Storage, clock: FakeClock) -> None:
    tid = await heads_up(bot, 1)
    (table,) = bot.service.tournament(tid).current_tables
    assert table.table_id is not None
    late = await all_but_the_last_action(bot, table.table_id)
    await clock.advance(OPTIONS["turn_seconds"])  # its timeout ends the hand and the match
    await bot.run(tid)
    final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
    assert final.status == "finished" and final.warnings(late) == 1
    recorded = await storage.tournaments.sanctions(tid)
    assert [(s.user_id, s.kind, s.points) for s in recorded] == [
        (late, "penalty", 10), (late, "warning", 0)]


async def test_the_directors_time_penalty_is_ten_points_and_a_warning(bot: Bot,
                                                                      storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB])
    given = await bot.service.time_penalty(t.tournament_id, DIRECTOR, ALICE)
    assert [(s.kind, s.points) for s in given] == [("penalty", 10), ("warning", 0)]
    assert [(s.kind, s.points) for s in await storage.tournaments.sanctions(t.tournament_id)] == [
        ("penalty", 10), ("warning", 0)]
    with pytest.raises(TournamentError, match="director"):
        await bot.service.time_penalty(t.tournament_id, BOB, ALICE)


# ------------------------------------------------------------------ results that stay
async def test_the_last_finished_tournament_and_each_players_result_stay(
        bot: Bot, storage: Storage) -> None:
    t = await create(bot, [ALICE, BOB, CAROL], computers=0, payouts=(65, 35))
    await bot.service.warn(t.tournament_id, DIRECTOR, CAROL, "slow")
    await bot.service.start(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)
    assert bot.service.for_channel(CHANNEL) is None
    last = await bot.service.last_finished(CHANNEL)
    assert last is not None and last.tournament_id == t.tournament_id
    assert [p.prize for p in last.placings] == [98, 52, 0]
    # Nobody acts, so each is placed for once (R10): one called clock each, a warning; Carol
    # has the director's warning besides, so two (the second costing 25 more).
    warnings = {ALICE: 1, BOB: 1, CAROL: 2}
    for placing in last.placings:
        (result,) = await storage.tournaments.member_tournaments(GUILD, placing.player_id)
        assert (result.tournament_id, result.place, result.prize, result.entrants) == (
            t.tournament_id, placing.place, placing.prize, 3)
        assert result.warnings == last.warnings(placing.player_id) == warnings[placing.player_id]
    assert await storage.tournaments.member_tournaments(GUILD + 1, ALICE) == []


@pytest.mark.parametrize("ending", ["final", "cancel"])
async def test_a_computers_buy_in_the_house_paid_before_goes_back_to_it(
        bot: Bot, storage: Storage, ending: str) -> None:
    """A tournament registered by an older bot holds a computer's buy-in the house paid: it
    goes back to the house at the end, and the people's pool to the people."""
    t = await create(bot, [ALICE, BOB], computers=1)
    computer = t.computers[0].player_id
    await storage.tournaments.tournament_move(t.tournament_id, computer, 50, "buy_in",
                                              key=f"T{t.tournament_id}:join:{computer}:3", now=0.0)
    assert (await storage.tournaments.tournament(t.tournament_id)).pool == 150
    await bot.service.start(t.tournament_id, DIRECTOR)
    if ending == "cancel":
        await bot.service.cancel(t.tournament_id, DIRECTOR)
    await bot.run(t.tournament_id)
    assert (await storage.tournaments.tournament(t.tournament_id)).pool == 0
    report = await storage.audit()
    assert report.ok, report.problems


async def test_a_stop_at_the_finish_rates_the_places_once(storage: Storage,
                                                          clock: FakeClock) -> None:
    """The prizes are paid, then the snapshot that finishes the tournament, its results and
    their rating commit together: a bot stopped before that commit pays nothing twice after
    the restart and rates the places once, each person's match once."""
    first = Bot(storage, clock)
    t = await create(first, [ALICE, BOB, CAROL, DAVE], seats=2, payouts=(65, 35))
    real = storage.tournaments.save_tournament

    cut: list[object] = []

    async def stopped(*args: object, **kwargs: object) -> None:
        if kwargs.get("status") == "finished":
            cut.append(args)
            raise ConnectionError("the bot stopped")
        await real(*args, **kwargs)  # type: ignore[arg-type]

    storage.tournaments.save_tournament = stopped  # type: ignore[method-assign]
    await first.service.start(t.tournament_id, DIRECTOR)
    while not cut:  # play on until the finish fails; the bot stops there
        await first.service.idle()
        assert await clock.advance_to_next()
    await first.close()
    storage.tournaments.save_tournament = real  # type: ignore[method-assign]
    assert (await storage.tournaments.tournament(t.tournament_id)).status == "open"

    second = await restarted(storage, clock)
    await second.run(t.tournament_id)
    await second.close()
    (season,) = await storage.ratings.seasons(GUILD)
    results = await storage.ratings.season_results(season.id)
    final = Tournament.from_json((await storage.tournaments.tournament(t.tournament_id))
                                 .state_json)
    assert final.status == "finished"
    # three heads-up tables (two at level 1, the final), then the tournament's places
    assert len(results) == 4
    assert [(c.user_id, c.place) for c in results[-1]] == \
        sorted((p.player_id, p.place) for p in final.placings)
    for person in (ALICE, BOB, CAROL, DAVE):
        (result,) = await storage.tournaments.member_tournaments(GUILD, person)
        assert result.prize == next(p.prize for p in final.placings if p.player_id == person)
