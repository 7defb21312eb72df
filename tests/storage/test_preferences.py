"""Players' preferences (migration 5): defaults until chosen, kept per player across
servers, each field changed on its own, bad values refused."""


import pytest

from bot.storage import InvalidInput, Preferences, Storage
from bot.storage.preferences import KEPT_SECONDS

ALICE = 111
BOB = 222


async def test_preferences_default_then_change_one_field_at_a_time(database: str) -> None:
    storage = await Storage.open(database)
    try:
        assert await storage.preferences.preferences(ALICE) == Preferences(four_colour=False,
                                                                            controls="dm")
        assert await storage.preferences.set_preferences(ALICE, now=1.0, four_colour=True) == \
            Preferences(True, "dm")
        assert await storage.preferences.set_preferences(ALICE, now=2.0, controls="channel") == \
            Preferences(True, "channel")
        assert await storage.preferences.preferences(ALICE) == Preferences(True, "channel")
        with pytest.raises(InvalidInput):
            await storage.preferences.set_preferences(ALICE, now=3.0, controls="carrier pigeon")
    finally:
        await storage.close()
    again = await Storage.open(database)  # kept on disk
    try:
        assert await again.preferences.preferences(ALICE) == Preferences(True, "channel")
    finally:
        await again.close()


async def test_locales_of_several_players_in_one_transaction(database: str) -> None:
    storage = await Storage.open(database)
    written: list[bool] = []
    storage.observe_transactions(lambda write, _: written.append(write))
    try:
        await storage.preferences.set_locales([(ALICE, "ru", 1.0), (BOB, "sv-SE", 1.0)])
        assert written == [True]
        assert (await storage.preferences.preferences(ALICE)).locale == "ru"
        assert (await storage.preferences.preferences(BOB)).locale == "sv-SE"
        # changed: the last one counts
        await storage.preferences.set_locales([(ALICE, "zh-CN", 2.0)])
        assert (await storage.preferences.preferences(ALICE)).locale == "zh-CN"
        with pytest.raises(InvalidInput):  # one bad entry: none of them is written
            await storage.preferences.set_locales([(BOB, "en-US", 3.0), (ALICE, "", 3.0)])
        assert (await storage.preferences.preferences(BOB)).locale == "sv-SE"
        assert (await storage.preferences.preferences(ALICE)).locale == "zh-CN"
    finally:
        await storage.close()


async def test_preferences_are_read_once_a_while_and_a_change_shows_at_once(
        database: str) -> None:
    storage = await Storage.open(database)
    other = await Storage.open(database)  # another process sharing the database
    clock = [100.0]
    storage.preferences.monotonic = lambda: clock[0]
    reads: list[bool] = []
    storage.observe_transactions(lambda write, _: reads.append(write))
    try:
        assert await storage.preferences.preferences(ALICE) == Preferences()
        assert await storage.preferences.preferences(ALICE) == Preferences()  # every prompt asks
        assert reads == [False]
        await storage.preferences.set_preferences(ALICE, now=1.0, four_colour=True)
        await storage.preferences.set_locales([(ALICE, "ru", 2.0)])
        assert await storage.preferences.preferences(ALICE) == Preferences(True, "dm", "ru")
        assert reads == [False, True, True]  # this process's changes, kept as committed
        await other.preferences.set_preferences(ALICE, now=3.0, controls="channel")
        clock[0] += KEPT_SECONDS - 1
        assert (await storage.preferences.preferences(ALICE)).controls == "dm"
        clock[0] += 1  # another process's change shows once what is kept is this old
        assert await storage.preferences.preferences(ALICE) == Preferences(True, "channel", "ru")
        assert reads == [False, True, True, False]
    finally:
        await storage.close()
        await other.close()
