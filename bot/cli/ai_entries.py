"""`ofc simulate --ai`: the computer players it seats, each a level with an optional budget of
its own, so two budgets of one level can sit at one table (`strong@1s,strong@200`).

`level@N` thinks N playouts per decision (reproducible), `level@Xs` X seconds per decision; a
plain level thinks within the run's `--playouts`/`--seconds`.
"""

import math
import re
from dataclasses import dataclass

from bot.ai.players import LEVELS, AIPlayers
from bot.engine.errors import RuleError

UNBUDGETED = ("easy",)  # levels that decide by a rule of thumb: a budget would change nothing
_PLAYOUTS = re.compile(r"-?\d+")
_SECONDS = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)s")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of --ai: its label (the spec as written) and the budget it decides within
    (None and None for a level that takes no budget)."""

    label: str
    level: str
    playouts: int | None = None
    seconds: float | None = None

    def players(self, fantasy_value: float | None) -> AIPlayers:
        if self.level in UNBUDGETED:  # its budget is never used, but AIPlayers needs one
            return AIPlayers(fantasy_value=fantasy_value)
        return AIPlayers(seconds=self.seconds, playouts=self.playouts,
                         fantasy_value=fantasy_value)


def parse_entry(spec: str, playouts: int | None, seconds: float | None) -> Entry:
    """`level`, `level@N` or `level@Xs`; a plain level takes the run's `playouts` or `seconds`.
    RuleError for an unknown level, a malformed or non-positive budget, or a budget on a level
    that takes none."""
    level, at, budget = spec.partition("@")
    if level not in LEVELS:
        raise RuleError(f"'{level}' is not a computer level (choose {', '.join(LEVELS)})")
    if at and level in UNBUDGETED:
        raise RuleError(f"'{spec}': {level} decides by a rule of thumb and takes no budget")
    if level in UNBUDGETED:
        return Entry(spec, level)
    if not at:
        return Entry(spec, level, playouts=None if seconds is not None else playouts,
                     seconds=seconds)
    if _PLAYOUTS.fullmatch(budget):
        count = int(budget)
        if count < 1:
            raise RuleError(f"'{spec}': a budget is at least 1 playout")
        return Entry(spec, level, playouts=count)
    if _SECONDS.fullmatch(budget):
        time = float(budget[:-1])
        if not 0 < time < math.inf:
            raise RuleError(f"'{spec}': a budget is more than 0 seconds")
        return Entry(spec, level, seconds=time)
    raise RuleError(f"'{spec}' is not level@N (N playouts per decision) or level@Xs (X seconds "
                    "per decision)")


def parse_entries(text: str, seats: int, playouts: int | None,
                  seconds: float | None) -> list[Entry]:
    """The entries of `--ai`: one for every seat, or one per seat."""
    entries = [parse_entry(w.strip(), playouts, seconds) for w in text.split(",") if w.strip()]
    if len(entries) == 1:
        return entries * seats
    if len(entries) != seats:
        raise RuleError(f"--ai names {len(entries)} players but --players is {seats}")
    return entries
