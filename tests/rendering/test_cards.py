"""Card faces, marks and the joker mapping (R1, R9)."""

from bot.engine.board import Board
from bot.engine.cards import card_str, cards_str, parse_card, parse_cards
from rendering import cards, theme
from rendering.board import public_rows, shown_rows


def ink_colours(card: str, four_colour: bool) -> set[tuple[int, int, int]]:
    """The fully saturated colours on a face (the ink, not its antialiased edges)."""
    face = cards.face(parse_card(card), 100, four_colour).convert("RGB")
    colours = {c for _, c in face.getcolors(face.width * face.height)}
    return colours & {theme.TWO_COLOUR[0], theme.TWO_COLOUR[1], theme.FOUR_COLOUR[2],
                      theme.FOUR_COLOUR[3]}


def test_two_colour_deck_is_black_and_red() -> None:
    assert ink_colours("As", False) == {(24, 24, 27)}
    assert ink_colours("Kh", False) == {(206, 17, 38)}
    assert ink_colours("Qd", False) == {(206, 17, 38)}
    assert ink_colours("Jc", False) == {(24, 24, 27)}


def test_four_colour_deck_spades_black_hearts_red_diamonds_blue_clubs_green() -> None:
    assert ink_colours("As", True) == {(24, 24, 27)}
    assert ink_colours("Kh", True) == {(206, 17, 38)}
    assert ink_colours("Qd", True) == {(29, 78, 216)}
    assert ink_colours("Jc", True) == {(21, 128, 61)}


def test_every_card_has_its_own_face() -> None:
    deck = parse_cards("2s 2h 2d 2c 9s Ts Js Qs Ks As X")
    faces = {cards.face(c, 64).tobytes() for c in deck}
    assert len(faces) == len(deck)


def test_faces_back_slot_and_tiles_have_the_card_size() -> None:
    for width in (64, 100):
        height = cards.card_height(width)
        assert height == round(width * 1.4)
        for img in (cards.face(parse_card("Td"), width), cards.back(width), cards.slot(width),
                    cards.stand_in(parse_card("Ah"), width), cards.dimmed(parse_card("2c"), width)):
            assert img.size == (width, height)
        pad = cards.ring_pad(width)
        tile = cards.tile("face", parse_card("Td"), width, False, theme.GOLD)
        assert tile.size == (width + 2 * pad, height + 2 * pad)
        assert tile.mode == "RGB"


def test_faces_are_cached_per_size_and_deck() -> None:
    card = parse_card("7h")
    assert cards.face(card, 64) is cards.face(card, 64)
    assert cards.face(card, 64) is not cards.face(card, 64, True)
    assert cards.face(card, 64) is not cards.face(card, 80)


def test_a_ring_marks_the_tile_and_no_ring_leaves_it_plain() -> None:
    card = parse_card("8s")
    plain = cards.tile("face", card, 64)
    ringed = cards.tile("face", card, 64, False, theme.GOLD)
    # Halfway down the left edge: the ring's colour on the ringed tile, the panel on the other.
    edge = (2, plain.height // 2)
    assert all(abs(a - b) <= 8 for a, b in zip(ringed.getpixel(edge), theme.GOLD, strict=True))
    assert plain.getpixel(edge) == theme.FELT_DARK


def test_rows_are_drawn_in_the_order_of_their_hands_jokers_as_what_they_stand_for() -> None:
    # Placed in any order; the top's joker stands for Qh (R9), so it is drawn beside the Qs.
    board = Board(tuple(parse_cards("2c X Qs")), tuple(parse_cards("3d As 5c 2h 4s")),
                  tuple(parse_cards("4s Kh 4d Kc 4h")))
    resolved = Board(tuple(parse_cards("2c Qh Qs")), board.middle, board.bottom)
    top, middle, bottom = shown_rows(board, resolved)
    assert [(t.kind, card_str(t.card)) for t in top] == [
        ("face", "Qs"), ("stand_in", "Qh"), ("face", "2c")]
    assert cards_str(t.card for t in middle) == "5c 4s 3d 2h As"  # the wheel, ace low
    assert cards_str(t.card for t in bottom) == "4s 4h 4d Kh Kc"  # trips before the pair
    top, middle, bottom = public_rows(board)
    # Before showdown a full row's joker takes the row's strongest choice: a queen again.
    assert cards_str(t.card for t in top) == "Qs X 2c"
    assert cards_str(t.card for t in bottom) == "4s 4h 4d Kh Kc"
