"""Fantasyland's secrets through the real bot (R7, R8): a Fantasyland board set face down
while the others play, the one player outside Fantasyland laying out face down beside it,
a simultaneous street's placements, a Fantasyland dealt last, and a restart in the middle of
all that. Every image, embed and text people saw is checked against who may see what
(tests/e2e/privacy.py)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import OFCBot
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.views import TableView
from bot.tables import FakeClock
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import (
    open_table,
    play_out,
    play_until,
    ready,
    seats_of,
    start_bot,
    title,
)
from tests.e2e.privacy import PrivacyWatch


def owed_fantasyland(monkeypatch: pytest.MonkeyPatch, name: str, cards: int) -> None:
    """The match's first hand deals `name` a Fantasyland of `cards` cards, as if a hand
    before had earned it (R8)."""
    start = Match._start_hand

    def first_in_fantasyland(match: Match, now: float, deck: list[Card] | None) -> object:
        if match.hand_no == 0:
            for player in match.seats:
                if player is not None and player.name == name:
                    player.fantasy = cards
        return start(match, now, deck)

    monkeypatch.setattr(Match, "_start_hand", first_in_fantasyland)


def shown_down(double: DiscordDouble) -> Callable[[], bool | None]:
    return lambda: True if breakdowns.posted(double.messages()) else None


def public_views(watch: PrivacyWatch) -> list[TableView]:
    return [r.view for r in watch.rendered.values()
            if r.kind == "table" and isinstance(r.view, TableView)]


async def test_heads_up_the_other_player_lays_out_face_down_beside_fantasyland(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        watch: PrivacyWatch, monkeypatch: pytest.MonkeyPatch) -> None:
    owed_fantasyland(monkeypatch, "Alice", 14)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1)
    await play_out(double, table, seats_of((alice, bob)))

    assert watch.problems(double, double.channel, (alice, bob)) == []
    # The channel's table did show the moment: Bob's cards down, none of them face up.
    bob_down = [s for v in public_views(watch) for s in v.seats
                if s.name == "Bob" and s.hidden_cards and v.phase == "playing"]
    assert bob_down and all(not s.board.cards for s in bob_down)
    assert watch.count("table", hidden_fantasy=True) > 0  # Alice's board set, face down


async def test_fantasyland_dealt_last_at_a_simultaneous_cash_table(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        watch: PrivacyWatch, monkeypatch: pytest.MonkeyPatch) -> None:
    owed_fantasyland(monkeypatch, "Alice", 15)
    members = (alice, bob, carol)
    # A cash table deals Fantasyland last (R10's defaults: seed 003).
    table = await open_table(double, *members, seats=3, format="cash", order="simultaneous")
    await play_until(double, table, seats_of(members), shown_down(double))

    assert watch.problems(double, double.channel, members) == []
    (fantasy,) = [m for m in alice.dms() if "Fantasyland" in title(m)]
    assert fantasy.history[0].embeds[0]["title"].endswith("Fantasyland")


async def test_a_restart_while_fantasyland_is_set_and_the_other_plays_face_down(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        watch: PrivacyWatch, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
        database: Path) -> None:
    owed_fantasyland(monkeypatch, "Alice", 14)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1)
    seats = seats_of((alice, bob))

    def bobs_second_street() -> bool | None:
        prompt = seats[1].prompt()
        return True if prompt is not None and ready(prompt) \
            and title(prompt).endswith("street 2 of 5") else None

    await play_until(double, table, seats, bobs_second_street)
    await double.stop_client(bot)
    restarted = await start_bot(double, database, clock)
    try:
        await play_out(double, table, seats)
    finally:
        await double.stop_client(restarted)
    assert watch.problems(double, double.channel, (alice, bob)) == []
