"""`quiet_collector` (bot/app.py): what `ofc-bot` does to Python's garbage collector at
start-up, checked in a process of its own (it changes the whole process)."""

import subprocess
import sys

CHECK = """
import gc
from bot.app import quiet_collector
assert gc.get_freeze_count() == 0 and gc.get_threshold() == (700, 10, 10)
quiet_collector()
print(gc.get_freeze_count() > 1000, gc.get_threshold(), gc.get_count()[0] < 100)
"""


def test_start_up_objects_are_frozen_and_young_objects_collected_less_often() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "(10000,", "10,", "10)", "True"]
