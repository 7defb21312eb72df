"""The `strong` player's Monte Carlo search over one street, on row keys (rowkey.py).

Every legal placement of the street is a candidate. The policy (policy.py) scores each as it
stands, and only the best `WIDTH` go on (the rest are placements the policy is sure about
losing, mostly on the first street's 200-odd; `strong-learned` scores them by the learned value
of learned.py instead, and keeps none the policy counts nearly sure to foul). Each is then
valued by playouts: the rest of the hand is dealt from the cards this seat cannot see to its
board and to every opponent's visible board, all are played out by the policy, and the finished
boards are scored as R5 does, plus the Fantasyland each earns (R8) at its measured worth; a
hidden Fantasyland board is valued from outcome.py's table. Candidates share the same dealt
futures (paired comparison), and as the opponents' play does not depend on this seat's
candidate, each future's opponent boards are played out once and scored against every
candidate. Estimates start from the policy's score as a prior, and successive halving gives the
better half twice the playouts each round, within a budget of playouts and/or seconds. The
`strong` player (not `strong-v2`) also counts each candidate's fouled playouts and charges each
one a cost that grows with the playouts made (none up to FOUL_LOW, FOUL_COST from FOUL_HIGH
on): with a larger budget the search finishes its own boards more boldly than the policy that
finishes its playouts, so its boards foul more often than its playouts do. On the first street
a top that already earns Fantasyland is credited FIRST_FANTASY points. When nothing is left to
deal, every candidate is scored exactly.
"""

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.ai.learned import LearnedValue
from bot.ai.outcome import Outcome
from bot.ai.policy import Choice, FantasyWorth, Free, Keys, Policy, plan, subset_sums
from bot.ai.rowkey import row_key, value3, value5
from bot.engine.board import Board, BoardResult
from bot.engine.cards import Card
from bot.engine.deal import Street
from bot.engine.evaluation import is_low
from bot.engine.fantasy import fantasy_cards
from bot.engine.royalties import ROYALTY, middle_royalties
from bot.engine.rules import TableRules

PRIOR = 3.0  # the policy's score counts as this many playouts
# Points credited on the first street to a top that already earns Fantasyland (R8): the playouts'
# policy completes such a board less often than the search itself will, street by street, so
# the playouts undervalue it. Of 0, 6, 9 and 12 (9 and 12: nearly always chosen), 6 scored most
# on the deals screened (docs/computer-players.md, "The measured constants").
FIRST_FANTASY = 6.0
WIDTH = 16  # candidates kept for playouts, the policy's best
# Points charged to a fouled playout of a candidate (`strong`; `strong-v2`: none), over what the
# foul itself costs, by the playouts made so far: none up to FOUL_LOW, rising with their
# logarithm to FOUL_COST at FOUL_HIGH. On the same deals `strong-v2` fouled 11.1% of its boards
# at 2,000 playouts and 8.4% at 200; at 2,000 against `strong-v2` at 2,000 this charge fouled
# 8.9% against 10.7% and scored +0.06 (-0.21, +0.34), while at 200 playouts a charge of 3 cost
# 0.44 a hand (docs/computer-players.md, "The measured constants").
FOUL_COST = 3.0
FOUL_LOW = 200
FOUL_HIGH = 2000
# `strong-learned` keeps no candidate whose board the policy counts more likely to foul than
# this (unless none is below it: then those as likely as the least): its learned value prizes
# tops that earn Fantasyland at nearly any risk, and without a cap its boards fouled one in
# five. Of 0.25, 0.5, 0.6, 0.7 and 0.85, only 0.85 kept its points against `strong`; the
# lower caps fouled less than `strong` and lost to it (docs/computer-players.md).
LEARNED_FOUL_CAP = 0.85
_MARGIN = 0.01  # seconds kept from a time budget to answer in
_SHARE = 0.9  # of the time left that a round plans to spend (the rest: choosing, answering)


@dataclass(frozen=True, slots=True)
class Seat:
    """A board to play out: its row keys, free places and the streets it still gets."""

    keys: Keys
    free: tuple[int, int, int]
    streets: tuple[Street, ...]


class Final(NamedTuple):
    """A finished board as R3-R5 and R8 score it (a NamedTuple: playouts make millions)."""

    fouled: bool
    lines: tuple[int, int, int]  # higher wins (a lowball middle negated)
    royalties: int
    fantasy: float  # points of the Fantasyland it earns (per opponent)


class Scorer:
    """Finished boards from their row keys, under one table's rules."""

    def __init__(self, rules: TableRules, fantasy: FantasyWorth) -> None:
        self.rules = rules
        self.fantasy = fantasy
        self.lowball = rules.variant == "lowball"
        table = ROYALTY[rules.royalties]
        self.royalty = (table["top"], middle_royalties(rules.royalties, self.lowball),
                        table["bottom"])
        self.bonus = 3 if rules.scoring == "1-6" else 1
        self._fantasy: dict[tuple[int, int], float] = {}

    def final(self, keys: Keys) -> Final:
        top, middle, bottom = value3(keys[0]), value5(keys[1]), value5(keys[2])
        if self.lowball:
            fouled = not is_low(middle) or top > bottom
            lines = (top, -middle, bottom)
        else:
            fouled = top > middle or middle > bottom
            lines = (top, middle, bottom)
        if fouled:
            return Final(True, lines, 0, 0.0)
        r = self.royalty
        return Final(False, lines, r[0][top] + r[1][middle] + r[2][bottom],
                     self._earned(top, middle))

    def _earned(self, top: int, middle: int) -> float:
        """Fantasyland points a board with this top and middle earns (R8, R9): the engine's
        fantasy_cards, remembered per (top, middle) (the bottom never matters for entry)."""
        key = (top, middle if self.lowball else 0)
        found = self._fantasy.get(key)
        if found is None:
            probe = BoardResult(Board(), Board(), False, (top, middle, 1),
                                (top, -middle if self.lowball else middle, 1), (0, 0, 0),
                                self.lowball)
            found = self._fantasy[key] = self.fantasy.of(
                fantasy_cards(probe, self.rules, in_fantasy=False))
        return found

    def pair(self, mine: Final, theirs: Final) -> int:
        """R5: my points against one opponent."""
        if mine.fouled or theirs.fouled:
            if mine.fouled and theirs.fouled:
                return 0
            sign = -1 if mine.fouled else 1
            return sign * (3 + self.bonus) + mine.royalties - theirs.royalties
        (ta, ma, ba), (tb, mb, bb) = mine.lines, theirs.lines
        wins = (ta > tb) + (ma > mb) + (ba > bb)
        losses = (ta < tb) + (ma < mb) + (ba < bb)
        if self.bonus == 3:
            bonus = 3 if wins == 3 else -3 if losses == 3 else 0
        else:
            bonus = 1 if wins >= 2 else -1 if losses >= 2 else 0
        return wins - losses + bonus + mine.royalties - theirs.royalties

    def result(self, final: Final, keys: Keys) -> BoardResult:
        """The engine's BoardResult of a finished board (outcome.py's table reads it)."""
        hands = (value3(keys[0]), value5(keys[1]), value5(keys[2]))
        return BoardResult(Board(), Board(), final.fouled, hands, final.lines,
                           (final.royalties, 0, 0), self.lowball)


class Search:
    """One street's decision: `choose` returns the chosen placement's dealt-index masks."""

    def __init__(self, policy: Policy, scorer: Scorer, me: Seat, dealt: Sequence[Card],
                 discards: int, rivals: Sequence[Seat], blind: int, unseen: Sequence[Card],
                 rng: random.Random, charge_fouls: bool = False,
                 learned: LearnedValue | None = None) -> None:
        self.policy = policy
        self.scorer = scorer
        self.me = me  # the board before this street; its streets are those after it
        self.dealt = tuple(dealt)
        self.discards = discards
        self.rivals = tuple(rivals)
        self.opponents = len(rivals) + blind
        self.outcome = Outcome(scorer.rules, blind, 0.0) if blind else None
        self.unseen = list(unseen)
        self.rng = rng
        self.mine_need = sum(s.cards for s in me.streets)
        self.need = self.mine_need + sum(s.cards for r in rivals for s in r.streets)
        self.played = 0  # playouts made (one candidate, one future)
        self.charge_fouls = charge_fouls  # `strong`: foul_charge; `strong-v2`: none
        self.learned = learned  # `strong-learned`: the prior; the others: the policy's score

    def candidates(self) -> list[tuple[Choice, Keys]]:
        sums = subset_sums(self.dealt)
        keys, free = self.me.keys, self.me.free
        return [(c, (keys[0] + sums[c[0]], keys[1] + sums[c[1]], keys[2] + sums[c[2]]))
                for c in plan(free[0], free[1], free[2], len(self.dealt), self.discards).choices]

    def choose(self, playouts: int | None, seconds: float | None) -> Choice:
        """The best placement within `playouts` (reproducible) or `seconds` of wall time, or
        whichever ends first."""
        deadline = None if seconds is None else time.perf_counter() + seconds - _MARGIN
        options = self.candidates()
        if len(options) == 1:
            return options[0][0]
        left = len(self.me.streets)
        if not self.need:  # nothing left to deal to anyone: every board is final
            rivals = self._rivals(())
            values = [self._value(k, rivals) for _, k in options]
            self.played = len(options)
            return options[values.index(max(values))][0]
        priors = self.priors(options, left)
        credits = self.credits(options)
        order = sorted(self.admitted(options, left), key=lambda i: priors[i] + credits[i],
                       reverse=True)[:WIDTH]
        kept = [options[i] for i in order]
        winner = self._halving(kept, [priors[i] for i in order], [credits[i] for i in order],
                               playouts, deadline)
        return kept[winner][0]

    def priors(self, options: Sequence[tuple[Choice, Keys]], left: int) -> list[float]:
        """What the candidates' boards are worth before any playout: the policy's score, or for
        `strong-learned` the learned value (points against one opponent, times the opponents).
        The search keeps the best WIDTH by it and starts their estimates from it."""
        learned = self.learned
        if learned is None:
            return [self.policy.score(keys, left) for _, keys in options]
        return [learned.value(self.policy, keys, left) * self.opponents for _, keys in options]

    def admitted(self, options: Sequence[tuple[Choice, Keys]], left: int) -> list[int]:
        """The candidates the search may keep: all, or for `strong-learned` those whose foul
        chance, as the policy counts it, is at most LEARNED_FOUL_CAP (or the least of all)."""
        if self.learned is None:
            return list(range(len(options)))
        fouls = [self.policy.foul_chance(keys, left) for _, keys in options]
        cap = max(LEARNED_FOUL_CAP, min(fouls))
        return [i for i, foul in enumerate(fouls) if foul <= cap]

    def credits(self, options: Sequence[tuple[Choice, Keys]]) -> list[float]:
        """Points added to each option's estimate: FIRST_FANTASY, on the first street, to a top
        that already earns Fantasyland."""
        if self.me.free != (3, 5, 5):
            return [0.0] * len(options)
        return [FIRST_FANTASY if self.policy.earns_fantasy(keys[0]) else 0.0
                for _, keys in options]

    def estimate(self, options: Sequence[tuple[Choice, Keys]],
                 futures: int) -> list[list[float]]:
        """Each option's value on the same `futures` dealt futures, one list per option (one
        exact value each when nothing is left to deal)."""
        if not self.need:
            rivals = self._rivals(())
            return [[float(self._value(keys, rivals))] for _, keys in options]
        values: list[list[float]] = [[] for _ in options]
        for _ in range(futures):
            cards = self.rng.sample(self.unseen, self.need)
            rivals = self._rivals(cards)
            for i, (choice, keys) in enumerate(options):
                values[i].append(self._value(self._play(keys, self._free(choice), cards),
                                             rivals))
        self.played += futures * len(options)
        return values

    def _free(self, choice: Choice) -> Free:
        return (self.me.free[0] - choice[0].bit_count(), choice[3], choice[4])

    def _halving(self, options: list[tuple[Choice, Keys]], priors: list[float],
                 credits: list[float], playouts: int | None, deadline: float | None) -> int:
        """Successive halving: each round every remaining candidate plays the same new
        futures; the better half goes on with twice as many. Each round spends an equal share of
        what is left of the budget, over fewer candidates (so a budget is spent whole even when
        the candidates are not a power of two); on a time budget, what is left is measured again
        each round from the time the playouts so far took. The index of the winner."""
        start = time.perf_counter()
        pool = list(range(len(options)))
        totals = [PRIOR * p for p in priors]
        counts = [0] * len(options)
        fouls = [0] * len(options)  # playouts whose board ended fouled
        while len(pool) > 1:
            timing = deadline is not None and not self.played
            rounds_left = max(1, math.ceil(math.log2(len(pool))))
            if playouts is not None:  # what is left, shared among the rounds left
                per = max(1, (playouts - self.played) // rounds_left // len(pool))
            elif timing:  # a first round to time the playouts: every candidate plays two
                per = 2
            else:
                assert deadline is not None
                now = time.perf_counter()
                left = int(_SHARE * (deadline - now) / ((now - start) / self.played))
                per = max(1, left // rounds_left // len(pool))
            futures = [self.rng.sample(self.unseen, self.need) for _ in range(per)]
            rivals = [self._rivals(cards) for cards in futures]
            out_of_time = False
            for i in pool:
                keys = options[i][1]
                free = self._free(options[i][0])
                for cards, theirs in zip(futures, rivals, strict=True):
                    board = self._play(keys, free, cards)
                    mine = self.scorer.final(board)
                    totals[i] += self._points(mine, board, theirs)
                    fouls[i] += mine.fouled
                    counts[i] += 1
                    self.played += 1
                    if deadline is not None and time.perf_counter() > deadline:
                        out_of_time = True
                        break
                if out_of_time:
                    break
            tried = [i for i in pool if counts[i]]
            charge = self.foul_charge()
            tried.sort(key=lambda i: (totals[i] - charge * fouls[i]) / (counts[i] + PRIOR)
                       + credits[i], reverse=True)
            if out_of_time or (playouts is not None and self.played >= playouts):
                return tried[0]
            if not timing:
                pool = tried[:max(1, len(tried) // 2)]
        return pool[0]

    def foul_charge(self) -> float:
        """What each fouled playout of a candidate is charged, by the playouts made so far."""
        if not self.charge_fouls or self.played <= FOUL_LOW:
            return 0.0
        share = math.log(self.played / FOUL_LOW) / math.log(FOUL_HIGH / FOUL_LOW)
        return FOUL_COST * min(1.0, share)

    def _play(self, keys: Keys, free: tuple[int, int, int], cards: Sequence[Card]) -> Keys:
        """This seat's board after the policy plays `cards` street by street."""
        return _play_out(self.policy, keys, free, self.me.streets, cards)

    def _rivals(self, cards: Sequence[Card]) -> list[Final]:
        """Each opponent's finished board in this future (dealt after this seat's cards)."""
        at = self.mine_need
        out = []
        for rival in self.rivals:
            size = sum(s.cards for s in rival.streets)
            keys = _play_out(self.policy, rival.keys, rival.free, rival.streets,
                             cards[at:at + size])
            at += size
            out.append(self.scorer.final(keys))
        return out

    def _value(self, keys: Keys, rivals: list[Final]) -> float:
        """Points of a finished board against the opponents, and its Fantasyland."""
        return self._points(self.scorer.final(keys), keys, rivals)

    def _points(self, mine: Final, keys: Keys, rivals: list[Final]) -> float:
        """`_value` of a board already scored as `mine`."""
        scorer = self.scorer
        value = mine.fantasy * self.opponents
        for theirs in rivals:
            value += scorer.pair(mine, theirs)
        if self.outcome is not None:
            value += self.outcome.of_result(scorer.result(mine, keys))
        return value


def _play_out(policy: Policy, keys: Keys, free: Free, streets: Sequence[Street],
              cards: Sequence[Card]) -> Keys:
    at = 0
    left = len(streets)
    for street in streets:
        left -= 1
        keys, free = policy.place(keys, free, cards[at:at + street.cards], street.discards,
                                  left)
        at += street.cards
    return keys


def seat(rows: Sequence[Sequence[Card]], streets: tuple[Street, ...]) -> Seat:
    return Seat((row_key(rows[0]), row_key(rows[1]), row_key(rows[2])),
                (3 - len(rows[0]), 5 - len(rows[1]), 5 - len(rows[2])), streets)
