"""Whole matches with random legal actions and random timeouts, for every variant x order x
fantasy mode x format (2, 3 and, in turbo, 4 players), checking after every step:
no card twice, row sizes, 13 cards and the right discards at showdown, chips conserved, the JSON
round trip, views against the full state, and the history replaying to the same state."""

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.engine.errors import RuleError
from bot.engine.events import BUSTED, HAND_STARTED, JOINED, LEFT, MATCH_OVER, SAT_OUT, Event
from bot.engine.match import Match, PlayerSpec
from bot.engine.placement import DISCARD
from tests.engine.match.helpers import (
    check_cards,
    check_replay,
    check_showdown,
    check_views,
    new_match,
    round_trip,
)

VARIANTS = ("pineapple", "turbo", "lowball", "joker")
ORDERS = ("sequential", "simultaneous")
MODES = ("standard", "progressive", "ultimate", "tournament", "off")
FORMATS = ("match", "hands", "cash")
# Fantasyland sizes a seat may be owed (R8, R9), to start some matches inside Fantasyland.
FL_SIZES = {"standard": (14,), "progressive": (14, 15, 16, 17), "ultimate": (14, 15, 16, 17),
            "tournament": (13, 14, 15, 16), "off": ()}
CASH_HANDS = 3


def fl_sizes(variant: str, mode: str) -> tuple[int, ...]:
    if mode == "off":
        return ()
    return {"turbo": (13,), "lowball": (14, 15)}.get(variant, FL_SIZES[mode])


class Ledger:
    """Chips in and out of the table, from the events (R6, R10, R11, R12)."""

    def __init__(self, match: Match) -> None:
        self.brought = sum(p.stack for p in match.seats if p is not None)
        self.returned = 0

    def record(self, events: list[Event], match: Match) -> None:
        for e in events:
            event(e.kind)  # --hypothesis-show-statistics: what the matches went through
            if e.kind == HAND_STARTED and e.data["fantasy"]:
                event("fantasyland hand")
            if e.kind == JOINED:
                self.brought += e.data["stack"]
            elif e.kind in (LEFT, SAT_OUT):
                self.returned += e.data["stack"]
            elif e.kind == MATCH_OVER:
                self.returned += sum(s["returned"] for s in e.data["standings"])
            elif e.kind == BUSTED:
                player = match.seats[e.seat]  # type: ignore[index]
                assert player is not None and player.stack == 0

    def check(self, match: Match) -> None:
        on_table = 0 if match.phase == "over" else sum(
            p.stack for p in match.seats if p is not None and p.status != "out")
        assert on_table + self.returned == self.brought
        assert all(p.stack >= 0 for p in match.seats if p is not None)


def bad_assignment(match: Match, seat: int, rng: random.Random) -> dict[int, str]:
    """A legal assignment broken in one way: a card dropped, a row overfilled, a discard
    too many or too few."""
    legal = match.random_assignment(seat, rng)
    cards = list(legal)
    how = rng.randrange(3)
    if how == 0:
        del legal[cards[0]]
    elif how == 1:
        legal = dict.fromkeys(cards, "top") if len(cards) > 3 else dict.fromkeys(cards, DISCARD)
    else:
        kept = [c for c in cards if legal[c] != DISCARD]
        thrown = [c for c in cards if legal[c] == DISCARD]
        if thrown:
            legal[thrown[0]] = "bottom" if match.legal_rows(seat).bottom else "top"
        else:
            legal[kept[0]] = DISCARD
    return legal


def step(match: Match, data: st.DataObject, rng: random.Random, now: float,
         ledger: Ledger) -> tuple[Match, float]:
    """One random action; every state check after it."""
    if match.phase in ("waiting", "showdown"):
        active = [p for p in match.seats if p is not None and p.status != "out"]
        if match.rules.format == "cash" and (len(active) < 2
                                             or data.draw(st.integers(0, 3)) == 0):
            events = cash_move(match, data)
        else:
            events = match.start_hand(now)
    else:
        pending = match.pending()
        choice = data.draw(st.integers(0, 19))
        if choice == 0:
            deadline = match.next_deadline()
            assert deadline is not None
            now = deadline + data.draw(st.integers(0, 5))
            events = match.timeout(now)
            assert events, "a passed deadline always places someone"
        elif choice == 2 and match.rules.format == "cash":
            events = cash_move(match, data, during_hand=True)
        elif choice == 1:
            seat = data.draw(st.sampled_from(pending))
            before = match.to_json()
            with pytest.raises(RuleError):
                match.place(seat, bad_assignment(match, seat, rng), now)
            assert match.to_json() == before
            events = []
        else:
            away = [s for s in pending if match.seats[s].away]  # type: ignore[union-attr]
            assert not away, "an away seat is placed at once, never awaited"
            seat = data.draw(st.sampled_from(pending))
            now += data.draw(st.integers(0, 100))
            events = match.place(seat, match.random_assignment(seat, rng), now)
            if data.draw(st.booleans()):
                returning = [s for s, p in enumerate(match.seats) if p is not None and p.away
                             and p.status != "out"]
                if returning:
                    events += match.back(returning[0], now)
    ledger.record(events, match)
    match = round_trip(match)
    ledger.check(match)
    check_cards(match)
    check_views(match)
    if match.phase in ("showdown", "over") and match.showdown is not None:
        check_showdown(match)
    if match.phase != "playing" or rng.random() < 0.1:
        check_replay(match)
    return match, now


def cash_move(match: Match, data: st.DataObject, during_hand: bool = False) -> list[Event]:
    """Cash (R11): someone joins a free seat, or someone leaves, or the table closes."""
    seated = [s for s, p in enumerate(match.seats)
              if p is not None and p.status != "out" and not p.leaving]
    free = [s for s, p in enumerate(match.seats) if p is None]
    move = data.draw(st.integers(0, 2))
    if free and (move == 0 or not seated):
        pid = 100 + data.draw(st.integers(0, 50))
        if match.seat_of(pid) is not None:
            return []
        return match.join(PlayerSpec(pid, f"P{pid}", data.draw(st.integers(1, 300))))
    if seated and (move == 1 or during_hand):
        return match.leave(data.draw(st.sampled_from(seated)))
    return [] if during_hand else match.finish()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whole_match(variant: str, order: str, mode: str, fmt: str, data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 4 if variant == "turbo" else 3), label="players")
    stack = data.draw(st.sampled_from((3, 20, 200)), label="stack")
    table = 4 if variant == "turbo" else 3
    match = new_match(players, stack=stack, button=data.draw(st.integers(0, players - 1)),
                      seats=table if fmt == "cash" else players,
                      seed=data.draw(st.integers(0, 2**16)), variant=variant, order=order,
                      fantasy=mode, format=fmt, hands=2, point_value=data.draw(
                          st.sampled_from((1, 5))), turn_seconds=60, time_bank_seconds=30)
    sizes = fl_sizes(variant, mode)
    for p in match.seats:
        if p is not None and sizes and data.draw(st.booleans(), label="owed FL"):
            p.fantasy = data.draw(st.sampled_from(sizes))  # start inside Fantasyland (R8)
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    ledger = Ledger(match)
    ledger.check(match)
    now = 1000.0
    for _ in range(400):
        if match.phase == "over" or (fmt == "cash" and match.hand_no >= CASH_HANDS
                                     and match.phase != "playing"):
            break
        match, now = step(match, data, rng, now, ledger)
    if match.phase != "over":
        events = match.finish()
        ledger.record(events, match)
        ledger.check(match)
        check_replay(match)
    assert match.phase == "over"
