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


def nap_then_pid(marker: str, seconds: float) -> int:
    """Say it started (a file), sleep, return the worker's pid."""
    Path(marker).write_text(str(os.getpid()))
    time.sleep(seconds)
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def fail() -> None:
    raise ValueError("no such card")


def budget(*, seconds: float) -> float:
    return seconds


def log_order(path: str, label: str) -> str:
    with open(path, "a") as out:
        out.write(label + "\n")
    return label
