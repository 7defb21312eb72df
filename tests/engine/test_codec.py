"""The one dataclass <-> JSON codec every state class is written and read with."""

import gc
import json
import weakref
from dataclasses import dataclass, field
from typing import Annotated, Any, NamedTuple

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


# ----------------------------------------------------------------- dumps: text written once
@dataclass(frozen=True)  # not slotted: a weak reference tells when the memory lets it go
class Label:
    text: str
    size: int | None
    at: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Bag:  # frozen, but holding a list: it can change, so it is never kept as text
    items: list[Any]


@dataclass(slots=True)
class Board:
    label: Label
    bag: Bag
    seen: Annotated[Pair, codec.as_array(Pair)]
    labels: list[Label | None]


@dataclass(slots=True)
class Shelf:
    labels: list[Label]


def _compact(value: object) -> str:
    return json.dumps(codec.dump(value), separators=(",", ":"))


def test_dumps_writes_the_text_json_writes() -> None:
    label = Label("a \"quoted\" é \x00 name", None, (Point(1, 0.5),))
    board = Board(label, Bag([1, 2]), Pair(3, 4), [label, None, Label("b", 2, ())])
    for _ in range(3):  # the first time, then from what was kept
        assert codec.dumps(board) == _compact(board)
        assert codec.dumps(label) == _compact(label)
    board.labels.append(Label("c", 3, (Point(2, 1.0),)))
    board.seen = Pair(5, 6)
    assert codec.dumps(board) == _compact(board)


def test_only_what_cannot_change_is_kept_as_text() -> None:
    assert codec._immutable(Label) and codec._immutable(Point) and codec._immutable(Pair)
    assert not codec._immutable(Bag)  # frozen, but a list inside
    assert not codec._immutable(Board) and not codec._immutable(Thing)  # not frozen
    board = Board(Label("a", 1, ()), Bag([1]), Pair(1, 2), [])
    assert codec.dumps(board) == _compact(board)
    board.bag.items.append(2)  # the same Bag, changed: written as it is now
    assert '"items":[1,2]' in codec.dumps(board)


def test_the_memory_of_texts_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "MEMO_SIZE", 4)
    labels = [Label(str(n), n, ()) for n in range(10)]
    refs = [weakref.ref(label) for label in labels]
    for label in labels:
        shelf = Shelf([label])
        assert codec.dumps(shelf) == _compact(shelf)
    del labels, label, shelf
    gc.collect()
    # The memory keeps the last ones written, alive (so that their identity is not reused
    # while their text is kept), and has let the others go.
    assert [ref() is not None for ref in refs] == [False] * 6 + [True] * 4


def test_a_text_holding_a_mark_is_written_as_it_is() -> None:
    # The marks standing for the parts written once are strings no player types; a text that
    # holds one anyway (here outside those parts) makes dumps write the whole value plainly.
    for name in ("\x00ofc:0\x00", "\x00ofc:1\x00", "\x00ofc:", "\"\x00ofc:0\x00"):
        board = Board(Label("a", 1, ()), Bag([1]), Pair(1, 2), [Label("b", 2, ()), None])
        board.bag.items.append(name)
        assert codec.dumps(board) == _compact(board)
