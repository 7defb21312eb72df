"""The tables of docs/players/options.md, written from the options' declarations
(bot.engine.rules): `python -m bot.cli.options_table` rewrites them in place, and with
`--check` only says whether they are current (exit 1 if not; tests/docs checks it too).

Each table sits between `<!-- options: PLACE -->` and `<!-- end options -->`, PLACE being who
sets its options (`table`, `server` or `fixed`, as declared); the prose around them is kept.
"""

import argparse
import re
import sys
from pathlib import Path

from bot.engine.options import Option
from bot.engine.rules import OPTIONS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "players" / "options.md"
BLOCK = re.compile(r"(<!-- options: (?P<place>\w+) -->\n).*?(<!-- end options -->)", re.S)
HEADER = ("| option | values (default first) | rules | what it changes |\n"
          "|---|---|---|---|\n")
SEEDED = "default: as the table's rule document"

def values(declared: Option) -> str:
    """The values an option takes, its default first (a default by seed is said so)."""
    if declared.bounds is not None:
        low, high = declared.bounds
        span = f"{low:,} to {high:,}"
        return f"{span} ({SEEDED})" if declared.seeded else f"`{declared.default}`; {span}"
    if declared.kind is bool:
        shown = ["on" if declared.default else "off", "off" if declared.default else "on"]
        return ", ".join(shown)
    if declared.seeded:
        return ", ".join(f"`{v}`" for v in declared.choices) + f" ({SEEDED})"
    rest = [v for v in declared.choices if v != declared.default]
    return ", ".join(f"`{v}`" for v in [declared.default, *rest])


def table(place: str) -> str:
    """The Markdown table of the options `place` sets, in the order they are declared."""
    chosen = [o for o in OPTIONS.values() if o.place == place]
    if not chosen:
        raise ValueError(f"no table option is set by {place!r}")
    return HEADER + "".join(f"| `{o.name}` | {values(o)} | {o.section} | {o.doc} |\n"
                            for o in chosen)


def render(page: str) -> str:
    """`page` with each of its tables of options written afresh."""
    return BLOCK.sub(lambda m: m[1] + table(m["place"]) + m[3], page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.cli.options_table",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the page is current (exit 1 if not)")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    written = render(page)
    if written == page:
        return 0
    if args.check:
        print(f"{PAGE.name} is out of date: run python -m bot.cli.options_table",
              file=sys.stderr)
        return 1
    PAGE.write_text(written, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
