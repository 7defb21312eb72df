"""One board drawn as three rows of card places: top 3 (centred), middle 5, bottom 5 (R2)."""

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.ordering import joker_choices, sort_row
from bot.engine.royalties import ROW_SIZES, ROWS
from rendering import cards, theme
from rendering.canvas import put
from rendering.theme import RGB


@dataclass(frozen=True, slots=True)
class Tile:
    """What one place shows (cards.tile draws it): a card, and a ring colour to mark it."""

    kind: cards.Kind
    card: Card = 0
    ring: RGB | None = None

    def image(self, width: int, four_colour: bool) -> Image.Image:
        return cards.tile(self.kind, self.card, width, four_colour, self.ring)


Rows = tuple[Sequence[Tile], Sequence[Tile], Sequence[Tile]]


def gap(width: int) -> int:
    return round(width * 0.12)


def row_gap(width: int) -> int:
    return round(width * 0.16)


def board_size(width: int) -> tuple[int, int]:
    """Pixel size of a board of cards `width` wide."""
    return 5 * width + 4 * gap(width), 3 * cards.card_height(width) + 2 * row_gap(width)


def row_y(width: int, row: int) -> int:
    """Top of row 0 (top), 1 (middle) or 2 (bottom), from the board's top."""
    return row * (cards.card_height(width) + row_gap(width))


EMPTY = Tile("slot")


def draw_board(canvas: Image.Image, x: int, y: int, width: int, rows: Rows,
               four_colour: bool) -> None:
    """Paste each row's tiles, and empty slots for the places still free."""
    step = width + gap(width)
    pad = cards.ring_pad(width)
    for r, name in enumerate(ROWS):
        size = ROW_SIZES[name]
        left = x + (5 - size) * step // 2 - pad
        top = y + row_y(width, r) - pad
        for i in range(size):
            tile = rows[r][i] if i < len(rows[r]) else EMPTY
            put(canvas, tile.image(width, four_colour), (left + i * step, top))


def face_tiles(row: Sequence[Card], marked: Collection[Card] = (),
               mark: RGB = theme.GOLD) -> list[Tile]:
    """Face-up cards, the `marked` ones ringed."""
    return [Tile("face", c, mark if c in marked else None) for c in row]


def public_rows(board: Board, new_cards: Collection[Card] = (), hidden: int = 0) -> Rows:
    """A board as everyone sees it, each row in the order of its hand (cards placed this street
    ringed in gold); `hidden`
    face-down cards (a set Fantasyland board, R8) fill the rows bottom first."""
    if hidden:
        backs = []
        left = hidden
        for name in reversed(ROWS):
            n = min(left, ROW_SIZES[name])
            backs.append([Tile("back")] * n)
            left -= n
        bottom, middle, top = backs
        return (top, middle, bottom)
    top, middle, bottom = (face_tiles(sort_row(r, board.row(r)), new_cards) for r in ROWS)
    return (top, middle, bottom)


def shown_rows(board: Board, resolved: Board) -> Rows:
    """A board at showdown, each row in the order of its hand: jokers drawn as the card they
    stand for, in a joker frame (R9)."""
    out = []
    for name in ROWS:
        placed, chosen = board.row(name), resolved.row(name)
        stands = joker_choices(placed, chosen)
        out.append([
            Tile("stand_in", stands[c]) if c in stands else Tile("face", c)
            for c in sort_row(name, placed, chosen)
        ])
    return (out[0], out[1], out[2])
