"""Texts shown on several images."""

from bot.engine.rules import TableRules
from bot.engine.views import TableView


def hand_counter(view: TableView) -> str:
    """'Hand 2 of 3'; a Fantasyland hand the match added for it (R11) says so: 'Hand 4 of 4 ·
    Fantasyland, added'. The count is the one the hand was played under: a showdown that earns
    Fantasyland adds its hand to the count from the next hand on."""
    total = view.hands_total
    if total and view.phase == "showdown" and view.showdown is not None \
            and any(s.fantasy_next for s in view.showdown.seats):
        total -= 1
    text = f"Hand {view.hand_no}" + (f" of {total}" if total else "")
    if view.fantasy_hand:
        text += " · Fantasyland, added" if total else " · Fantasyland"
    return text


def street_text(view: TableView) -> str:
    """'Hand 4 of 5 · Street 3 of 5', with the phase when no street is being played; a
    Fantasyland hand is named as one, never by street."""
    if view.hand_no == 0:
        return "Waiting for the first hand"
    hand = hand_counter(view)
    if view.phase == "playing" and view.street and not view.fantasy_hand:
        hand += f" · Street {view.street} of {view.streets}"
    elif view.phase in ("showdown", "over"):
        hand += " · Showdown"
    return hand


def rules_text(view: TableView) -> str:
    return rules_line(view.rules)


def rules_line(r: TableRules) -> str:
    """'Pineapple · 1-6 · 1 chip/pt'."""
    chips = "chip" if r.point_value == 1 else "chips"
    return f"{r.variant.capitalize()} · {r.scoring} · {r.point_value:,} {chips}/pt"
