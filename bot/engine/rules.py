"""Table options (RULES.md): every option with its default, in one frozen dataclass."""

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any, Literal

from bot.engine import codec
from bot.engine.errors import RuleError
from bot.engine.text import Text, excerpt

Variant = Literal["pineapple", "turbo", "lowball", "joker"]
Royalties = Literal["american", "russian", "off"]
Scoring = Literal["1-6", "2-4"]
Fantasy = Literal["standard", "progressive", "ultimate", "tournament", "off"]
Order = Literal["sequential", "simultaneous"]
Format = Literal["match", "hands", "cash"]
Hints = Literal["off", "on"]
FantasyDeal = Literal["first", "last"]
Clock = Literal["per_street", "per_hand"]

CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("pineapple", "turbo", "lowball", "joker"),
    "royalties": ("american", "russian", "off"),
    "scoring": ("1-6", "2-4"),
    "fantasy": ("standard", "progressive", "ultimate", "tournament", "off"),
    "order": ("sequential", "simultaneous"),
    "format": ("match", "hands", "cash"),
    "hints": ("off", "on"),
    "fantasy_deal": ("first", "last"),
    "clock": ("per_street", "per_hand"),
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
    "time_bank_refill_seconds": (0, 86400),
}
CASH_REFILL_SECONDS = 3600  # seed 003 names no period: an hour, a cash session's length
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
    # R8, R10: the defaults below are a pineapple match's; `from_mapping` gives each table the
    # defaults of the seed it follows (`seed_defaults`).
    fantasy_deal: FantasyDeal = "first"  # R8: Fantasyland set before the first street, or last
    clock: Clock = "per_hand"  # R10: turn_seconds a street, or all the streets' for the hand
    time_bank_refill_seconds: int = 0  # R10: a bank full again after this long; 0 never

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
                raise RuleError(Text("unknown option '{name}'", name=excerpt(name)))
            default = known[name].default
            if name in CHOICES:
                value: str | bool | int = str(raw).lower()
                if value not in CHOICES[name]:
                    allowed = ", ".join(CHOICES[name])
                    raise RuleError(Text("'{value}' is not a valid {name} (choose {allowed})",
                                         value=excerpt(str(raw)), name=name,
                                         allowed=allowed))
            elif isinstance(default, bool):
                value = _parse_bool(name, raw)
            else:
                value = _parse_int(name, raw)
            values[name] = value
        for name, value in seed_defaults(values.get("variant", "pineapple"),
                                         values.get("format", "match")).items():
            values.setdefault(name, value)
        rules = replace(TableRules(), **values)
        if rules.seats > rules.max_seats:
            raise RuleError(Text("{variant} seats at most {n} player",
                                 "{variant} seats at most {n} players",
                                 variant=rules.variant, n=rules.max_seats))
        return rules


def seed_defaults(variant: str, table_format: str) -> dict[str, Any]:
    """The defaults of the options where the seeds differ on how a table deals and keeps time
    (RULES.md R8, R10), as the seed the table follows says: a joker table comes from seed
    003's room, turbo and lowball from seed 002, the others from their format's seed (R11:
    match 000, hands 001, cash 003); the refill from the format alone."""
    room = variant == "joker" or (variant == "pineapple" and table_format == "cash")  # 003
    return {
        # Seed 003 deals Fantasyland once the others have played; 000, 001 and 002 first.
        "fantasy_deal": "last" if room else "first",
        # Seed 000 (a match) has one clock a hand; 001 and 003 time each action (002 says
        # nothing: its tables keep their format's).
        "clock": "per_hand" if table_format == "match" and variant != "joker" else "per_street",
        # Seed 003's cash room fills the bank again after a while; 000, 001: one a match.
        "time_bank_refill_seconds": CASH_REFILL_SECONDS if table_format == "cash" else 0,
    }


# A rule set stored before these options existed keeps the behaviour it was created with.
_STORED_BEFORE = {"fantasy_deal": "first", "clock": "per_street", "time_bank_refill_seconds": 0}


def _stored(options: Mapping[str, Any]) -> TableRules:
    return TableRules.from_mapping({**_STORED_BEFORE, **options})


def _parse_bool(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise RuleError(Text("'{value}' is not a valid {name} (choose on or off)",
                         value=excerpt(str(raw)), name=name))


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
RULES = codec.Custom(lambda rules: dict(_options(rules)), _stored)


def _not_whole(raw: Any, name: str) -> Text:
    return Text("'{value}' is not a valid {name} (a whole number)", value=excerpt(str(raw)),
                name=name)
