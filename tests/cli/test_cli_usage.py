"""`ofc` as a newcomer meets it: bare `ofc` prints the usage, every `--help` ends with examples,
`ofc score` at a terminal says what it expects instead of waiting, and `ofc simulate` shows the
last hand's boards."""

import json
import os
import pty
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.ofc import EXAMPLES, SCORE_EXAMPLE, build_parser
from bot.engine.scoresheet import score_sheet
from bot.refusal import TRY_OFFLINE

COMMANDS = ("score", "solve", "simulate", "fantasy-value", "bench", "audit")


def test_bare_ofc_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ofc ")
    for command in COMMANDS:
        assert f"\n    {command} " in out, command
    assert "examples:\n  ofc simulate --players 2 --hands 20 --seed 1 --ai strong,easy\n" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_ends_with_examples(command: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    examples = capsys.readouterr().out.split("\nexamples:\n")[1]
    assert examples.startswith(f"  ofc {command} ")


def examples() -> list[str]:
    """Every `ofc ...` line a person may copy: each help's examples and docs/cli.md's."""
    lines = [line.strip() for text in EXAMPLES.values() for line in text.splitlines()]
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.*?)```", docs, re.DOTALL):
        lines += [line.strip() for line in block.splitlines()]
    return sorted({line for line in lines if line.startswith("ofc ")})


def test_every_example_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    """Parsed as `ofc` parses it (not run): no example is refused as a usage error."""
    found = examples()
    assert "ofc simulate --tournament --players 6" in "\n".join(found)  # docs read too
    for line in found:
        try:
            build_parser().parse_args(shlex.split(line)[1:])
        except SystemExit:
            pytest.fail(f"{line}: {capsys.readouterr().err.strip()}")


def test_the_score_help_shows_a_hand_that_scores(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    shown = capsys.readouterr().out
    hand = json.loads(shown.split("for example:\n")[1].split('\n"players": 2 to 3')[0])
    result = score_sheet(hand)
    # By hand (R4, R5 under scoring 1-6): A wins the top (queens against ace high) and loses
    # the middle (nines and fives against tens and threes) and the bottom (a flush against a
    # full house): -1. Royalties: A 7 (QQ top) + 4 (flush bottom), B 6 (full house bottom):
    # +5. A scores +4, B -4.
    assert [p["points"] for p in result["players"]] == [4, -4]
    assert [p["royalties"] for p in result["players"]] == [11, 6]


def test_score_at_a_terminal_says_what_it_expects() -> None:
    terminal, other_end = pty.openpty()
    try:
        # Before, it waited for a JSON nobody was going to type: the timeout tells.
        done = subprocess.run([sys.executable, "-m", "bot.cli", "score"], stdin=other_end,
                              capture_output=True, text=True, timeout=120, check=False)
    finally:
        os.close(terminal)
        os.close(other_end)
    assert done.returncode == 2
    assert done.stdout == ""
    first, *rest = done.stderr.splitlines()
    assert first.startswith("ofc score: no input: give a JSON file")
    assert '"top": "Qh Qd 2c"' in "\n".join(rest)


def test_simulate_shows_the_last_hand_s_boards(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--hands", "2", "--seed", "3", "--ai", "strong,easy", "--playouts", "8"]
    assert main([*argv, "--json"]) == 0
    last = json.loads(capsys.readouterr().out)["last_hand"]
    assert main(argv) == 0
    text = capsys.readouterr().out.split("\n\nThe last hand: ")[1].splitlines()

    assert text[0] == f"match {last['match']}, seating {last['seating']}, hand {last['hand']}"
    seats = last["seats"]
    assert [s["ai"] for s in seats] == ["easy", "strong"]  # the second seating: swapped
    # The boards scored again by `ofc score`'s engine give what the table showed.
    again = score_sheet({"players": [{"name": str(s["seat"]), "top": s["top"],
                                      "middle": s["middle"], "bottom": s["bottom"]}
                                     for s in seats]})["players"]
    for seat, scored, lines in zip(seats, again, (text[1:5], text[5:9]), strict=True):
        assert (seat["points"], seat["fouled"]) == (scored["points"], scored["fouled"])
        assert seat["rows"] == [scored["rows"][r] for r in ("top", "middle", "bottom")]
        assert lines[0].startswith(f"seat {seat['seat']}, {seat['ai']}: "
                                   f"{seat['points']:+d} points, royalties "
                                   f"{scored['royalties']}")
        for line, row in zip(lines[1:], ("top", "middle", "bottom"), strict=True):
            assert line.split() == [row, *seat[row].split(), *scored["rows"][row].split(),
                                    str(scored["row_royalties"][row])]


@pytest.mark.parametrize(("hands", "says"), [(1, "1 deal per seating"), (2, "2 deals per seating")])
def test_simulate_counts_its_deals_in_the_singular_and_plural(
        capsys: pytest.CaptureFixture[str], hands: int, says: str) -> None:
    assert main(["simulate", "--hands", str(hands), "--seed", "3", "--ai", "easy"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == says


def _loaded_after(argv: list[str]) -> set[str]:
    """The modules a fresh `ofc ARGV` has imported by the time it is done."""
    program = ("import sys\nfrom bot.cli.ofc import main\ntry:\n    main(sys.argv[1:])\n"
               "except SystemExit:\n    pass\nprint(' '.join(sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", program, *argv], capture_output=True,
                          text=True, check=False, timeout=120)
    return set(done.stderr.splitlines()[-1].split())  # its last line: every module's name


# What only `ofc simulate`, `bench` and `audit` need: the table service and storage, Discord's
# library, the simulator.
HEAVY = ("bot.tables", "bot.storage", "discord", "bot.cli.simulate")


@pytest.mark.parametrize("argv", [["--help"], ["score", "HAND"], ["solve", "--help"]])
def test_a_subcommand_loads_only_what_it_runs(argv: list[str], tmp_path: Path) -> None:
    """`ofc --help`, `ofc score` and `ofc solve` do not wait for the modules of the other
    subcommands (about a second to load)."""
    hand = tmp_path / "hand.json"
    hand.write_text(SCORE_EXAMPLE, encoding="utf-8")
    loaded = _loaded_after([str(hand) if word == "HAND" else word for word in argv])
    assert "bot.cli.ofc" in loaded
    assert [m for m in loaded if m.startswith(HEAVY)] == []


@pytest.mark.parametrize("command", COMMANDS)
def test_a_subcommand_built_alone_parses_and_helps_as_among_all(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The parser `ofc COMMAND ...` builds (that subcommand's arguments only) shows the same
    help, and its subcommand the same help, as the parser with every subcommand's."""
    alone, every = build_parser([command, "--json"]), build_parser()
    assert alone.format_help() == every.format_help()
    helps = []
    for parser in (alone, every):
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        helps.append(capsys.readouterr().out)
    assert helps[0] == helps[1]
    assert "\nexamples:\n" in helps[0]


def test_the_offline_try_prints_what_the_docs_show(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md shows the output of the run `ofc-bot` suggests without a token; its figures
    had stayed those of the easy player before it learnt to avoid certain fouls. Only the time
    a decision takes depends on the machine."""
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = docs.split(f"```sh\n{TRY_OFFLINE}\n```\n\n```text\n")[1].split("```")[0]
    assert main(shlex.split(TRY_OFFLINE)[1:]) == 0
    printed = capsys.readouterr().out

    def without_timings(text: str) -> list[str]:
        return [line.rsplit(maxsplit=1)[0] if line.startswith(("strong ", "easy ")) else line
                for line in text.splitlines()]

    assert without_timings(printed) == without_timings(shown)


@pytest.mark.parametrize("shown_as", [
    "$ ofc solve ",  # the run is the block's first line, its output the rest
    "A tournament's report (`ofc simulate --tournament ",  # the run is named in the prose
])
def test_the_solve_and_tournament_examples_print_what_the_docs_show(
        shown_as: str, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's other outputs, neither of which depends on the machine: the solver is
    exact, and a tournament of easy computers is its seed's."""
    docs = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    after = docs.split(shown_as, 1)[1]
    if shown_as.startswith("$"):
        run, shown = after.split("\n", 1)
        argv = ["solve", *run.split()]
    else:
        run = after.split("`", 1)[0]
        argv = ["simulate", "--tournament", *" ".join(run.split()).split()]
        shown = after.split("```text\n", 1)[1]
    assert main(argv) == 0
    assert capsys.readouterr().out == shown.split("```", 1)[0]
