"""`ofc solve CARDS [--rules k=v ...] [--stay-value V] [--json]`: the best Fantasyland
arrangement (docs/cli.md); `ofc fantasy-value`: what a Fantasyland hand is worth
(fantasy_value.py). Bad input prints one line on stderr and exits 2."""

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai.fantasy_value import OPPONENT_PLAYOUTS, measure
from bot.ai.solver import MAX_CARDS, MIN_CARDS, STAY_VALUE, solve
from bot.engine.cards import parse_cards
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules

USAGE_ERROR = 2
# The most deals a run plays (a size here, a seating in `ofc simulate`): hours of play at the
# defaults; past it, the runs' lists of deals and decisions outgrow the memory.
MAX_HANDS = 100_000


def number(text: str) -> float:
    """A command-line number (argparse's `type`): finite, since nan or inf would reach the
    search's arithmetic. argparse names the function in its refusal ("invalid number value")."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`k=v` table options (RULES.md names), checked; RuleError naming a bad one, or one
    given twice."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not name:
            raise RuleError(f"'{pair}' is not an option: write name=value.")
        if name in options:  # the last would win without a word
            raise RuleError(f"--rules gives {name} twice.")
        options[name] = value
    TableRules.from_mapping(options)
    return options


def board_lines(cards: Mapping[str, Any], names: Sequence[str],
                royalties: Sequence[int]) -> list[str]:
    """A board as text, a row a line: its cards, its hand in words, its royalty."""
    return [f"{row:8}{cards[row]:16}{names[index]:36}{royalties[index]:>3}"
            for index, row in enumerate(("top", "middle", "bottom"))]


def add_solve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", help="the cards, e.g. 'As Ks Qs ...' (X for a joker)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="K=V",
                   help="table options by their RULES.md names, e.g. variant=joker")
    p.add_argument("--stay-value", type=number, default=STAY_VALUE,
                   help=f"points staying in Fantasyland is worth (default {STAY_VALUE:g})")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    try:
        rules = TableRules.from_mapping(parse_options(args.rules))
        cards = parse_cards(" ".join(args.cards))
        if args.stay_value < 0:
            raise RuleError("the stay value cannot be negative.")
        solution = solve(cards, rules, args.stay_value)
    except RuleError as error:
        print(f"ofc solve: {error}", file=sys.stderr)
        return USAGE_ERROR
    data = solution.to_dict()
    if args.json:
        print(json.dumps(data))
        return 0
    result = solution.result
    print("\n".join(board_lines(data, result.names, result.royalties)))
    if solution.discard:
        print(f"{'discard':8}{data['discard']}")
    stays = "stays in Fantasyland" if solution.stays else "does not stay in Fantasyland"
    fouled = " (every arrangement fouls)" if result.fouled else ""
    print(f"royalties {solution.royalties}, {stays}, value {solution.value:g}{fouled}")
    return 0


def add_fantasy_value_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hands", type=int, default=2000,
                   help=f"deals per size (default 2000, at most {MAX_HANDS:,})")
    p.add_argument("--seed", type=int, default=1, help="makes the measurement reproducible")
    p.add_argument("--sizes", default="13,14,15,16,17", help="Fantasyland sizes to measure")
    p.add_argument("--playouts", type=int, default=OPPONENT_PLAYOUTS,
                   help="the opponent's playouts per decision (default "
                        f"{OPPONENT_PLAYOUTS})")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="K=V",
                   help="table options by their RULES.md names")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=fantasy_value_command)


def fantasy_value_command(args: argparse.Namespace) -> int:
    try:
        rules = TableRules.from_mapping(parse_options(args.rules))
        sizes = tuple(int(s) for s in args.sizes.split(",") if s.strip())
        if not sizes or any(not MIN_CARDS <= s <= MAX_CARDS for s in sizes):
            raise RuleError(f"sizes are {MIN_CARDS} to {MAX_CARDS} cards.")
        twice = [s for i, s in enumerate(sizes) if s in sizes[:i]]
        if twice:  # it would be measured again, on the same deals
            raise RuleError(f"--sizes gives {twice[0]} twice.")
        if not 2 <= args.hands <= MAX_HANDS or args.playouts < 1:
            raise RuleError(f"--hands is 2 to {MAX_HANDS:,} and --playouts at least 1.")
        if rules.jokers or rules.fantasy == "off":
            raise RuleError("measured for rules with Fantasyland and without jokers.")
    except RuleError as error:
        print(f"ofc fantasy-value: {error}", file=sys.stderr)
        return USAGE_ERROR
    except ValueError:
        print("ofc fantasy-value: --sizes takes card counts, such as 14,15.", file=sys.stderr)
        return USAGE_ERROR
    progress = None if args.json else (lambda line: print(f"  round: {line}", file=sys.stderr))
    results = measure(rules, args.hands, args.seed, sizes, args.playouts, progress)
    if args.json:
        print(json.dumps({"sizes": [
            {"cards": r.cards, "hands": r.hands, "points": round(r.points, 3),
             "ci95": [round(r.ci95[0], 3), round(r.ci95[1], 3)],
             "stay_rate": round(r.stay_rate, 4), "repeat": r.repeat,
             "value": round(r.value, 3)} for r in results]}))
        return 0
    print(f"{'cards':>5}{'E(c) points (95%)':>26}{'p(c) stays':>12}{'r(c)':>6}{'V(c)':>8}")
    for r in results:
        interval = f"{r.points:.2f} ({r.ci95[0]:.2f}, {r.ci95[1]:.2f})"
        print(f"{r.cards:>5}{interval:>26}{r.stay_rate:>12.1%}{r.repeat:>6}{r.value:>8.2f}")
    return 0
