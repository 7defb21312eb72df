"""The table service's tunables (the bot's config maps its settings onto these)."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    lobby_idle_seconds: float = 900.0  # an untouched lobby is cancelled and refunded; a
    # cash table short of players (a bust) waits this long after its last hand, then closes
    ai_delay_seconds: float = 1.5  # pause before a computer acts, so people can follow
    next_hand_seconds: float = 8.0  # pause after a showdown before the next deal
    ai_in_thread: bool = True  # computer decisions off the event loop (strong ones take ~1 s):
    # in the worker processes when the service has them, else on a thread
    ai_seconds: float = 1.0  # a computer's decision budget in wall time from asking, waiting
    # for a worker included (the strong player shortens its search to what is left)
