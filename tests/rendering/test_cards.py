"""Card faces, marks and the joker mapping (R1, R9)."""

from bot.engine.cards import parse_card, parse_cards
from rendering import cards, theme
from rendering.board import stand_ins


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


def test_stand_ins_give_each_joker_its_card_by_position() -> None:
    # A row Qs X 2c whose joker stands for Qh: the resolved row may list cards in any order.
    placed = parse_cards("Qs X 2c")
    resolved = parse_cards("Qs 2c Qh")
    assert stand_ins(placed, resolved) == {1: parse_card("Qh")}
    # Two jokers: the higher card goes to the first joker; a row without jokers has none.
    placed = parse_cards("X 5d X 9c 9h")
    resolved = parse_cards("9c 5d 9h 9s 5c")
    assert stand_ins(placed, resolved) == {0: parse_card("9s"), 2: parse_card("5c")}
    assert stand_ins(parse_cards("Ah Kh Qh"), parse_cards("Ah Kh Qh")) == {}
