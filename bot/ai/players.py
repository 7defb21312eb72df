"""Computer players: from what a seat may see (a PrivateView) to the assignment Match.place takes.

- `easy`: places each street where the rule of thumb (heuristic.py) scores the board highest,
  but never where a foul is certain (the engine's judgement) when another placement avoids it.
- `strong`: a Monte Carlo search over the street's placements (search.py) whose playouts are
  played by a policy that goes for Fantasyland when it pays (policy.py), Fantasyland valued at
  its measured worth (fantasy_value.py).
- `strong-learned` (experimental): `strong` whose search keeps and starts its candidates by a
  learned evaluation of the board (learned.py) instead of the policy's score.
- `strong-v1`: the strong player before it played for Fantasyland (v1.py), kept for comparisons.
- All set a Fantasyland hand with the exact solver (solver.py).

Every choice is one of the engine's legal placements, so it is legal by construction. Decisions
are seeded from (seed, hand, seat, cards), so a seeded simulation replays exactly.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.ai.fantasy_value import V1_FANTASY_VALUE, fantasy_worth
from bot.ai.heuristic import Heuristic, Rows
from bot.ai.learned import applies, load
from bot.ai.policy import Policy
from bot.ai.search import Scorer, Search, seat
from bot.ai.solver import solve
from bot.ai.turn import assignment, decision_rng, future_streets, rows_after
from bot.ai.v1 import StrongV1
from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.deal import BOARD_CARDS
from bot.engine.errors import RuleError
from bot.engine.outlook import foul_unavoidable
from bot.engine.placement import legal_assignments
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView

LEVELS = ("easy", "strong", "strong-v2", "strong-v1", "strong-learned")
# the levels that search on row keys (search.py)
_ROW_KEY_LEVELS = ("strong", "strong-v2", "strong-learned")
_REMEMBERED = 500_000  # worths a policy keeps (about 100 MB) before it starts afresh


@dataclass(frozen=True, slots=True)
class Settings:
    level: str = "strong"
    seed: int | None = None  # None: unseeded (live tables); an int: reproducible
    seconds: float | None = 1.0  # time budget per decision (strong); None: playouts only
    playouts: int | None = None  # playout budget per decision (strong); None: time only
    # Points a Fantasyland hand is worth against one opponent (R8); None: as measured
    # (fantasy_value.py) for `strong`, and the value `easy` and `strong-v1` always used.
    fantasy_value: float | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise RuleError(f"'{self.level}' is not a computer level (choose "
                            f"{', '.join(LEVELS)})")
        if self.seconds is None and self.playouts is None:
            raise RuleError("a strong player needs a time or a playout budget")


def decide(view: PrivateView, settings: Settings | None = None) -> dict[Card, str]:
    """The assignment of `view.dealt` this player makes (each card -> row or "discard")."""
    return decide_counted(view, settings)[0]


def decide_counted(view: PrivateView,
                   settings: Settings | None = None) -> tuple[dict[Card, str], int]:
    """`decide`, and how many playouts (one candidate, one future) it made."""
    settings = settings or Settings()
    if not view.dealt:
        raise RuleError("You have no cards to place")
    rules = view.table.rules
    new = settings.level in _ROW_KEY_LEVELS and not rules.jokers
    if len(view.dealt) >= BOARD_CARDS:  # a Fantasyland hand (R8)
        stay = (fantasy_worth(rules, settings.fantasy_value).of(14) * _opponents(view) if new
                else _old_value(settings))
        return solve(view.dealt, rules, stay).assignment(), 0
    if new:
        return _strong(view, settings)
    heuristic = _heuristic(rules, _old_value(settings))
    if settings.level == "easy":
        rows, _ = heuristic.best(view.board.rows, view.dealt, view.discard_count)
        return assignment(view, _saved(view, rows, heuristic)), 0
    # strong-v1, and strong in the joker variant (the row keys hold no jokers' choices)
    search = StrongV1(view, settings, heuristic, _old_value(settings))
    return search.choose(), search.played


def _saved(view: PrivateView, rows: Rows, heuristic: Heuristic) -> Rows:
    """`rows`, unless they make a foul certain (R3, R9: the engine's exact judgement) while
    another placement of the street does not: then the best of those by the rule of thumb,
    which compares rows by their category and main rank only."""
    pool, lowball = view.unseen(), view.table.rules.variant == "lowball"
    if not foul_unavoidable(Board(*rows), pool, lowball):
        return rows
    saved = [after for after in (rows_after(view.board.rows, view.dealt, a)
                                 for a in legal_assignments(view.board, view.dealt,
                                                            view.discard_count))
             if not foul_unavoidable(Board(*after), pool, lowball)]
    return max(saved, key=heuristic.score, default=rows)


def _old_value(settings: Settings) -> float:
    return V1_FANTASY_VALUE if settings.fantasy_value is None else settings.fantasy_value


def _opponents(view: PrivateView) -> int:
    return max(1, sum(1 for s in view.table.seats if s.seat != view.seat and not s.sitting_out))


@lru_cache(maxsize=32)
def _heuristic(rules: TableRules, fantasy_value: float) -> Heuristic:
    return Heuristic(rules, fantasy_value)


@lru_cache(maxsize=32)
def _tools(rules: TableRules, fantasy_value: float | None) -> tuple[Policy, Scorer]:
    worth = fantasy_worth(rules, fantasy_value)
    return Policy(rules, worth), Scorer(rules, worth)


def _search(view: PrivateView, settings: Settings) -> Search:
    """The strong player's search over this street, from this seat's view only."""
    rules = view.table.rules
    policy, scorer = _tools(rules, settings.fantasy_value)
    if policy.size() > _REMEMBERED:
        policy.reset()
    placed = len(view.board.cards) + len(view.dealt) - view.discard_count
    me = seat(view.board.rows, future_streets(rules, placed))
    # Opponents whose boards can be played out (R7: what they placed is face up), and those
    # that cannot (a Fantasyland board is hidden, R8).
    rivals = []
    blind = 0
    for other in view.table.seats:
        if other.seat == view.seat or other.sitting_out:
            continue
        if other.in_fantasy:
            blind += 1
        else:
            rivals.append(seat(other.board.rows,
                               future_streets(rules, len(other.board.cards))))
    learned = load() if settings.level == "strong-learned" and applies(rules) else None
    return Search(policy, scorer, me, view.dealt, view.discard_count, rivals, blind,
                  view.unseen(), decision_rng(view, settings.seed),
                  charge_fouls=settings.level in ("strong", "strong-learned"), learned=learned)


def _strong(view: PrivateView, settings: Settings) -> tuple[dict[Card, str], int]:
    search = _search(view, settings)
    choice = search.choose(settings.playouts, settings.seconds)
    rows = tuple(row + tuple(c for i, c in enumerate(view.dealt) if mask >> i & 1)
                 for row, mask in zip(view.board.rows, choice[:3], strict=True))
    return assignment(view, rows), search.played  # type: ignore[arg-type]


def estimate(view: PrivateView, assignments: Sequence[Mapping[Card, str]], futures: int,
             settings: Settings | None = None) -> list[list[float]]:
    """What each assignment of `view.dealt` (a street, or a whole Fantasyland board) is worth
    to this seat in points, as the strong player judges a placement, from this seat's view
    only: the rest of the hand is dealt `futures` times from the cards the seat cannot see and
    played out, each future the same for every assignment, and the finished boards are scored
    (R5, and the Fantasyland earned or kept). One list per assignment, one value per future; a
    single exact value each when nothing is left to deal. Seeded by `settings.seed`; RuleError
    for an assignment that is not legal."""
    settings = settings or Settings()
    rules = view.table.rules
    if rules.jokers or len(view.dealt) >= BOARD_CARDS:
        # The row keys hold no jokers' choices, and the policy's Fantasyland is entering it,
        # not staying (R9): these are judged as strong-v1 judges them.
        rows = [rows_after(view.board.rows, view.dealt, dict(a)) for a in assignments]
        v1 = StrongV1(view, settings, _heuristic(rules, _old_value(settings)),
                      _old_value(settings))
        return v1.values(rows, futures)
    search = _search(view, replace(settings, seconds=None, playouts=futures))
    legal = {option[0][:3]: option for option in search.candidates()}
    chosen = []
    for placement in assignments:
        masks = [0, 0, 0]
        for i, card in enumerate(view.dealt):
            row = placement.get(card)
            if row in ROWS:
                masks[ROWS.index(row)] |= 1 << i
        option = legal.get((masks[0], masks[1], masks[2]))
        if option is None or sorted(placement) != sorted(view.dealt):
            raise RuleError("that placement is not legal")
        chosen.append(option)
    return search.estimate(chosen, futures)


class AIPlayers:
    """The table service's computer players (its `ComputerPlayers` protocol): `decide` for a
    computer seat, `suggest` for a person's "Best arrangement" (the strong player's choice;
    in Fantasyland the solver's)."""

    def __init__(self, seconds: float | None = 1.0, playouts: int | None = None,
                 fantasy_value: float | None = None) -> None:
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
        return self.decide_counted(view, level, seed, seconds=seconds)[0]

    def decide_counted(self, view: PrivateView, level: str, seed: int | None, *,
                       seconds: float | None = None) -> tuple[dict[Card, str], int]:
        """`decide`, and how many playouts it made."""
        settings = self.settings(level, seed)
        if seconds is not None and settings.seconds is not None:
            settings = replace(settings, seconds=min(settings.seconds, seconds))
        return decide_counted(view, settings)

    def suggest(self, view: PrivateView) -> dict[Card, str]:
        return decide(view, self.settings("strong", None))
