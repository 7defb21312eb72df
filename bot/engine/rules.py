"""Table options (RULES.md): every option with its default, in one frozen dataclass."""

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any, Literal

from bot.engine import codec
from bot.engine.errors import RuleError
from bot.engine.text import Text

Variant = Literal["pineapple", "turbo", "lowball", "joker"]
Royalties = Literal["american", "russian", "off"]
Scoring = Literal["1-6", "2-4"]
Fantasy = Literal["standard", "progressive", "ultimate", "tournament", "off"]
Order = Literal["sequential", "simultaneous"]
Format = Literal["match", "hands", "cash"]
Hints = Literal["off", "on"]

CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("pineapple", "turbo", "lowball", "joker"),
    "royalties": ("american", "russian", "off"),
    "scoring": ("1-6", "2-4"),
    "fantasy": ("standard", "progressive", "ultimate", "tournament", "off"),
    "order": ("sequential", "simultaneous"),
    "format": ("match", "hands", "cash"),
    "hints": ("off", "on"),
}
# Inclusive bounds of the whole-number options.
BOUNDS: dict[str, tuple[int, int]] = {
    "seats": (2, 4),
    "hands": (1, 1000),
    "point_value": (1, 1_000_000),
    "buy_in": (1, 1_000_000_000),
    "turn_seconds": (10, 3600),
    "fantasy_turn_seconds": (10, 3600),
    "time_bank_seconds": (0, 36000),
}
_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


@dataclass(frozen=True, slots=True)
class TableRules:
    """Every option of RULES.md, defaults as there. Construct with `from_mapping` to validate."""

    variant: Variant = "pineapple"  # R9
    royalties: Royalties = "american"  # R4; "off": no royalties (seed 000)
    scoring: Scoring = "1-6"  # R5
    fantasy: Fantasy = "standard"  # R8
    fantasy_stay_full_house_middle: bool = False  # R8
    button_moves_on_fantasy: bool = False  # R8
    order: Order = "sequential"  # R7
    format: Format = "match"  # R11
    hands: int = 20  # R11, for format=hands
    seats: int = 3  # seats at the table, 2-3 (turbo 2-4), R7
    point_value: int = 1  # chips per point, R5
    buy_in: int = 200  # chips moved from the wallet on sitting down, R12
    turn_seconds: int = 60  # R10
    fantasy_turn_seconds: int = 180  # R10
    time_bank_seconds: int = 120  # R10, per match
    hints: Hints = "off"  # R10: "on" offers each person the strong player's placement
    sit_out_when_away: bool = True  # R10; off at tournament tables (R13): all hands played

    @property
    def max_seats(self) -> int:
        """R7: 17 cards a player in the pineapple family (3 x 17 = 51); turbo seats four."""
        return 4 if self.variant == "turbo" else 3

    @property
    def jokers(self) -> bool:
        return self.variant == "joker"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def with_options(self, options: Mapping[str, Any]) -> "TableRules":
        """A copy with `options` applied, validated like `from_mapping`."""
        merged = {**self.to_dict(), **options}
        return TableRules.from_mapping(merged)

    @staticmethod
    def from_mapping(options: Mapping[str, Any]) -> "TableRules":
        """Validate option names and values; raise RuleError naming the first bad one."""
        known = {f.name: f for f in fields(TableRules)}
        values: dict[str, Any] = {}
        for name, raw in options.items():
            if name not in known:
                raise RuleError(Text("unknown option '{name}'", name=name))
            default = known[name].default
            if name in CHOICES:
                value: str | bool | int = str(raw).lower()
                if value not in CHOICES[name]:
                    allowed = ", ".join(CHOICES[name])
                    raise RuleError(Text("'{value}' is not a valid {name} (choose {allowed})",
                                         value=raw, name=name, allowed=allowed))
            elif isinstance(default, bool):
                value = _parse_bool(name, raw)
            else:
                value = _parse_int(name, raw)
            values[name] = value
        rules = replace(TableRules(), **values)
        if rules.seats > rules.max_seats:
            raise RuleError(Text("{variant} seats at most {n} player",
                                 "{variant} seats at most {n} players",
                                 variant=rules.variant, n=rules.max_seats))
        return rules


def _parse_bool(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise RuleError(Text("'{value}' is not a valid {name} (choose on or off)", value=raw,
                         name=name))


def _parse_int(name: str, raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise RuleError(_not_whole(raw, name))
    try:
        value = int(raw)
    except ValueError:
        raise RuleError(_not_whole(raw, name)) from None
    low, high = BOUNDS[name]
    if not low <= value <= high:
        raise RuleError(Text("{name} must be from {low} to {high}", name=name, low=low,
                             high=high))

    return value


@lru_cache(maxsize=256)
def _options(rules: TableRules) -> dict[str, Any]:
    """The options as JSON, once per rule set (every snapshot carries them)."""
    return rules.to_dict()


# A rule set as a field of state JSON (bot/engine/codec.py): its options by name.
RULES = codec.Custom(lambda rules: dict(_options(rules)), TableRules.from_mapping)


def _not_whole(raw: Any, name: str) -> Text:
    return Text("'{value}' is not a valid {name} (a whole number)", value=raw, name=name)
