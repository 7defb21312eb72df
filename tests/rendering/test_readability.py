"""Discord shows an image about 550 px wide on a phone: there every card's rank must still be
at least 14 px tall. Measured on the rendered faces, at the card sizes each image uses."""

import pytest
from PIL import Image

from bot.engine.cards import JOKERS, make_card
from bot.engine.match import Match
from rendering import cards, private, samples, showdown, strip, table
from rendering.theme import CARD_WHITE

PHONE_WIDTH = 550
MIN_RANK_PX = 14


def rank_height(card: int, width: int) -> int:
    """Rows of ink in the index corner (the top half, inside the border) of a face."""
    return ink_rows(cards.face(card, width).convert("RGB"), width)


def ink_rows(face: Image.Image, width: int) -> int:
    """Rows of ink in the top half of a card, inside its border: the rank's height."""
    border = max(3, width // 16) + (face.width - width) // 2  # a tile's ring pad
    corner = face.crop((border, border, face.width * 3 // 4, face.height // 2))
    rows = [y for y in range(corner.height)
            if any(sum(abs(a - b) for a, b in zip(corner.getpixel((x, y)), CARD_WHITE,
                                                  strict=True)) > 150
                   for x in range(corner.width))]
    return rows[-1] - rows[0] + 1


def smallest_rank(width: int) -> int:
    faces = [make_card(r, s) for r in range(13) for s in (0, 1)] + [JOKERS[0]]
    return min(rank_height(c, width) for c in faces)


def on_phone(width: int, image: Image.Image) -> float:
    return smallest_rank(width) * PHONE_WIDTH / image.width


def test_the_measure_is_the_capital_height() -> None:
    # DejaVu's capitals are 0.729 em; the index is 0.70 of the card width in ems.
    assert abs(smallest_rank(100) - 0.729 * 70) <= 3


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_table_ranks_are_readable_on_a_phone(seats: int) -> None:
    image = table.table_image(samples.new_match(seats).public_view())
    _, width = table.layout(seats)
    assert on_phone(width, image) >= MIN_RANK_PX


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_table_cards_are_40_px_wide_on_a_phone(seats: int) -> None:
    image = table.table_image(samples.new_match(seats).public_view())
    _, width = table.layout(seats)
    assert width * PHONE_WIDTH / image.width >= 40


def test_private_ranks_are_readable_on_a_phone(mid_hand: Match, fantasy: Match) -> None:
    for match in (mid_hand, fantasy):
        seat = match.pending()[0]
        image = private.private_image(match.view_for(seat))
        for width in (private.MANY_DEALT_CARD, private.DEALT_CARD, private.DISCARD_CARD,
                      private.COMPACT_CARD):
            assert on_phone(width, image) >= MIN_RANK_PX


def test_the_index_cards_of_other_boards_are_readable_on_a_phone(mid_hand: Match) -> None:
    # Streets 2-5 draw the other boards as index cards (rendering/strip.py).
    image = private.private_image(mid_hand.view_for(mid_hand.pending()[0]))
    faces = [make_card(r, s) for r in range(13) for s in (0, 1)] + [JOKERS[0]]
    smallest = min(ink_rows(cards.index_tile("face", c, strip.CARD), strip.CARD)
                   for c in faces)
    assert smallest * PHONE_WIDTH / image.width >= MIN_RANK_PX


def test_showdown_ranks_are_readable_on_a_phone(eventful_showdown: Match) -> None:
    image = showdown.showdown_image(eventful_showdown.public_view())
    assert on_phone(showdown.CARD, image) >= MIN_RANK_PX
