"""What the bot needs in a table's channel (before a buy-in), and the double's permission model:
/ofc create names what is missing and takes no chips; a table restored where the bot lost a
permission is closed and refunded by DM."""

from typing import Any

import discord
import pytest

from bot.app import OFCBot
from cogs.common.permissions import MissingPermissions, missing, require_table_permissions
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import (
    ATTACH_FILES,
    EMBED_LINKS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

NEEDED = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                             attach_files=True, read_message_history=True)


def test_every_needed_permission_is_named_when_missing() -> None:
    require_table_permissions(NEEDED)  # all there: no refusal
    assert list(map(str, missing(discord.Permissions.none()))) == [
        "View Channel", "Send Messages", "Embed Links", "Attach Files", "Read Message History"]
    lacking = discord.Permissions(NEEDED.value)
    lacking.embed_links = lacking.attach_files = False
    with pytest.raises(MissingPermissions) as refused:
        require_table_permissions(lacking)
    text = str(refused.value)
    assert "**Embed Links**" in text and "**Attach Files**" in text
    assert "Send Messages" not in text and "No chips were taken." in text


async def test_the_double_applies_overwrites_as_discord_does(double: DiscordDouble) -> None:
    member = double.add_member("dora")
    role = double.add_role("Dealers", 0)
    guild, channel = double.guild, double.channel
    base = guild.permissions_in(member.id, channel)
    assert base & SEND_MESSAGES and base & ATTACH_FILES
    await double.set_permissions(channel, None, deny=SEND_MESSAGES | EMBED_LINKS)  # @everyone
    assert not guild.permissions_in(member.id, channel) & SEND_MESSAGES
    guild.members[member.id].roles.append(role.id)
    await double.set_permissions(channel, role, allow=SEND_MESSAGES)  # the role wins
    assert guild.permissions_in(member.id, channel) & SEND_MESSAGES
    assert not guild.permissions_in(member.id, channel) & EMBED_LINKS
    await double.set_permissions(channel, member, deny=VIEW_CHANNEL)  # the member wins; no view
    assert guild.permissions_in(member.id, channel) == 0
    await double.set_permissions(channel, member)  # removed
    assert guild.permissions_in(member.id, channel) & SEND_MESSAGES
    assert [o["type"] for o in channel.payload()["permission_overwrites"]] == [0, 0]


async def test_create_names_a_missing_permission_and_takes_no_chips(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    before = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)  # 1,000 chips
    (managed,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    await double.set_permissions(double.channel, managed, deny=ATTACH_FILES)

    refused = await double.resolved(await alice.slash("ofc create", seats=2))
    assert refused.ephemeral
    text = refused.embed["description"]
    assert "**Attach Files**" in text and "Send Messages" not in text
    assert "Permissions" in text and "No chips were taken." in text
    assert bot.tables.table_for_channel(double.channel.id) is None
    after = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)
    assert after.balance == before.balance == 1000
    assert not [m for m in double.messages() if m.embed and "OFC table" in m.embed["title"]]

    # Granted again, the same command opens the table.
    await double.set_permissions(double.channel, managed)
    opened = await double.resolved(await alice.slash("ofc create", seats=2))
    assert "Your table is open" in opened.content
    assert bot.tables.table_for_channel(double.channel.id) is not None


def the_bots_role(double: DiscordDouble) -> Any:
    (role,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    return role


async def restart(double: DiscordDouble, bot: OFCBot) -> OFCBot:
    """A new bot on the same database (the old one stopped)."""
    restarted = OFCBot(bot.settings)
    await double.start_client(restarted)
    return restarted


async def closed_and_told(double: DiscordDouble, bot: OFCBot, player: Member) -> str:
    """The DM telling `player` their table closed after the restart; the table is gone."""
    told = await player.wait_for_dm(
        lambda m: "was closed after the bot restarted" in (m.content or ""))
    await double.wait_until(lambda: bot.tables.table_for_channel(double.channel.id) is None,
                            what="the table closed")
    return str(told.content)


async def test_a_lobby_restored_where_the_bot_can_no_longer_see_is_refunded_by_dm(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=2))  # buy-in 200
    table = bot.tables.table_for_channel(double.channel.id)
    assert table is not None
    await double.stop_client(bot)
    await double.set_permissions(double.channel, the_bots_role(double), deny=VIEW_CHANNEL)
    restarted = await restart(double, bot)
    try:
        told = await closed_and_told(double, restarted, alice)
        assert f"<#{double.channel.id}>" in told and "200 chips" in told
        wallet = await restarted.storage.wallets.wallet(double.guild.id, alice.id, now=0)
        assert wallet.balance == 1000  # the buy-in came back
    finally:
        await double.stop_client(restarted)


async def test_a_match_restored_where_the_bot_cannot_attach_images_is_settled_and_refunded(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=2, fantasy="off"))
    table = bot.tables.table_for_channel(double.channel.id)
    assert table is not None
    lobby = await double.wait_for_message(
        lambda m: m.embed is not None and m.embed["title"].startswith("OFC table"))
    await croupier.click(lobby, "Add computer (easy)")
    await double.wait_until(lambda: len(bot.tables.seats(table)) == 2, what="a computer seated")
    await double.resolved(await alice.slash("ofc start"))
    await alice.wait_for_dm(lambda m: bool(m.components))  # her first street's prompt
    await double.stop_client(bot)
    await double.set_permissions(double.channel, the_bots_role(double), deny=ATTACH_FILES)
    restarted = await restart(double, bot)
    try:
        told = await closed_and_told(double, restarted, alice)
        assert "hand in play was completed and settled" in told
        stacks = (await restarted.storage.tables.table(table)).stacks
        assert not any(stacks.values())  # every stack went back
    finally:
        await double.stop_client(restarted)


async def test_create_in_a_thread_where_the_bot_cannot_post_takes_no_chips(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    """In a thread the bot posts with Send Messages in Threads, not Send Messages: the lobby
    could not be posted there, so the check names it before any buy-in."""
    thread = await double.state.create_thread(double.channel, {"name": "side game",
                                                               "type": PUBLIC_THREAD},
                                              from_message=None)
    await double.set_permissions(double.channel, the_bots_role(double),
                                 deny=SEND_MESSAGES_IN_THREADS)

    refused = await double.resolved(await alice.slash("ofc create", seats=2, channel=thread))
    assert refused.ephemeral
    text = refused.embed["description"]
    assert "**Send Messages in Threads**" in text and "No chips were taken." in text
    assert bot.tables.table_for_channel(thread.id) is None
    after = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)
    assert after.balance == 1000

    # Send Messages in Threads alone is what it takes there (not the channel's Send Messages).
    await double.set_permissions(double.channel, the_bots_role(double), deny=SEND_MESSAGES)
    opened = await double.resolved(await alice.slash("ofc create", seats=2, channel=thread))
    assert "Your table is open" in opened.content
    lobby = await double.wait_for_message(lambda m: m.embed is not None, channel=thread)
    assert "OFC table" in lobby.embed["title"]
