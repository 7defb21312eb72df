"""`ofc`'s usage errors: one line on stderr naming the subcommand, exit 2, nothing run."""

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import main as ofc_bot
from bot.cli import main
from bot.cli.ofc import SCORE_EXAMPLE
from bot.storage import Storage

FANTASY_HAND = ["As", "Ks", "Qs", "Js", "Ts", "5h", "6d", "7c", "8h", "9d", "2h", "2d", "2c",
                "3c"]


def assert_one_usage_line(command: Callable[[list[str]], object], argv: list[str], line: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """A usage error: exit 2, nothing on stdout, one line on stderr starting with `line`."""
    with pytest.raises(SystemExit) as stop:
        command(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [err.strip()]
    assert err.startswith(line), err


@pytest.mark.parametrize(("argv", "line"), [
    (["bench", "--only", "nope"], "ofc bench: unknown figure nope (known: eval5_per_s,"),
    (["simulate", "--hands", "x"], "ofc simulate: argument --hands: invalid"),
    (["solve", "As", "--stay-value", "x"], "ofc solve: argument --stay-value: invalid"),
    (["nope"], "ofc: argument command: invalid choice: 'nope'"),
    (["solve", *FANTASY_HAND, "--bogus"], "ofc solve: unrecognized arguments: --bogus"),
    (["score", "a.json", "b.json"], "ofc score: unrecognized arguments: b.json"),
    # Options that cannot go together, or name nothing, would be ignored without a word.
    (["simulate", "--hands", "1", "--ai", "easy", "--playouts", "5", "--seconds", "1"],
     "ofc simulate: argument --seconds: not allowed with argument --playouts"),
    (["bench", "--only", ","], "ofc bench: --only names no figure (known: eval5_per_s,"),
    # A number that is not one (nan, inf) would reach the search's arithmetic: refused first.
    (["solve", *FANTASY_HAND, "--stay-value", "nan"],
     "ofc solve: argument --stay-value: invalid number value: 'nan'"),
    (["simulate", "--hands", "1", "--ai", "easy", "--seconds", "inf"],
     "ofc simulate: argument --seconds: invalid number value: 'inf'"),
    (["simulate", "--hands", "1", "--ai", "easy", "--stay-value", "nan"],
     "ofc simulate: argument --stay-value: invalid number value: 'nan'"),
])
def test_usage_error_names_the_subcommand(argv: list[str], line: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_usage_line(main, argv, line, capsys)


@pytest.mark.parametrize("content", [b"", b"not a database at all"])
def test_audit_of_a_file_that_is_no_bot_database_changes_nothing(
        content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped path to an empty file (a failed copy, a `touch`) is not audited as a bot's
    database with no chips in it ("ok"): opening it would write the bot's tables into it."""
    path = tmp_path / "restored.sqlite3"
    path.write_bytes(content)
    assert main(["audit", "--database", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith(f"ofc audit: {path} is not a database of this bot"), line
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["restored.sqlite3"]


@pytest.mark.parametrize(("argv", "line"), [
    (["--shard-count", "x"], "ofc-bot: argument --shard-count: invalid int value: 'x'"),
    (["--bogus"], "ofc-bot: unrecognized arguments: --bogus"),
    (["backup"], "ofc-bot backup: the following arguments are required: PATH"),
    (["backup", "copy.sqlite3", "--bogus"], "ofc-bot backup: unrecognized arguments: --bogus"),
    (["migrate-db", "--from", "ofc.sqlite3"],
     "ofc-bot migrate-db: the following arguments are required: --to"),
])
def test_ofc_bot_usage_errors_are_one_line_too(argv: list[str], line: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The admins' `ofc-bot` as `ofc`: one line naming the command, no usage block."""
    assert_one_usage_line(ofc_bot, argv, line, capsys)


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="no /sys here (not Linux)")
def test_simulate_refuses_an_images_folder_it_cannot_write_in_before_playing(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Refused at once, not a traceback once every hand was played: sysfs takes no new
    files, whoever asks (root included)."""
    assert main(["simulate", "--hands", "1", "--ai", "easy", "--images", "/sys"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("ofc simulate: cannot write in /sys: "), line


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line `ofc argv` refuses with (exit 2, nothing on stdout), whether the command
    returns its status or argparse stops it."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    [line] = err.splitlines()
    return line


@pytest.mark.parametrize(("argv", "start"), [
    # Each command's own refusals and argparse's alike end their sentence, as the engine's
    # ("'Zz' is not a card.") always did.
    (["score", "/nonexistent/hand.json"], "ofc score: cannot read /nonexistent/hand.json: "),
    (["score", "{bad"], "ofc score: bad JSON: "),
    (["score", "{}"], "ofc score: 'players' must be a list of objects"),
    (["solve", *FANTASY_HAND, "--stay-value", "-1"], "ofc solve: the stay value cannot be"),
    (["solve", *FANTASY_HAND, "--rules", "variant"], "ofc solve: 'variant' is not an option"),
    (["solve", *FANTASY_HAND, "--bogus"], "ofc solve: unrecognized arguments: --bogus"),
    (["simulate", "--hands", "0", "--ai", "easy"], "ofc simulate: --hands "),
    (["simulate", "--ai", "nope"], "ofc simulate: 'nope' is not a computer level"),
    (["simulate", "--ai", "easy", "--images", "/nonexistent"], "ofc simulate: /nonexistent"),
    (["simulate", "--ai", "easy", "--hands", "x"], "ofc simulate: argument --hands: invalid"),
    (["fantasy-value", "--sizes", "12"], "ofc fantasy-value: sizes are 13 to 17 cards"),
    (["fantasy-value", "--sizes", "x"], "ofc fantasy-value: --sizes takes card counts"),
    (["bench", "--only", "nope"], "ofc bench: unknown figure nope"),
    (["audit", "--database", "/nonexistent/ofc.sqlite3"], "ofc audit: There is no database"),
    (["nope"], "ofc: argument command: invalid choice: 'nope'"),
])
def test_every_refusal_is_one_sentence(argv: list[str], start: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    if argv[0] == "score" and not argv[1].startswith("/"):  # the JSON, written to a file
        (tmp_path / "hand.json").write_text(argv[1], encoding="utf-8")
        argv = ["score", "hand.json"]
    line = refusal(argv, capsys)
    assert line.startswith(start), line
    assert line.endswith("."), line


@pytest.mark.parametrize(("argv", "line"), [
    # A number of deals no run could play: before, it was taken, and the run set out to list
    # every match before the first, filling the memory.
    (["simulate", "--ai", "easy", "--hands", str(10**22)],
     "ofc simulate: --hands is 1 to 100,000."),
    (["simulate", "--ai", "easy", "--hands", "100001"], "ofc simulate: --hands is 1 to 100,000."),
    (["fantasy-value", "--hands", str(10**22)],
     "ofc fantasy-value: --hands is 2 to 100,000 and --playouts at least 1."),
])
def test_a_number_of_hands_out_of_range_is_refused(argv: list[str], line: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert refusal(argv, capsys) == line


@pytest.mark.parametrize("option", ["seats=3", "hands=5", "format=cash", "buy_in=5"])
@pytest.mark.parametrize("mode", [[], ["--tournament", "--players", "4", "--seats", "2"]])
def test_simulate_refuses_a_table_option_it_sets_itself(
        option: str, mode: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The run sets these (seats from --players, deep stacks, a short match of --hands):
    given in --rules they were ignored without a word, the run playing something else than
    asked."""
    line = refusal(["simulate", *mode, "--hands", "1", "--ai", "easy", "--rules", option],
                   capsys)
    assert line == (f"ofc simulate: --rules cannot set {option.split('=')[0]}: the simulation "
                    "sets seats (--players, --seats), hands (--hands), format and buy_in.")


@pytest.mark.parametrize("command", [["solve", *FANTASY_HAND], ["simulate", "--ai", "easy"],
                                     ["fantasy-value"]])
def test_an_option_given_twice_is_refused(command: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`--rules variant=joker variant=turbo`: the last one won without a word, so a script
    that built its options in two places played rules it did not see."""
    line = refusal([*command, "--rules", "scoring=2-4", "--rules", "scoring=1-6"], capsys)
    assert line.endswith(": --rules gives scoring twice."), line


def test_fantasy_value_refuses_a_size_given_twice(capsys: pytest.CaptureFixture[str]) -> None:
    """`--sizes 14,14` measured the size twice over, the same deals, for two equal rows."""
    assert refusal(["fantasy-value", "--sizes", "14,15,14"], capsys) == (
        "ofc fantasy-value: --sizes gives 14 twice.")


def test_audit_reads_its_database_from_the_settings_file_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`ofc audit --env-file PATH` audits the database PATH's OFC_DATABASE names, as
    `ofc-bot --env-file PATH` runs on it."""
    database = tmp_path / "prod.sqlite3"

    async def create() -> None:
        await (await Storage.open(str(database))).close()

    asyncio.run(create())
    settings = tmp_path / "prod.env"
    settings.write_text(f"OFC_DATABASE={database}\n", encoding="utf-8")
    monkeypatch.delenv("OFC_DATABASE", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./.env here
    assert main(["audit", "--env-file", str(settings)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == f"audit of {database}" and err == ""


def test_audit_refuses_a_settings_file_named_but_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in --env-file is not an audit of the default database (a new, empty one: 'ok'
    over no chips at all)."""
    monkeypatch.delenv("OFC_DATABASE", raising=False)
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "prod.env"
    assert main(["audit", "--env-file", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"ofc audit: the settings file {missing} does not exist.\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("command", "argv", "line"), [
    (main, ["audit", "--database", ""], "ofc audit: argument --database: names nothing"),
    (main, ["audit", "--env-file", ""], "ofc audit: argument --env-file: names nothing"),
    (main, ["simulate", "--hands", "1", "--database", ""],
     "ofc simulate: argument --database: names nothing"),
    (main, ["simulate", "--hands", "1", "--images", ""],
     "ofc simulate: argument --images: names nothing"),
    (ofc_bot, ["backup", "--database", "", "copy.sqlite3"],
     "ofc-bot backup: argument --database: names nothing"),
    (ofc_bot, ["migrate-db", "--from", "", "--to", "postgresql://x@/y"],
     "ofc-bot migrate-db: argument --from: names nothing"),
    (ofc_bot, ["--env-file", ""], "ofc-bot: argument --env-file: names nothing"),
    (ofc_bot, ["backup", ""], "ofc-bot backup: argument PATH: names nothing"),
    (ofc_bot, ["--export-commands", ""], "ofc-bot: argument --export-commands: names nothing"),
    (main, ["score", ""], "ofc score: argument file: names nothing"),
])
def test_an_empty_file_or_database_name_is_refused_not_read_as_the_default(
        command: Callable[[list[str]], object], argv: list[str], line: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--database "$DB"` with DB unset arrives as an empty name: taken as no option at all,
    it audited or backed up the default database (an 'ok' about another one), played on a
    throwaway one, or saved no images, without a word."""
    monkeypatch.delenv("OFC_DATABASE", raising=False)
    monkeypatch.chdir(tmp_path)

    async def create() -> None:
        await (await Storage.open(str(tmp_path / "ofc.sqlite3"))).close()

    asyncio.run(create())  # the default database, which an empty name must not fall back to
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_one_usage_line(command, argv, line, capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


SCORED_HAND = ('{"button": 1, "players": [{"name": "A", "top": "Qh Qd 2c", "middle": '
               '"5s 5d 9c 9h Kd", "bottom": "2h 3h 4h 5h 7h"}, {"name": "B", "top": '
               '"Ah Kc 2s", "middle": "Ts Td Jc 3s 3c", "bottom": "As Ad Ac 7d 7c"}]}')


def test_score_refuses_an_input_past_a_megabyte_instead_of_reading_it_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One hand's JSON is a few hundred bytes; `ofc score /dev/zero`, or a log named by
    mistake, was read whole into memory (endlessly, for /dev/zero) before any word."""
    hand = tmp_path / "hand.json"
    hand.write_text(SCORED_HAND + " " * 1_000_000, encoding="utf-8")  # valid JSON, too big
    assert refusal(["score", str(hand)], capsys) == \
        "ofc score: the input is larger than 1 MB: one hand's JSON is a few hundred bytes."
    hand.write_text(SCORED_HAND + " " * (1_000_000 - len(SCORED_HAND)), encoding="utf-8")
    assert main(["score", str(hand)]) == 0  # 1 MB exactly is read


@pytest.mark.parametrize(("argv", "line"), [
    # A tournament's entries take --ai's levels in turn: a level past the last entry would
    # never play, and the run report levels nobody asked for without a word.
    (["simulate", "--tournament", "--players", "2", "--ai", "easy,strong,strong"],
     "ofc simulate: --ai names 3 levels but the tournament has 2 players."),
    # The table run refuses a negative stay value: the tournament run took it.
    (["simulate", "--tournament", "--players", "4", "--ai", "easy", "--stay-value", "-5"],
     "ofc simulate: the stay value cannot be negative."),
    # --seats sizes a tournament's tables; without --tournament it was ignored without a word.
    (["simulate", "--ai", "easy", "--hands", "1", "--seats", "2"],
     "ofc simulate: --seats sizes a tournament's tables: give --tournament, or --players "
     "for one table."),
])
def test_simulate_refuses_what_its_run_would_ignore(argv: list[str], line: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert refusal(argv, capsys) == line


def test_no_standard_output_at_all_is_one_line() -> None:
    """Run with standard output closed (`ofc score hand.json >&-`): Python has no sys.stdout,
    so the result went nowhere, then flushing it was an AttributeError traceback."""
    done = subprocess.run([sys.executable, "-m", "bot.cli", "score", "-"], input=SCORE_EXAMPLE,
                          stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1),
                          check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["ofc score: there is no standard output to write to."]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["score", "-"], ["solve", *FANTASY_HAND]])
def test_an_output_that_cannot_be_written_is_one_line(argv: list[str]) -> None:
    """`ofc score hand.json > result.json` on a full disk (/dev/full refuses every write with
    ENOSPC): it was an OSError traceback."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-m", "bot.cli", *argv], input=SCORE_EXAMPLE,
                              stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"ofc {argv[0]}: cannot write the output: No space left on device."]


@pytest.mark.parametrize("workers", [1, 2])
def test_an_image_that_cannot_be_saved_is_one_line(workers: int, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The folder is checked before playing, but a showdown's image can still fail to be
    saved (a full disk; here a folder in the way of its name): that was an OSError
    traceback, from a worker process too."""
    images = tmp_path / "showdowns"
    images.mkdir()
    (images / "match0001-seating1-hand001.png").mkdir()
    assert main(["simulate", "--hands", "1", "--ai", "easy", "--workers", str(workers),
                 "--images", str(images)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"ofc simulate: cannot save {images}/match0001-seating1-"
                                "hand001.png: Is a directory."]
