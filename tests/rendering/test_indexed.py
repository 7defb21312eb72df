"""Images drawn straight in palette mode are the images drawn in RGB and then mapped to the
palette, pixel for pixel; and the PNG written for them holds exactly those pixels."""

import io
from collections.abc import Callable

from PIL import Image, ImageChops, ImageStat

from bot.engine.match import Match
from rendering import canvas, samples, table, theme
from rendering.canvas import COLUMN_GAP, HEADER_H, MARGIN
from rendering.private import private_image
from rendering.seat import panel_size
from rendering.showdown import showdown_image
from rendering.table import table_image
from tests.rendering.conftest import Draw, png


def same_pixels(indexed: Image.Image, drawn: Image.Image) -> None:
    assert indexed.mode == "P" and drawn.mode == "RGB"
    assert indexed.tobytes() == canvas.indexed(drawn).tobytes()


def test_every_kind_of_image_is_the_rgb_drawing_mapped(
        in_rgb: Callable[[Draw], Image.Image], mid_hand: Match, eventful_showdown: Match,
        joker_showdown: Match) -> None:
    seat = mid_hand.pending()[0]
    view, draft = mid_hand.view_for(seat), samples.choice(mid_hand, seat)
    street_1 = samples.new_match(3)
    first = street_1.pending()[0]
    draws: list[Draw] = [
        lambda: table_image(mid_hand.public_view()),
        lambda: table_image(mid_hand.public_view(), four_colour=True, locale="zh-CN"),
        lambda: table_image(samples.fantasy_hand().public_view()),  # card backs
        lambda: private_image(view, draft),
        lambda: private_image(view, draft, locale="ru"),
        lambda: private_image(street_1.view_for(first), samples.choice(street_1, first)),
        lambda: showdown_image(eventful_showdown.public_view()),  # the FOULED stamp
        lambda: showdown_image(joker_showdown.public_view()),
    ]
    for draw in draws:
        same_pixels(draw(), in_rgb(draw))


def two_colours() -> tuple[Image.Image, Image.Image]:
    """The same canvas, palette and RGB: felt on the left, card white on the right."""
    rgb = Image.new("RGB", (120, 60), theme.FELT)
    rgb.paste(theme.CARD_WHITE, (60, 0, 120, 60))
    indexed = canvas.blank((120, 60))
    indexed.paste(canvas.index(theme.CARD_WHITE), (60, 0, 120, 60))
    return indexed, rgb


def test_shapes_and_text_across_two_colours_are_mixed_as_in_rgb() -> None:
    indexed, rgb = two_colours()
    for img in (indexed, rgb):
        canvas.pill(img, 30, 10, "MIXED", theme.GOLD)
        canvas.text(img, (40, 40), "over both", 18, "bold", theme.DRAFT)
    same_pixels(indexed, rgb)
    # The pill and the text did land on both colours, and were drawn.
    assert canvas.index(theme.GOLD) in indexed.crop((30, 10, 60, 30)).tobytes()
    assert canvas.index(theme.GOLD) in indexed.crop((60, 10, 90, 30)).tobytes()


def test_every_entry_maps_to_itself() -> None:
    """What lets a shape be mixed onto pixels already mapped: the pixels it leaves uncovered
    are mapped again, and must keep their entry."""
    entries = canvas.blank((1, 1)).getpalette() or []
    for i in range(0, len(entries), 3):
        assert canvas.index((entries[i], entries[i + 1], entries[i + 2])) == i // 3


def test_a_dimmed_seat_is_as_close_to_its_drawing_as_before(
        in_rgb: Callable[[Draw], Image.Image]) -> None:
    """Fading a seat mixes colours already mapped (in RGB, each pixel was faded from its exact
    colour): the faded panel stays as close to the RGB drawing as mapping that drawing."""
    view = samples.joining_hand().public_view()
    out = next(i for i, s in enumerate(view.seats) if s.sitting_out)
    columns, card_width = table.layout(len(view.seats))
    pw, ph = panel_size(card_width)
    x = MARGIN + (out % columns) * (pw + COLUMN_GAP)
    y = HEADER_H + MARGIN + (out // columns) * (ph + COLUMN_GAP)
    box = (x, y, x + pw, y + ph)
    drawn = in_rgb(lambda: table_image(view)).crop(box)
    indexed = table_image(view).crop(box).convert("RGB")
    mapped = canvas.indexed(drawn).convert("RGB")
    error = ImageStat.Stat(ImageChops.difference(indexed, drawn)).mean
    before = ImageStat.Stat(ImageChops.difference(mapped, drawn)).mean
    assert all(e <= b + 0.1 for e, b in zip(error, before, strict=True)), (error, before)


def test_a_part_is_not_taken_for_an_earlier_one() -> None:
    """Parts are kept by identity: a new part (which may get a freed part's id) is mapped anew."""
    for colour in (theme.GOLD, theme.FOUL, theme.DRAFT):
        img = canvas.blank((4, 4))
        canvas.put(img, Image.new("RGB", (4, 4), colour), (0, 0))
        assert set(img.tobytes()) == {canvas.index(colour)}


def test_the_png_holds_the_pixels_and_the_palette(mid_hand: Match) -> None:
    img = table_image(mid_hand.public_view())
    data = canvas.to_png(img)
    Image.open(io.BytesIO(data)).verify()  # every chunk's checksum
    decoded = png(data)
    assert decoded.mode == "P" and decoded.size == img.size
    assert decoded.tobytes() == img.tobytes()
    assert decoded.getpalette() == img.getpalette()
    assert canvas.to_png(img) == data
    drawn = Image.new("RGB", (30, 20), theme.GOLD)  # an RGB image is mapped first
    assert png(canvas.to_png(drawn)).tobytes() == canvas.indexed(drawn).tobytes()
