"""Issue 14's targets for one normal hand played by DM buttons (tests/e2e/ui_run.py): at most
18 taps (6 on street 1, 3 on each later street) and at most 300 KB of images per player."""

from tests.e2e.ui_run import ui_run


async def test_a_normal_hand_takes_18_taps_and_under_300_kb_of_images() -> None:
    figures = await ui_run()
    assert figures["ui_taps_per_hand"] <= 18
    assert figures["ui_dm_kb_per_hand"] <= 300
