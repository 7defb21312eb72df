"""A hand's showdown (R3-R8): boards scored, pairs settled, Fantasyland earned; as JSON too."""

from typing import Any

from bot.engine import codec
from bot.engine.board import Board, evaluate_board
from bot.engine.fantasy import fantasy_cards
from bot.engine.rules import TableRules
from bot.engine.scoring import PairScore, score_hand
from bot.engine.settlement import Transfer, settle
from bot.engine.views import ShowdownSeat, ShowdownView


def button_index(seats: list[int], button: int, table_seats: int) -> int:
    """Index into `seats` (ascending) of the seat that settles last (R6): the button, or when
    the button's seat is not in the hand, the nearest seat before it clockwise."""
    return max(range(len(seats)), key=lambda i: (seats[i] - button - 1) % table_seats)


def show_down(rules: TableRules, boards: dict[int, Board], fantasy: dict[int, int],
              stacks: dict[int, int], button: int) -> ShowdownView:
    """Score and settle the complete `boards` (seat -> board); `fantasy`: seat -> cards of its
    Fantasyland hand (0 or missing for a normal hand); `stacks` before settlement."""
    seats = sorted(boards)
    results = [evaluate_board(boards[s], rules) for s in seats]
    points, pairs = score_hand(results, rules.scoring, button_index(seats, button, rules.seats))
    after, transfers = settle([stacks[s] for s in seats], pairs, rules.point_value)
    shown = []
    for i, (seat, result) in enumerate(zip(seats, results, strict=True)):
        fl = fantasy.get(seat, 0)
        # Positional: seat, board, resolved, fouled, names, royalties, points, chips,
        # stack_after, fantasy_next (a simulation builds many of these).
        shown.append(ShowdownSeat(
            seat, result.board, result.resolved, result.fouled, result.names, result.royalties,
            points[i], after[i] - stacks[seat], after[i], fantasy_cards(result, rules, fl > 0, fl),
        ))
    return ShowdownView(
        seats=tuple(shown),
        pairs=tuple(PairScore(seats[p.a], seats[p.b], *p[2:]) for p in pairs),
        transfers=tuple(Transfer(seats[t.payer], seats[t.payee], t.owed, t.paid)
                        for t in transfers),
        button=button,
    )


def showdown_to_json(view: ShowdownView) -> dict[str, Any]:
    data: dict[str, Any] = codec.dump(view)
    return data


def showdown_from_json(d: dict[str, Any]) -> ShowdownView:
    return codec.load(ShowdownView, d)
