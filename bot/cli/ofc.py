"""`ofc`: engine tools on the command line (score, solve, simulate, fantasy-value, bench, audit).

Bad input prints one line on stderr and exits 2 (DESIGN.md). Bare `ofc` prints the usage, and
every `--help` ends with examples."""

import argparse
import importlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from bot.engine.errors import RuleError
from bot.refusal import TRY_OFFLINE, error_line, named

USAGE_ERROR = 2
MAX_SCORE_INPUT = 1_000_000  # bytes: one hand's JSON is a few hundred
INTERRUPTED = 128 + signal.SIGINT

# A finished hand as `ofc score` takes it (the shape shown in its help and to a person who runs
# it without input).
SCORE_EXAMPLE = """\
{"rules": {"scoring": "1-6"}, "button": 1, "players": [
  {"name": "A", "stack": 100, "top": "Qh Qd 2c", "middle": "5s 5d 9c 9h Kd",
   "bottom": "2h 3h 4h 5h 7h"},
  {"name": "B", "stack": 100, "top": "Ah Kc 2s", "middle": "Ts Td Jc 3s 3c",
   "bottom": "As Ad Ac 7d 7c"}]}"""
SCORE_INPUT = f"""\
It reads one finished hand as JSON, for example:
{SCORE_EXAMPLE}
"players": 2 to 3 (turbo: 4), clockwise, each with its name (1 to 32 characters) and three
rows (3, 5 and 5 cards: Ah, Td or 10d, X for a joker); optional: "rules" (table options by
their RULES.md names), "button" (an index into "players", default 0), and per player "stack"
(chips, 0 to 10^12, default 0), "in_fantasy" (true or false) and "fantasy_entry_cards" (13 to
17)."""

EXAMPLES = {
    "ofc": f"""examples:
  {TRY_OFFLINE}
  ofc score hand.json
  ofc solve As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c
  ofc audit --database ofc.sqlite3

`ofc COMMAND --help` shows a command's options and examples.""",
    "score": f"""{SCORE_INPUT}

examples:
  ofc score hand.json
  cat hand.json | ofc score""",
    "solve": """examples:
  ofc solve As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c
  ofc solve X Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c --rules variant=joker --json""",
    "simulate": f"""examples:
  {TRY_OFFLINE}
  ofc simulate --hands 200 --ai strong,strong-v1 --workers 2 --json
  ofc simulate --hands 100 --ai strong@1s,strong@200 --json
  ofc simulate --hands 10 --rules variant=turbo --images showdowns/
  ofc simulate --tournament --players 6 --seats 2 --hands 10""",
    "fantasy-value": """examples:
  ofc fantasy-value --hands 200 --sizes 14,15
  ofc fantasy-value --rules fantasy=progressive --json""",
    "bench": """examples:
  ofc bench --only eval5_per_s,score_hand_per_s
  ofc bench --json""",
    "audit": """examples:
  ofc audit --database ofc.sqlite3
  ofc audit --database 'postgresql://ofc@/ofc?host=/var/run/postgresql' --json""",
}


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr with exit 2 (`ofc`, and the
    admins' `ofc-bot`)."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        fail(message, self.prog)


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None,
               ) -> argparse.Namespace:
    """`parser.parse_args(argv)`, a subcommand's unknown arguments named by the subcommand:
    argparse reports them as the top parser's ("ofc: ..."), unlike every other usage error."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = getattr(args, "command", None)
        fail(f"unrecognized arguments: {' '.join(unknown)}",
             f"{parser.prog} {command}" if command else parser.prog)
    return args


def fail(message: str, program: str = "ofc") -> Any:
    print(error_line(program, message), file=sys.stderr)
    raise SystemExit(USAGE_ERROR)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key written twice: JSON readers keep the last one without a
    word, so `"stack": 3, "stack": 300` would be scored as whichever came last."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            fail(f"bad JSON: the key {key!r} is given twice", "ofc score")
        data[key] = value
    return data


def _read_json(path: str | None) -> Any:
    if path is None and sys.stdin is not None and sys.stdin.isatty():
        # Nobody types JSON at a prompt by accident: say what is wanted instead of waiting.
        print(error_line("ofc score", "no input: give a JSON file (ofc score hand.json) or "
                                      "pipe one in; '-' reads what you type"), file=sys.stderr)
        print(SCORE_INPUT, file=sys.stderr)
        raise SystemExit(USAGE_ERROR)
    if path in (None, "-") and sys.stdin is None:  # started with standard input closed
        fail("there is no standard input to read: give a JSON file (ofc score hand.json)",
             "ofc score")
    # Bytes, which json decodes itself (UTF-8, a byte-order mark some editors write allowed).
    text: str | bytes
    try:
        # At most one byte past the limit: /dev/zero, or a log named by mistake, would
        # otherwise be read whole into memory before any word.
        if path in (None, "-"):
            text = sys.stdin.buffer.read(MAX_SCORE_INPUT + 1) if hasattr(sys.stdin, "buffer") \
                else sys.stdin.read(MAX_SCORE_INPUT + 1)
        else:
            with open(path, "rb") as handle:
                text = handle.read(MAX_SCORE_INPUT + 1)
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}", "ofc score")
    if len(text) > MAX_SCORE_INPUT:
        fail("the input is larger than 1 MB: one hand's JSON is a few hundred bytes",
             "ofc score")
    try:
        return json.loads(text, object_pairs_hook=_object)
    except UnicodeDecodeError as error:
        fail(f"bad JSON: not UTF-8 text (byte {error.start + 1})", "ofc score")
    except json.JSONDecodeError as error:
        fail(f"bad JSON: {error.msg} at line {error.lineno} column {error.colno}", "ofc score")
    except RecursionError:  # the decoder recurses once per level of nesting
        fail("bad JSON: nested too deeply", "ofc score")
    except ValueError:  # Python refuses to read an integer longer than this
        fail(f"bad JSON: a number of more than {sys.get_int_max_str_digits()} digits",
             "ofc score")


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
    from bot.cli import bench

    keys = [k.strip() for k in args.only.split(",") if k.strip()] \
        if args.only is not None else None
    if keys == []:  # `--only ,` would measure nothing and print nothing
        fail(f"--only names no figure (known: {', '.join(bench.FIGURES)})", "ofc bench")
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


def add_score_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", type=named,
                   help="JSON file ('-' or none: standard input; none at a terminal shows "
                        "what it expects)")
    p.set_defaults(run=score_command)


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--only", help="comma-separated figure keys")
    p.add_argument("--json", action="store_true", help="one JSON object of flat keys")
    p.set_defaults(run=bench_command)


# Each subcommand: its line in `ofc --help`, and where the function that adds its arguments
# lives. That module is imported only when its subcommand is named: the solver's tables and
# the table service take about a second to load, which `ofc score` and `ofc --help` need not
# wait for.
SUBCOMMANDS = {
    "score": ("score and settle a finished hand given as JSON",
              "bot.cli.ofc", "add_score_arguments"),
    "solve": ("the best Fantasyland arrangement of 13-17 cards",
              "bot.ai.commands", "add_solve_arguments"),
    "simulate": ("computer players against each other",
                 "bot.cli.simulate", "add_simulate_arguments"),
    "fantasy-value": ("measure what a Fantasyland hand is worth, with the solver",
                      "bot.ai.commands", "add_fantasy_value_arguments"),
    "bench": ("print the benchmark figures", "bot.cli.ofc", "add_bench_arguments"),
    "audit": ("check the books: wallets against the ledger, stacks against their moves, "
              "chips against everything granted, idempotency keys",
              "bot.cli.dbtools", "add_audit_arguments"),
}


def _named(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names: its first word that is not an option (`ofc` itself takes
    only --help)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _with_examples(parser: argparse.ArgumentParser, name: str) -> None:
    parser.epilog = EXAMPLES[name]
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # the examples' lines kept


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """`ofc` and its subcommands, each help ending with its examples. With `argv`, only the
    subcommand it names gets its arguments (the others, their line in the help)."""
    parser = OneLineParser(prog="ofc", description=__doc__.splitlines()[0])
    _with_examples(parser, "ofc")
    sub = parser.add_subparsers(dest="command", parser_class=OneLineParser)
    named = _named(argv) if argv is not None else None
    for name, (summary, module, adder) in SUBCOMMANDS.items():
        command = sub.add_parser(name, help=summary)
        _with_examples(command, name)
        if argv is None or name == named:
            getattr(importlib.import_module(module), adder)(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parse_args(parser, argv)
    if args.command is None:  # bare `ofc`: what it can do, not an error
        parser.print_help()
        return 0
    if sys.stdout is None:  # started with standard output closed: the result would go nowhere
        fail("there is no standard output to write to", f"ofc {args.command}")
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, not at exit, where a closed pipe could not be caught
    except BrokenPipeError:
        # The reader left early (`ofc score hand.json | head -1`): nothing to say about it.
        _drop_output(stdout)
        return 1
    except OutputError as error:
        _drop_output(stdout)
        fail(f"cannot write the output: {error}", f"ofc {args.command}")
    except KeyboardInterrupt:
        # Ctrl+C: asked for, so no traceback; the status a shell gives a command it ended.
        return INTERRUPTED
    finally:
        sys.stdout = stdout
    return code


class OutputError(Exception):
    """Standard output refused what it was given (`> result.json` on a full disk)."""


class _Output:
    """Standard output, whose write errors are told apart from another file's (an image, the
    database): those are not ours to word. A reader gone (BrokenPipeError) stays as it is."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.strerror) from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.strerror) from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_output(stdout: Any) -> None:
    """Point standard output at nothing: Python flushes it again at exit, and would print that
    failure's traceback."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
