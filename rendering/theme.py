"""Colours of the table, the text and the marks, and of the two decks."""

from bot.engine.cards import suit_of

RGB = tuple[int, int, int]

FELT: RGB = (22, 84, 58)
FELT_DARK: RGB = (15, 61, 42)  # header bar and seat panels
PANEL_EDGE: RGB = (46, 117, 86)
SLOT_FILL: RGB = (18, 70, 48)
SLOT_EDGE: RGB = (84, 146, 116)
TEXT: RGB = (246, 246, 240)
MUTED: RGB = (176, 206, 190)
GOLD: RGB = (250, 204, 21)  # whose turn, cards placed this street
CHIP: RGB = (234, 179, 8)
CHIP_EDGE: RGB = (161, 98, 7)
FANTASY: RGB = (251, 146, 60)
AWAY: RGB = (148, 163, 184)
DRAFT: RGB = (34, 211, 238)  # a card placed in the private draft, not yet confirmed
DISCARD: RGB = (239, 68, 68)
FOUL: RGB = (220, 38, 38)
WIN: RGB = (74, 222, 128)
LOSS: RGB = (248, 113, 113)
CARD_WHITE: RGB = (252, 252, 250)
CARD_EDGE: RGB = (120, 120, 120)
BACK: RGB = (30, 64, 175)
BACK_LINE: RGB = (96, 140, 230)
JOKER: RGB = (126, 34, 206)
JOKER_TINT: RGB = (236, 224, 255)  # a joker shown as the card it stands for
JOKER_NOTE: RGB = (216, 180, 254)  # the joker colour, light enough to read on the panel

_BLACK: RGB = (24, 24, 27)
_RED: RGB = (206, 17, 38)
_BLUE: RGB = (29, 78, 216)
_GREEN: RGB = (21, 128, 61)
# suit order s, h, d, c (bot.engine.cards.SUITS)
TWO_COLOUR: tuple[RGB, RGB, RGB, RGB] = (_BLACK, _RED, _RED, _BLACK)
FOUR_COLOUR: tuple[RGB, RGB, RGB, RGB] = (_BLACK, _RED, _BLUE, _GREEN)


def ink(card: int, four_colour: bool) -> RGB:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit_of(card)]
