"""Tasks the worker pool tests run in worker processes (importable by name there)."""

import os
import signal
import time
from pathlib import Path


def pid() -> int:
    return os.getpid()


def nap(seconds: float, result: object = None) -> object:
    time.sleep(seconds)
    return result


def held(marker: str, release: str) -> int:
    """Say it started (the marker file holds the worker's pid), wait until the test creates
    `release` (a minute at most), return the worker's pid."""
    Path(marker).write_text(str(os.getpid()))
    give_up = time.monotonic() + 60
    while not Path(release).exists() and time.monotonic() < give_up:
        time.sleep(0.01)
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def die_holding(history: object, player: int) -> None:
    """Dies like `die`, given a hand's history as the coach's review is."""
    die()


def fail() -> None:
    raise ValueError("no such card")


def budget(*, seconds: float) -> float:
    return seconds


def log_order(path: str, label: str) -> str:
    with open(path, "a") as out:
        out.write(label + "\n")
    return label


def palette_built() -> bool:
    """Whether this process found the images' palette already built (nothing drawn here)."""
    from rendering import palette

    return palette.fixed.cache_info().currsize == 1


def interrupted() -> int:
    """Ctrl+C in a terminal, as it reaches every process of the bot's group; then the pid."""
    os.kill(os.getpid(), signal.SIGINT)
    return os.getpid()
