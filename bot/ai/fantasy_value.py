"""What a Fantasyland hand is worth (R8), measured with the exact solver.

A Fantasyland hand of `c` cards is worth, against one opponent, the points it scores over what a
normal hand would have scored against the same opponent. Heads-up between equal players a normal
hand scores 0 (the two seats of a deal are the same player), so:

    V(c) = E(c) + p(c) * V(r(c))

- E(c): the mean points (R5: lines, scoop, royalties) of the solver's arrangement of `c` random
  cards against an opponent's normal hand dealt from the rest of the deck and played by the
  strong player (200 playouts), which cannot see the Fantasyland board (R8);
- p(c): how often that arrangement stays in Fantasyland, and r(c) the cards of the hand it then
  plays (standard and progressive: 14; ultimate: c again), whose worth V(r(c)) it also earns;
- the solver weighs staying against royalties by the stay value, which is V(r(c)) itself: the
  measurement starts from V = 13 and repeats, on the same deals, until V moves by less than
  0.05 points (two or three rounds).

`ofc fantasy-value` runs it; MEASURED is its result for the default rules with 2,000 deals per
size (docs/computer-players.md). Other rules scale the same table (their fantasy modes pick
which sizes are dealt).
"""

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai.heuristic import Rows
from bot.ai.policy import FantasyWorth, Policy
from bot.ai.search import Scorer, Search, seat
from bot.ai.solver import solve
from bot.engine.board import Board, BoardResult, evaluate_board
from bot.engine.cards import Card, full_deck
from bot.engine.deal import streets
from bot.engine.fantasy import fantasy_cards
from bot.engine.rules import TableRules
from bot.engine.scoring import score_pair

V1_FANTASY_VALUE = 13.0  # what `easy` and `strong-v1` use (an earlier measurement)
START = 13.0  # the first stay value of the measurement
OPPONENT_PLAYOUTS = 200
SIZES = (13, 14, 15, 16, 17)
TOLERANCE = 0.05
MAX_ROUNDS = 8
Z95 = 1.96
# `ofc fantasy-value --hands 2000 --seed 1`, default rules: points against one opponent
MEASURED = {13: 8.01, 14: 13.28, 15: 19.80, 16: 25.58, 17: 32.24}


def fantasy_worth(rules: TableRules, value: float | None) -> FantasyWorth:
    """Points per Fantasyland size against one opponent: as measured, or scaled so that a
    14-card hand is worth `value`."""
    if rules.fantasy == "off":
        return FantasyWorth({})
    scale = 1.0 if value is None else value / MEASURED[14]
    return FantasyWorth({cards: v * scale for cards, v in MEASURED.items()})


@dataclass(frozen=True, slots=True)
class Size:
    """The measurement of one Fantasyland size."""

    cards: int
    hands: int
    points: float  # E(c)
    ci95: tuple[float, float]
    stay_rate: float  # p(c)
    repeat: int  # r(c), 0 when a stay is impossible
    value: float  # V(c)


def repeat_cards(rules: TableRules, cards: int) -> int:
    """r(c): the size of the Fantasyland hand a stay from a `cards` hand earns (R8), 0 for none
    (the engine's fantasy_cards on a staying board: trips on top)."""
    board = Board.parse("2h 2d 2c", "3h 3d 3c 4c 5c", "Ah Ad Ac Kc Kd")
    return fantasy_cards(evaluate_board(board, rules), rules, in_fantasy=True,
                         entry_cards=cards)


def worth_from(stats: dict[int, tuple[float, float]], repeats: dict[int, int]) -> dict[int, float]:
    """V(c) = E(c) + p(c) * V(r(c)) from E and p per size ((E, p) in `stats`): a size that
    repeats itself first (V = E / (1 - p)), then the others from it."""
    out: dict[int, float] = {}
    for cards, (points, stay) in stats.items():
        if repeats[cards] == cards:
            out[cards] = points / (1 - stay) if stay < 1 else math.inf
    for cards, (points, stay) in stats.items():
        if cards not in out:
            again = repeats[cards]
            out[cards] = points + (stay * out[again] if again else 0.0)
    return out


def deals(hands: int, seed: int, rules: TableRules) -> list[list[Card]]:
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        deck = full_deck(rules.jokers)
        rng.shuffle(deck)
        out.append(deck)
    return out


def opponent_result(deck: Sequence[Card], cards: int, rules: TableRules, policy: Policy,
                    scorer: Scorer, playouts: int, seed: int) -> BoardResult:
    """The opponent's normal hand, dealt from the deck after the Fantasyland cards and placed
    street by street by the strong player at `playouts` (it sees its own cards only: the
    Fantasyland board is hidden, R8)."""
    plan = streets(rules)
    rows: Rows = ((), (), ())
    seen: list[Card] = []
    at = cards
    rng = random.Random(seed)
    for k, street in enumerate(plan):
        dealt = tuple(deck[at:at + street.cards])
        at += street.cards
        unseen = [c for c in full_deck(rules.jokers) if c not in seen and c not in dealt]
        search = Search(policy, scorer, seat(rows, plan[k + 1:]), dealt, street.discards, (),
                        1, unseen, rng)
        choice = search.choose(playouts, None)
        rows = (rows[0] + tuple(c for i, c in enumerate(dealt) if choice[0] >> i & 1),
                rows[1] + tuple(c for i, c in enumerate(dealt) if choice[1] >> i & 1),
                rows[2] + tuple(c for i, c in enumerate(dealt) if choice[2] >> i & 1))
        seen += dealt
    return evaluate_board(Board(*rows), rules)


def measure(rules: TableRules, hands: int, seed: int, sizes: Sequence[int] = SIZES,
            playouts: int = OPPONENT_PLAYOUTS,
            progress: Callable[[str], None] | None = None) -> list[Size]:
    """E, p and V per size (see the module docstring), on `hands` seeded deals a size."""
    worth = fantasy_worth(rules, None)
    policy, scorer = Policy(rules, worth), Scorer(rules, worth)
    repeats = {c: repeat_cards(rules, c) for c in sizes}
    decks = {c: deals(hands, seed * 100 + c, rules) for c in sizes}
    theirs = {c: [opponent_result(d, c, rules, policy, scorer, playouts, seed + i)
                  for i, d in enumerate(decks[c])] for c in sizes}
    values = dict.fromkeys(sizes, START)
    samples: dict[int, list[tuple[int, bool]]] = {}
    for _ in range(MAX_ROUNDS):
        for c in sizes:
            stay_value = values.get(repeats[c], 0.0) if repeats[c] else 0.0
            samples[c] = []
            for deck, other in zip(decks[c], theirs[c], strict=True):
                solution = solve(deck[:c], rules, stay_value)
                scored = score_pair(solution.result, other, rules.scoring).points
                samples[c].append((scored, solution.stays))
        stats = {c: (statistics.fmean(p for p, _ in samples[c]),
                     sum(s for _, s in samples[c]) / hands) for c in sizes}
        new = worth_from(stats, repeats)
        moved = max(abs(new[c] - values[c]) for c in sizes)
        values = new
        if progress is not None:
            progress(", ".join(f"{c}: {values[c]:.2f}" for c in sizes))
        if moved < TOLERANCE:
            break
    out = []
    for c in sizes:
        each = [p for p, _ in samples[c]]
        mean = statistics.fmean(each)
        half = Z95 * statistics.stdev(each) / math.sqrt(hands) if hands > 1 else 0.0
        out.append(Size(c, hands, mean, (mean - half, mean + half),
                        sum(s for _, s in samples[c]) / hands, repeats[c], values[c]))
    return out
