"""End-to-end figures (what a member waits for): how fast the bot answers each interaction while 50
tables play at once through the local Discord double (tests/e2e/load_run.py).

The double and its scripted members are test code (tests/e2e): bot/ does not import them
and they are not installed with the package. So this runs the load run as its own process
from the source checkout (`python -m tests.e2e.load_run --json`), which also measures in a
process free of whatever the other figures left behind (caches, threads).

- interaction_p50_ms / interaction_p99_ms: INTERACTION_CREATE dispatched -> the bot's
  callback (Discord allows 3,000 ms; the target is p99 under 250 ms);
- interaction_done_p99_ms: dispatched -> the bot's redrawn prompt or follow-up;
- interaction_cpu_ms: CPU time of the bot and its worker processes (images, computers'
  decisions) per interaction, in ms; interaction_bot_cpu_ms: the bot's process alone. Unlike
  the latencies, hardly spoiled by a busy machine;
- interaction_errors: unanswered interactions, refusals, logged errors, tables that did not
  settle by the rules (0 expected);
- interaction_strong_p99_ms / interaction_strong_done_p99_ms: the same p99s in a second run,
  right after the first, of 20 tables whose computer seat is `strong` (each of its decisions
  thinks up to 1 s of CPU): whether clicks stay fast while computers think. Its errors are
  added to interaction_errors.

And what a hand costs a player on a phone (taps and bytes, tests/e2e/ui_run.py: one hand of two
members by DM buttons):
- ui_taps_per_hand: buttons clicked (target at most 18);
- ui_dm_kb_per_hand: KB of images uploaded to a player's DMs (target at most 300);
- ui_dm_height_pt: the tallest prompt on a phone, in points, by the model in tests/phone.py:
  of the prompts the two members saw, and of every version of the seeded prompts over each
  language, seat count, variant, street, Fantasyland size and hints setting
  (tests/phone_prompts.py); target at most 640: one screen.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
TABLES = 50  # tables with an easy computer seat
STRONG_TABLES = 20  # tables with a strong computer seat
EASY_KEYS = {"interaction_p50_ms", "interaction_p99_ms", "interaction_done_p99_ms"}
CPU_KEYS = {"interaction_cpu_ms": "bot_tree_cpu_ms_per_interaction",
            "interaction_bot_cpu_ms": "bot_cpu_ms_per_interaction"}
STRONG_KEYS = {"interaction_strong_p99_ms", "interaction_strong_done_p99_ms"}


UI_KEYS = {"ui_taps_per_hand", "ui_dm_kb_per_hand", "ui_dm_height_pt"}


def _last_json(module: str, *args: str) -> dict[str, Any]:
    """Run `python -m module ... --json` from the checkout; its last line, as JSON."""
    if not (ROOT / "tests" / "e2e" / "load_run.py").is_file():
        raise RuntimeError("the end-to-end figures need the source checkout (tests/e2e)")
    done = subprocess.run([sys.executable, "-m", module, *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{module} failed:\n{done.stderr[-2000:]}")
    return dict(json.loads(lines[-1]))


def _load_run(tables: int, computer: str) -> dict[str, Any]:
    report = _last_json("tests.e2e.load_run", "--tables", str(tables), "--computer", computer)
    for error in report["errors"][:10]:  # what went wrong, for whoever reads the figures
        print(f"load run ({computer}): {error}", file=sys.stderr)
    return report


def run(keys: set[str]) -> dict[str, float]:
    figures: dict[str, float] = {}
    if keys & UI_KEYS:
        ui = _last_json("tests.e2e.ui_run")
        figures |= {key: float(ui[key]) for key in UI_KEYS & keys}
    if not keys - UI_KEYS:
        return figures
    errors = 0
    if keys & (EASY_KEYS | set(CPU_KEYS)) or "interaction_errors" in keys:
        report = _load_run(TABLES, "easy")
        errors += len(report["errors"])
        figures |= {key: float(report[key]) for key in EASY_KEYS}
        figures |= {key: float(report[field]) for key, field in CPU_KEYS.items()}
    if keys & STRONG_KEYS or "interaction_errors" in keys:
        report = _load_run(STRONG_TABLES, "strong")
        errors += len(report["errors"])
        figures["interaction_strong_p99_ms"] = float(report["interaction_p99_ms"])
        figures["interaction_strong_done_p99_ms"] = float(report["interaction_done_p99_ms"])
    figures["interaction_errors"] = float(errors)
    return {key: value for key, value in figures.items() if key in keys}
