"""Fantasyland hands (R8) and cash tables (R11) through the service, and the simulation
helper `ofc simulate` uses."""


from bot import ratings
from bot.storage import Storage
from bot.tables import (
    Dealt,
    FakeClock,
    HandStarted,
    LobbyChanged,
    MatchOver,
    PlayerLeft,
    ServiceSettings,
    ShowdownDone,
    StaleAction,
    TableClosed,
    TableService,
    TableWaiting,
)
from bot.tables.match_runner import FAST, play_computer_match
from tests.storage.audit import audit

from .driver import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    QUICK_AI,
    START,
    Recorder,
    act,
    chips,
    fresh_service,
    play,
)

FANTASY_SEED = 157  # heads-up against an easy computer, Alice earns Fantasyland in hand 1
ALONE_BUST_SEED = 3  # Alice and two easy computers, buy-in 3: Alice alone busts in hand 1


async def _heads_up_cash(storage: Storage, clock: FakeClock
                         ) -> tuple[TableService, FakeClock, Recorder, int]:
    """Alice and Bob at a heads-up cash table, its first hand dealt; 5 s between hands."""
    settings = ServiceSettings(ai_delay_seconds=0, next_hand_seconds=5, ai_in_thread=False)
    service, clock, recorder = fresh_service(storage, clock.now(), settings)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "cash", "seats": 2}, seed=3)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.idle()
    return service, clock, recorder, table


async def _play_out_the_hand(service: TableService, table: int, recorder: Recorder) -> None:
    """Alice and Bob act until the hand's showdown."""
    while not recorder.of(ShowdownDone):
        for person in (ALICE, BOB):
            if service.private_view(table, person).to_act:
                await act(service, table, person)
        await service.idle()


async def test_a_fantasyland_hand_with_best_arrangement(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str) -> None:
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1},
                                        seed=FANTASY_SEED)).table_id
    await service.add_computer(table, ALICE, is_admin=True)
    await service.start(table, ALICE)
    await service.idle()
    while not recorder.of(ShowdownDone):
        await act(service, table, ALICE)
        await service.idle()
    first = recorder.of(ShowdownDone)[0]
    seat = next(s for s, p in first.player_ids.items() if p == ALICE)
    assert first.fantasy_next == {seat: 14}  # R8: QQ+ on top, standard: 14 cards
    deal = [e for e in recorder.of(Dealt) if e.private_to == ALICE][-1]
    assert (deal.hand_no, deal.street, len(deal.cards), deal.discards) == (2, 0, 14, 1)
    mine = service.private_view(table, ALICE)
    assert mine.street == 0 and mine.to_act and mine.view.dealt == deal.cards
    hidden = next(s for s in service.public_view(table).seats if s.player_id == ALICE)
    assert hidden.in_fantasy and hidden.board.cards == ()  # R8: nobody sees it before showdown
    try:
        await service.set_draft(table, ALICE, hand_no=2, street=1, card=deal.cards[0],
                                row="top")
        raise AssertionError("a street-1 control was accepted in a Fantasyland hand")
    except StaleAction:
        pass
    best = await service.best_arrangement(table, ALICE, hand_no=2, street=0)
    assert sorted(best.draft.values()).count("discard") == 1
    assert best.free == {"top": 0, "middle": 0, "bottom": 0, "discard": 0}
    await service.confirm(table, ALICE, hand_no=2, street=0)
    await play(service, clock, table, [ALICE])
    assert len(recorder.of(ShowdownDone)) == 2 and recorder.of(MatchOver)
    board = next(r for r in recorder.of(ShowdownDone)[1].view.seats if r.seat == seat)
    assert len(board.board.cards) == 13
    stats = await storage.history.stats(GUILD, ALICE)
    assert (stats.hands, stats.fantasy_entries, stats.fantasy_hands) == (2, 1, 1)
    assert audit(database) == []


async def test_a_cash_table_takes_joiners_and_leavers(
        storage: Storage, clock: FakeClock, database: str) -> None:
    settings = ServiceSettings(ai_delay_seconds=0, next_hand_seconds=5, ai_in_thread=False)
    service, clock, recorder = fresh_service(storage, clock.now(), settings)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"format": "cash"},
                                        seed=3)).table_id
    await service.add_computer(table, ALICE, is_admin=True)
    await service.start(table, ALICE)
    await service.idle()
    await act(service, table, ALICE)  # hand 1 in play: Bob sits down for the next one
    await service.join(table, BOB, "Bob")
    assert recorder.of(LobbyChanged)[-1].reason == "joined"
    assert (await storage.wallets.wallet(GUILD, BOB, now=clock.now())).balance == START - 200
    assert BOB not in {e.private_to for e in recorder.of(Dealt)}
    await service.leave(table, ALICE)  # gets up once this hand is over (R11)
    while not recorder.of(ShowdownDone):
        await act(service, table, ALICE)
        await service.idle()
    left = recorder.of(PlayerLeft)
    assert [(e.player_id, e.reason) for e in left] == [(ALICE, "left")]
    assert (await storage.wallets.wallet(GUILD, ALICE, now=clock.now())).balance == (
        START - 200 + left[0].returned)
    await clock.advance(5)  # the next deal: Bob is in it, Alice is not
    await service.idle()
    assert {e.private_to for e in recorder.of(Dealt) if e.hand_no == 2} == {BOB}
    while len(recorder.of(ShowdownDone)) < 2:
        await act(service, table, BOB)
        await service.idle()
    await service.leave(table, BOB)  # between hands: at once; nobody is left to play for
    assert recorder.of(TableClosed)[-1].reason == "over"
    standings = recorder.of(MatchOver)[0].standings  # who was still seated
    assert ALICE not in {s.player_id for s in standings}
    assert sum(s.net for s in standings) + left[0].returned - 200 == 0  # R6: chips conserved
    bob = next(s for s in standings if s.player_id == BOB)
    assert (await storage.wallets.wallet(GUILD, BOB, now=clock.now())).balance == START + bob.net
    assert service.table_for_channel(CHANNEL) is None
    assert audit(database) == []
    await service.close()


async def test_a_full_cash_table_left_between_hands_seats_a_newcomer(
        storage: Storage, clock: FakeClock, database: str) -> None:
    # R11: players join and leave between hands. Heads-up, Bob gets up after hand 1: no hand
    # is dealt with Alice alone, so nothing else would free his seat; Carol takes it and is
    # dealt the next hand (before, the table waited for a buy-in it refused, then closed).
    service, clock, recorder, table = await _heads_up_cash(storage, clock)
    await _play_out_the_hand(service, table, recorder)
    await service.leave(table, BOB)
    left = recorder.of(PlayerLeft)
    assert [(e.player_id, e.reason) for e in left] == [(BOB, "left")]
    await clock.advance(5)
    await service.idle()
    assert recorder.of(TableWaiting) and not recorder.of(TableClosed)
    await service.join(table, CAROL, "Carol")
    assert sorted(service.seats(table).values()) == [ALICE, CAROL]
    await clock.advance(5)
    await service.idle()
    assert {e.private_to for e in recorder.of(Dealt) if e.hand_no == 2} == {ALICE, CAROL}
    assert service.public_view(table).phase == "playing"
    await service.cancel(table, ALICE)
    assert (await storage.wallets.wallet(GUILD, BOB, now=clock.now())).balance == (
        START - 200 + left[0].returned)
    wallets = [await storage.wallets.wallet(GUILD, p, now=clock.now())
               for p in (ALICE, BOB, CAROL)]
    assert sum(w.balance for w in wallets) == 3 * START  # R12: chips moved exactly once
    assert audit(database) == []
    await service.close()


async def test_a_simulated_match_of_computers(storage: Storage, database: str) -> None:
    result = await play_computer_match(storage, ["easy", "strong"],
                                       {"format": "hands", "hands": 2}, seed=4, ai=QUICK_AI)
    # R11: the 2 hands, plus one after each hand in which anyone earned Fantasyland.
    shown = result.showdowns
    assert len(shown) == 2 + sum(1 for s in shown if s.fantasy_next)
    assert not shown[-1].fantasy_next  # a Fantasyland earned in the last hand is still owed
    assert {s.player_id for s in result.standings} == {-1, -2}
    assert sum(s.net for s in result.standings) == 0
    # R6: each standing's net is what its showdowns moved.
    moved = {s.player_id: 0 for s in result.standings}
    for done in shown:
        for seat in done.view.seats:
            moved[done.player_ids[seat.seat]] += seat.chips
    assert {s.player_id: s.net for s in result.standings} == moved
    assert (await storage.tables.table(result.table_id)).status == "closed"
    assert FAST.ai_delay_seconds == 0
    assert audit(database) == []


async def test_a_cash_table_survives_a_bust(storage: Storage, clock: FakeClock,
                                            database: str) -> None:
    """R6 and R11: a busted player is out of the hands, not the table: it may
    buy in again and is dealt the next hand; when fewer than two can play and nobody comes
    back within the lobby's idle time, the match ends and every stack goes home."""
    settings = ServiceSettings(ai_delay_seconds=0, next_hand_seconds=5, ai_in_thread=False,
                               lobby_idle_seconds=600)
    service, clock, recorder = fresh_service(storage, clock.now(), settings)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "cash", "seats": 2, "buy_in": 1},
                                        seed=3)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)

    async def until_bust() -> int:
        """Play hands (the people act, the clock runs to each next deal) until one busts."""
        for _ in range(200):
            await service.idle()
            for pid in (ALICE, BOB):
                seated = pid in service.seats(table).values()
                if seated and service.private_view(table, pid).to_act:
                    await act(service, table, pid)
                    break
            else:
                busted = [s for e in recorder.of(ShowdownDone) for s in e.busted]
                if busted:
                    return recorder.of(ShowdownDone)[-1].player_ids[busted[-1]]
                assert await clock.advance_to_next(), "the table is stuck"
        raise AssertionError("nobody busted")

    loser = await until_bust()
    hand = recorder.of(ShowdownDone)[-1].hand_no
    assert table in service.live_tables() and not recorder.of(MatchOver)
    before = (await storage.wallets.wallet(GUILD, loser, now=clock.now())).balance
    await service.join(table, loser, "again")  # buys in again (R12)
    assert (await storage.wallets.wallet(GUILD, loser, now=clock.now())).balance == before - 1
    await clock.advance(5)
    await service.idle()
    assert {e.private_to for e in recorder.of(Dealt) if e.hand_no == hand + 1} == {ALICE, BOB}
    recorder.clear()
    busted = await until_bust()  # someone busts again, and this time nobody buys in
    await service.leave(table, busted)  # and walks away: nothing left to move
    await clock.advance(5)
    await service.idle()
    assert table in service.live_tables()  # waiting for someone to (re)join
    await clock.advance(600)
    await service.idle()
    assert recorder.of(MatchOver) and recorder.of(TableClosed)[-1].reason == "over"
    assert service.table_for_channel(CHANNEL) is None
    wallets = {pid: (await storage.wallets.wallet(GUILD, pid, now=clock.now())).balance
               for pid in (ALICE, BOB)}
    assert sum(wallets.values()) == 2 * START  # chips conserved, all back in wallets
    assert audit(database) == []
    await service.close()


async def _bust_alone(storage: Storage,
                      clock: FakeClock) -> tuple[TableService, FakeClock, Recorder, int]:
    """A cash table of Alice and two easy computers after hand 1, where Alice alone busted."""
    settings = ServiceSettings(ai_delay_seconds=0, next_hand_seconds=5, ai_in_thread=False,
                               lobby_idle_seconds=600)
    service, clock, recorder = fresh_service(storage, clock.now(), settings)
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "cash", "seats": 3, "buy_in": 3},
                                        seed=ALONE_BUST_SEED)).table_id
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    await service.start(table, ALICE)
    for _ in range(20):
        await service.idle()
        if recorder.of(ShowdownDone):
            break
        await act(service, table, ALICE)
    [showdown] = recorder.of(ShowdownDone)
    assert [showdown.player_ids[s] for s in showdown.busted] == [ALICE]  # the computers play on
    return service, clock, recorder, table


async def test_a_cash_table_whose_last_person_busts_deals_no_more_and_closes(
        storage: Storage, clock: FakeClock, database: str) -> None:
    """R11: computers play only for people. When the last person at a cash table busts (R6),
    the computers deal no hand among themselves: the table waits for the person to buy in
    again, as a table short of players does, then closes and every computer's stack goes back
    to the house."""
    service, clock, recorder, table = await _bust_alone(storage, clock)
    await clock.advance(5)  # the next deal is due: nobody is left to deal to
    await service.idle()
    assert len(recorder.of(HandStarted)) == 1
    assert table in service.live_tables()  # Alice may still buy in again (R11)
    await clock.advance(600)
    await service.idle()
    assert len(recorder.of(HandStarted)) == 1
    assert recorder.of(TableClosed)[-1].reason == "over"
    standings = recorder.of(MatchOver)[0].standings
    assert {s.player_id for s in standings} == {ALICE, -1, -2}
    assert sum(s.net for s in standings) == 0  # R6: what Alice lost, the computers won
    assert service.table_for_channel(CHANNEL) is None
    wallets, stacks, _ = chips(database)
    assert (wallets[ALICE], stacks) == (START - 3, {})  # the computers' stacks are home
    assert audit(database) == []
    await service.close()


async def test_the_busted_person_is_told_the_table_waits_and_play_resumes_on_a_buy_in(
        storage: Storage, clock: FakeClock, database: str) -> None:
    """R11: when the next deal finds nobody to play for, the table says so once (whom it
    waits for, and when it closes: the lobby's idle time from the hand's end); the busted
    person who buys in again is dealt the next hand."""
    service, clock, recorder, table = await _bust_alone(storage, clock)
    ended = clock.now()  # the computers act at once: hand 1 ended now
    await clock.advance(5)
    await service.idle()
    [waiting] = recorder.of(TableWaiting)
    assert (waiting.busted, waiting.closes_at, waiting.channel_id) == ((ALICE,), ended + 600,
                                                                        CHANNEL)
    await clock.advance(300)
    await service.idle()
    assert len(recorder.of(TableWaiting)) == 1  # said once, not again while it waits
    await service.join(table, ALICE, "Alice")  # buys in again (R12)
    await clock.advance(5)
    await service.idle()
    [_, again] = recorder.of(HandStarted)
    assert again.hand_no == 2
    assert [e.hand_no for e in recorder.of(Dealt) if e.private_to == ALICE][-1] == 2
    assert len(recorder.of(TableWaiting)) == 1
    assert audit(database) == []
    await service.close()


async def test_computers_dealt_on_without_the_person_stop_at_the_next_deal(
        storage: Storage, clock: FakeClock, database: str) -> None:
    """A cash table whose computers were dealt hands after its last person busted (the deal
    freed the person's seat, so nobody in the match is a person) is no simulation: the people
    who sat down at it are in its lobby's seats. It deals no more and closes the same way."""
    service, clock, recorder, table = await _bust_alone(storage, clock)
    match = service._core.tables[table].state.match
    assert match is not None
    seat = next(s for s, p in enumerate(match.seats) if p is not None and p.player_id == ALICE)
    match.seats[seat] = None  # as a deal among the computers leaves it
    await clock.advance(605)
    await service.idle()
    assert len(recorder.of(HandStarted)) == 1
    assert recorder.of(TableClosed)[-1].reason == "over"
    assert chips(database)[1] == {}  # no stack left at a table: the computers' are home
    assert audit(database) == []
    await service.close()


async def test_a_computer_that_busted_at_a_cash_table_is_rated_at_its_level(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    """A busted player leaves a cash table's seats at the next deal (R6, R11); a strong
    computer that busted is still rated at its level when the match ends (docs/players/
    ratings.md), not as the easy one an unknown level counts as."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "cash", "seats": 4, "variant": "turbo",
                                         "buy_in": 40, "point_value": 2}, seed=1)).table_id
    await service.join(table, BOB, "Bob")
    await service.join(table, CAROL, "Carol")
    await service.add_computer(table, ALICE, "strong", is_admin=True)
    await service.start(table, ALICE)
    await play(service, clock, table, [ALICE, BOB, CAROL])
    (match,) = await storage.history.recent_matches(GUILD, ALICE)
    computer = next(p for p in match.players if p.user_id < 0)
    assert computer.hands < match.hands and computer.net_chips == -40  # busted, dealt no more
    (rated,) = [c for c in await storage.ratings.rating_changes(match.match_id)
                if c.user_id == computer.user_id]
    assert (rated.level, rated.before) == ("strong", ratings.COMPUTERS["strong"])


async def test_a_cash_player_takes_back_a_leave_before_the_hand_ends(
        storage: Storage, clock: FakeClock, database: str) -> None:
    service, clock, recorder, table = await _heads_up_cash(storage, clock)
    await service.leave(table, BOB)
    assert service.lobby(table).leaving == (BOB,)
    await service.stay(table, BOB)
    assert service.lobby(table).leaving == ()
    await _play_out_the_hand(service, table, recorder)
    assert not recorder.of(PlayerLeft) and service.lobby(table).seated(BOB)
    assert (await storage.wallets.wallet(GUILD, BOB, now=clock.now())).balance == START - 200
    await service.cancel(table, ALICE)
    assert audit(database) == []
    await service.close()
