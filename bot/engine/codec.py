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

`dumps` writes the compact JSON text of `dump(value)`, byte for byte, without writing again
what cannot have changed: such a part is written as text once and put in as it is. Those
parts are
- an immutable record: a frozen dataclass or a NamedTuple whose fields' hints are all
  immutable (plain values, `Literal`, tuples and such records, `T | None` of them), written
  by its fields or by a `Custom` (whose `dump` depends on the value alone). Its text is kept
  by identity, with the object, in a small bounded memory (`MEMO_SIZE` a writer). The
  invariant: such an object is never changed once made (never `object.__setattr__`);
  anything holding a list, a dict or `Any` is written afresh every time;
- a value whose `Custom` has a `text`: its own compact JSON text, which it keeps up to date
  itself (a hand's history, which only grows).
"""

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")
Fn = Callable[[Any], Any]

__all__ = ["MEMO_SIZE", "SKIP", "Custom", "as_array", "compact", "dump", "dumps", "load"]

SKIP = {"json": False}  # dataclasses.field(metadata=SKIP): a field JSON does not hold


@dataclass(frozen=True, slots=True)
class Custom:
    """How a field (in `Annotated[T, Custom(...)]`) is written and read."""

    dump: Fn
    load: Fn
    text: Fn | None = None  # the value's compact JSON text, as `dumps` would write `dump`'s


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


def dumps(value: Any) -> str:
    """`json.dumps(dump(value), separators=(",", ":"))`, the same text, with the parts that
    cannot change written once (see the module's docstring)."""
    pieces: list[str] = []
    text = compact(_spliced(typing.cast(Any, type(value)))(value, pieces))
    if not pieces:
        return text
    spliced = _splice(text, pieces)
    return spliced if spliced is not None else compact(dump(value))


def load(type_: type[T], data: Any, **skipped: Any) -> T:
    """`data` (plain JSON values) read back as `type_`; `skipped`: the fields JSON lacks."""
    if skipped:
        return typing.cast(T, _record_reader(typing.cast(Any, type_), tuple(skipped))(
            data, skipped))
    return typing.cast(T, _reader(typing.cast(Any, type_))(data))


# ----------------------------------------------------------------- text written once
MEMO_SIZE = 1024  # texts kept by each memoising writer: a live table's records, many tables

# How `dumps` writes a value: as its plain writer does, but each part written once goes in as
# a mark, its text added to the pieces.
Spliced = Callable[[Any, list[str]], Any]

# A mark is a string a player can not type (its NUL characters are written as escapes).
# `_splice` puts the texts in, and checks that it found every mark once, in order: a text
# holding a mark's writing is refused.
_MARK = "\x00ofc:"
_MARK_TEXT = json.dumps(_MARK)[:-1]  # how a string starting with the mark is written


def _encoder() -> Callable[[Any], str]:
    """`json.dumps(data, separators=(",", ":"))`, its encoder made once rather than at each
    call (most of the cost of a small text). State has no cycles: none is looked for."""
    made = getattr(json.encoder, "c_make_encoder", None)
    if made is None:  # a Python without the C accelerator
        return json.JSONEncoder(separators=(",", ":")).encode
    plain = json.JSONEncoder()
    encode = made(None, plain.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)
    return lambda data: "".join(encode(data, 0))


compact = _encoder()  # plain JSON values as compact JSON text


def _splice(text: str, pieces: list[str]) -> str | None:
    """`text` with each mark replaced by its piece; None if a mark is missing or extra."""
    found = text.split(_MARK_TEXT)
    if len(found) != len(pieces) + 1:
        return None
    out = [found[0]]
    for number, (piece, rest) in enumerate(zip(pieces, found[1:], strict=True)):
        end = f"{number}\\u0000\""
        if not rest.startswith(end):
            return None
        out += (piece, rest[len(end):])
    return "".join(out)


def _mark(pieces: list[str], text: str) -> str:
    """The mark standing for `text`, the next of `pieces`."""
    pieces.append(text)
    return f"{_MARK}{len(pieces) - 1}\x00"


def _memo_text(write: Fn) -> Fn:
    """The compact text of `write(value)`, kept by the value's identity (with the value, so
    that identity is not reused): for immutable records only."""
    kept: dict[int, tuple[Any, str]] = {}

    def text(value: Any) -> str:
        hit = kept.get(id(value))
        if hit is None:
            if len(kept) >= MEMO_SIZE:
                kept.pop(next(iter(kept), 0), None)  # the oldest (0: no id)
            hit = kept[id(value)] = (value, compact(write(value)))
        return hit[1]
    return text


@cache
def _spliced(hint: Any) -> Spliced:
    """How `dumps` writes a value of the hinted type."""
    write = _writer(hint)
    if not _has_parts(hint):
        return lambda value, pieces: write(value)
    hook = _hook(hint)
    if hook is not None:
        text = hook.text if hook.text is not None else _memo_text(hook.dump)
        return lambda value, pieces: _mark(pieces, text(value))
    if get_origin(hint) is Annotated:
        return _spliced(get_args(hint)[0])
    inner = _optional(hint)
    if inner is not None:
        part = _spliced(inner)
        return lambda value, pieces: None if value is None else part(value, pieces)
    if _is_record(hint):
        if _immutable(hint):
            memo = _memo_text(write)
            return lambda value, pieces: _mark(pieces, memo(value))
        return _spliced_record(hint)
    origin, args = get_origin(hint) or hint, get_args(hint)
    if origin is dict:
        part = _spliced(args[1])
        return lambda value, pieces: {(k if type(k) is str else str(k)): part(x, pieces)
                                      for k, x in value.items()}
    if len(args) == 1 or args[1] is Ellipsis:  # a list or tuple of one type
        part = _spliced(args[0])
        return lambda value, pieces: [part(x, pieces) for x in value]
    parts = [_spliced(a) for a in args]  # a fixed tuple
    return lambda value, pieces: [p(x, pieces) for p, x in zip(parts, value, strict=True)]


@cache
def _has_parts(hint: Any) -> bool:
    """Whether `dumps` writes some part of a value of this hint once."""
    hook = _hook(hint)
    if hook is not None:
        held = get_args(hint)[0]
        return hook.text is not None or (_is_record(held) and _immutable(held))
    if get_origin(hint) is Annotated:
        return _has_parts(get_args(hint)[0])
    if _is_record(hint):
        return _immutable(hint) or any(_has_parts(h) for h in _hints(hint).values())
    return any(_has_parts(a) for a in get_args(hint) if a is not Ellipsis)


def _spliced_record(cls: Any) -> Spliced:
    made: list[tuple[tuple[str, ...], Callable[[Any], list[Any]], list[tuple[int, Spliced]]]]
    made = []

    def write(value: Any, pieces: list[str]) -> dict[str, Any]:
        if not made:  # at the first write: a field may name a record defined later
            names = tuple(name for name, _ in _layout(cls)[0])
            hints = _hints(cls)
            made.append((names, _getter(names), [
                (at, _spliced(hints[name])) for at, (name, w) in enumerate(_layout(cls)[0])
                if w is not _same]))
        names, get, written = made[0]
        out = get(value)
        for at, w in written:
            out[at] = w(out[at], pieces)
        return dict(zip(names, out, strict=True))
    return write


@cache
def _immutable(hint: Any) -> bool:
    """Whether a value of this hint can never change: plain values, `Literal`, tuples and
    frozen records of them (a NamedTuple is frozen)."""
    if get_origin(hint) is Annotated:
        return _immutable(get_args(hint)[0])
    if get_origin(hint) in (Union, types.UnionType, tuple):
        return all(a is Ellipsis or _immutable(a) for a in get_args(hint))
    if get_origin(hint) is typing.Literal or hint in (int, str, bool, float, type(None)):
        return True
    return _is_record(hint) and _frozen(hint) and all(
        _immutable(h) for h in _hints(hint).values())


def _frozen(cls: Any) -> bool:
    if dataclasses.is_dataclass(cls):
        return bool(typing.cast(Any, cls).__dataclass_params__.frozen)
    return True  # a NamedTuple


def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


# ----------------------------------------------------------------- records
def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and (
        dataclasses.is_dataclass(hint) or (issubclass(hint, tuple) and hasattr(hint, "_fields")))


@cache
def _layout(cls: Any) -> tuple[tuple[tuple[str, Fn], ...], tuple[tuple[str, Fn, bool], ...]]:
    """The (name, writer) of each field JSON holds, and the (name, reader, has a default) of
    each of them the constructor takes (a derived field is written, for people, not read)."""
    hints = _hints(cls)
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
    made: list[Fn] = []

    def write(value: Any) -> dict[str, Any]:
        if not made:  # at the first write: a field may name a record defined later
            made.append(_fields_writer(_layout(cls)[0]))
        return typing.cast(dict[str, Any], made[0](value))
    return write


def _fields_writer(fields: tuple[tuple[str, Fn], ...]) -> Fn:
    """A record as an object of its fields. When they are all written as they are (most
    records), they are read together."""
    names = tuple(name for name, _ in fields)
    if any(w is not _same for _, w in fields):
        return lambda value: {name: w(getattr(value, name)) for name, w in fields}
    get = _getter(names)
    return lambda value: dict(zip(names, get(value), strict=True))


def _getter(names: tuple[str, ...]) -> Callable[[Any], list[Any]]:
    """A record's values of these fields, read together."""
    if len(names) > 1:
        get = attrgetter(*names)
        return lambda value: list(get(value))
    return lambda value: [getattr(value, name) for name in names]


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
        return (_same if write is _same else lambda v: None if v is None else write(v)), (
            lambda d: None if d is None else read(d))
    if _is_record(hint):
        return _record_writer(hint), _record_reader(hint)
    origin, args = get_origin(hint) or hint, get_args(hint)
    if origin in (list, tuple):
        make = list if origin is list else tuple
        if args and (len(args) == 1 or args[1] is Ellipsis):
            write, read = _pair(args[0])
            return (list if write is _same else lambda v: [write(x) for x in v]), (
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
