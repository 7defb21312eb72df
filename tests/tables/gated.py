"""A computer player for worker tests: its decision waits until a gate file exists, so a
test knows a worker process is still busy with it, whatever the machine's speed."""

import os
import time
from typing import Any

from bot.ai.players import AIPlayers
from bot.engine.cards import Card
from bot.engine.views import PrivateView


class GatedPlayers(AIPlayers):
    def __init__(self, gate: str, **settings: Any) -> None:
        super().__init__(**settings)
        self.gate = gate  # a path: pickled with the player into the worker process

    def decide(self, view: PrivateView, level: str, seed: int | None, *,
               seconds: float | None = None) -> dict[Card, str]:
        while not os.path.exists(self.gate):
            time.sleep(0.01)
        return super().decide(view, level, seed, seconds=seconds)
