"""`strong-v1`: the strong player as it was before it played for Fantasyland, kept
so that the comparison in docs/computer-players.md can be run again.

Every legal placement of the street is scored by Monte Carlo playouts: the rest of the hand is
dealt from the cards it cannot see (every visible card and its own discards are dead) to its
board and to every opponent's visible board, all are played out by the rule of thumb
(heuristic.py), and the finished boards are scored as R5 does (a hidden Fantasyland board by
outcome.py's table). Candidates share the same dealt futures (paired comparison), start from the
rule of thumb's score as a prior, and successive halving gives the better half of them twice the
playouts each round, within a budget of playouts and/or seconds. When nothing is left to deal to
anyone, every candidate is scored exactly.
"""

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.ai.heuristic import Heuristic, Rows
from bot.ai.outcome import Outcome
from bot.ai.turn import assignment, decision_rng, future_streets, rows_after
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import Card, full_deck
from bot.engine.deal import Street
from bot.engine.placement import legal_assignments
from bot.engine.scoring import score_pair
from bot.engine.views import PrivateView

if TYPE_CHECKING:
    from bot.ai.players import Settings

_PROBES = 4  # playouts timed to size a time budget
PRIOR = 3.0  # the rule of thumb's score counts as this many playouts


class StrongV1:
    def __init__(self, view: PrivateView, settings: "Settings", heuristic: Heuristic,
                 fantasy_value: float) -> None:
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
        self.outcome = Outcome(rules, self.blind, fantasy_value,
                               own.fantasy_size if own.in_fantasy else 0)
        dead = set(view.board.cards) | set(view.dealt) | set(view.discards)
        for seat in view.table.seats:
            dead.update(seat.board.cards)
        self.unseen = [c for c in full_deck(rules.jokers) if c not in dead]
        self.rng = decision_rng(view, settings.seed)
        placed = len(view.board.cards) + len(view.dealt) - view.discard_count
        self.future = future_streets(rules, placed)
        self.played = 0  # playouts made (one candidate, one future), the probes not counted
        self.need = sum(s.cards for s in self.future) + sum(
            s.cards for _, streets_left in self.rivals for s in streets_left)

    def choose(self) -> dict[Card, str]:
        view = self.view
        candidates = [rows_after(view.board.rows, view.dealt, a)
                      for a in legal_assignments(view.board, view.dealt, view.discard_count)]
        if len(candidates) == 1:
            return assignment(view, candidates[0])
        if not self.need:  # nothing left to deal to anyone: every board is final
            values = [self._playout(rows, ()) for rows in candidates]
            self.played = len(candidates)
            return assignment(view, candidates[values.index(max(values))])
        return assignment(view, candidates[self._halving(candidates)])

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
                self.played = used
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
