"""/ofc stats's player card (rendering/player_card.py): its size for a phone, the player's
name in its header, and the same layout in every language."""

import io

import pytest
from PIL import Image, ImageChops

from bot.i18n import LOCALES
from rendering import player_card_png
from rendering.player_card import HEADER, WIDTH, Figures, PlayerCard

CARD = PlayerCard(name="Alice", server="OFC Test Server", rating=1284, rank=2, rated=14,
                  matches=37, hands=412, nets=(12, -6, 3, 18, -9), best_royalties=38,
                  mine=Figures(0.07, 0.09, 3.4), average=Figures(0.12, 0.06, 2.7))


def _image(card: PlayerCard, locale: str = "en-US") -> Image.Image:
    return Image.open(io.BytesIO(player_card_png(card, locale))).convert("RGB")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_card_is_phone_wide_in_every_language(locale: str) -> None:
    image = _image(CARD, locale)
    assert image.width == WIDTH == 640  # Discord shows it about 550 px wide on a phone
    assert image.height < 1.2 * image.width  # fits a phone screen with its text
    assert image.size == _image(CARD).size  # one layout: translations do not push it out


def test_the_card_names_its_player_in_its_header() -> None:
    alice, bob = _image(CARD), _image(PlayerCard(**{**_fields(CARD), "name": "Bob"}))
    box = _changed(alice, bob)
    assert box is not None and box[3] <= HEADER  # only the header differs: the name


def test_an_unrated_card_with_a_losing_run_draws() -> None:
    card = PlayerCard(**{**_fields(CARD), "rating": None, "rank": None, "nets": (-5, -9)})
    box = _changed(_image(card), _image(CARD))
    assert box is not None and box[3] > HEADER


def _changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    """Where two cards differ by more than the PNG palette's rounding (each image chooses its
    own palette, so a colour may move by a few levels anywhere)."""
    return ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0) \
        .getbbox()


def _fields(card: PlayerCard) -> dict[str, object]:
    return {name: getattr(card, name) for name in card.__dataclass_fields__}
