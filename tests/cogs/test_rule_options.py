"""The table options offered by `/ofc create` come from the engine's option lists."""

from cogs.common.options import CHOICE


def test_royalties_can_be_turned_off_from_ofc_create() -> None:
    # R4: seed 000 "Royalties are optional".
    assert [c.value for c in CHOICE["royalties"]] == ["american", "russian", "off"]
