"""Players' preferences (issue 14, migration 4): defaults until chosen, kept per player across
servers, each field changed on its own, bad values refused."""


import pytest

from bot.storage import InvalidInput, Preferences, Storage

ALICE = 111


async def test_preferences_default_then_change_one_field_at_a_time(database: str) -> None:
    storage = await Storage.open(database)
    try:
        assert await storage.preferences(ALICE) == Preferences(four_colour=False, controls="dm")
        assert await storage.set_preferences(ALICE, now=1.0, four_colour=True) == \
            Preferences(True, "dm")
        assert await storage.set_preferences(ALICE, now=2.0, controls="channel") == \
            Preferences(True, "channel")
        assert await storage.preferences(ALICE) == Preferences(True, "channel")
        with pytest.raises(InvalidInput):
            await storage.set_preferences(ALICE, now=3.0, controls="carrier pigeon")
    finally:
        await storage.close()
    again = await Storage.open(database)  # kept on disk
    try:
        assert await again.preferences(ALICE) == Preferences(True, "channel")
    finally:
        await again.close()
