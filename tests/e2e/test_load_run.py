"""The load run (tests/e2e/load_run.py): tables playing at once through the Discord double
against the bot in its own process. The default run plays 5 tables (quick: no computer pause,
members clicking as soon as they see a change, 1x1 images); `-m slow` plays 50 with the
bot's default settings and real images. Timing is `ofc bench`'s (interaction_p99_ms, and
Discord's 3 s deadline, which the bench holds), not a test's: here the double waits for a
callback as long as any test waits, and every table must play to its end, settle by the rules,
with zero errors."""

import pytest

from tests.e2e.discord_double import PATIENCE
from tests.e2e.load_run import load_run, per_interaction

# /ofc create, Join, Add computer, Start; then each of 2 members: street 1 five placements
# and Confirm, streets 2-5 two placements and Confirm (R7; the discard takes no click:
# fewer taps), and at most once a hand a second Confirm, for the street whose draft makes the board
# foul (the members fill their rows bottom up, which often fouls).
PER_TABLE = 4 + 2 * (5 + 1 + 4 * (2 + 1))
MOST_PER_TABLE = PER_TABLE + 2


async def test_five_tables_at_once_play_to_the_end_without_errors() -> None:
    report = await load_run(5, think=0.02, ai_delay=0, stub_rendering=True, deadline=PATIENCE)
    assert report.errors == []
    assert 5 * PER_TABLE <= report.interactions <= 5 * MOST_PER_TABLE
    # CPU per interaction, beside the latencies: the bot's, then with its workers'
    assert report.bot_cpu_ms_per_interaction == per_interaction(report.bot_cpu_seconds,
                                                                report.interactions)
    assert 0 < report.bot_cpu_ms_per_interaction <= report.bot_tree_cpu_ms_per_interaction


@pytest.mark.slow
async def test_fifty_tables_at_once_play_to_the_end_without_errors() -> None:
    report = await load_run(50, deadline=PATIENCE)
    assert report.errors == []
    assert 50 * PER_TABLE <= report.interactions <= 50 * MOST_PER_TABLE
