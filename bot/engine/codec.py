"""One way to write state as plain JSON and read it back: dataclasses <-> JSON values.

Both directions follow the type hints, so what is written is what is read:
- a dataclass or NamedTuple is an object of its fields in declaration order (a field with
  `metadata=codec.SKIP` is not written; `load` takes it as a keyword argument);
- `list[T]`, `tuple[T, ...]` and fixed tuples are arrays; `dict[K, V]` is an object (int keys
  as their text); `T | None` is null or T; `Literal`, `Any` and plain values are as they are;
- a field whose JSON is not its plain shape says so with `Annotated[T, Custom(dump, load)]`
  (cards as text, a rule set as its options, a record as an array: `as_array`).

Reading checks the shape (a missing field without a default raises KeyError, a wrong
container or a plain value of the wrong type TypeError) and converts nothing: a value read is
written back the same. A field with a default may be missing (JSON written before it was
added): it takes its default.
"""

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")
Fn = Callable[[Any], Any]

__all__ = ["SKIP", "Custom", "as_array", "dump", "load"]

SKIP = {"json": False}  # dataclasses.field(metadata=SKIP): a field JSON does not hold


@dataclass(frozen=True, slots=True)
class Custom:
    """How a field (in `Annotated[T, Custom(...)]`) is written and read."""

    dump: Fn
    load: Fn


def as_array(cls: type) -> Custom:
    """A record written as an array of its fields (a compact shape), read back by position."""
    layout = _layout(typing.cast(Any, cls))
    names = [name for name, _ in layout[0]]
    writers = [w for _, w in layout[0]]
    readers = [r for _, r, _ in layout[1]]

    def write(value: Any) -> list[Any]:
        return [w(getattr(value, n)) for n, w in zip(names, writers, strict=True)]

    def read(data: Any) -> Any:
        return cls(*(r(v) for r, v in zip(readers, _array(data), strict=True)))

    return Custom(write, read)


def dump(value: Any) -> Any:
    """`value` as plain JSON values (see the module's docstring)."""
    return _writer(typing.cast(Any, type(value)))(value)


def load(type_: type[T], data: Any, **skipped: Any) -> T:
    """`data` (plain JSON values) read back as `type_`; `skipped`: the fields JSON lacks."""
    if skipped:
        return typing.cast(T, _record_reader(typing.cast(Any, type_), tuple(skipped))(
            data, skipped))
    return typing.cast(T, _reader(typing.cast(Any, type_))(data))


# ----------------------------------------------------------------- records
def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and (
        dataclasses.is_dataclass(hint) or (issubclass(hint, tuple) and hasattr(hint, "_fields")))


@cache
def _layout(cls: Any) -> tuple[tuple[tuple[str, Fn], ...], tuple[tuple[str, Fn, bool], ...]]:
    """The (name, writer) of each field JSON holds, and the (name, reader, has a default) of
    each of them the constructor takes (a derived field is written, for people, not read)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    if dataclasses.is_dataclass(cls):
        held = [f for f in dataclasses.fields(cls) if f.metadata.get("json", True)]
        names = [f.name for f in held]
        given = [(f.name, f.default is not dataclasses.MISSING
                  or f.default_factory is not dataclasses.MISSING) for f in held if f.init]
    else:
        names = list(cls._fields)
        given = [(n, n in cls._field_defaults) for n in names]
    return (tuple((n, _writer(hints[n])) for n in names),
            tuple((n, _reader(hints[n]), optional) for n, optional in given))


def _record_writer(cls: Any) -> Fn:
    def write(value: Any) -> dict[str, Any]:
        return {name: w(getattr(value, name)) for name, w in _layout(cls)[0]}
    return write


@cache
def _record_reader(cls: Any, skipped: tuple[str, ...] = ()) -> Callable[..., Any]:
    def read(data: Any, extra: dict[str, Any] | None = None) -> Any:
        data = _object(data)
        values = dict(extra or {})
        for name, r, optional in _layout(cls)[1]:
            if name in data:
                values[name] = r(data[name])
            elif not optional:  # a field added later takes its default in older JSON
                raise KeyError(name)
        return cls(**values)
    return read


# ----------------------------------------------------------------- hints
def _hook(hint: Any) -> Custom | None:
    if get_origin(hint) is Annotated:
        return next((a for a in get_args(hint)[1:] if isinstance(a, Custom)), None)
    return None


def _optional(hint: Any) -> Any | None:
    """T of `T | None`; None for any other hint."""
    if get_origin(hint) in (Union, types.UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"cannot write or read a union of several types: {hint!r}")
        return options[0]
    return None


def _writer(hint: Any) -> Fn:
    return _pair(hint)[0]


def _reader(hint: Any) -> Fn:
    return _pair(hint)[1]


@cache
def _pair(hint: Any) -> tuple[Fn, Fn]:
    """How a value of the hinted type is written, and how it is read."""
    hook = _hook(hint)
    if hook is not None:
        return hook.dump, hook.load
    if get_origin(hint) is Annotated:
        return _pair(get_args(hint)[0])
    inner = _optional(hint)
    if inner is not None:
        write, read = _pair(inner)
        return (lambda v: None if v is None else write(v)), (
            lambda d: None if d is None else read(d))
    if _is_record(hint):
        return _record_writer(hint), _record_reader(hint)
    origin, args = get_origin(hint) or hint, get_args(hint)
    if origin in (list, tuple):
        make = list if origin is list else tuple
        if args and (len(args) == 1 or args[1] is Ellipsis):
            write, read = _pair(args[0])
            return (lambda v: [write(x) for x in v]), (
                lambda d: make([read(x) for x in _array(d)]))
        if args:
            pairs = [_pair(a) for a in args]
            return (lambda v: [p[0](x) for p, x in zip(pairs, v, strict=True)]), (
                lambda d: tuple([p[1](x) for p, x in zip(pairs, _array(d), strict=True)]))
        return (lambda v: [dump(x) for x in v]), (lambda d: make(_array(d)))
    if origin is dict:
        key = int if args and args[0] is int else _same
        write, read = _pair(args[1]) if args else (dump, _same)
        return (lambda v: {(k if type(k) is str else str(k)): write(x) for k, x in v.items()}), (
            lambda d: {key(k): read(x) for k, x in _object(d).items()})
    if hint in (int, str, bool):
        return _same, _plain(hint)
    if hint is float:
        return _same, _plain(int, float)
    return _same, _same  # Any, Literal


def _plain(*types_: type) -> Fn:
    def read(d: Any) -> Any:
        if type(d) not in types_:
            raise TypeError(f"expected {types_[-1].__name__}, not {type(d).__name__}")
        return d
    return read


def _same(d: Any) -> Any:
    return d


def _array(d: Any) -> list[Any]:
    if not isinstance(d, list):
        raise TypeError(f"expected an array, not {type(d).__name__}")
    return d


def _object(d: Any) -> dict[Any, Any]:
    if not isinstance(d, dict):
        raise TypeError(f"expected an object, not {type(d).__name__}")
    return d
