"""Texts shown on several images."""

from bot.engine.rules import TableRules
from bot.engine.views import TableView
from bot.i18n import t
from bot.i18n.names import VARIANTS


def hand_counter(loc: str, view: TableView, *, fantasy: bool = True) -> str:
    """'Hand 2 of 3'; a Fantasyland hand the match added for it (R11) says so: 'Hand 4 of 4 ·
    Fantasyland, added' (unless `fantasy` is off: a seat that plays it as a normal hand). The
    count is the one the hand was played under: a showdown that earns Fantasyland adds its
    hand to the count from the next hand on."""
    total = view.hands_total
    if total and view.phase == "showdown" and view.showdown is not None \
            and any(s.fantasy_next for s in view.showdown.seats):
        total -= 1
    if view.fantasy_hand and fantasy:
        return t(loc, "Hand {n} of {total} · Fantasyland, added", n=view.hand_no,
                 total=total) if total else t(loc, "Hand {n} · Fantasyland", n=view.hand_no)
    return t(loc, "Hand {n} of {total}", n=view.hand_no, total=total) if total \
        else t(loc, "Hand {n}", n=view.hand_no)


def street_text(loc: str, view: TableView) -> str:
    """'Hand 4 of 5 · Street 3 of 5', with the phase when no street is being played; a
    Fantasyland hand is named as one, never by street."""
    if view.hand_no == 0:
        return t(loc, "Waiting for the first hand")
    hand = hand_counter(loc, view)
    if view.phase == "playing" and view.street and not view.fantasy_hand:
        return t(loc, "{hand} · Street {street} of {streets}", hand=hand, street=view.street,
                 streets=view.streets)
    if view.phase in ("showdown", "over"):
        return t(loc, "{hand} · Showdown", hand=hand)
    return hand


def rules_text(loc: str, view: TableView) -> str:
    return rules_line(loc, view.rules)


def rules_line(loc: str, r: TableRules) -> str:
    """'Pineapple · 1-6 · 1 chip/pt'."""
    return t(loc, "{variant} · {scoring} · {n:,} chip/pt", "{variant} · {scoring} · {n:,} chips/pt",
             variant=VARIANTS[r.variant], scoring=r.scoring, n=r.point_value)
