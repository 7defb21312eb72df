"""Who sits at a table: people and computer seats, and who decides a computer's placement.

A player id is a Discord user id (> 0) for a person and a negative id for a computer seat
(storage's convention, bot/storage/__init__.py); `is_person` names the test.

The service asks a `ComputerPlayers` for a placement from a seat's `PrivateView` only (what
that seat may see, R7), and applies the answer through the same checked path as a person's
click. The default is bot.ai's players (easy and strong; the exact solver in Fantasyland).
"""

from collections.abc import Mapping
from typing import Protocol, TypeGuard

from bot.ai.players import LEVELS, AIPlayers
from bot.engine.cards import Card
from bot.engine.views import PrivateView

__all__ = ["LEVELS", "ComputerPlayers", "default_players", "is_person"]


def is_person(player_id: int | None) -> TypeGuard[int]:
    """A person's seat (a Discord user id); computer seats have negative ids, none is 0."""
    return player_id is not None and player_id > 0


class ComputerPlayers(Protocol):
    def decide(self, view: PrivateView, level: str, seed: int | None, *,
               seconds: float | None = None) -> Mapping[Card, str]:
        """A computer seat's placement of `view.dealt` (a street or a Fantasyland hand),
        within `seconds` of wall time when given."""
        ...

    def suggest(self, view: PrivateView) -> Mapping[Card, str]:
        """A placement to offer a person ("Best arrangement")."""
        ...


def default_players() -> ComputerPlayers:
    """bot.ai's computer players with their default time budget."""
    return AIPlayers()
