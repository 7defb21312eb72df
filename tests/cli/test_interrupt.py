"""Ctrl+C during `ofc simulate`: the terminal sends SIGINT to every process of the group, the
command's worker processes included. It stops quietly (no traceback from any of them) with the
shell's status for it, 130."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl+C ended


def _as_in_a_terminal() -> None:
    """A terminal's shell starts a command with SIGINT at its default. A test suite started in
    the background of a script (`cmd &`) has it ignored, and every process it starts inherits
    that, Python included (it then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_once_it_says(args: list[str], progress: bytes, wait: float) -> None:
    """Run `ofc simulate ARGS`, send Ctrl+C to its whole group once stderr shows PROGRESS,
    and check it ended quietly with 130. WAIT only bounds a wait that could never end."""
    run = subprocess.Popen([sys.executable, "-m", "bot.cli", "simulate", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True, preexec_fn=_as_in_a_terminal)
    assert run.stderr is not None
    seen = b""
    try:
        while progress not in seen:
            read = run.stderr.read(1)
            assert read, seen.decode()
            seen += read
        os.killpg(run.pid, signal.SIGINT)  # as Ctrl+C in a terminal: the whole group
        out, err = run.communicate(timeout=wait)  # stderr closes once every worker is gone
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    errors = (seen + err).decode()
    assert run.returncode == INTERRUPTED, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert out == b""


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_simulation_quietly_with_status_130(workers: int) -> None:
    # once the first match is played: the workers are at work
    interrupt_once_it_says(["--hands", "300", "--ai", "easy,easy", "--seed", "1",
                            "--workers", str(workers)], b"1/", 300)


def test_ctrl_c_ends_a_match_under_way_in_a_worker_at_once(tmp_path: Path) -> None:
    """A worker is held in the middle of a match (its first showdown image is written to a
    named pipe no one reads, so that match cannot end by itself) while the first match is
    played: Ctrl+C ends the held match too, rather than wait for it to finish."""
    os.mkfifo(tmp_path / "match0002-seating1-hand001.png")
    # "1/3": the first match is played, the second is held
    interrupt_once_it_says(["--hands", "30", "--ai", "easy,easy", "--seed", "1", "--workers",
                            "2", "--images", str(tmp_path)], b"1/3", 120)
