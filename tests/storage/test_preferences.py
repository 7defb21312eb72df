"""Players' preferences (migration 5): defaults until chosen, kept per player across
servers, each field changed on its own, bad values refused."""


import pytest

from bot.storage import InvalidInput, Preferences, Storage

ALICE = 111
BOB = 222


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


async def test_locales_of_several_players_in_one_transaction(database: str) -> None:
    storage = await Storage.open(database)
    written: list[bool] = []
    storage.observe_transactions(lambda write, _: written.append(write))
    try:
        await storage.set_locales([(ALICE, "ru", 1.0), (BOB, "sv-SE", 1.0)])
        assert written == [True]
        assert (await storage.preferences(ALICE)).locale == "ru"
        assert (await storage.preferences(BOB)).locale == "sv-SE"
        await storage.set_locales([(ALICE, "zh-CN", 2.0)])  # changed: the last one counts
        assert (await storage.preferences(ALICE)).locale == "zh-CN"
        with pytest.raises(InvalidInput):  # one bad entry: none of them is written
            await storage.set_locales([(BOB, "en-US", 3.0), (ALICE, "", 3.0)])
        assert (await storage.preferences(BOB)).locale == "sv-SE"
        assert (await storage.preferences(ALICE)).locale == "zh-CN"
    finally:
        await storage.close()
