"""Per-guild settings for /ofc-admin settings, and their audit trail."""

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
