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
    # The JSON text of `before`, of `deck` and of each action, once written: none of them
    # changes once made, and the hand's history is saved with every action (`dumps`).
    written: list[str] = field(default_factory=list, init=False, repr=False, compare=False,
                               metadata=codec.SKIP)

    def copy(self) -> "HandLog":
        return HandLog(self.hand_no, self.before, self.deck, list(self.actions), list(self.events))

    def texts(self) -> dict[str, str]:
        """The JSON text of each field but `hand_no`, as `to_json()` writes it compactly."""
        written = self.written
        if not written:
            written += (_compact(self.before), _compact(DECK_CARDS.dump(self.deck)))
        written += (_compact(action) for action in self.actions[len(written) - 2:])
        return {"before": written[0], "deck": written[1],
                "actions": "[" + ",".join(written[2:]) + "]",
                "events": "[" + ",".join(e.text() for e in self.events) + "]"}

    def to_json(self) -> dict[str, Any]:
        return {"version": HISTORY_VERSION, **codec.dump(self)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> "HandLog":
        return codec.load(HandLog, d)


# A hand's log as a field of state JSON (the match's `history`).
HAND_LOG = codec.Custom(HandLog.to_json, HandLog.from_json)

# Where a history's parts go while the JSON around them is written (`dumps`). Not texts a
# player can type: their NUL characters are written as escapes, and `dumps` checks that each
# occurs once.
_MARKS = {key: f"\x00ofc:{key}\x00" for key in ("before", "deck", "actions", "events")}
_MARK_TEXTS = {key: json.dumps(mark) for key, mark in _MARKS.items()}


def dumps(data: dict[str, Any], history: dict[str, Any] | None, log: HandLog | None) -> str:
    """`data` as compact JSON text, where `history` (a part of `data`, or `data` itself) is
    `log.to_json()`: the same text as `json.dumps(data, separators=(",", ":"))`, but the
    history's parts, each written as text once (`HandLog.texts`), are put in as they are
    rather than written again at every save of the hand (a table's snapshot, its hand
    record)."""
    if history is None or log is None:
        return _compact(data)
    parts = log.texts()
    kept = {key: history[key] for key in parts}
    history.update(_MARKS)
    try:
        text = _compact(data)
    finally:
        history.update(kept)
    if any(text.count(_MARK_TEXTS[key]) != 1 for key in parts):  # a marker in some text
        return _compact(data)
    pieces: list[str] = []
    at = 0
    for found, key in sorted((text.index(_MARK_TEXTS[key]), key) for key in parts):
        pieces += (text[at:found], parts[key])
        at = found + len(_MARK_TEXTS[key])
    pieces.append(text[at:])
    return "".join(pieces)


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))
