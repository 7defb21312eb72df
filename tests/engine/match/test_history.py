"""Serialization (versioned JSON, identical round trip) and hand histories that replay."""

import json
import random

import pytest

from bot.engine.errors import RuleError
from bot.engine.match import Match
from bot.engine.replay import carry_on, replay
from tests.engine.match.helpers import new_match, round_trip


def play_hand_with_a_timeout() -> Match:
    match = new_match(2, button=1, variant="joker", seed=7)
    match.start_hand(0.0)
    match.timeout(match.deadline(0))  # type: ignore[arg-type]  # seat 0: placed by R10, away
    rng = random.Random(4)
    while match.phase == "playing":
        match.place(1, match.random_assignment(1, rng), 400.0)
    return match


def test_a_saved_match_carries_on_with_the_actions_taken_since() -> None:
    """What a table saves within a street (bot/tables/state.py): the match as it was, and
    the hand's actions after it, taken again, reach the match as it is; never a deal."""
    match = new_match(2, button=1, seed=3)
    match.start_hand(0.0)
    saved, since = match.to_json(), len(match.log.actions)  # type: ignore[union-attr]
    rng = random.Random(2)
    for _ in range(3):
        seat = match.pending()[0]
        match.place(seat, match.random_assignment(seat, rng), 10.0)
    match.timeout(10_000.0)
    later = Match.from_json(saved)
    carry_on(later, match.log.actions[since:])  # type: ignore[union-attr]
    assert later.to_json() == match.to_json() != saved
    with pytest.raises(RuleError, match="next deal"):
        carry_on(Match.from_json(saved), [{"do": "start", "now": 1.0}])


def test_history_lists_the_hand_in_order_and_replays() -> None:
    match = play_hand_with_a_timeout()
    history = json.loads(json.dumps(match.history()))
    assert history["version"] == 1 and history["hand_no"] == 1
    kinds = [e["kind"] for e in history["events"]]
    assert kinds[:4] == ["hand_started", "dealt", "dealt", "turn"]
    assert kinds[4:7] == ["timeout", "away", "placed"]
    # Seat 0 is away: it sits out, one player is left, so the match ends (R10, R11).
    assert kinds[-4:] == ["showdown", "sat_out", "hand_over", "match_over"]
    dealt = [e for e in history["events"] if e["kind"] == "dealt"]
    assert sum(len(e["data"]["cards"]) for e in dealt) == 2 * 17  # every card dealt, once
    placed = [e for e in history["events"] if e["kind"] == "placed"]
    assert sum(len(e["data"]["discards"]) for e in placed) == 2 * 4
    assert "transfers" in next(e for e in history["events"] if e["kind"] == "showdown")["data"]
    assert replay(history).to_json() == match.to_json()


def test_round_trip_at_every_point_and_jokers_keep_their_identity() -> None:
    match = new_match(3, variant="joker", seed=11, order="simultaneous")
    rng = random.Random(5)
    match.start_hand(0.0)
    while match.phase == "playing":
        match = round_trip(match)
        seat = match.pending()[-1]
        match.place(seat, match.random_assignment(seat, rng), 1.0)
    assert round_trip(match).public_view() == match.public_view()
    data = match.to_json()
    assert data["version"] == 1
    assert "X1" in data["hand"]["deck"] and "X2" in data["hand"]["deck"]


def test_unknown_state_version_is_refused() -> None:
    data = new_match(2).to_json()
    data["version"] = 99
    with pytest.raises(RuleError, match="Unknown table state version 99"):
        Match.from_json(data)


def test_events_written_once_match_a_fresh_writing_at_every_point() -> None:
    # Each event keeps its JSON once written (the snapshot of every action writes the hand's
    # history again): what is saved must be what the events say, at every point of a hand.
    match = new_match(3, variant="joker", seed=3, order="simultaneous")
    rng = random.Random(8)
    match.start_hand(0.0)
    saved = []
    while match.phase == "playing":
        saved.append(json.dumps(match.to_json()))
        seat = match.pending()[-1]
        match.place(seat, match.random_assignment(seat, rng), 1.0)
    saved.append(json.dumps(match.to_json()))
    assert match.log is not None and all(e.written is not None for e in match.log.events)
    fresh = Match.from_json(json.loads(saved[-1]))  # events read back: nothing written yet
    assert fresh.log is not None and all(e.written is None for e in fresh.log.events)
    assert json.dumps(fresh.to_json()) == saved[-1]
    assert len(set(saved)) == len(saved)  # every action changed what is saved
    first_deal = json.loads(saved[0])["history"]["events"]
    assert [e["kind"] for e in first_deal][:2] == ["hand_started", "dealt"]
    assert json.loads(saved[-1])["history"]["events"][:len(first_deal)] == first_deal


def test_a_snapshot_puts_the_events_text_in_as_json_would_write_them() -> None:
    match = play_hand_with_a_timeout()
    assert match.log is not None and match.log.events
    plain = json.dumps(match.to_json(), separators=(",", ":"))
    assert match.text() == plain
    assert match.log.text() == json.dumps(match.history(), separators=(",", ":"))


def test_a_snapshot_puts_the_history_in_as_json_would_write_it_at_every_point() -> None:
    # A hand's parts are written as text once each (HandLog.text) and the actions and events
    # are added to as the hand goes: every save of it must still be the JSON of the state then.
    match = new_match(3, variant="joker", seed=5, order="simultaneous")
    rng = random.Random(2)
    match.start_hand(0.0)
    saves = 0
    while True:
        assert match.text() == json.dumps(match.to_json(), separators=(",", ":"))
        saves += 1
        if match.phase != "playing":
            break
        seat = match.pending()[-1]
        match.place(seat, match.random_assignment(seat, rng), 1.0)
    assert match.log is not None and match.log.written_actions.count == len(match.log.actions)
    assert saves == len(match.log.actions)  # one save per action, the deal's included


@pytest.mark.parametrize("name", ["\x00ofc:0\x00", "\x00ofc:1\x00", "\x00ofc:", "a\"\x00ofc:0\x00"])
def test_a_name_holding_a_mark_is_written_as_it_is(name: str) -> None:
    # The marks standing for parts written once (codec.dumps) are not something a player can
    # type, but if some text held one, the snapshot must still be the JSON of the state, read
    # back the same.
    match = play_hand_with_a_timeout()
    seat = match.seats[0]
    assert seat is not None and match.log is not None
    seat.name = name
    text = match.text()
    assert text == json.dumps(match.to_json(), separators=(",", ":"))
    back = Match.from_json(json.loads(text))
    assert back.seats[0] is not None and back.seats[0].name == name
    assert back.to_json() == match.to_json()
