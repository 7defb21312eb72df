"""Rendering figures: the table image (3 seats, mid-hand) and a private image, in ms (best of
many renders with warm card caches, as a live table has), and both PNGs' sizes in KB."""

import time
from collections.abc import Callable

from rendering import private_png, samples, table_png

RUNS = 30


def _best_ms(render: Callable[[], bytes]) -> float:
    render()  # warm the card-face caches, as after a table's first image
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        render()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run(keys: set[str]) -> dict[str, float]:
    match = samples.mid_hand(3)
    view = match.public_view()
    out: dict[str, float] = {}
    if "render_table_ms" in keys:
        out["render_table_ms"] = round(_best_ms(lambda: table_png(view)), 1)
    seat = match.pending()[0]
    private, draft = match.view_for(seat), samples.choice(match, seat)
    if "render_private_ms" in keys:
        out["render_private_ms"] = round(_best_ms(lambda: private_png(private, draft)), 1)
    if "render_table_kb" in keys:
        out["render_table_kb"] = round(len(table_png(view)) / 1024, 1)
    if "render_private_kb" in keys:
        out["render_private_kb"] = round(len(private_png(private, draft)) / 1024, 1)
    return out
