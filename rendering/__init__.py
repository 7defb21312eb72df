"""Board images with Pillow: engine views in, PNG bytes out (never the full state).

- `table_png(view)`: the table everyone in the channel sees (2, 3 or 4 seats).
- `showdown_png(view)`: every board face up with hands, royalties, fouls, points and chips.
- `private_png(view, draft)`: one seat's image for a phone, so that a DM prompt fits one
  screen: the cards to place (a draft placement, card -> "top" / "middle" / "bottom" /
  "discard", labels them), the own board in one line once it holds cards, the other boards
  as strips.
- `solution_png(board, discards, rules)`: /ofc solve's arrangement alone (no seat, no chips,
  no table header).
- `score_png(view)`: /ofc score's showdown of typed boards, without stacks, header or dealer.
- `player_card_png(card)`: /ofc stats's card: rating, the net over the latest matches as a
  line, fouls, Fantasyland and royalties beside the server's.
`png(kind, *args)` calls `<kind>_png(*args)` by name: what the bot's worker processes run
(cogs/common/images.py), so they never import the Discord layer.
Every function takes `four_colour=True` for the four-colour deck (spades black, hearts red,
diamonds blue, clubs green). Every row is drawn in the order of the hand it makes.
"""

from typing import Any

from rendering.player_card import render_player_card as player_card_png
from rendering.private import render_private as private_png
from rendering.showdown import render_score as score_png
from rendering.showdown import render_showdown as showdown_png
from rendering.solution import render_solution as solution_png
from rendering.table import render_table as table_png

__all__ = ["player_card_png", "png", "private_png", "score_png", "showdown_png", "solution_png",
           "table_png"]


def png(kind: str, *args: Any) -> bytes:
    """`<kind>_png(*args)`, looked up by name when called."""
    data: bytes = globals()[f"{kind}_png"](*args)
    return data
