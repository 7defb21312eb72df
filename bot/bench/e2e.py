"""End-to-end figures (issue 8, part 4): how fast the bot answers each interaction while 50
tables play at once through the local Discord double (tests/e2e/load_run.py).

The double and its scripted members are test code (tests/e2e): bot/ does not import them
and they are not installed with the package. So this runs the load run as its own process
from the source checkout (`python -m tests.e2e.load_run --json`), which also measures in a
process free of whatever the other figures left behind (caches, threads).

- interaction_p50_ms / interaction_p99_ms: INTERACTION_CREATE dispatched -> the bot's
  callback (Discord allows 3,000 ms; the target is p99 under 250 ms);
- interaction_done_p99_ms: dispatched -> the bot's redrawn prompt or follow-up;
- interaction_errors: unanswered interactions, refusals, logged errors, tables that did not
  settle by the rules (0 expected).
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLES = 50


def run(keys: set[str]) -> dict[str, float]:
    if not (ROOT / "tests" / "e2e" / "load_run.py").is_file():
        raise RuntimeError("the end-to-end figures need the source checkout (tests/e2e)")
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e.load_run", "--tables", str(TABLES), "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"the load run failed:\n{done.stderr[-2000:]}")
    report = json.loads(lines[-1])
    for error in report["errors"][:10]:  # what went wrong, for whoever reads the figures
        print(f"load run: {error}", file=sys.stderr)
    figures = {
        "interaction_p50_ms": float(report["interaction_p50_ms"]),
        "interaction_p99_ms": float(report["interaction_p99_ms"]),
        "interaction_done_p99_ms": float(report["interaction_done_p99_ms"]),
        "interaction_errors": float(len(report["errors"])),
    }
    return {key: value for key, value in figures.items() if key in keys}
