"""A hand's history: the state before it, its deck, the actions taken and the events they caused.

Actions are the inputs (start, placements, timeouts, ...), so `replay.replay` can run them again
on the state before and reach the same state; events are what happened, for people to read
(deals per seat, placements and discards, timeouts, showdown, transfers).
"""

import json
from dataclasses import dataclass, field
from typing import Annotated, Any

from bot.engine import codec
from bot.engine.cards import Card
from bot.engine.deal import DECK_CARDS
from bot.engine.events import EVENTS, Event

HISTORY_VERSION = 1


@dataclass(slots=True)
class HandLog:
    hand_no: int
    before: dict[str, Any]  # the match state (Match.to_json, without history) before the deal
    deck: Annotated[list[Card], DECK_CARDS]
    actions: list[dict[str, Any]] = field(default_factory=list)  # JSON-able inputs, in order
    events: Annotated[list[Event], EVENTS] = field(default_factory=list)

    def copy(self) -> "HandLog":
        return HandLog(self.hand_no, self.before, self.deck, list(self.actions), list(self.events))

    def to_json(self) -> dict[str, Any]:
        return {"version": HISTORY_VERSION, **codec.dump(self)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> "HandLog":
        return codec.load(HandLog, d)


# A hand's log as a field of state JSON (the match's `history`).
HAND_LOG = codec.Custom(HandLog.to_json, HandLog.from_json)

# Where a history's events go while the JSON around them is written (`dumps`). Not a text
# a player can type: its NUL characters are written as escapes, and `dumps` checks that it
# occurs once.
_EVENTS = "\x00ofc:events\x00"
_EVENTS_TEXT = json.dumps(_EVENTS)


def dumps(data: dict[str, Any], history: dict[str, Any] | None, log: HandLog | None) -> str:
    """`data` as compact JSON text, where `history` (a part of `data`, or `data` itself) is
    `log.to_json()`: the same text as `json.dumps(data, separators=(",", ":"))`, but the
    events, written as text once each (Event.text), are put in as they are rather than
    written again at every save of the hand (a table's snapshot, its hand record)."""
    if history is None or log is None or not log.events:
        return _compact(data)
    events = history["events"]
    history["events"] = _EVENTS
    try:
        text = _compact(data)
    finally:
        history["events"] = events
    if text.count(_EVENTS_TEXT) != 1:  # the marker inside some text of `data`: no shortcut
        return _compact(data)
    return text.replace(_EVENTS_TEXT, "[" + ",".join(e.text() for e in log.events) + "]")


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))
