"""What a table option is: its declaration, made once beside its field of `TableRules`
(bot/engine/rules.py) with `option(...)`.

Everything else about an option is read from its declaration: TableRules' checks and the
defaults each seed gives, what a snapshot holds, the slash options and their help
(cogs/common/options.py), the words of the rules paragraph and of `/ofc rules`, and the table
of docs/players/options.md (`python -m bot.cli.options_table`).
"""

from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any, Literal, TypeVar, get_args, get_type_hints

from bot.engine.text import Text

T = TypeVar("T")
# Who sets an option: a table's host (`/ofc create`) and the server's admins; the admins only
# (`/ofc-admin settings`: a house rule of every table of the server); or nobody by a command
# (the bot sets it, as tournaments do).
Place = Literal["table", "server", "fixed"]
SeededBy = Callable[[str, str], Any]  # (variant, format) -> the default of the table's seed
_KEY = "option"  # the dataclass field's metadata key holding its declaration
_NONE = object()  # no value: an option without `stored`


@dataclass(frozen=True, slots=True)
class Option:
    """One table option. `name`, `kind`, `default` and `choices` come from its TableRules
    field (the name, the type, a `Literal`'s values); the rest is declared with `option`."""

    name: str
    kind: type  # str (a choice), bool or int
    default: Any
    section: str  # the section of RULES.md that says what it changes ("R8")
    # The slash option's description (at most 100 characters, no rule numbers), collected
    # for the catalogues from the command tree with its context (cogs/common/translator.py).
    help: str
    doc: str  # what it changes, for the docs' table (English, Markdown)
    place: Place = "table"
    choices: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None  # a whole number's least and most, inclusive
    # How a value reads to a player where the rules paragraph and `/ofc rules` say it (a
    # choice's words; a flag's for the value worth saying): a value without words is not
    # mentioned.
    words: Mapping[Any, Text] = field(default_factory=lambda: MappingProxyType({}))
    seeded: SeededBy | None = None  # a default that depends on the seed a table follows
    # What a rule set stored before this option existed means. A sparse option is written in
    # a snapshot only when it is not that value, so the snapshots of every table that does
    # not use it stay as they were, byte for byte.
    stored: Any = _NONE
    sparse: bool = False

    @property
    def has_stored(self) -> bool:
        return self.stored is not _NONE

    def seed_default(self, variant: str, table_format: str) -> Any:
        return self.default if self.seeded is None else self.seeded(variant, table_format)


def option(default: T, section: str, *, doc: str, help: str = "", place: Place = "table",
           bounds: tuple[int, int] | None = None, words: Mapping[Any, Text] | None = None,
           seeded: SeededBy | None = None, stored: Any = _NONE, sparse: bool = False) -> T:
    """A TableRules field declared as a table option (see `Option` for each argument; its
    name, type and choices are the field's, filled in by `declared`)."""
    declaration = Option("", object, default, section, help, doc, place, (), bounds,
                         MappingProxyType(dict(words or {})), seeded, stored, sparse)
    made: T = field(default=default, metadata={_KEY: declaration})
    return made


def declared(cls: type) -> dict[str, Option]:
    """Every option of the dataclass `cls` (TableRules), in the order of its fields."""
    hints = get_type_hints(cls)
    return {f.name: _option(f, hints[f.name]) for f in fields(cls) if _KEY in f.metadata}


def _option(spec: "Field[Any]", hint: Any) -> Option:
    choices = tuple(get_args(hint))
    partial: Option = spec.metadata[_KEY]
    made = replace(partial, name=spec.name, kind=str if choices else hint,
                   choices=choices)
    _check(made)
    return made


def written(values: Mapping[str, Any], options: Mapping[str, Option]) -> dict[str, Any]:
    """A rule set's `values` as a snapshot holds them: a sparse option only when it is not
    what a rule set stored without it means."""
    return {name: value for name, value in values.items()
            if not (options[name].sparse and value == options[name].stored)}


def _check(o: Option) -> None:
    """A declaration that cannot work fails at import, naming the option."""
    problems = [
        (o.kind is int) != (o.bounds is not None) and "a whole number has bounds, nothing else",
        o.kind not in (str, bool, int) and "the type is a Literal of choices, bool or int",
        bool(o.choices) and o.default not in o.choices and "the default is one of the choices",
        o.bounds is not None and not o.bounds[0] <= o.default <= o.bounds[1]
        and "the default is within the bounds",
        any(v not in (o.choices or (True, False)) for v in o.words)
        and "words name its values",
        o.sparse and not o.has_stored and "a sparse option says what a stored rule set means",
        not o.section.startswith("R") and "the section is a RULES.md section (R1-R13)",
        (o.place == "fixed") == bool(o.help) and "a slash option has help, nothing else",
        len(o.help) > 100 and "the help fits Discord's 100 characters",
    ]
    wrong = [p for p in problems if p]
    if wrong:
        raise TypeError(f"table option {o.name}: {'; '.join(map(str, wrong))}")
