"""One way to write state as plain JSON and read it back: dataclasses <-> JSON values.

`dump(value)` writes a dataclass as an object of its fields in declaration order, tuples and
lists as arrays, dicts as objects (their keys as JSON makes them), everything else as is.
`load(type_, data)` reads it back by the type hints: dataclass fields, `list[T]`,
`tuple[T, ...]`, fixed tuples, `dict[K, V]` (int keys from their text), `T | None`,
`Literal[...]`, `Any`. A field whose JSON is not its plain shape says so with
`Annotated[T, Custom(dump, load)]` (cards as text, a rule set as its options), and a class
with a shape of its own (a list instead of an object) registers one with `custom`.

Loading is strict where it is cheap (a missing field raises KeyError; a wrong container
raises TypeError) and otherwise trusts the data: snapshots and histories are the service's
own writing, read back (bot/tables/state.py turns any failure into BadSnapshot).
"""

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

__all__ = ["Custom", "custom", "dump", "load"]


@dataclass(frozen=True, slots=True)
class Custom:
    """How one field (in `Annotated`) or one class (`custom`) is written and read."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


_CLASSES: dict[type, Custom] = {}


def custom(cls: type, dump_: Callable[[Any], Any], load_: Callable[[Any], Any]) -> None:
    """Give a class its own JSON shape (wherever it appears in a field's type)."""
    _CLASSES[cls] = Custom(dump_, load_)


def dump(value: Any) -> Any:
    """`value` as plain JSON values (see the module's docstring)."""
    cls = type(value)
    if cls in _CLASSES:
        return _CLASSES[cls].dump(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: (hook.dump(v) if hook is not None else dump(v))
                for name, hook in _fields(typing.cast(Any, cls))
                for v in (getattr(value, name),)}
    if cls is tuple or cls is list:
        return [dump(v) for v in value]
    if cls is dict:
        return {k: dump(v) for k, v in value.items()}
    return value


def load(type_: type[T], data: Any) -> T:
    """`data` (plain JSON values) read back as `type_`."""
    return typing.cast(T, _reader(typing.cast(Any, type_))(data))


@cache
def _fields(cls: type) -> tuple[tuple[str, Custom | None], ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return tuple((f.name, _hook(hints[f.name])) for f in dataclasses.fields(cls))


def _hook(hint: Any) -> Custom | None:
    if get_origin(hint) is Annotated:
        return next((a for a in get_args(hint)[1:] if isinstance(a, Custom)), None)
    return None


@cache
def _reader(hint: Any) -> Callable[[Any], Any]:
    hook = _hook(hint)
    if hook is not None:
        return hook.load
    if get_origin(hint) is Annotated:
        return _reader(get_args(hint)[0])
    if hint in _CLASSES:
        return _CLASSES[hint].load
    if hint is Any or get_origin(hint) is Literal:
        return _same
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_reader(hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"cannot read a union of several types: {hint!r}")
        inner = _reader(options[0])
        return lambda d: None if d is None else inner(d)
    if origin is list:
        item = _reader(args[0]) if args else _same
        return lambda d: [item(v) for v in _array(d)]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _reader(args[0])
            return lambda d: tuple(item(v) for v in _array(d))
        items = [_reader(a) for a in args]
        return lambda d: tuple(r(v) for r, v in zip(items, _array(d), strict=True))
    if origin is dict:
        key, value = (_reader(args[0]), _reader(args[1])) if args else (_same, _same)
        if args and args[0] is int:
            key = int
        return lambda d: {key(k): value(v) for k, v in _object(d).items()}
    return _same  # int, float, str, bool and other plain values: trusted as read


def _dataclass_reader(cls: type) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    readers = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(cls) if f.init]

    def read(d: Any) -> Any:
        d = _object(d)
        return cls(**{name: r(d[name]) for name, r in readers})

    return read


def _same(d: Any) -> Any:
    return d


def _array(d: Any) -> list[Any]:
    if not isinstance(d, list | tuple):
        raise TypeError(f"expected an array, not {type(d).__name__}")
    return list(d)


def _object(d: Any) -> dict[Any, Any]:
    if not isinstance(d, dict):
        raise TypeError(f"expected an object, not {type(d).__name__}")
    return d
