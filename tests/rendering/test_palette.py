"""Every image is encoded with the one palette known in advance: the theme's colours exactly and
their mixes, close to what was drawn."""

from collections.abc import Callable

from PIL import Image, ImageChops, ImageStat

from bot.engine.match import Match
from rendering import palette, private_png, samples, showdown_png, table_png, theme
from rendering.private import private_image
from rendering.table import table_image
from tests.rendering.conftest import Draw, png


def entries(image: Image.Image) -> list[tuple[int, int, int]]:
    flat = image.getpalette() or []
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]


def test_every_image_is_encoded_with_the_fixed_palette(mid_hand: Match,
                                                       eventful_showdown: Match) -> None:
    seat = mid_hand.pending()[0]
    images = [
        png(table_png(mid_hand.public_view())),
        png(table_png(mid_hand.public_view(), four_colour=True)),
        png(private_png(mid_hand.view_for(seat), samples.choice(mid_hand, seat))),
        png(showdown_png(eventful_showdown.public_view())),
    ]
    assert all(image.mode == "P" for image in images)
    assert {tuple(entries(image)) for image in images} == {tuple(entries(palette.fixed()))}


def test_the_palette_holds_every_theme_colour_exactly() -> None:
    colours = palette.theme_colours()
    assert {theme.FELT, theme.CARD_WHITE, theme.GOLD, *theme.FOUR_COLOUR} <= set(colours)
    assert set(colours) <= set(entries(palette.fixed()))
    assert len(entries(palette.fixed())) == palette.SIZE


def test_flat_areas_keep_their_exact_colour(mid_hand: Match) -> None:
    image = png(table_png(mid_hand.public_view())).convert("RGB")
    assert image.getpixel((2, image.height - 2)) == theme.FELT
    assert image.getpixel((2, 2)) == theme.FELT_DARK


def test_encoding_stays_close_to_the_drawing(mid_hand: Match,
                                            in_rgb: Callable[[Draw], Image.Image]) -> None:
    seat = mid_hand.pending()[0]
    view, private, draft = (mid_hand.public_view(), mid_hand.view_for(seat),
                            samples.choice(mid_hand, seat))
    for drawn, data in ((in_rgb(lambda: table_image(view, True)), table_png(view, True)),
                        (in_rgb(lambda: private_image(private, draft)),
                         private_png(private, draft))):
        error = ImageStat.Stat(ImageChops.difference(drawn, png(data).convert("RGB"))).mean
        # Antialiased edges move to the nearest mix; flat areas do not move at all.
        assert max(error) < 1.2, error
