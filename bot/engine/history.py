"""A hand's history: the state before it, its deck, the actions taken and the events they caused.

Actions are the inputs (start, placements, timeouts, ...), so `replay.replay` can run them again
on the state before and reach the same state; events are what happened, for people to read
(deals per seat, placements and discards, timeouts, showdown, transfers).
"""

from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import Card
from bot.engine.deal import decode, encode
from bot.engine.events import Event

HISTORY_VERSION = 1


@dataclass(slots=True)
class HandLog:
    hand_no: int
    before: dict[str, Any]  # the match state (Match.to_json, without history) before the deal
    deck: list[Card]
    actions: list[dict[str, Any]] = field(default_factory=list)  # JSON-able inputs, in order
    events: list[Event] = field(default_factory=list)

    def copy(self) -> "HandLog":
        return HandLog(self.hand_no, self.before, self.deck, list(self.actions), list(self.events))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": HISTORY_VERSION, "hand_no": self.hand_no, "before": self.before,
            "deck": encode(self.deck), "actions": self.actions,
            "events": [e.to_json() for e in self.events],
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> "HandLog":
        return HandLog(d["hand_no"], d["before"], list(decode(d["deck"])), list(d["actions"]),
                       [Event.from_json(e) for e in d["events"]])
