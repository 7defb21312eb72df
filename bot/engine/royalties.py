"""Royalties (R4, and R9's lowball middle), precomputed per row and value."""

from bot.engine.evaluation import (
    CATEGORY,
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TUPLES,
    is_low,
    is_royal,
)

Row = str  # "top" | "middle" | "bottom"
ROWS: tuple[Row, Row, Row] = ("top", "middle", "bottom")
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}

# R4's table: category -> royalty, with the royal flush under the key "royal".
_FIVE_CARD = {
    "american": {
        "bottom": {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 10, STRAIGHT_FLUSH: 15,
                   "royal": 25},
        "middle": {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL_HOUSE: 12, QUADS: 20, STRAIGHT_FLUSH: 30,
                   "royal": 50},
    },
    "russian": {
        "bottom": {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 8, STRAIGHT_FLUSH: 10, "royal": 15},
        "middle": {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL_HOUSE: 12, QUADS: 16, STRAIGHT_FLUSH: 20,
                   "royal": 30},
    },
}
SIX = 4  # rank index of the six: the lowest paying top pair


def _top_royalty(value: int) -> int:
    """R4: pairs 66-AA pay rank value - 5 (1-9); trips 222-AAA pay rank value + 8 (10-22)."""
    category, rank = TUPLES[value][0], TUPLES[value][1]
    rank_value = rank + 2
    if category == TRIPS:
        return rank_value + 8
    if category == PAIR and rank >= SIX:
        return rank_value - 5
    return 0


def _five_card_royalty(table: dict[object, int], value: int) -> int:
    if is_royal(value):
        return table["royal"]
    return table.get(CATEGORY[value], 0)


def _low_royalty(value: int) -> int:
    """R9 lowball middle: 9-high 1, 8-high 2, 7-high 4, 75432 8; nothing for a non-low."""
    if not is_low(value):
        return 0
    ranks = TUPLES[value][1:]
    if ranks == (5, 3, 2, 1, 0):
        return 8
    return {7: 1, 6: 2, 5: 4}.get(ranks[0], 0)


def _tables() -> dict[str, dict[Row, list[int]]]:
    values = range(len(TUPLES))
    nothing = [0] * len(TUPLES)
    # R4 option `royalties = off` (seed 000: "Royalties are optional"): no row pays.
    out: dict[str, dict[Row, list[int]]] = {"off": {r: nothing for r in ROWS}}
    for name, table in _FIVE_CARD.items():
        out[name] = {
            "top": [_top_royalty(v) if v else 0 for v in values],
            "middle": [_five_card_royalty(table["middle"], v) if v else 0 for v in values],
            "bottom": [_five_card_royalty(table["bottom"], v) if v else 0 for v in values],
        }
    out["lowball"] = {"middle": [_low_royalty(v) if v else 0 for v in values]}
    return out


ROYALTY: dict[str, dict[Row, list[int]]] = _tables()


def middle_royalties(table: str, lowball: bool) -> list[int]:
    """The middle row's royalty per value: R9's lowball list replaces R4's middle, and `off`
    turns both off."""
    if lowball and table != "off":
        return ROYALTY["lowball"]["middle"]
    return ROYALTY[table]["middle"]


def row_royalty(table: str, row: Row, value: int, lowball: bool = False) -> int:
    """The royalty of a non-fouled row's value under `table` (american|russian|off)."""
    if row == "middle":
        return middle_royalties(table, lowball)[value]
    return ROYALTY[table][row][value]
