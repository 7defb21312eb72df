"""The room each drawn text is given, read by wrapping `canvas.text` where images call it."""

from types import ModuleType

import pytest
from PIL import Image

from rendering import canvas


def record_rooms(monkeypatch: pytest.MonkeyPatch, *callers: ModuleType) -> dict[str, int]:
    """Each text drawn from now on through the `callers` (the modules whose `text` the
    images call), with the `max_width` it was given (0: none)."""
    rooms: dict[str, int] = {}
    real = canvas.text

    def measured(img: Image.Image, xy: tuple[int, int], s: str, *args: object,
                 **kwargs: int) -> int:
        rooms[s] = kwargs.get("max_width", 0)
        return real(img, xy, s, *args, **kwargs)  # type: ignore[arg-type]

    for module in callers:
        monkeypatch.setattr(module, "text", measured)
    return rooms
