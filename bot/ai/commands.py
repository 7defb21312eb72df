"""`ofc solve CARDS [--rules k=v ...] [--stay-value V] [--json]`: the best Fantasyland
arrangement (the contract in README.md). Bad input prints one line on stderr and exits 2."""

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot.ai.solver import STAY_VALUE, solve
from bot.engine.cards import parse_cards
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules

USAGE_ERROR = 2


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`k=v` table options (RULES.md names), checked; RuleError naming a bad one."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RuleError(f"'{pair}' is not an option: write name=value")
        options[name.strip()] = value.strip()
    TableRules.from_mapping(options)
    return options


def add_solve_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("solve", help="the best Fantasyland arrangement of 13-17 cards")
    p.add_argument("cards", nargs="+", help="the cards, e.g. 'As Ks Qs ...' (X for a joker)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="K=V",
                   help="table options by their RULES.md names, e.g. variant=joker")
    p.add_argument("--stay-value", type=float, default=STAY_VALUE,
                   help=f"points staying in Fantasyland is worth (default {STAY_VALUE:g})")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    try:
        rules = TableRules.from_mapping(parse_options(args.rules))
        cards = parse_cards(" ".join(args.cards))
        if args.stay_value < 0:
            raise RuleError("the stay value cannot be negative")
        solution = solve(cards, rules, args.stay_value)
    except RuleError as error:
        print(f"ofc solve: {error}", file=sys.stderr)
        return USAGE_ERROR
    data = solution.to_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    result = solution.result
    for index, row in enumerate(("top", "middle", "bottom")):
        print(f"{row:8}{data[row]:16}{result.names[index]:36}{result.royalties[index]:>3}")
    if solution.discard:
        print(f"{'discard':8}{data['discard']}")
    stays = "stays in Fantasyland" if solution.stays else "does not stay in Fantasyland"
    fouled = " (every arrangement fouls)" if result.fouled else ""
    print(f"royalties {solution.royalties}, {stays}, value {solution.value:g}{fouled}")
    return 0
