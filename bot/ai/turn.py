"""What every computer player needs from a seat's turn: the streets still to come, the board a
placement makes, the assignment Match.place takes, and the decision's random numbers."""

import random
from collections.abc import Sequence

from bot.ai.heuristic import Rows
from bot.engine.cards import Card, cards_str
from bot.engine.deal import Street, streets
from bot.engine.placement import DISCARD
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView


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


def assignment(view: PrivateView, rows: Rows) -> dict[Card, str]:
    """Which row each dealt card went to in `rows` (the board after the street)."""
    out = dict.fromkeys(view.dealt, DISCARD)
    for name, before, after in zip(ROWS, view.board.rows, rows, strict=True):
        for card in after[len(before):]:
            out[card] = name
    return out


def rows_after(rows: Rows, dealt: Sequence[Card], assigned: dict[Card, str]) -> Rows:
    top, middle, bottom = rows
    return (top + tuple(c for c in dealt if assigned[c] == "top"),
            middle + tuple(c for c in dealt if assigned[c] == "middle"),
            bottom + tuple(c for c in dealt if assigned[c] == "bottom"))


def decision_rng(view: PrivateView, seed: int | None) -> random.Random:
    """Unseeded on live tables; seeded from (seed, hand, seat, cards) so a seeded simulation
    replays exactly."""
    if seed is None:
        return random.Random()
    return random.Random(f"{seed}:{view.table.hand_no}:{view.seat}:{cards_str(view.dealt)}:"
                         f"{cards_str(view.board.cards)}")
