"""`ofc bench`: each area registers the figures it measures and the module that measures them.

A module named here exposes `run(keys: set[str]) -> dict[str, float]` and measures only the
keys asked for, so `ofc bench --only KEY` does just that work.
"""

import importlib

# figure key -> module that measures it (imported only when one of its keys is asked for)
FIGURES: dict[str, str] = {
    "eval5_per_s": "bot.cli.bench.engine",
    "score_hand_per_s": "bot.cli.bench.engine",
    "hand_playout_per_s": "bot.cli.bench.match",
    "settle_per_s": "bot.cli.bench.storage",
    "settle_per_s_pg": "bot.cli.bench.storage",
    "service_actions_per_s": "bot.cli.bench.tables",
    "service_actions_per_s_pg": "bot.cli.bench.tables",
    "db_writes_per_hand": "bot.cli.bench.tables",
    "db_reads_per_hand": "bot.cli.bench.tables",
    "solve14_mean_ms": "bot.cli.bench.ai",
    "solve14_max_ms": "bot.cli.bench.ai",
    "solve17_mean_ms": "bot.cli.bench.ai",
    "solve17_max_ms": "bot.cli.bench.ai",
    "solve_joker_mean_ms": "bot.cli.bench.ai",
    "solve_joker_max_ms": "bot.cli.bench.ai",
    "ai_strong_decision_ms": "bot.cli.bench.ai",
    "ai_strong_decision_max_ms": "bot.cli.bench.ai",
    "ai_playouts_per_s": "bot.cli.bench.ai",
    "ai_v1_playouts_per_s": "bot.cli.bench.ai",
    "ai_playouts_speedup": "bot.cli.bench.ai",
    "ai_easy_decision_ms": "bot.cli.bench.ai",
    "review_hand_ms": "bot.cli.bench.coach",
    "review_hand_max_ms": "bot.cli.bench.coach",
    "render_table_ms": "bot.cli.bench.rendering",
    "render_private_ms": "bot.cli.bench.rendering",
    "render_table_kb": "bot.cli.bench.rendering",
    "render_private_kb": "bot.cli.bench.rendering",
    "interaction_p50_ms": "bot.cli.bench.e2e",
    "interaction_p99_ms": "bot.cli.bench.e2e",
    "interaction_done_p99_ms": "bot.cli.bench.e2e",
    "interaction_cpu_ms": "bot.cli.bench.e2e",
    "interaction_bot_cpu_ms": "bot.cli.bench.e2e",
    "interaction_strong_p99_ms": "bot.cli.bench.e2e",
    "interaction_strong_done_p99_ms": "bot.cli.bench.e2e",
    "interaction_errors": "bot.cli.bench.e2e",
    "ui_taps_per_hand": "bot.cli.bench.e2e",
    "ui_dm_kb_per_hand": "bot.cli.bench.e2e",
    "ui_dm_height_pt": "bot.cli.bench.e2e",
}


def run(keys: list[str] | None = None) -> dict[str, float]:
    """Measure `keys` (all figures when None), in the order of FIGURES."""
    wanted = list(FIGURES) if keys is None else keys
    unknown = [k for k in wanted if k not in FIGURES]
    if unknown:
        raise KeyError(unknown[0])
    results: dict[str, float] = {}
    for module_name in dict.fromkeys(FIGURES[k] for k in wanted):
        module = importlib.import_module(module_name)
        mine = {k for k in wanted if FIGURES[k] == module_name}
        results.update(module.run(mine))
    return {k: results[k] for k in FIGURES if k in results}
