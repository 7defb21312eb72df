"""cogs/common/dms.py: a member's DM channel is opened once and kept, for the latest KEPT
members DMed (tests/e2e/match/test_requests.py: a whole hand through the double)."""

from typing import Any

import discord
import pytest

from cogs.common import dms


class Client(discord.Client):
    """Opens DM channels by counting them: channel id = 1000 + the member's id."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.opened: list[int] = []

    async def create_dm(self, user: Any) -> Any:
        self.opened.append(user.id)
        return discord.Object(1000 + user.id)


async def test_a_dm_channel_is_opened_once_for_the_latest_members(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dms, "KEPT", 2)
    client = Client()
    for member in (1, 2, 1, 3, 1, 2):
        channel = await dms.dm_channel(client, member)
        assert channel.id == 1000 + member and channel.type == discord.ChannelType.private
    # 1 and 2 opened; 1 again is kept and newest; 3 pushes out 2, the DMed longest ago
    assert client.opened == [1, 2, 3, 2]
    other = Client()  # another bot in the process (tests, shards) keeps its own
    await dms.dm_channel(other, 1)
    assert other.opened == [1]
