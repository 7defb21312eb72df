"""Hints, practice, through the table service, on a fake clock and a real SQLite file: Suggest at a
table with hints on (from the seat's own view, still changeable before Confirm), refused
where hints are off or the control is not the clicker's; practice tables played for play
chips (no wallet or ledger moves, out of /ofc stats and the leaderboard, through a restart).
"""

import asyncio
from collections.abc import Mapping

import pytest

from bot.ai.players import Settings, decide
from bot.engine.cards import Card
from bot.engine.views import PrivateView
from bot.storage import Storage
from bot.tables import (
    FakeClock,
    LobbyChanged,
    LobbyView,
    NotYourSeat,
    Placed,
    ShowdownDone,
    StaleAction,
    TableError,
    TableEvent,
    TableService,
)
from bot.tables.match_runner import FAST
from bot.tables.play import HINTS_OFF
from tests.backends import Reader
from tests.storage.audit import audit

from .driver import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    QUICK_AI,
    Recorder,
    fresh_service,
    play,
    stored,
)

EASY = Settings(level="easy")


class Hinting:
    """Computer players whose suggestion (the easy player's choice) records the view it was
    asked from; computer seats play as the tests' quick players."""

    def __init__(self) -> None:
        self.asked: list[PrivateView] = []

    def decide(self, view: PrivateView, level: str, seed: int | None, *,
               seconds: float | None = None) -> Mapping[Card, str]:
        return QUICK_AI.decide(view, level, seed, seconds=seconds)

    def suggest(self, view: PrivateView) -> Mapping[Card, str]:
        self.asked.append(view)
        return decide(view, EASY)


@pytest.fixture
def hinting() -> Hinting:
    return Hinting()


@pytest.fixture
async def hinted(storage: Storage, clock: FakeClock, recorder: Recorder,
                 hinting: Hinting) -> TableService:
    running = TableService(storage, clock, hinting, FAST)
    running.add_listener(recorder)
    yield running  # type: ignore[misc]
    await running.close()


async def _heads_up(service: TableService, hints: str) -> tuple[int, int, int]:
    """Alice and Bob heads-up, dealt: (table, the player to act, the other)."""
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice", {"hints": hints},
                                        seed=11)).table_id
    await service.join(table, BOB, "Bob")
    await service.start(table, ALICE)
    await service.idle()
    first = next(p for p in (ALICE, BOB) if service.private_view(table, p).to_act)
    return table, first, BOB if first == ALICE else ALICE




async def test_hints_off_refuses_suggest_and_changes_nothing(
        hinted: TableService, storage: Storage, hinting: Hinting) -> None:
    table, first, _ = await _heads_up(hinted, "off")
    state = hinted.private_view(table, first)
    before = await stored(storage, table)
    with pytest.raises(TableError) as refused:
        await hinted.suggest(table, first, hand_no=state.hand_no, street=state.street,
                             seat=state.seat)
    assert str(refused.value) == str(HINTS_OFF)
    assert hinting.asked == []  # the strong player was never asked
    assert hinted.private_view(table, first).draft == {}
    assert await stored(storage, table) == before


async def test_hints_on_fill_the_draft_from_the_seats_own_view(
        hinted: TableService, hinting: Hinting, recorder: Recorder) -> None:
    table, first, other = await _heads_up(hinted, "on")
    state = hinted.private_view(table, first)
    assert hinted.lobby(table).rules.hints == "on"
    where = {"hand_no": state.hand_no, "street": state.street, "seat": state.seat}
    suggested = await hinted.suggest(table, first, **where)
    (asked,) = hinting.asked
    # R7: the seat's own view, and no card of the other player's hand in it.
    assert (asked.seat, asked.dealt, asked.board) == (state.seat, state.view.dealt,
                                                       state.view.board)
    theirs = set(hinted.private_view(table, other).view.dealt)
    seen = {*asked.dealt, *asked.discards, *(c for s in asked.table.seats for c in s.board.cards)}
    assert theirs and not theirs & seen
    choice = decide(asked, EASY)
    assert suggested.draft == choice and suggested.complete
    # The player may still change it before Confirm: one card to another row with room.
    card = state.view.dealt[0]
    row = next(r for r in ("top", "middle", "bottom") if r != choice[card]
               and suggested.free[r] > 0)
    changed = await hinted.set_draft(table, first, card=card, row=row, **where)
    assert changed.draft == {**choice, card: row}
    await hinted.confirm(table, first, **where)
    placed = hinted.private_view(table, first).view.board
    for c, r in changed.draft.items():
        assert c in placed.row(r)
    assert recorder.of(Placed)[-1].seat == state.seat


async def test_a_forged_or_stale_suggest_is_refused(
        hinted: TableService, hinting: Hinting) -> None:
    table, first, other = await _heads_up(hinted, "on")
    state = hinted.private_view(table, first)
    where = {"hand_no": state.hand_no, "street": state.street}
    with pytest.raises(NotYourSeat):  # another player's controls
        await hinted.suggest(table, other, **where, seat=state.seat)
    with pytest.raises(NotYourSeat):  # not at the table
        await hinted.suggest(table, CAROL, **where)
    with pytest.raises(StaleAction):
        await hinted.suggest(table, first, hand_no=state.hand_no, street=state.street + 1)
    with pytest.raises(StaleAction):
        await hinted.suggest(table, first, hand_no=state.hand_no + 1, street=state.street)
    assert hinting.asked == []
    assert hinted.private_view(table, first).draft == {}


async def test_a_practice_match_moves_no_chips_and_stays_out_of_stats(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        database: str) -> None:
    lobby = await service.practice(GUILD, CHANNEL, ALICE, "Alice", "easy",
                                   {"format": "hands", "hands": 2}, seed=5)
    assert lobby.practice and lobby.status == "playing"
    assert (lobby.rules.seats, lobby.rules.hints, lobby.rules.format) == (2, "on", "hands")
    assert [(s.player_id, s.ai_level) for s in lobby.seats] == [(ALICE, None), (-1, "easy")]
    await play(service, clock, lobby.table_id, [ALICE])
    showdowns = recorder.of(ShowdownDone)
    # R11: the 2 hands, plus one after each hand in which anyone earned Fantasyland; play
    # chips did move at them (R6: zero-sum), so what stayed out of storage was real play.
    assert len(showdowns) == 2 + sum(1 for s in showdowns if s.fantasy_next)
    assert any(r.chips for s in showdowns for r in s.view.seats)
    assert all(sum(r.chips for r in s.view.seats) == 0 for s in showdowns)
    with Reader(database) as query:
        counts = [query(f"SELECT count(*) FROM {name}")[0][0]
                  for name in ("ledger", "stack_moves", "wallets")]
    assert counts == [0, 0, 0]  # play chips: nothing touched a wallet
    assert await storage.wallets.leaderboard(GUILD) == []
    stats = await storage.history.stats(GUILD, ALICE)
    assert (stats.hands, stats.matches) == (0, 0)
    (match,) = await storage.history.recent_matches(GUILD, ALICE)
    assert match.practice and match.ended_at is not None and match.hands == len(showdowns)
    hands = await storage.history.played_hands(GUILD, ALICE)
    assert len(hands) == len(showdowns) and all(h.practice for h in hands)
    assert audit(database) == []


async def test_a_practice_table_comes_back_after_a_restart(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    lobby = await service.practice(GUILD, CHANNEL, ALICE, "Alice", "strong",
                                   {"format": "hands", "hands": 1}, seed=6)
    await service.idle()
    await service.close()
    again, clock, _ = fresh_service(storage, clock.now())
    try:
        assert await again.restore() == [lobby.table_id]
        assert again.lobby(lobby.table_id).practice
        await play(again, clock, lobby.table_id, [ALICE])
    finally:
        await again.close()
    assert (await storage.wallets.wallet(GUILD, ALICE, now=clock.now())).balance == 1000
    assert (await storage.history.stats(GUILD, ALICE)).hands == 0


async def test_practice_with_an_unknown_level_opens_nothing(
        service: TableService, storage: Storage) -> None:
    with pytest.raises(TableError, match="not a computer level"):
        await service.practice(GUILD, CHANNEL, ALICE, "Alice", "godlike")
    assert service.live_tables() == [] and await storage.tables.live_tables() == []


async def test_leaving_a_practice_names_the_way_to_end_it(service: TableService) -> None:
    """A practice has no getting up mid-match (its format is `hands`): /ofc leave there says
    how to end it (/ofc cancel, by its only person, who hosts it) rather than to wait for
    the match's end or the clock; it changes nothing."""
    lobby = await service.practice(GUILD, CHANNEL, ALICE, "Alice", "easy",
                                   {"format": "hands", "hands": 5}, seed=5)
    with pytest.raises(TableError) as refused:
        await service.leave(lobby.table_id, ALICE)
    assert str(refused.value.text) == "To end this practice, use /ofc cancel."
    assert service.lobby(lobby.table_id).status == "playing"


async def test_nobody_else_sits_down_at_a_practice_table(
        service: TableService, storage: Storage, clock: FakeClock) -> None:
    """A practice is its one person's, against one computer, for play chips. Bob presses Join
    the moment the practice's lobby is created, before its computer sits down: refused, with
    the way to a practice of his own, and no chip of his moves; the practice opens heads-up
    as asked."""
    tries: list[asyncio.Future[LobbyView]] = []

    async def sneak_in(events: list[TableEvent]) -> None:
        for event in events:
            if isinstance(event, LobbyChanged) and event.reason == "created":
                tries.append(asyncio.ensure_future(service.join(event.table_id, BOB, "Bob")))

    service.add_listener(sneak_in)
    lobby = await service.practice(GUILD, CHANNEL, ALICE, "Alice", "easy",
                                   {"format": "hands", "hands": 1}, seed=5)
    await service.idle()
    (tried,) = tries
    refused = tried.exception()
    assert isinstance(refused, TableError)
    assert str(refused.text) == "This practice table is its player's alone: /ofc practice " \
        "opens one of your own."
    seats = service.lobby(lobby.table_id).seats
    assert [(s.player_id, s.ai_level) for s in seats] == [(ALICE, None), (-1, "easy")]
    assert (await storage.wallets.wallet(GUILD, BOB, now=clock.now())).balance == 1000
