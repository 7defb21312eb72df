"""Sharding end to end through the Discord double.

The double as Discord shards: GET /gateway/bot recommends a shard count, IDENTIFY names a
shard, each guild's events (GUILD_CREATE, INTERACTION_CREATE...) go to the session of its
shard, and events of no guild (a click in a DM) to shard 0 only.

Then the real bot as two sharded "processes" (two OFCBots, shard 0 and shard 1 of 2, each
with its own connection to one SQLite file): members in a server of each shard play whole
matches by their DM buttons. Every DM click reaches shard 0's bot, which hands the clicks of
shard 1's table to shard 1's bot through its relay (bot/cluster/relay.py). A third bot claiming
shard 1 is refused. The books balance (tests/storage/audit.py).

(Two real processes on PostgreSQL, one killed and restarted: tests/e2e/test_shard_processes.py.)
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import OFCBot, make_bot
from bot.cluster.shard_lease import ShardKeeper
from bot.sharding import ShardPlan, shard_of
from bot.storage import ShardsTaken, Storage
from bot.tables import FakeClock
from bot.tables.lobby import OTHER_SHARD
from bot.tables.runtime import NOT_HELD
from cogs.tables.ids import table_of
from tests.cogs.conftest import buttons, settings_for
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.flows import (
    RESULT,
    Seat,
    action_of,
    check_wallets,
    chosen_row,
    dealt,
    description,
    open_table,
    place_id,
    play_out,
    play_until,
    ready,
    seats_of,
    title,
)
from tests.storage.audit import audit

TIMEOUT = 30.0


def shard_sessions(double: DiscordDouble) -> dict[int, Any]:
    return {s.shard[0]: s for s in double.gateway.sessions.values() if s.shard is not None}


def events(session: Any, name: str) -> list[dict[str, Any]]:
    return [p["d"] for p in session.sent if p["t"] == name]


async def test_the_double_routes_each_guild_to_its_shard() -> None:
    async with DiscordDouble(shard_count=2) as double:
        other = double.add_guild("Shard one", shard=1)
        assert shard_of(double.guild.id, 2) == 0 and shard_of(other.id, 2) == 1
        double.add_text_channel("general", guild=other)
        member = double.add_member("dora", guild=other)
        client = discord.AutoShardedClient(intents=discord.Intents.default())
        tree = discord.app_commands.CommandTree(client)
        seen: list[tuple[int | None, int | None]] = []

        @tree.command(name="ping", description="ping")
        async def ping(interaction: discord.Interaction[Any]) -> None:
            seen.append((interaction.guild_id, client.get_guild(other.id).shard_id))
            await interaction.response.send_message("pong")

        await double.start_client(client)  # no shard count given: it asks GET /gateway/bot
        try:
            assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
            sessions = shard_sessions(double)
            assert [int(g["id"]) for g in events(sessions[0], "GUILD_CREATE")] \
                == [double.guild.id]
            assert [int(g["id"]) for g in events(sessions[1], "GUILD_CREATE")] == [other.id]
            assert [g.shard_id for g in (client.get_guild(double.guild.id),
                                         client.get_guild(other.id))] == [0, 1]
            await tree.sync()
            await double.resolved(await member.slash("ping"))
            assert seen == [(other.id, 1)]
            assert len(events(sessions[1], "INTERACTION_CREATE")) == 1
            assert events(sessions[0], "INTERACTION_CREATE") == []
            # a DM's interaction (no guild) goes to shard 0 only
            await double.resolved(await member.slash("ping", channel=member.open_dm()))
            assert seen[1][0] is None
            assert len(events(sessions[0], "INTERACTION_CREATE")) == 1
            assert len(events(sessions[1], "INTERACTION_CREATE")) == 1
        finally:
            await double.stop_client(client)
        double.assert_clean()


# ------------------------------------------------------------------ two sharded bots
async def start_shard(double: DiscordDouble, database: Path, shard: int,
                      clock: FakeClock) -> OFCBot:
    """A bot running `shard` of 2 on its own connection to the shared file (the bot's own
    open would hold the file's lock: one process per SQLite file)."""
    storage = await Storage.open(database)
    settings = replace(settings_for(double, database), dev_guild=None)
    bot = make_bot(settings, shards=ShardPlan(2, (shard,)), storage=storage, clock=clock,
                   sync_global=True)
    try:
        await double.start_client(bot)
    except BaseException:
        await bot.close()
        raise
    return bot


@pytest.fixture
def double(double: DiscordDouble) -> DiscordDouble:
    double.shard_count = 2
    double.reaction_time = 0.01
    return double


@pytest.fixture
async def bots(double: DiscordDouble, clock: FakeClock,
               tmp_path: Path) -> AsyncIterator[list[OFCBot]]:
    database = tmp_path / "ofc.sqlite3"
    started = []
    try:
        for shard in (0, 1):
            started.append(await start_shard(double, database, shard, clock))
        yield started
    finally:
        for bot in reversed(started):
            await double.stop_client(bot)
    assert audit(database) == []


async def test_two_sharded_bots_each_run_their_servers_tables(
        double: DiscordDouble, bots: list[OFCBot], clock: FakeClock, tmp_path: Path) -> None:
    zero, one = bots
    assert isinstance(zero, discord.AutoShardedClient) and zero.shard_ids == [0]
    guild1 = double.add_guild("Shard one", shard=1)
    channel1 = double.add_text_channel("ofc-table", guild=guild1)
    players: dict[int, tuple[Member, Member]] = {
        0: (double.add_member("alice"), double.add_member("bob")),
        1: (double.add_member("carol", guild=guild1), double.add_member("dan", guild=guild1))}
    # the new guild reaches shard 1's bot (a restart of its connection announces it)
    await double.stop_client(one)
    one = bots[1] = await start_shard(double, tmp_path / "ofc.sqlite3", 1, clock)
    assert one.get_guild(guild1.id) is not None and zero.get_guild(guild1.id) is None

    async def play(shard: int, channel: Any) -> None:
        host, guest = players[shard]
        table = await open_table(double, host, guest, channel=channel, timeout=TIMEOUT,
                                 format="hands", hands=2, fantasy="off")
        await play_out(double, table, seats_of((host, guest)), timeout=TIMEOUT)
        await check_wallets(double, (host, guest), channel=channel)

    await asyncio.gather(play(0, double.channel), play(1, channel1))
    assert zero.tables.live_tables() == one.tables.live_tables() == []
    # shard 1's DM clicks came through shard 0's bot, and only its relay handed them over
    assert zero.relay is not None and one.relay is not None
    assert one.relay.received > 0 and zero.relay.forwarded == one.relay.received
    assert zero.relay.received == 0


async def test_a_dm_click_relayed_to_a_stopping_process_is_refused_and_plays_after_its_restart(
        double: DiscordDouble, bots: list[OFCBot], clock: FakeClock, tmp_path: Path) -> None:
    """Shard 1's process is stopping (its components and its connection to Discord gone)
    but its relay still listens, and its lease still names it: a DM click handed to it then
    is not taken, so shard 0's process tells the member to try again in a minute, and nothing
    changes. Once it is back, on a relay address of its own, the same click plays."""
    zero, one = bots
    guild1 = double.add_guild("Shard one", shard=1)
    channel1 = double.add_text_channel("ofc-table", guild=guild1)
    carol, dan = double.add_member("carol", guild=guild1), double.add_member("dan", guild=guild1)
    await double.stop_client(one)  # the new guild reaches shard 1's bot on its next connect
    one = bots[1] = await start_shard(double, tmp_path / "ofc.sqlite3", 1, clock)
    table = await open_table(double, carol, dan, channel=channel1, timeout=TIMEOUT,
                             format="hands", hands=1, fantasy="off")
    seats = seats_of((carol, dan))
    # the player left of the button acts first (R7): either of them
    first = await double.wait_until(
        lambda: next((s for s in seats if ready(s.prompt())), None), timeout=TIMEOUT,
        what="the first prompt")
    prompt = first.prompt()
    assert prompt is not None
    card = dealt(prompt)[0]
    stopped, resume = asyncio.Event(), asyncio.Event()
    assert one.relay is not None
    relay_close = one.relay.close

    async def held_close() -> None:  # the stop holds here: the rest of it is done
        stopped.set()
        await resume.wait()
        await relay_close()

    one.relay.close = held_close  # type: ignore[method-assign]
    stopping = asyncio.create_task(double.stop_client(one))
    try:
        await stopped.wait()
        refusal = await double.resolved(
            await first.member.click(prompt, custom_id=place_id(prompt, card, "bottom")),
            timeout=TIMEOUT)
    finally:
        resume.set()
        await stopping
    assert refusal.ephemeral and refusal.embed is not None
    assert refusal.embed["description"] == str(NOT_HELD)

    one = bots[1] = await start_shard(double, tmp_path / "ofc.sqlite3", 1, clock)
    assert zero.relay is not None and one.relay is not None
    await double.wait_until(lambda: ready(first.prompt()), timeout=TIMEOUT,
                            what="the first prompt after the restart")
    prompt = first.prompt()
    assert prompt is not None
    assert chosen_row(prompt, card) is None, description(prompt)  # the refused click did nothing
    forwarded = zero.relay.forwarded
    await first.member.click(prompt, custom_id=place_id(prompt, card, "bottom"))
    await double.wait_until(lambda: chosen_row(prompt, card) == "bottom", timeout=TIMEOUT,
                            what="the click played after the restart")
    assert zero.relay.forwarded == forwarded + 1 and one.relay.received == 1
    await play_out(double, table, seats, timeout=TIMEOUT)
    await check_wallets(double, (carol, dan), channel=channel1)


@dataclass
class SeatAt(Seat):
    """A seat at one of the member's two tables: its prompts are the DMs of that table."""

    table: int = 0

    def prompt(self) -> Message | None:
        prompts = [m for m in self.member.dms() if not m.ephemeral and RESULT not in title(m)
                   and table_of(action_of(m) or "") == self.table]
        latest = prompts[-1] if prompts else None
        return latest if action_of(latest) not in self.done else None


async def test_a_member_at_a_table_of_each_process_reads_which_each_prompt_is_for(
        double: DiscordDouble, bots: list[OFCBot], clock: FakeClock, tmp_path: Path) -> None:
    """Carol plays at a table of shard 1's process, then at one of shard 0's too: both send
    their prompts to her one DM, so each title starts with its table's channel from then on
    (as at two tables of one process; an action already prompted keeps its title), and she
    plays both by their buttons to their ends. Each table's prompts are drawn while the other
    is open: the far one is played up to carol's last street, the near one to its end, then
    the far one's last street (played side by side, whichever ended first left the other's
    last prompts to a player at one table, whose titles name no channel)."""
    zero, one = bots
    guild1 = double.add_guild("Shard one", shard=1)
    far = double.add_text_channel("ofc-far", guild=guild1)
    carol, alice = double.add_member("carol"), double.add_member("alice")
    dan = double.add_member("dan", guild=guild1)
    double.state.join(guild1, carol.user, ())
    carol_far = Member(double, carol.user, guild1, carol.locale)
    await double.stop_client(one)  # the new guild reaches shard 1's bot on its next connect
    one = bots[1] = await start_shard(double, tmp_path / "ofc.sqlite3", 1, clock)
    far_table = await open_table(double, carol_far, dan, channel=far, timeout=TIMEOUT,
                                 format="hands", hands=2, fantasy="off")
    away = SeatAt(carol_far, table=table_of(buttons(far_table)["My hand"]["custom_id"]) or 0)
    first = await double.wait_until(away.prompt, timeout=TIMEOUT, what="carol's first prompt")
    assert not title(first).startswith("#")  # one table so far
    near_table = await open_table(double, carol, alice, timeout=TIMEOUT, format="hands",
                                  hands=2, fantasy="off")
    near = SeatAt(carol, table=table_of(buttons(near_table)["My hand"]["custom_id"]) or 0)
    assert zero.tables.live_tables() == [near.table] and one.tables.live_tables() == [away.table]
    titles: dict[int, list[str]] = {near.table: [], away.table: []}

    def noting(member: Member, prompt: Message) -> None:
        if member.id == carol.id:
            titles[table_of(action_of(prompt) or "") or 0].append(title(prompt))

    def last_street() -> Message | None:  # carol's, at the far table, her turn
        prompt = away.prompt()
        return prompt if ready(prompt) and prompt is not None \
            and title(prompt).endswith("Hand 2 of 2 · street 5 of 5") else None

    far_seats = [away, *seats_of((dan,))]
    await play_until(double, far_table, far_seats, last_street, noting, timeout=TIMEOUT)
    await play_out(double, near_table, [near, *seats_of((alice,))], noting, timeout=TIMEOUT)
    await play_out(double, far_table, far_seats, noting, timeout=TIMEOUT)
    channel = f"#{double.channel.name} · "
    assert len(titles[near.table]) == 10 and all(  # 2 hands of 5 streets
        t.startswith(channel) for t in titles[near.table]), titles
    assert len(titles[away.table]) == 10 and all(  # but the first, prompted before
        t.startswith("#ofc-far · ") for t in titles[away.table][1:]), titles
    await check_wallets(double, (carol, alice))
    await check_wallets(double, (carol_far, dan), channel=far)


async def test_a_prompt_asks_the_database_for_other_tables_once_an_action(
        double: DiscordDouble, bots: list[OFCBot], monkeypatch: pytest.MonkeyPatch) -> None:
    """A sharded bot asks the shared database whether a DM prompt's player sits at another
    process's table (the prompt's title then names its channel): once for each action of the
    seat, not on each redraw of its prompt (every card drafted, every turn passed). One hand
    of 5 streets (R2): 5 reads for each player."""
    stored = bots[0].storage.tables
    read = stored.seated_elsewhere
    reads: list[int] = []

    async def counted(user_id: int, table_id: int) -> bool:
        reads.append(user_id)
        return await read(user_id, table_id)

    monkeypatch.setattr(stored, "seated_elsewhere", counted)
    alice, bob = double.add_member("alice"), double.add_member("bob")
    table = await open_table(double, alice, bob, timeout=TIMEOUT, format="hands", hands=1,
                             fantasy="off")
    await play_out(double, table, seats_of((alice, bob)), timeout=TIMEOUT)
    assert Counter(reads) == {alice.id: 5, bob.id: 5}


async def test_a_second_bot_for_a_held_shard_is_refused(
        double: DiscordDouble, bots: list[OFCBot], clock: FakeClock, tmp_path: Path) -> None:
    with pytest.raises(ShardsTaken, match=r"Shard 1 of 2 is run by another ofc-bot"):
        await start_shard(double, tmp_path / "ofc.sqlite3", 1, clock)
    double.errors.records.clear()  # discord.py logs the failed start


async def test_an_interaction_of_another_shards_server_is_refused(
        double: DiscordDouble, bots: list[OFCBot], monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord never sends it; if it came (a misconfigured fleet), nothing is done for it."""
    guild1 = double.add_guild("Shard one", shard=1)
    double.add_text_channel("general", guild=guild1)
    carol = double.add_member("carol", guild=guild1)
    sessions = shard_sessions(double)
    monkeypatch.setattr(sessions[0], "routes", lambda guild: True)  # misrouted to shard 0
    monkeypatch.setattr(sessions[1], "routes", lambda guild: guild != guild1.id)
    answer = await double.resolved(await carol.slash("ofc create"))
    assert answer.ephemeral and answer.embed is not None
    assert answer.embed["description"] == str(OTHER_SHARD)
    assert bots[0].tables.live_tables() == bots[1].tables.live_tables() == []


async def test_a_bot_whose_lease_was_taken_stops_itself(
        double: DiscordDouble, clock: FakeClock, tmp_path: Path) -> None:
    database = tmp_path / "ofc.sqlite3"
    storage = await Storage.open(database)
    plan = ShardPlan(2, (1,))
    keeper = ShardKeeper(storage, plan, clock, seconds=3)  # its heartbeat on the test's clock
    bot = make_bot(settings_for(double, database), shards=plan, storage=storage, clock=clock,
                   keeper=keeper)
    await double.start_client(bot)
    thief = await Storage.open(database)  # another process took the shard (its lease ran out)
    try:
        async with thief._core.db.transaction() as conn:
            await conn.execute("UPDATE shard_leases SET owner = 'thief'")
        await clock.advance(1.0)  # the next renewal finds it
        await double.wait_until(bot.is_closed, timeout=TIMEOUT, what="the bot to stop")
        assert bot.lease_lost == ("The lease of shard 1 passed to another ofc-bot (thief): "
                                  "this process no longer runs its tables")
        assert [lease.owner for lease in await thief.leases.shard_leases()] == ["thief"]
    finally:
        await double.stop_client(bot)
        await thief.close()
    double.errors.records.clear()  # the bot's CRITICAL line, on purpose
