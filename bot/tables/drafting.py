"""A street's draft as the buttons build it, in as few taps as a phone allows.

- Once the cards to keep are all given rows, the cards left over are the discards due (R7:
  streets 2-5 place 2 and discard 1): they are drafted as discarded without a tap.
- Discarding another card when the discards due are already chosen swaps them: the card
  discarded before takes the row the new discard leaves (or is given no row), so one tap
  changes which card goes.
"""

from collections.abc import Mapping, Sequence

from bot.engine.cards import Card
from bot.engine.placement import DISCARD, Needs


def redraft(rows: Mapping[Card, str], dealt: Sequence[Card], needs: Needs, card: Card,
            row: str | None) -> dict[Card, str]:
    """The draft `rows` with `card` given `row` (None: no row); room is checked by the
    caller for a row other than the discard."""
    out = dict(rows)
    before = out.pop(card, None)
    if row == DISCARD and needs.discards:
        gone = [c for c, r in out.items() if r == DISCARD]
        for other in gone[:len(gone) - needs.discards + 1]:  # the discards it displaces
            del out[other]
            if before is not None and before != DISCARD:
                out[other] = before
                before = None
    if row is not None:
        out[card] = row
    return complete_discards(out, dealt, needs)


def complete_discards(rows: Mapping[Card, str], dealt: Sequence[Card],
                      needs: Needs) -> dict[Card, str]:
    """`rows` with the dealt cards left over discarded once the cards to keep all have rows
    and exactly the discards still due are left."""
    out = dict(rows)
    placed = sum(1 for r in out.values() if r != DISCARD)
    left = [c for c in dealt if c not in out]
    due = needs.discards - sum(1 for r in out.values() if r == DISCARD)
    if needs.discards and placed == needs.place and left and len(left) == due:
        out.update(dict.fromkeys(left, DISCARD))
    return out


def is_complete(rows: Mapping[Card, str], needs: Needs) -> bool:
    """Every card to keep has a row (the rest are discarded on Confirm)."""
    return sum(1 for r in rows.values() if r != DISCARD) == needs.place
