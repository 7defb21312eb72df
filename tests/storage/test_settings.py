"""Per-guild settings for /ofc-admin settings, and their audit trail."""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.rules import TableRules
from bot.storage import GuildSettings, InvalidInput, SettingsChange, Storage
from tests.storage.conftest import ADMIN, ALICE, BOB, GUILD


async def test_defaults_until_a_guild_overrides_them(storage: Storage) -> None:
    assert await storage.settings.guild_settings(GUILD) == GuildSettings(None, None, {})
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=1.0,
                                                 starting_chips=5000, daily_chips=50)
    assert (await storage.wallets.wallet(GUILD, ALICE, now=2.0)).balance == 5000
    assert (await storage.wallets.claim_daily(GUILD, ALICE, now=2.0)).amount == 50
    assert (await storage.wallets.wallet(GUILD + 1, ALICE, now=2.0)).balance == 1000  # other guild
    # back to the default: only wallets created afterwards start with it
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=3.0,
                                                 starting_chips=None)
    assert (await storage.wallets.wallet(GUILD, BOB, now=4.0)).balance == 1000
    assert (await storage.wallets.wallet(GUILD, ALICE, now=4.0)).balance == 5050


async def test_table_options_are_kept_and_every_change_is_audited(storage: Storage) -> None:
    options = TableRules.from_mapping({"variant": "turbo", "seats": 4}).to_dict()
    saved = await storage.settings.update_guild_settings(
        GUILD, actor_id=ADMIN, now=1.0, table_options={"variant": "turbo", "seats": 4})
    assert saved == GuildSettings(None, None, {"variant": "turbo", "seats": 4})
    assert TableRules.from_mapping(saved.table_options).to_dict() == options
    await storage.settings.update_guild_settings(GUILD, actor_id=ALICE, now=2.0, daily_chips=0,
                                                 table_options={"variant": "turbo", "seats": 4})
    assert await storage.settings.settings_audit(GUILD) == [
        SettingsChange(ALICE, "daily_chips", None, 0, 2.0),
        SettingsChange(ADMIN, "table_options", {}, {"variant": "turbo", "seats": 4}, 1.0),
    ]
    assert (await storage.settings.guild_settings(GUILD)).daily_chips == 0
    assert await storage.settings.settings_audit(GUILD + 1) == []


@pytest.mark.parametrize(
    "change",
    [
        {"starting_chips": -1},
        {"daily_chips": 1.5},
        {"table_options": ["variant", "turbo"]},
        {"table_options": {1: "x"}},
        {"table_options": {"when": object()}},
    ],
)
async def test_bad_settings_are_refused(storage: Storage, change) -> None:
    with pytest.raises(InvalidInput):
        await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=1.0, **change)
    assert await storage.settings.guild_settings(GUILD) == GuildSettings(None, None, {})
    assert await storage.settings.settings_audit(GUILD) == []


async def test_settings_are_read_once_and_a_change_is_read_at_once(storage: Storage) -> None:
    reads: list[bool] = []
    storage.observe_transactions(lambda write, _: reads.append(not write))
    first = await storage.settings.guild_settings(GUILD)
    assert await storage.settings.guild_settings(GUILD) == first == GuildSettings(None, None, {})
    assert reads == [True]  # the second came from memory
    first.table_options["variant"] = "turbo"  # a caller's copy: changes nothing kept
    assert (await storage.settings.guild_settings(GUILD)).table_options == {}
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=1.0, daily_chips=50,
                                                 table_options={"seats": 2})
    assert await storage.settings.guild_settings(GUILD) == GuildSettings(None, 50, {"seats": 2})
    assert reads == [True, False]  # the change's own transaction, then memory again
    with pytest.raises(InvalidInput):  # refused: nothing changes, in memory either
        await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=2.0, daily_chips=-1)
    assert await storage.settings.guild_settings(GUILD) == GuildSettings(None, 50, {"seats": 2})


def setting(name: str, value: object) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A change of one table option, made to the options as stored when it is written."""
    return lambda stored: {**stored, name: value}


async def test_changes_of_table_options_made_at_once_are_both_kept(storage: Storage) -> None:
    """Two admins, each changing one option: each change is applied to what is stored when
    it is written (under the settings' lock), so neither overwrites the other."""
    await asyncio.gather(
        storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=1.0,
                                               table_options=setting("turn_seconds", 30)),
        storage.settings.update_guild_settings(GUILD, actor_id=ALICE, now=1.0,
                                               table_options=setting("point_value", 3)))
    assert (await storage.settings.guild_settings(GUILD)).table_options == {
        "turn_seconds": 30, "point_value": 3}
    audit = await storage.settings.settings_audit(GUILD)
    assert sorted(len(c.new) - len(c.old) for c in audit) == [1, 1]  # one option each
    assert audit[0].new == {"turn_seconds": 30, "point_value": 3}


async def test_a_change_refused_by_its_check_changes_nothing(storage: Storage) -> None:
    await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=1.0,
                                                 table_options={"variant": "turbo"})

    def refuse(stored: dict[str, Any]) -> dict[str, Any]:
        raise InvalidInput(f"not over {' '.join(stored.values())}")

    with pytest.raises(InvalidInput, match="not over turbo"):
        await storage.settings.update_guild_settings(GUILD, actor_id=ADMIN, now=2.0,
                                                     daily_chips=5, table_options=refuse)
    assert await storage.settings.guild_settings(GUILD) == GuildSettings(
        None, None, {"variant": "turbo"})
    assert len(await storage.settings.settings_audit(GUILD)) == 1
