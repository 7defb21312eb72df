"""`ofc`: engine tools on the command line (score, solve, simulate, fantasy-value, bench, audit).

Bad input prints one line on stderr and exits 2 (DESIGN.md)."""

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.errors import RuleError

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr with exit 2."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        fail(message, self.prog)


def fail(message: str, program: str = "ofc") -> Any:
    print(f"{program}: {message}", file=sys.stderr)
    raise SystemExit(USAGE_ERROR)


def _read_json(path: str | None) -> Any:
    try:
        if path in (None, "-"):
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}", "ofc score")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"bad JSON: {error.msg} at line {error.lineno} column {error.colno}", "ofc score")


def score_command(args: argparse.Namespace) -> int:
    from bot.engine.scoresheet import score_sheet

    data = _read_json(args.file)
    try:
        result = score_sheet(data)
    except RuleError as error:
        fail(str(error), "ofc score")
    print(json.dumps(result, indent=2))
    return 0


def bench_command(args: argparse.Namespace) -> int:
    from bot import bench

    keys = [k.strip() for k in args.only.split(",") if k.strip()] if args.only else None
    try:
        figures = bench.run(keys)
    except KeyError as error:
        fail(f"unknown figure {error.args[0]} (known: {', '.join(bench.FIGURES)})", "ofc bench")
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:24} {value:,.2f}")
    return 0


def _add_score(sub: Any) -> None:
    p = sub.add_parser("score", help="score and settle a finished hand given as JSON")
    p.add_argument("file", nargs="?", help="JSON file ('-' or none: standard input)")
    p.set_defaults(run=score_command)


def _add_bench(sub: Any) -> None:
    p = sub.add_parser("bench", help="print the benchmark figures")
    p.add_argument("--only", help="comma-separated figure keys")
    p.add_argument("--json", action="store_true", help="one JSON object of flat keys")
    p.set_defaults(run=bench_command)


def _subcommands() -> list[Callable[[Any], None]]:
    """Each adds one subcommand; the solver's and simulator's come from their own modules."""
    from bot.ai.commands import add_fantasy_value_parser, add_solve_parser
    from bot.dbtools import add_audit_parser
    from bot.simulate import add_simulate_parser

    adders: list[Callable[[Any], None]] = [_add_score, add_solve_parser, add_simulate_parser,
                                           add_fantasy_value_parser, _add_bench,
                                           add_audit_parser]
    return adders


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="ofc", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in _subcommands():
        add(sub)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
