"""Board images with Pillow: engine views in, PNG bytes out (never the full state).

- `table_png(view)`: the table everyone in the channel sees (2, 3 or 4 seats).
- `showdown_png(view)`: every board face up with hands, royalties, fouls, points and chips.
- `private_png(view, draft)`: one seat's own board large, its dealt cards with the draft
  placement (card -> "top" / "middle" / "bottom" / "discard"), the other boards small.
Every function takes `four_colour=True` for the four-colour deck.
"""

from rendering.private import render_private as private_png
from rendering.showdown import render_showdown as showdown_png
from rendering.table import render_table as table_png

__all__ = ["private_png", "showdown_png", "table_png"]
