"""Seeded matches played by computer players, built once: tests copy them before changing."""

import io

import pytest
from PIL import Image

from bot.engine.match import Match
from rendering import samples


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
