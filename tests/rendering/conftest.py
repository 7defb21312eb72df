"""Seeded matches played by computer players, built once: tests copy them before changing."""

import io
from collections.abc import Callable, Iterator

import pytest
from PIL import Image

from bot.engine.match import Match
from rendering import private, samples, showdown, table, theme

Draw = Callable[[], Image.Image]


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.fixture(scope="session")
def mid_hand() -> Match:
    return samples.mid_hand(3)


@pytest.fixture(scope="session")
def fantasy() -> Match:
    return samples.fantasy_hand()


@pytest.fixture(scope="session")
def eventful_showdown() -> Match:
    return samples.eventful_showdown()


@pytest.fixture(scope="session")
def joker_showdown() -> Match:
    return samples.joker_showdown()


@pytest.fixture
def in_rgb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Draw], Image.Image]]:
    """Draws an image on an RGB canvas instead of a palette one: what the image was before the
    palette mapped it."""

    def rgb(draw: Draw) -> Image.Image:
        with monkeypatch.context() as patched:
            for module in (table, private, showdown):
                patched.setattr(module, "blank", lambda size: Image.new("RGB", size, theme.FELT))
            return draw()

    yield rgb
