"""Discord shows an image about 550 px wide on a phone: there every card's rank must still be
at least 14 px tall. Measured on the rendered faces, at the card sizes each image uses."""

import pytest
from PIL import Image

from bot.engine.cards import JOKERS, make_card
from bot.engine.match import Match
from rendering import cards, private, samples, showdown, table
from rendering.theme import CARD_WHITE

PHONE_WIDTH = 550
MIN_RANK_PX = 14


def rank_height(card: int, width: int) -> int:
    """Rows of ink in the index corner (the top half, inside the border) of a face."""
    face = cards.face(card, width).convert("RGB")
    border = max(3, width // 16)
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


def test_private_ranks_are_readable_on_a_phone(mid_hand: Match, fantasy: Match) -> None:
    for match in (mid_hand, fantasy):
        seat = match.pending()[0]
        image = private.private_image(match.view_for(seat))
        for width in (private.OTHER_CARD, private.MANY_DEALT_CARD, private.DEALT_CARD,
                      private.DISCARD_CARD,
                      private.OWN_CARD):
            assert on_phone(width, image) >= MIN_RANK_PX


def test_showdown_ranks_are_readable_on_a_phone(eventful_showdown: Match) -> None:
    image = showdown.showdown_image(eventful_showdown.public_view())
    assert on_phone(showdown.CARD, image) >= MIN_RANK_PX
