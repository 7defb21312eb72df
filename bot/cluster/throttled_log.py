"""Warnings that anyone on the network can cause, written at most once a minute per reason.

    refusals = ThrottledLog(log, clock=time.monotonic)
    refusals.warning("bad signature", "relay: refused a payload from %s: %s", address, why)

The first occurrence of a reason is written at once; later ones within `every` seconds are
only counted, and the next line written for that reason says how many were left out. So a
flood of forged requests costs one line a minute, not one line each, and nothing is hidden.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(slots=True)
class _Reason:
    written_at: float
    suppressed: int = 0


class ThrottledLog:
    def __init__(self, log: logging.Logger, *, clock: Callable[[], float],
                 every: float = 60.0) -> None:
        self._log = log
        self._clock = clock
        self._every = every
        self._reasons: dict[str, _Reason] = {}

    def warning(self, reason: str, message: str, *args: object) -> None:
        """Log `message % args` unless `reason` was logged in the last `every` seconds."""
        now = self._clock()
        seen = self._reasons.get(reason)
        if seen is not None and now - seen.written_at < self._every:
            seen.suppressed += 1
            return
        if seen is not None and seen.suppressed:
            message += " (and %d more like it in the last %d s, not logged)"
            args = (*args, seen.suppressed, round(now - seen.written_at))
        self._reasons[reason] = _Reason(now)
        self._log.warning(message, *args)
