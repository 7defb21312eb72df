"""Computer players: from what a seat may see (a PrivateView) to the assignment Match.place takes.

- `easy`: places each street where the rule of thumb (heuristic.py) scores the board highest.
- `strong`: scores every legal placement of the street by Monte Carlo playouts: the rest of the
  hand is dealt from the cards it cannot see (every visible card and its own discards are
  dead) to its board and to every opponent's visible board, all are played out by the rule of
  thumb, and the finished boards are scored as R5 does (a hidden Fantasyland board by
  outcome.py's table). Candidates share the same dealt futures (paired comparison), start
  from the rule of thumb's score as a prior, and successive halving gives the better half of
  them twice the playouts each round, within a budget of playouts and/or seconds. When nothing
  is left to deal to anyone, every candidate is scored exactly.
- Both set a Fantasyland hand with the exact solver (solver.py).

Every choice is one of the engine's legal assignments, so it is legal by construction. Decisions
are seeded from (seed, hand, seat, cards), so a seeded simulation replays exactly.
"""

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.ai.heuristic import Heuristic, Rows
from bot.ai.outcome import Outcome
from bot.ai.solver import STAY_VALUE, solve
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import Card, cards_str, full_deck
from bot.engine.deal import BOARD_CARDS, Street, streets
from bot.engine.errors import RuleError
from bot.engine.placement import DISCARD, legal_assignments
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.engine.scoring import score_pair
from bot.engine.views import PrivateView

LEVELS = ("easy", "strong")
_PROBES = 4  # playouts timed to size a time budget
PRIOR = 3.0  # the rule of thumb's score counts as this many playouts


@dataclass(frozen=True, slots=True)
class Settings:
    level: str = "strong"
    seed: int | None = None  # None: unseeded (live tables); an int: reproducible
    seconds: float | None = 1.0  # time budget per decision (strong); None: playouts only
    playouts: int | None = None  # playout budget per decision (strong); None: time only
    fantasy_value: float = STAY_VALUE  # points a Fantasyland hand is worth (R8)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise RuleError(f"'{self.level}' is not a computer level (choose "
                            f"{', '.join(LEVELS)})")
        if self.seconds is None and self.playouts is None:
            raise RuleError("a strong player needs a time or a playout budget")


def decide(view: PrivateView, settings: Settings | None = None) -> dict[Card, str]:
    """The assignment of `view.dealt` this player makes (each card -> row or "discard")."""
    settings = settings or Settings()
    if not view.dealt:
        raise RuleError("You have no cards to place")
    rules = view.table.rules
    if len(view.dealt) >= BOARD_CARDS:  # a Fantasyland hand (R8)
        return solve(view.dealt, rules, settings.fantasy_value).assignment()
    heuristic = _heuristic(rules, settings.fantasy_value)
    if settings.level == "easy":
        rows, _ = heuristic.best(view.board.rows, view.dealt, view.discard_count)
        return _assignment(view, rows)
    return _MonteCarlo(view, settings, heuristic).choose()


def estimate(view: PrivateView, assignments: Sequence[Mapping[Card, str]], futures: int,
             settings: Settings | None = None) -> list[list[float]]:
    """What each assignment of `view.dealt` (a street, or a whole Fantasyland board) is worth
    to this seat in points, as the strong player judges a placement: the rest of the hand is
    dealt `futures` times from the cards the seat cannot see and played out, each future the
    same for every assignment, and the finished boards are scored (R5, Fantasyland earned or
    kept at `settings.fantasy_value`). One list per assignment, one value per future; a single
    exact value each when nothing is left to deal. Seeded by `settings.seed`."""
    settings = settings or Settings()
    rows = [_rows_after(view.board.rows, view.dealt, a) for a in assignments]
    return _MonteCarlo(view, settings, _heuristic(view.table.rules, settings.fantasy_value)
                       ).values(rows, futures)


@lru_cache(maxsize=32)
def _heuristic(rules: TableRules, fantasy_value: float) -> Heuristic:
    return Heuristic(rules, fantasy_value)


def _assignment(view: PrivateView, rows: Rows) -> dict[Card, str]:
    """Which row each dealt card went to in `rows` (the board after the street)."""
    out = dict.fromkeys(view.dealt, DISCARD)
    for name, before, after in zip(ROWS, view.board.rows, rows, strict=True):
        for card in after[len(before):]:
            out[card] = name
    return out


def _rng(view: PrivateView, seed: int | None) -> random.Random:
    if seed is None:
        return random.Random()
    return random.Random(f"{seed}:{view.table.hand_no}:{view.seat}:{cards_str(view.dealt)}:"
                         f"{cards_str(view.board.cards)}")


def future_streets(rules: TableRules, placed: int) -> tuple[Street, ...]:
    """The streets still to come once a board holds `placed` cards (R7)."""
    done = 0
    plan = streets(rules)
    if not placed:
        return plan
    for i, street in enumerate(plan):
        done += street.cards - street.discards
        if done == placed:
            return plan[i + 1:]
    return ()


class _MonteCarlo:
    def __init__(self, view: PrivateView, settings: Settings, heuristic: Heuristic) -> None:
        self.view = view
        self.settings = settings
        self.heuristic = heuristic
        rules = view.table.rules
        self.rules = rules
        # Opponents whose boards can be played out too (R7: what they placed is face up), and
        # those that cannot (a Fantasyland board is hidden, R8), valued by outcome.py's table.
        self.rivals: list[tuple[Rows, tuple[Street, ...]]] = []
        self.blind = 0
        for seat in view.table.seats:
            if seat.seat == view.seat or seat.sitting_out:
                continue
            if seat.in_fantasy:
                self.blind += 1
            else:
                self.rivals.append((seat.board.rows, future_streets(rules,
                                                                    len(seat.board.cards))))
        own = next(s for s in view.table.seats if s.seat == view.seat)
        self.outcome = Outcome(rules, self.blind, settings.fantasy_value,
                               own.fantasy_size if own.in_fantasy else 0)
        dead = set(view.board.cards) | set(view.dealt) | set(view.discards)
        for seat in view.table.seats:
            dead.update(seat.board.cards)
        self.unseen = [c for c in full_deck(rules.jokers) if c not in dead]
        self.rng = _rng(view, settings.seed)
        placed = len(view.board.cards) + len(view.dealt) - view.discard_count
        self.future = future_streets(rules, placed)
        self.need = sum(s.cards for s in self.future) + sum(
            s.cards for _, streets_left in self.rivals for s in streets_left)

    def choose(self) -> dict[Card, str]:
        view = self.view
        candidates = [_rows_after(view.board.rows, view.dealt, a)
                      for a in legal_assignments(view.board, view.dealt, view.discard_count)]
        if len(candidates) == 1:
            return _assignment(view, candidates[0])
        if not self.need:  # nothing left to deal to anyone: every board is final
            values = [self._playout(rows, ()) for rows in candidates]
            return _assignment(view, candidates[values.index(max(values))])
        return _assignment(view, candidates[self._halving(candidates)])

    def values(self, candidates: list[Rows], futures: int) -> list[list[float]]:
        """Each candidate's points on the same `futures` dealt futures (one exact value each
        when nothing is left to deal)."""
        if not self.need:
            return [[self._playout(rows, ())] for rows in candidates]
        deals = [self.rng.sample(self.unseen, self.need) for _ in range(futures)]
        return [[self._playout(rows, cards) for cards in deals] for rows in candidates]

    def _halving(self, candidates: list[Rows]) -> int:
        """Successive halving: each round every remaining candidate plays the same new
        futures; the better half goes on with twice as many. Estimates start from the rule of
        thumb's score, worth PRIOR playouts, so that a candidate lucky in its first one or two
        playouts does not knock out better ones. The index of the winner."""
        settings = self.settings
        deadline = None if settings.seconds is None else time.perf_counter() + settings.seconds
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        need = self.need
        budget = settings.playouts if settings.playouts is not None else self._affordable(
            candidates[0], need)
        # each round spends about the same share of the budget, over fewer candidates
        per_round = max(1, budget // rounds)
        pool = list(range(len(candidates)))
        totals = [PRIOR * self.heuristic.score(rows) for rows in candidates]
        counts = [0] * len(candidates)
        used = 0
        while len(pool) > 1:
            per = max(1, per_round // len(pool))
            futures = [self.rng.sample(self.unseen, need) for _ in range(per)]
            for i in pool:
                for cards in futures:
                    totals[i] += self._playout(candidates[i], cards)
                counts[i] += len(futures)
                used += len(futures)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            out_of_budget = (settings.playouts is not None and used >= settings.playouts) or (
                deadline is not None and time.perf_counter() > deadline)
            tried = [i for i in pool if counts[i]]
            tried.sort(key=lambda i: totals[i] / (counts[i] + PRIOR), reverse=True)
            if out_of_budget:
                return tried[0]
            pool = tried[:max(1, len(tried) // 2)]
        return pool[0]

    def _affordable(self, rows: Rows, need: int) -> int:
        """How many playouts fit in the time budget, timing a few (not counted)."""
        assert self.settings.seconds is not None
        start = time.perf_counter()
        for _ in range(_PROBES):
            self._playout(rows, self.rng.sample(self.unseen, need))
        each = (time.perf_counter() - start) / _PROBES
        return max(1, int(0.9 * self.settings.seconds / max(each, 1e-6)))

    def _playout(self, rows: Rows, cards: Sequence[Card]) -> float:
        """Deal `cards` street by street to this board and the opponents' (in that order),
        place them by the rule of thumb, and score the finished boards (R5): points against
        each opponent played out, the outcome table against the others."""
        at = 0
        boards = []
        for start, streets_left in ((rows, self.future), *self.rivals):
            for street in streets_left:
                start, _ = self.heuristic.best(start, cards[at:at + street.cards],
                                               street.discards)
                at += street.cards
            boards.append(evaluate_board(Board(*start), self.rules))
        mine = boards[0]
        value = self.outcome.of_result(mine)
        for theirs in boards[1:]:
            value += score_pair(mine, theirs, self.rules.scoring).points
        return value


def _rows_after(rows: Rows, dealt: Sequence[Card], assignment: Mapping[Card, str]) -> Rows:
    top, middle, bottom = rows
    return (top + tuple(c for c in dealt if assignment[c] == "top"),
            middle + tuple(c for c in dealt if assignment[c] == "middle"),
            bottom + tuple(c for c in dealt if assignment[c] == "bottom"))


class AIPlayers:
    """The table service's computer players (its `ComputerPlayers` protocol): `decide` for a
    computer seat, `suggest` for a person's "Best arrangement" (the strong player's choice;
    in Fantasyland the solver's)."""

    def __init__(self, seconds: float | None = 1.0, playouts: int | None = None,
                 fantasy_value: float = STAY_VALUE) -> None:
        self.seconds = seconds
        self.playouts = playouts
        self.fantasy_value = fantasy_value

    def settings(self, level: str, seed: int | None) -> Settings:
        return Settings(level=level, seed=seed, seconds=self.seconds, playouts=self.playouts,
                        fantasy_value=self.fantasy_value)

    def decide(self, view: PrivateView, level: str, seed: int | None, *,
               seconds: float | None = None) -> dict[Card, str]:
        """`seconds`: the time left for this decision (wall time, waiting included), which
        shortens the time budget; a playout budget alone (reproducible) ignores it."""
        settings = self.settings(level, seed)
        if seconds is not None and settings.seconds is not None:
            settings = replace(settings, seconds=min(settings.seconds, seconds))
        return decide(view, settings)

    def suggest(self, view: PrivateView) -> dict[Card, str]:
        return decide(view, self.settings("strong", None))
