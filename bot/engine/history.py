"""A hand's history: the state before it, its deck, the actions taken and the events they caused.

Actions are the inputs (start, placements, timeouts, ...), so `replay.replay` can run them again
on the state before and reach the same state; events are what happened, for people to read
(deals per seat, placements and discards, timeouts, showdown, transfers).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from bot.engine import codec
from bot.engine.cards import Card
from bot.engine.deal import DECK_CARDS
from bot.engine.events import EVENTS, Event

HISTORY_VERSION = 1


@dataclass(slots=True)
class _Joined:
    """The JSON texts of a list's items, joined by commas, and how many items that is: the
    list only grows, so only what was added is written."""

    text: str = ""
    count: int = 0

    def of(self, items: list[Any], write: Callable[[Any], str]) -> str:
        """The list as JSON text."""
        if len(items) > self.count:
            added = ",".join(write(item) for item in items[self.count:])
            self.text = f"{self.text},{added}" if self.count else added
            self.count = len(items)
        return f"[{self.text}]"


@dataclass(slots=True)
class HandLog:
    hand_no: int
    before: dict[str, Any]  # the match state (Match.to_json, without history) before the deal
    deck: Annotated[list[Card], DECK_CARDS]
    actions: list[dict[str, Any]] = field(default_factory=list)  # JSON-able inputs, in order
    events: Annotated[list[Event], EVENTS] = field(default_factory=list)
    # Its JSON text so far (`text`): none of its fields changes once made and the lists only
    # grow, while the hand's history is saved with every action (a table's snapshot).
    written_head: str = field(default="", init=False, repr=False, compare=False,
                              metadata=codec.SKIP)
    written_actions: _Joined = field(default_factory=_Joined, init=False, repr=False,
                                     compare=False, metadata=codec.SKIP)
    written_events: _Joined = field(default_factory=_Joined, init=False, repr=False,
                                    compare=False, metadata=codec.SKIP)

    def copy(self) -> "HandLog":
        return HandLog(self.hand_no, self.before, self.deck, list(self.actions), list(self.events))

    def text(self) -> str:
        """`to_json()` as compact JSON text (the same text), writing only what was added."""
        write = codec.compact
        if not self.written_head:
            self.written_head = (
                f'{{"version":{HISTORY_VERSION},"hand_no":{self.hand_no},"before":'
                f'{write(self.before)},"deck":{write(DECK_CARDS.dump(self.deck))}')
        return (f'{self.written_head},"actions":{self.written_actions.of(self.actions, write)}'
                f',"events":{self.written_events.of(self.events, Event.text)}}}')

    def to_json(self) -> dict[str, Any]:
        return {"version": HISTORY_VERSION, **codec.dump(self)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> "HandLog":
        return codec.load(HandLog, d)


# A hand's log as a field of state JSON (the match's `history`).
HAND_LOG = codec.Custom(HandLog.to_json, HandLog.from_json, HandLog.text)
