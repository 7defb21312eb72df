"""Replaying a hand's history (history.py): the same actions on the same state and deck."""

from collections.abc import Iterable, Iterator
from typing import Any

from bot.engine.cards import Card
from bot.engine.deal import decode
from bot.engine.errors import RuleError
from bot.engine.history import HandLog
from bot.engine.match import Match, PlayerSpec


def replay(history: dict[str, Any]) -> Match:
    """The match state the history leads to (`Match.history()` of a match replays to it)."""
    for match, action in steps(history):
        if action is None:
            return match
    raise AssertionError("steps() always ends with the state after the last action")


def steps(history: dict[str, Any]) -> Iterator[tuple[Match, dict[str, Any] | None]]:
    """The hand one action at a time: the match before each action with that action (which
    is applied once the caller asks for the next step), then the final match with None. The
    match is one object throughout: read it between steps, never change it."""
    log = HandLog.from_json(history)
    match = Match.from_json(log.before)
    for action in log.actions:
        yield match, action
        _apply(match, action, log.deck)
    yield match, None


def carry_on(match: Match, actions: Iterable[dict[str, Any]]) -> None:
    """Take, on the match, actions of its hand taken after the state it is in (its history
    goes on with them, as it did when they were taken). Never a deal: a deal starts another
    hand, with its own deck."""
    log = match.log
    assert log is not None
    for action in actions:
        if action["do"] == "start":
            raise RuleError("A hand's next deal cannot carry on its history")
        _apply(match, action, log.deck)


def _apply(match: Match, action: dict[str, Any], deck: list[Card]) -> None:
    do = action["do"]
    if do == "start":
        match._start_hand(action["now"], list(deck))
    elif do == "place":
        cards = dict(zip(decode(action["cards"]), action["cards"].values(), strict=True))
        match.place(action["seat"], cards, action["now"])
    elif do == "timeout":  # before computers stayed, a history says nothing of them
        match.timeout(action["now"], computers_away=not action.get("computers_stay", False))
    elif do == "complete":
        match.complete_hand(action["now"])
    elif do == "pause":
        match.pause(action["seconds"])
    elif do == "back":
        match.back(action["seat"], action["now"])
    elif do == "join":
        match.join(PlayerSpec(**action["player"]), action["seat"])
    elif do == "leave":
        match.leave(action["seat"])
    elif do == "stay":
        match.stay(action["seat"])
    elif do == "finish":
        match.finish()
    else:
        raise RuleError(f"Unknown action '{do}' in the history")
