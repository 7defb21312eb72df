"""The phone targets for one normal hand played by DM buttons (tests/e2e/ui_run.py): at most
18 taps (6 on street 1, 3 on each later street), at most 300 KB of images per player, and
every prompt the hand showed one phone screen tall (tests/phone.py; every other version of the
prompt is measured by tests/cogs/test_dm_height.py)."""

from tests.e2e.ui_run import ui_run
from tests.phone import USABLE


async def test_a_normal_hand_takes_18_taps_under_300_kb_and_fits_a_phone() -> None:
    figures = await ui_run(matrix=False)
    assert figures["ui_taps_per_hand"] <= 18
    assert figures["ui_dm_kb_per_hand"] <= 300
    assert 0 < figures["ui_dm_height_pt"] <= USABLE
