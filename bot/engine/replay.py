"""Replaying a hand's history (history.py): the same actions on the same state and deck."""

from typing import Any

from bot.engine.deal import decode
from bot.engine.errors import RuleError
from bot.engine.history import HandLog
from bot.engine.match import Match, PlayerSpec


def replay(history: dict[str, Any]) -> Match:
    """The match state the history leads to (`Match.history()` of a match replays to it)."""
    log = HandLog.from_json(history)
    match = Match.from_json(log.before)
    for action in log.actions:
        do = action["do"]
        if do == "start":
            match._start_hand(action["now"], list(log.deck))
        elif do == "place":
            cards = dict(zip(decode(action["cards"]), action["cards"].values(), strict=True))
            match.place(action["seat"], cards, action["now"])
        elif do == "timeout":
            match.timeout(action["now"])
        elif do == "complete":
            match.complete_hand(action["now"])
        elif do == "back":
            match.back(action["seat"], action["now"])
        elif do == "join":
            match.join(PlayerSpec(**action["player"]), action["seat"])
        elif do == "leave":
            match.leave(action["seat"])
        elif do == "finish":
            match.finish()
        else:
            raise RuleError(f"Unknown action '{do}' in the history")
    return match
