"""Computer seats and "Best arrangement": who decides a placement the service then applies.

The service asks a `ComputerPlayers` for a placement from a seat's `PrivateView` only (what
that seat may see, R7), and applies the answer through the same checked path as a person's
click. `SimplePlayers` is the built-in stand-in: legal, quick, not clever; Fantasyland hands go
to bot.ai's exact solver.
"""

from collections.abc import Mapping
from typing import Protocol

from bot.ai.solver import solve
from bot.engine.cards import Card, rank_of
from bot.engine.placement import DISCARD
from bot.engine.views import PrivateView

Assignment = Mapping[Card, str]
LEVELS = ("easy", "strong")


class ComputerPlayers(Protocol):
    def decide(self, view: PrivateView, level: str, seed: int | None) -> Assignment:
        """A computer seat's placement of `view.dealt` (a street or a Fantasyland hand)."""
        ...

    def suggest(self, view: PrivateView) -> Assignment:
        """A placement to offer a person ("Best arrangement")."""
        ...


def _strength(card: Card) -> int:
    return 13 if card < 0 else rank_of(card)  # a joker is the best card to keep


class SimplePlayers:
    """Streets: discard the lowest cards, then the highest cards go lowest (bottom, middle,
    top), which keeps rows in order more often than not. Fantasyland: the exact solver."""

    def decide(self, view: PrivateView, level: str, seed: int | None) -> Assignment:
        return self.suggest(view)

    def suggest(self, view: PrivateView) -> Assignment:
        if _in_fantasy(view):
            return solve(view.dealt, view.table.rules).assignment()
        by_strength = sorted(view.dealt, key=_strength, reverse=True)
        keep = len(by_strength) - view.discard_count
        free = {"bottom": 5 - len(view.board.bottom), "middle": 5 - len(view.board.middle),
                "top": 3 - len(view.board.top)}
        out: dict[Card, str] = {}
        for card in by_strength[:keep]:
            row = next(r for r in ("bottom", "middle", "top") if free[r])
            free[row] -= 1
            out[card] = row
        out.update(dict.fromkeys(by_strength[keep:], DISCARD))
        return out


def _in_fantasy(view: PrivateView) -> bool:
    return any(s.seat == view.seat and s.in_fantasy for s in view.table.seats)


def default_players() -> ComputerPlayers:
    """The computer players the service uses when none is given."""
    return SimplePlayers()
