"""A member's DM channel, for what the bot sends there: prompts, results, notices.

Opening a DM needs only the member's id (Discord answers with the channel, the same each
time), so the member is never fetched; the channels of the latest KEPT members DMed are kept
by id (an int each; discord.py's own cache keeps 128 channels), so every later DM is one
request. A member whose DMs are closed is refused when a message is sent, as before.
"""

from collections import OrderedDict
from weakref import WeakKeyDictionary

import discord

KEPT = 100_000  # members whose DM channel is kept: about 10 MB at most
_CHANNELS: WeakKeyDictionary[discord.Client, OrderedDict[int, int]] = WeakKeyDictionary()


async def dm_channel(client: discord.Client, user_id: int) -> discord.PartialMessageable:
    """Where to send `user_id` a direct message."""
    known = _CHANNELS.setdefault(client, OrderedDict())
    channel_id = known.get(user_id)
    if channel_id is None:
        opened = await client.create_dm(discord.Object(user_id))
        channel_id = known[user_id] = opened.id
        if len(known) > KEPT:
            known.popitem(last=False)  # the member DMed longest ago
    else:
        known.move_to_end(user_id)
    return client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
