"""The economy commands on both databases: tests/cogs' bot on an SQLite file and on
PostgreSQL (`database`, tests/backends.py: OFC_DATABASE a postgresql:// URL), against the
local Discord double: synced commands, Discord's own permission gate on /ofc-admin, ephemeral
answers, the /ofc history menus."""

import time

import pytest

from bot.app import OFCBot
from tests.backends import database as database  # each test on both backends
from tests.cogs.economy.test_history_stats import line, record_match
from tests.e2e.discord_double import ComponentError, DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD


async def test_daily_balance_and_a_grant_as_a_member_sees_them(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        bob: Member) -> None:
    claimed = await double.resolved(await alice.slash("ofc daily"))
    assert claimed.ephemeral and claimed.embed["title"] == "Daily chips"
    assert "**+200 chips**" in claimed.embed["description"]
    again = await double.resolved(await alice.slash("ofc daily"))
    assert again.ephemeral and "You can claim again in 20 h." in again.embed["description"]

    # Discord itself hides /ofc-admin from members without Manage Server; one who sends it
    # anyway (a modified client) is refused by the command's own check, and no chip moves.
    with pytest.raises(ComponentError, match="hidden"):
        await bob.slash("ofc-admin grant", member=alice, amount=100, reason="friends")
    forged = await double.resolved(
        await bob.forge_slash("ofc-admin grant", member=alice, amount=100, reason="friends"))
    assert forged.ephemeral and "Manage Server" in forged.embed["description"]
    granted = await double.resolved(
        await croupier.slash("ofc-admin grant", member=alice, amount=300, reason="welcome"))
    assert not granted.ephemeral
    assert "1,500 chips" in granted.embed["description"]
    shown = await double.resolved(await alice.slash("ofc balance"))
    assert shown.ephemeral and "**1,500 chips**" in shown.embed["description"]
    # A correction takes chips back, never below 0.
    corrected = await double.resolved(
        await croupier.slash("ofc-admin correct", member=alice, amount=-200, reason="welcome x2"))
    assert "It now holds 1,300 chips." in corrected.embed["description"]
    refused = await double.resolved(
        await croupier.slash("ofc-admin correct", member=alice, amount=-1301, reason="all"))
    assert refused.ephemeral and "holds 1,300 chips" in refused.embed["description"]


async def test_history_menus_open_a_match_then_a_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    match_id = await record_match(
        bot.storage, [[line(alice.id, 6, 6, scoops=1), line(bob.id, -6, -6)]], [alice.id],
        guild=double.guild.id, start=time.time())
    listed = await double.resolved(await alice.slash("ofc history"))
    assert listed.ephemeral and listed.embed["fields"][0]["name"] == f"Match #{match_id}: won"
    hands = await double.resolved(await alice.select(listed, f"Match #{match_id}"))
    assert hands.ephemeral and hands.embed["title"] == f"Match #{match_id}"
    assert hands.embed["fields"][0]["value"].startswith(f"<@{alice.id}>: +6 points")
    detail = await double.resolved(await alice.select(hands, "Hand 1"))
    assert detail.embed["title"] == f"Match #{match_id}, hand 1"


async def test_commands_live_under_the_bots_own_groups(
        double: DiscordDouble, bot: OFCBot, bob: Member) -> None:
    synced = {c["name"]: c for c in double.state.commands[double.guild.id]}
    # No top-level /balance, /daily... to clash with another bot's commands.
    assert set(synced) == {"ofc", "ofc-admin"}
    players = {o["name"] for o in synced["ofc"]["options"]}
    assert {"balance", "daily", "leaderboard", "history", "stats"} <= players
    assert not {"grant", "correct", "settings", "season"} & players
    admin_group = synced["ofc-admin"]
    assert {o["name"] for o in admin_group["options"]} == {"grant", "correct", "settings",
                                                           "season"}
    assert int(admin_group["default_member_permissions"]) == MANAGE_GUILD
    assert synced["ofc"]["default_member_permissions"] is None
    with pytest.raises(ComponentError, match="hidden"):
        await bob.slash("ofc-admin settings")
    forged = await double.resolved(await bob.forge_slash("ofc-admin settings", daily_chips=5))
    assert forged.ephemeral and "Manage Server" in forged.embed["description"]
    assert (await bot.storage.settings.guild_settings(double.guild.id)).daily_chips is None
    board = await double.resolved(await bob.slash("ofc leaderboard"))
    assert not board.ephemeral
