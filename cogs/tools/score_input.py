"""`/ofc score`'s typed boards, turned into the `ofc score` JSON input (docs/cli.md,
"`ofc score`").

One text option per player, `Name: top / middle / bottom` (the name is optional, `|` or a new
line also separate rows), and one option naming who played the hand in Fantasyland. The cards
themselves are checked by the engine's score_sheet, whose errors name the bad card.
"""

import re
from typing import Any

from bot.engine.errors import RuleError
from bot.engine.fantasy import repeats_entry
from bot.engine.rules import TableRules
from bot.engine.scoresheet import MAX_NAME
from bot.engine.text import Text, Typed, excerpt, series
from bot.i18n import ENGLISH, t

ROW_SEPARATOR = re.compile(r"[/|\n]")
EXAMPLE = "Alice: Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h"


def parse_player(text: str, number: int, loc: str = ENGLISH) -> dict[str, Any]:
    """`Name: top / middle / bottom` -> {"name", "top", "middle", "bottom"}."""
    head, colon, rows_text = text.partition(":")
    if not colon:
        head, rows_text = "", text
    name = " ".join(head.split()) or t(loc, "Player {n}", n=number)
    if len(name) > MAX_NAME:
        raise RuleError(Text("Player {n}: a name has at most {max} characters.", n=number,
                             max=MAX_NAME))
    rows = [row.strip() for row in ROW_SEPARATOR.split(rows_text.strip())]
    if len(rows) != 3:
        raise RuleError(Text("{name}: write the three rows split by '/', like `{example}`.",
                             name=Typed(name), example=EXAMPLE))
    return {"name": name, "top": rows[0], "middle": rows[1], "bottom": rows[2]}


def parse_fantasy(text: str, names: list[str], rules: TableRules) -> dict[str, int]:
    """`Alice, Bob 15` -> {"Alice": 0, "Bob": 15}: who played this hand in Fantasyland, with
    the cards it had (needed under `ultimate`, where a stay repeats the entry count, R8)."""
    by_key = {name.casefold(): name for name in names}
    fantasy: dict[str, int] = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        words = entry.split()
        # ASCII digits only: int() refuses some that isdigit() takes (a superscript two).
        counted = len(words) > 1 and words[-1].isascii() and words[-1].isdigit()
        count = int(words.pop()) if counted else 0
        name = by_key.get(" ".join(words).casefold())
        if name is None:
            raise RuleError(Text("'{entry}' is not one of the players ({names}).",
                                 entry=excerpt(entry), names=series([Typed(n) for n in names])))
        if repeats_entry(rules) and not count:
            raise RuleError(Text("Under ultimate Fantasyland, give the cards of {name}'s "
                                 "Fantasyland hand, like '{name} 15'.", name=Typed(name)))
        fantasy[name] = count
    return fantasy


def score_input(blocks: list[str], rules: TableRules, fantasy_text: str = "",
                loc: str = ENGLISH) -> dict[str, Any]:
    """The `ofc score` input for the boards typed in order (seat order, clockwise). The
    button is the last player, so the pairs are listed from the first player on (R6)."""
    players = [parse_player(text, number, loc) for number, text in enumerate(blocks, start=1)]
    fantasy = parse_fantasy(fantasy_text, [p["name"] for p in players], rules)
    for player in players:
        if player["name"] in fantasy:
            player["in_fantasy"] = True
            player["fantasy_entry_cards"] = fantasy[player["name"]]
    return {"rules": rules.to_dict(), "button": len(players) - 1, "players": players}
