"""Texts shown on several images."""

from bot.engine.rules import TableRules
from bot.engine.views import TableView


def street_text(view: TableView) -> str:
    """'Hand 4 · Street 3 of 5', with the phase when no street is being played."""
    if view.hand_no == 0:
        return "Waiting for the first hand"
    hand = f"Hand {view.hand_no}" + (f" of {view.hands_total}" if view.hands_total else "")
    if view.phase == "playing" and view.street:
        hand += f" · Street {view.street} of {view.streets}"
    elif view.phase in ("showdown", "over"):
        hand += " · Showdown"
    if view.fantasy_hand:
        hand += " · Fantasyland"
    return hand


def rules_text(view: TableView) -> str:
    return rules_line(view.rules)


def rules_line(r: TableRules) -> str:
    """'Pineapple · 1-6 · 1 chip/pt'."""
    chips = "chip" if r.point_value == 1 else "chips"
    return f"{r.variant.capitalize()} · {r.scoring} · {r.point_value:,} {chips}/pt"
