"""The engine view for the image of /ofc score (rendering draws views only).

A live game at a real table settles its own chips, so the score image shows each player's
points times the point value: every stack is made large enough that the table-stakes caps
(R6) never bite, which leaves exactly points x point_value to move.
"""

from collections.abc import Mapping
from typing import Any

from bot.engine.deal import streets
from bot.engine.rules import TableRules
from bot.engine.scoresheet import parse_boards
from bot.engine.showdown import show_down
from bot.engine.views import SeatView, TableView

NO_PLAYER = 0  # the typed players of /ofc score and the asker of /ofc solve have no seat id


def score_view(rules: TableRules, request: Mapping[str, Any],
               sheet: Mapping[str, Any]) -> TableView:
    """The showdown of /ofc score's typed boards: `request` is score_input's `ofc score`
    input (players in seat order, the button last), `sheet` score_sheet's output for it."""
    players = request["players"]
    boards = parse_boards(players, rules)
    seats = range(len(boards))
    # Only `ultimate` reads the count of a Fantasyland hand (score_input requires it there);
    # the other modes only ask whether the hand was one.
    fantasy = {i: p.get("fantasy_entry_cards") or 1 for i, p in enumerate(players)
               if p.get("in_fantasy")}
    # Nobody can win or lose more than every pair's points together: stacks that large
    # leave the caps idle.
    uncapped = rules.point_value * sum(abs(pair["points"]) for pair in sheet["pairs"])
    showdown = show_down(rules, dict(zip(seats, boards, strict=True)), fantasy,
                         dict.fromkeys(seats, uncapped), button=len(boards) - 1)
    return TableView(
        rules=rules, hand_no=1, phase="showdown", street=0, streets=len(streets(rules)),
        button=len(boards) - 1, showdown=showdown,
        seats=tuple(SeatView(seat=s.seat, player_id=NO_PLAYER, name=players[s.seat]["name"],
                             stack=s.stack_after, board=s.board, in_fantasy=s.seat in fantasy)
                    for s in showdown.seats),
    )
