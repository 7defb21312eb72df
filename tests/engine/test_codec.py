"""The one dataclass <-> JSON codec every state class is written and read with."""

from dataclasses import dataclass, field
from typing import Annotated, NamedTuple

import pytest

from bot.engine import codec
from bot.engine.cards import parse_cards
from bot.engine.deal import CARDS


class Pair(NamedTuple):
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: float


@dataclass(slots=True)
class Thing:
    where: int = field(metadata=codec.SKIP)
    name: str
    cards: Annotated[tuple[int, ...], CARDS]
    points: list[Annotated[Point, codec.as_array(Point)]]
    by_seat: dict[int, Pair]
    fixed: tuple[int, str]
    maybe: Point | None = None


def test_a_record_is_written_in_field_order_and_read_back() -> None:
    thing = Thing(7, "t", tuple(parse_cards("Ah Td")), [Point(1, 2.5)], {3: Pair(1, 2)}, (4, "x"))
    data = codec.dump(thing)
    assert data == {"name": "t", "cards": ["Ah", "Td"], "points": [[1, 2.5]],
                    "by_seat": {"3": {"a": 1, "b": 2}}, "fixed": [4, "x"], "maybe": None}
    assert list(data) == ["name", "cards", "points", "by_seat", "fixed", "maybe"]
    assert codec.load(Thing, data, where=7) == thing


def test_reading_checks_the_shape() -> None:
    with pytest.raises(KeyError):
        codec.load(Point, {"x": 1})
    with pytest.raises(TypeError):
        codec.load(Point, {"x": "1", "y": 2.0})
    with pytest.raises(TypeError):
        codec.load(list[int], {"x": 1})
    assert codec.load(Point, {"x": 1, "y": 2}) == Point(1, 2)  # an int is a float's value


def test_a_field_added_later_takes_its_default_in_older_json() -> None:
    @dataclass
    class Grown:
        a: int
        b: int = 5
        c: list[int] = field(default_factory=list)

    assert codec.load(Grown, {"a": 1}) == Grown(1, 5, [])
