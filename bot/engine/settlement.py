"""Settlement under the table-stakes rule (R6)."""

from collections.abc import Sequence
from typing import NamedTuple

from bot.engine.scoring import PairScore


class Transfer(NamedTuple):
    payer: int  # index into the players
    payee: int
    owed: int  # chips the points call for
    paid: int  # chips that moved: min(owed, payer's stack, payee's stack) at that moment

    @property
    def capped(self) -> bool:
        return self.paid < self.owed


def settle(stacks: Sequence[int], pairs: Sequence[PairScore],
           point_value: int) -> tuple[list[int], list[Transfer]]:
    """Settle `pairs` one at a time in the order given (R6 order, from score_hand).

    Nobody pays more than they have, nobody wins from one opponent more than they have, both
    read from the stacks as they stand at that moment. Returns the new stacks and the transfers
    (one per pair that owes anything, including ones capped to 0)."""
    after = list(stacks)
    transfers: list[Transfer] = []
    for pair in pairs:
        points = pair.points
        if points == 0:
            continue
        payee, payer = (pair.a, pair.b) if points > 0 else (pair.b, pair.a)
        owed = abs(points) * point_value
        paid = max(0, min(owed, after[payer], after[payee]))
        after[payer] -= paid
        after[payee] += paid
        transfers.append(Transfer(payer, payee, owed, paid))
    return after, transfers
