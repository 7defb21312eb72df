"""What the bot needs in a table's channel (before a buy-in), and the double's permission model."""

import discord
import pytest

from cogs.common.permissions import MissingPermissions, missing, require_table_permissions
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_double.model import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL

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
