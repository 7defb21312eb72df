"""A hand's history: the state before it, its deck, the actions taken and the events they caused.

Actions are the inputs (start, placements, timeouts, ...), so `replay.replay` can run them again
on the state before and reach the same state; events are what happened, for people to read
(deals per seat, placements and discards, timeouts, showdown, transfers).
"""

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
