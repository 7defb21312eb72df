"""Table options (RULES.md): every option declared once, as a field of one frozen dataclass,
with its default, bounds or choices, section, words and help (bot/engine/options.py)."""

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from bot.engine import codec
from bot.engine.errors import RuleError
from bot.engine.options import Option, declared, option, written
from bot.engine.text import Text, excerpt, series

Variant = Literal["pineapple", "turbo", "lowball", "joker"]
Royalties = Literal["american", "russian", "off"]
Scoring = Literal["1-6", "2-4"]
Fantasy = Literal["standard", "progressive", "ultimate", "tournament", "off"]
Order = Literal["sequential", "simultaneous"]
Format = Literal["match", "hands", "cash"]
Hints = Literal["off", "on"]
FantasyDeal = Literal["first", "last"]
Clock = Literal["per_street", "per_hand"]

CASH_REFILL_SECONDS = 3600  # seed 003 names no period: an hour, a cash session's length
_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


def _room(variant: str, table_format: str) -> bool:
    """Does the table follow seed 003's room? A joker table does, and a pineapple cash table;
    turbo and lowball follow seed 002, the others their format's seed (R11: match 000, hands
    001, cash 003)."""
    return variant == "joker" or (variant == "pineapple" and table_format == "cash")


@dataclass(frozen=True, slots=True)
class TableRules:
    """Every option of RULES.md, each declared once (`option`), in the order a snapshot writes
    them. Construct with `from_mapping` to validate."""

    variant: Variant = option(
        "pineapple", "R9", help="turbo: 5/4/4, 4 seats · lowball: 2-7 middle · joker: 2 wild",
        words={"pineapple": Text("Pineapple"), "turbo": Text("Turbo"),
               "lowball": Text("Lowball"), "joker": Text("Joker")},
        doc="the game. `turbo`: streets of 5, 4 and 4 cards, all placed, no discards; 2-4 "
            "seats; Fantasyland is 13 cards and is kept with trips on top, a full house or "
            "better in the middle or quads or better on the bottom. `lowball`: the middle is a "
            "2-7 low (ace high; no pair, straight or flush; 10-high or lower, or the board "
            "fouls), compared low, with its own middle royalties and Fantasyland entry (kings "
            "or better on top, or `75432` in the middle). `joker`: 54 cards with two jokers "
            "(`X`), each standing for the card that makes its owner's board best")
    royalties: Royalties = option(
        "american", "R4", help="bonus for strong rows: american or russian table, or none",
        words={"american": Text("american royalties"), "russian": Text("russian royalties"),
               "off": Text("no royalties")},
        doc="the bonus table. `russian` pays less for quads, straight flushes and royal "
            "flushes on the bottom and in the middle; `off` pays none (fouls, lines, scoops "
            "and Fantasyland unchanged)")
    scoring: Scoring = option(
        "1-6", "R5", help="1-6: 1 a row, 6 for all 3 · 2-4: 2, or 4 for all 3",
        doc="`1-6`: a point a line, 3 more for winning all three (a scoop: 6); a fouled board "
            "pays 6. `2-4`: a point a line, 1 more for winning two or three lines; a fouled "
            "board pays 4")
    fantasy: Fantasy = option(
        "standard", "R8", help="QQ+ on top: 14 cards; progressive: QQ 14 … trips 17",
        words={"standard": Text("standard Fantasyland"),
               "progressive": Text("progressive Fantasyland"),
               "ultimate": Text("ultimate Fantasyland"),
               "tournament": Text("tournament Fantasyland"), "off": Text("no Fantasyland")},
        doc="how many cards a Fantasyland hand deals and whether it can be kept. `standard`: "
            "14 cards, kept with trips on top or quads or better on the bottom. `progressive`: "
            "queens 14, kings 15, aces 16, trips 17, then 14 on a repeat. `ultimate`: the same "
            "counts, and a repeat deals as many as the entry did. `tournament`: queens 13, "
            "kings 14, aces 15, trips 16, never kept. `off`: no Fantasyland. A `turbo` or "
            "`lowball` table plays its own Fantasyland (see `variant`) whatever the mode but "
            "`off`")
    fantasy_stay_full_house_middle: bool = option(
        False, "R8", help="a full house in the middle also stays in Fantasyland",
        words={True: Text("A full house in the middle also stays in Fantasyland.")},
        doc="a full house or better in the middle also keeps a player in Fantasyland (not in "
            "the `tournament` mode, which nobody keeps; `turbo` always keeps it so, `lowball` "
            "never)")
    button_moves_on_fantasy: bool = option(
        False, "R8", help="move the button before a Fantasyland hand",
        words={True: Text("The button moves before a Fantasyland hand.")},
        doc="on: the button moves before a Fantasyland hand; off (the common rule), a "
            "Fantasyland hand continues the hand that earned it and the button stays")
    order: Order = option(
        "sequential", "R7", help="sequential (one at a time) or simultaneous",
        words={"sequential": Text("sequential turns"),
               "simultaneous": Text("simultaneous turns")},
        doc="`sequential`: players act one at a time in seat order and see the placements made "
            "before them on that street. `simultaneous`: everyone places a street at once and "
            "the placements are shown when the street is done")
    format: Format = option(
        "match", "R11", help="match (one hand per player), hands (a number of hands), cash",
        doc="when the table ends. `match`: one hand per player (the button goes round once), "
            "plus one Fantasyland hand after every hand in which anyone earned it. `hands`: "
            "`hands` hands, plus the Fantasyland hands. `cash`: no end; players join and leave "
            "between hands and a busted player may buy in again; the table closes when fewer "
            "than two players can play for the lobby's idle time (`OFC_LOBBY_IDLE_MINUTES`)")
    hands: int = option(
        20, "R11", bounds=(1, 1000), help="hands to play in the 'hands' format (default 20)",
        doc="the number of hands of the `hands` format")
    # R7: 17 cards a player in the pineapple family, so 2-3 seats (turbo 2-4, `max_seats`).
    seats: int = option(
        3, "R7", bounds=(2, 4), help="Players at the table: 2-3 (turbo 2-4)",
        doc="how many players the table seats (17 cards a player, so three in the Pineapple "
            "family; `turbo` seats four)")
    point_value: int = option(
        1, "R5", bounds=(1, 1_000_000), help="chips per point (default 1)",
        doc="chips per point: what a point costs at the table")
    buy_in: int = option(
        200, "R12", bounds=(1, 1_000_000_000),
        help="chips each player brings from the wallet (default 200)",
        doc="chips each player moves from the wallet to the table on sitting down. Under the "
            "table-stakes rule (R6) nobody loses more than this stack, nor wins more from one "
            "opponent than their own stack")
    turn_seconds: int = option(
        60, "R10", bounds=(10, 3600), help="seconds for each street (default 60)",
        doc="seconds for each street")
    fantasy_turn_seconds: int = option(
        180, "R10", bounds=(10, 3600), help="seconds for a Fantasyland hand (default 180)",
        doc="seconds for a Fantasyland hand")
    time_bank_seconds: int = option(
        120, "R10", bounds=(0, 36000),
        help="extra seconds per match once a turn runs out (default 120)",
        doc="extra seconds a player has for the whole match once a turn runs out; when both "
            "are gone the bot places the cards itself (bottom, then middle, then top, in the "
            "order dealt, the third card of streets 2-5 discarded), and the player is away and "
            "sits out after the hand")
    hints: Hints = option(
        "off", "R10",
        help="on: a Suggest button fills your cards with the strong computer's choice",
        words={"on": Text("**Hints on**: **Suggest** fills your cards with the strong "
                          "computer's choice.")},
        doc="on: each street's controls have a **Suggest** button that fills the draft with "
            "the strong computer's choice, from the player's own view; off: there is no "
            "Suggest, and one sent anyway is refused. Always on at a practice table "
            "(`/ofc practice`), off at tournament tables")
    sit_out_when_away: bool = option(
        True, "R10", place="fixed",
        words={False: Text("A player who stops acting is placed for until the table's last "
                           "hand.")},
        doc="on: a player who stops acting sits out after the hand. Off only at tournament "
            "tables (R13), where such a player is placed for until the table's last hand")
    # R8, R10: the defaults below are a pineapple match's; `from_mapping` gives each table the
    # defaults of the seed it follows (`seeded`). Seed 003 deals Fantasyland once the others
    # have played; 000, 001 and 002 first.
    fantasy_deal: FantasyDeal = option(
        "first", "R8", place="server", stored="first",
        seeded=lambda variant, table_format: "last" if _room(variant, table_format) else "first",
        help="first: Fantasyland is set before the others play; last: after, seeing their boards",
        words={"first": Text("set before the others play"),
               "last": Text("dealt once the others have played")},
        doc="when a Fantasyland hand is dealt. `first`: before the others play their first "
            "street, and they wait until it is set, so its player sees nothing placed after "
            "their cards came. `last`: after the others have played all their streets, seeing "
            "their boards")
    # Seed 000 (a match) has one clock a hand; 001 and 003 time each action (002 says nothing:
    # its tables keep their format's).
    clock: Clock = option(
        "per_hand", "R10", place="server", stored="per_street",
        seeded=lambda variant, table_format:
            "per_hand" if table_format == "match" and variant != "joker" else "per_street",
        help="per_street: turn_seconds for each street; per_hand: all of it for the whole hand",
        doc="`per_street`: `turn_seconds` for each street. `per_hand`: one clock of "
            "`turn_seconds` for each street of the hand, for the whole hand")
    # Seed 003's cash room fills the bank again after a while; 000, 001: one a match.
    time_bank_refill_seconds: int = option(
        0, "R10", place="server", bounds=(0, 86400), stored=0,
        seeded=lambda variant, table_format:
            CASH_REFILL_SECONDS if table_format == "cash" else 0,
        help="seconds after which a time bank is full again, 0 never (cash: 3600)",
        doc="at a deal, a time bank last full that long ago or more is full again (0: never); "
            "an hour at a cash table by default")

    @property
    def max_seats(self) -> int:
        """R7: 17 cards a player in the pineapple family (3 x 17 = 51); turbo seats four."""
        return 4 if self.variant == "turbo" else 3

    def check_players(self, count: int) -> None:
        """R7: RuleError when `count` players are more than the variant seats."""
        if count > self.max_seats:
            raise RuleError(Text("{variant} seats at most {n} player.",
                                 "{variant} seats at most {n} players.",
                                 variant=self.variant, n=self.max_seats))

    @property
    def jokers(self) -> bool:
        return self.variant == "joker"

    @property
    def own_fantasy(self) -> bool:
        """R9: turbo and lowball enter, deal and keep their own Fantasyland whatever the
        `fantasy` mode; only `off` changes it."""
        return self.variant in ("turbo", "lowball")

    def applies(self, name: str) -> bool:
        """Whether option `name` changes anything at this table (R8, R9): without
        Fantasyland its options change nothing, nor the full house that keeps it where the
        variant keeps its own way or the mode never keeps it."""
        fantasy = self.fantasy != "off"
        if name == "fantasy_stay_full_house_middle":
            return fantasy and not self.own_fantasy and self.fantasy != "tournament"
        if name == "button_moves_on_fantasy":
            return fantasy
        return True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def with_options(self, options: Mapping[str, Any]) -> "TableRules":
        """A copy with `options` applied, validated like `from_mapping`."""
        merged = {**self.to_dict(), **options}
        return TableRules.from_mapping(merged)

    @staticmethod
    def from_mapping(options: Mapping[str, Any]) -> "TableRules":
        """Validate option names and values; raise RuleError naming the first bad one."""
        values = {name: parse(name, raw) for name, raw in options.items()}
        for name, value in seed_defaults(values.get("variant", "pineapple"),
                                         values.get("format", "match")).items():
            values.setdefault(name, value)
        rules = replace(TableRules(), **values)
        rules.check_players(rules.seats)
        return rules


OPTIONS: dict[str, Option] = declared(TableRules)
CHOICES: dict[str, tuple[str, ...]] = {o.name: o.choices for o in OPTIONS.values() if o.choices}
# Inclusive bounds of the whole-number options.
BOUNDS: dict[str, tuple[int, int]] = {
    o.name: o.bounds for o in OPTIONS.values() if o.bounds is not None}


def parse(name: str, raw: Any) -> Any:
    """One option's value from what a person or a stored rule set gave (RuleError if bad)."""
    declared_as = OPTIONS.get(name)
    if declared_as is None:
        raise RuleError(Text("unknown option '{name}'.", name=excerpt(name)))
    if declared_as.choices:
        value = str(raw).lower()
        if value not in declared_as.choices:
            allowed = series(declared_as.choices)
            raise RuleError(Text("'{value}' is not a valid {name} (choose {allowed}).",
                                 value=_shown(raw), name=name, allowed=allowed))
        return value
    if declared_as.kind is bool:
        return _parse_bool(name, raw)
    return _parse_int(declared_as, raw)


def seed_defaults(variant: str, table_format: str) -> dict[str, Any]:
    """The defaults of the options where the seeds differ on how a table deals and keeps time
    (RULES.md R8, R10), as the seed the table follows says (each option's `seeded`)."""
    return {o.name: o.seed_default(variant, table_format) for o in OPTIONS.values()
            if o.seeded is not None}


# A rule set stored before an option existed keeps the behaviour it was created with.
_STORED_BEFORE = {o.name: o.stored for o in OPTIONS.values() if o.has_stored}


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
    raise RuleError(Text("'{value}' is not a valid {name} (choose on or off).",
                         value=_shown(raw), name=name))


def _parse_int(declared_as: Option, raw: Any) -> int:
    name = declared_as.name
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise RuleError(_not_whole(raw, name))
    try:
        value = int(raw)
    except ValueError:
        raise RuleError(_not_whole(raw, name)) from None
    assert declared_as.bounds is not None  # every whole-number option has bounds
    low, high = declared_as.bounds
    if not low <= value <= high:
        raise RuleError(Text("{name} must be from {low} to {high}.", name=name, low=low,
                             high=high))

    return value


@lru_cache(maxsize=256)
def _options(rules: TableRules) -> dict[str, Any]:
    """The options as JSON, once per rule set (every snapshot carries them)."""
    return written(rules.to_dict(), OPTIONS)


# A rule set as a field of state JSON (bot/engine/codec.py): its options by name.
RULES = codec.Custom(lambda rules: dict(_options(rules)), _stored)


def _shown(raw: Any) -> str:
    """A refused value as its giver wrote it: typed text as it is, a JSON value (`ofc score`'s
    rules, a stored rule set) as JSON (false, null), not as Python writes it."""
    return excerpt(raw if isinstance(raw, str) else json.dumps(raw, default=repr))


def _not_whole(raw: Any, name: str) -> Text:
    return Text("'{value}' is not a valid {name} (a whole number).", value=_shown(raw),
                name=name)
