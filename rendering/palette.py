"""The one palette every image is encoded with, known before any image is drawn.

Every image is drawn from the theme's colours, and antialiasing (text, rounded corners, scaled
shapes) only mixes two of them at a time. So the palette holds each theme colour exactly (flat
areas stay true) and, in the rest of its 256 entries, the mixes between every two theme colours
reduced to their most useful steps. An image then needs no colour reduction of its own: each
part drawn on it takes its nearest entries as it is drawn (rendering/canvas.py)."""

from functools import cache
from itertools import combinations

from PIL import Image

from rendering import theme
from rendering.theme import RGB

SIZE = 256
MIX_STEPS = 8  # mixes drawn between two colours before they are reduced to the free entries
# Image.quantize finds the nearest entry to 6 bits a channel: a mix entry this close to a theme
# colour would take that colour's flat areas, so mixes keep this far from every theme colour.
APART = 8


def theme_colours() -> list[RGB]:
    """The theme's colours, each once, in the order the theme names them."""
    found: list[RGB] = []
    for value in vars(theme).values():
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):
            found.extend(value)  # the decks' suit colours
        elif isinstance(value, tuple) and len(value) == 3:
            found.append(value)
    return list(dict.fromkeys(c for c in found if all(isinstance(v, int) for v in c)))


def _apart(colour: RGB, colours: list[RGB]) -> bool:
    return all(max(abs(a - b) for a, b in zip(colour, c, strict=True)) > APART for c in colours)


def _mixes(colours: list[RGB]) -> Image.Image:
    """The steps between every two colours (ends left out), those apart from all of them, as a
    one-row image."""
    mixes = []
    for a, b in combinations(colours, 2):
        for step in range(1, MIX_STEPS + 1):
            share = step / (MIX_STEPS + 1)
            mix = (round(a[0] + (b[0] - a[0]) * share), round(a[1] + (b[1] - a[1]) * share),
                   round(a[2] + (b[2] - a[2]) * share))
            if _apart(mix, colours):
                mixes.append(mix)
    img = Image.new("RGB", (len(mixes), 1))
    img.putdata(mixes)
    return img


@cache
def fixed() -> Image.Image:
    """A 1x1 "P" image holding the palette, for Image.quantize(palette=...)."""
    colours = theme_colours()
    free = SIZE - len(colours)
    reduced = _mixes(colours).quantize(free, Image.Quantize.FASTOCTREE,
                                       dither=Image.Dither.NONE).getpalette() or []
    mixes = [(reduced[i], reduced[i + 1], reduced[i + 2]) for i in range(0, 3 * free, 3)]
    entries = [v for c in colours + [m for m in mixes if _apart(m, colours)] for v in c]
    img = Image.new("P", (1, 1))
    img.putpalette(entries + [0] * (3 * SIZE - len(entries)))
    return img
