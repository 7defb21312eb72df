"""A member's DM channel, for what the bot sends there: prompts, results, notices.

Opening a DM needs only the member's id (Discord answers with the channel, the same each
time), so the member is never fetched; each channel's id is kept for the process's life (an
int per member: discord.py's own cache keeps the latest 128 channels only), so every later DM
is one request. A member whose DMs are closed is refused when a message is sent, as before.
"""

from weakref import WeakKeyDictionary

import discord

_CHANNELS: WeakKeyDictionary[discord.Client, dict[int, int]] = WeakKeyDictionary()


async def dm_channel(client: discord.Client, user_id: int) -> discord.PartialMessageable:
    """Where to send `user_id` a direct message."""
    known = _CHANNELS.setdefault(client, {})
    channel_id = known.get(user_id)
    if channel_id is None:
        opened = await client.create_dm(discord.Object(user_id))
        channel_id = known[user_id] = opened.id
    return client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
