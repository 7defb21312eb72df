"""The Discord double proven with a tiny discord.py bot defined here: real discord.py HTTP and
websocket code connects, syncs its commands, answers slash commands, clicks, selects and
modals, sends DMs and files, edits, follows up, and meets 403/50007 and 429 as on Discord."""

from __future__ import annotations

import asyncio
import io
import re
import time
from typing import Any, Literal

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.http import Route
from PIL import Image

from .discord_double import (
    PATIENCE,
    ComponentError,
    DiscordDouble,
    InteractionNotAnswered,
    Member,
    Message,
)
from .discord_double.components import BUTTON, find
from .discord_double.snowflakes import Snowflakes, snowflake_time

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE, MODAL = 4, 5, 7, 9


def png(colour: tuple[int, int, int], size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


GREEN, RED, BLUE = png((0, 140, 60)), png((200, 0, 0)), png((0, 0, 200), (64, 48))


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tiny:count:(?P<n>\d+)"
):
    """A persistent button: its state is in its custom_id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"tiny:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> CountButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class NameModal(discord.ui.Modal, title="Table name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class TableView(discord.ui.View):
    """An in-memory view: it dies with the bot process, unlike CountButton."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.joined: list[str] = []

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.joined.append(interaction.user.name)
        await interaction.response.edit_message(
            content="Joined: " + ", ".join(self.joined), view=self
        )

    @discord.ui.button(label="Closed", disabled=True)
    async def closed(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        raise AssertionError("a disabled button cannot be clicked")

    @discord.ui.button(label="Rename")
    async def rename(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_modal(NameModal())

    @discord.ui.select(
        placeholder="Variant",
        options=[
            discord.SelectOption(label="Pineapple", value="pineapple"),
            discord.SelectOption(label="Classic", value="classic"),
        ],
    )
    async def variant(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"variant {select.values[0]}")


class TinyBot(discord.Client):
    """A bot using what the real one uses: a command group, embeds with attached images,
    views, a DynamicItem, DMs, deferrals, follow-ups and edits."""

    def __init__(self, *, guild_id: int | None = None) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(self._demo())
        self.guild_id = guild_id
        self.callbacks: list[discord.InteractionCallbackResponse[Any]] = []
        self.dm_error_codes: list[int] = []
        self.late_error_codes: list[int] = []
        self.seen_messages: list[int] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CountButton)
        if self.guild_id is None:
            await self.tree.sync()
        else:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message.id)

    def _demo(self) -> app_commands.Group:
        demo = app_commands.Group(name="demo", description="The double's test bot")

        @demo.command(description="Open a table")
        @app_commands.describe(variant="Game", seats="Seats", rival="Who to play")
        async def table(
            interaction: discord.Interaction,
            variant: Literal["pineapple", "classic"],
            seats: app_commands.Range[int, 2, 3] = 3,
            rival: discord.Member | None = None,
        ) -> None:
            embed = discord.Embed(
                title="Table", description=f"{variant}, {seats} seats, rival {rival}"
            )
            embed.set_image(url="attachment://table.png")
            answer = await interaction.response.send_message(
                embed=embed, file=discord.File(io.BytesIO(GREEN), "table.png"), view=TableView()
            )
            self.callbacks.append(answer)

        @demo.command(description="A persistent counter")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CountButton(0))
            await interaction.response.send_message("count 0", view=view)

        @demo.command(description="Deal a private hand by DM")
        async def deal(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send(
                    "your hand", file=discord.File(io.BytesIO(RED), "hand.png"), view=TableView()
                )
            except discord.Forbidden as error:
                self.dm_error_codes.append(error.code)
                await interaction.response.send_message(
                    "Your DMs are closed: use My hand", ephemeral=True
                )
            else:
                await interaction.response.send_message("dealt", ephemeral=True)

        @demo.command(description="Think, then follow up and edit")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            message = await interaction.followup.send("done", wait=True)
            await message.edit(content="edited")
            await interaction.followup.send("second", ephemeral=True)

        @demo.command(description="Post and edit a table message")
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            embed = discord.Embed(title="Table").set_image(url="attachment://table.png")
            posted = await interaction.channel.send(
                "table v1", embed=embed, file=discord.File(io.BytesIO(RED), "table.png")
            )
            await posted.edit(
                content="table v2",
                embed=embed,
                attachments=[discord.File(io.BytesIO(BLUE), "table.png")],
            )
            await posted.edit(content="table v3")
            await interaction.followup.send("announced")

        @demo.command(description="Open a thread for the table")
        async def thread(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.response.send_message("opening")
            starter = await interaction.channel.send("Table 1")
            opened = await starter.create_thread(name="Table 1")
            await opened.send("in the thread")

        @demo.command(description="Answer after Discord's deadline")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as error:
                self.late_error_codes.append(error.code)

        return demo


async def open_table(double: DiscordDouble, bot: TinyBot, member: Member) -> Message:
    """The table message `member` gets from /demo table, once its view is live: discord.py
    attaches a non-persistent view to its message only after reading the callback's answer,
    and a click that overtakes that (a busy machine) would find no view."""
    message = (await member.slash("demo table", variant="pineapple")).message
    assert message is not None
    await double.wait_until(lambda: any(c.message_id == message.id for c in bot.callbacks),
                            what="the bot to read the callback answer")
    return message


@pytest.fixture
async def bot(double: DiscordDouble, alice: Member, bob: Member) -> TinyBot:
    """A TinyBot connected to the double, with alice and bob already in the guild."""
    client = TinyBot()
    await double.start_client(client)
    return client


async def test_the_bot_connects_with_discord_py_and_sees_the_guild(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == double.state.bot.id
    assert bot.application_id == double.state.application_id
    guild = bot.get_guild(double.guild.id)
    assert guild is not None and guild.get_channel(double.channel.id) is not None
    assert guild.member_count == 4  # the owner, the bot, alice and bob
    identify = [p for p in double.gateway.received if p["op"] == 2]
    assert len(identify) == 1 and identify[0]["d"]["token"] == double.token
    routes = [(r.method, r.route) for r in double.requests]
    assert ("GET", "/users/@me") in routes and (
        "PUT",
        "/applications/{application_id}/commands",
    ) in routes
    synced = double.state.commands[None]
    assert [c["name"] for c in synced] == ["demo"]
    assert {o["name"] for o in synced[0]["options"]} == {
        "table",
        "counter",
        "deal",
        "slow",
        "announce",
        "thread",
        "late",
    }


async def test_slash_command_answer_with_embed_image_file_and_view(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    answer = await alice.slash("demo table", variant="pineapple", seats=2, rival=bob)
    assert answer.callback_type == CHANNEL_MESSAGE
    message = answer.message
    assert message is not None and not message.ephemeral
    assert (
        message.embed is not None
        and message.embed["description"] == "pineapple, 2 seats, rival bob"
    )
    assert message.embed_image() == GREEN
    assert [(a.filename, a.content_type, a.width, a.height) for a in message.images()] == [
        ("table.png", "image/png", 40, 30)
    ]
    assert message.labels() == ["Join", "Closed", "Rename"]
    assert double.last_message() is message
    # discord.py read the callback's JSON body: it knows the message it created.
    await double.wait_until(lambda: bot.callbacks, what="the bot to read the callback answer")
    assert bot.callbacks[-1].message_id == message.id
    callback = double.requests_to("POST", "/interactions/{interaction_id}/{token}/callback")[-1]
    assert callback.query == {"with_response": "1"} and callback.status == 200
    assert callback.files == [("table.png", GREEN)]
    # The attachment is served by the double's CDN, never Discord's.
    assert await bot.http.get_from_cdn(message.images()[0].url) == GREEN


async def test_a_click_edits_the_message_and_keeps_its_history(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    table = await open_table(double, bot, alice)
    first = await alice.click(table, "Join")
    second = await bob.click(table, "Join")
    assert first.callback_type == second.callback_type == UPDATE_MESSAGE
    assert table.content == "Joined: alice, bob"
    assert [snap.content for snap in table.history] == ["", "Joined: alice"]
    assert table.edited_timestamp is not None
    picked = await bob.select(table, "Classic", placeholder="Variant")
    assert picked.callback_type == UPDATE_MESSAGE and table.content == "variant classic"


async def test_modal_opened_by_a_button_and_submitted(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    table = await open_table(double, bot, alice)
    opened = await alice.click(table, "Rename")
    assert (
        opened.callback_type == MODAL
        and opened.modal is not None
        and opened.modal["title"] == "Table name"
    )
    with pytest.raises(ComponentError, match="characters"):
        await alice.submit_modal(opened, {"Name": "x" * 21})
    with pytest.raises(ComponentError):
        await bob.submit_modal(opened, {"Name": "Final"})
    submitted = await alice.submit_modal(opened, {"Name": "Final"})
    assert submitted.ephemeral and submitted.message is not None
    assert submitted.message.content == "renamed to Final"
    assert alice.last_ephemeral() is submitted.message
    assert submitted.message not in bob.sees() and submitted.message in alice.sees()


async def test_what_the_discord_client_cannot_do_is_refused(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    table = await open_table(double, bot, alice)
    with pytest.raises(ComponentError, match="disabled"):
        await alice.click(table, "Closed")
    with pytest.raises(ComponentError, match="no component"):
        await alice.click(table, "Leave")
    with pytest.raises(ComponentError, match="choices"):
        await alice.slash("demo table", variant="omaha")
    with pytest.raises(ComponentError, match=r"2\.\.3"):
        await alice.slash("demo table", variant="classic", seats=4)
    with pytest.raises(ComponentError, match="missing"):
        await alice.slash("demo table")
    with pytest.raises(ComponentError, match="no slash command"):
        await alice.slash("poker")
    private = (await bob.slash("demo slow")).message
    assert private is not None and private.ephemeral
    with pytest.raises(ComponentError, match="ephemeral"):
        await alice.click(private, "Join")


async def test_dms_with_images_and_closed_dms_raise_forbidden_50007(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    dealt = await alice.slash("demo deal")
    assert dealt.ephemeral and dealt.message is not None and dealt.message.content == "dealt"
    dm = await alice.wait_for_dm()
    assert dm.content == "your hand" and [a.data for a in dm.images()] == [RED]
    assert alice.dm_channel is not None and bob.dm_channel is None
    clicked = await alice.click(dm, "Join")
    assert clicked.callback_type == UPDATE_MESSAGE and dm.content == "Joined: alice"
    with pytest.raises(ComponentError, match="DM"):
        await bob.click(dm, "Join")
    in_dm = await bob.slash("demo counter", channel=bob.open_dm())
    assert in_dm.guild is None and in_dm.message in bob.dms()
    bob_dm = bob.dm_channel
    assert bob_dm is not None and bob_dm.recipient is bob.user

    double.close_dms(bob)
    refused = await bob.slash("demo deal")
    assert bot.dm_error_codes == [50007]
    assert refused.message is not None and refused.message.content.startswith("Your DMs are closed")
    assert bob.dms() == [in_dm.message] and bob.last_ephemeral() is refused.message
    assert refused.message.payload()["flags"] & 64
    assert refused.message not in alice.sees()
    dm_posts = double.requests_to("POST", "/channels/{channel_id}/messages")
    assert [(r.path, r.status) for r in dm_posts] == [
        (f"/api/v10/channels/{alice.dm_channel.id}/messages", 200),
        (f"/api/v10/channels/{bob_dm.id}/messages", 403),
    ]


async def test_deferred_answer_resolved_by_the_first_followup_then_edited(
    double: DiscordDouble, bot: TinyBot, alice: Member, bob: Member
) -> None:
    answer = await alice.slash("demo slow")
    assert answer.callback_type == DEFERRED_CHANNEL_MESSAGE
    final = await double.resolved(answer)
    await double.wait_until(lambda: len(answer.followups) == 1 and final.content == "edited")
    # The first follow-up replaced the "thinking" message and stayed ephemeral like the defer.
    assert final.ephemeral and final.visible_to == alice.id
    assert [s.content for s in final.history] == ["done"]
    assert answer.followups[0].content == "second" and answer.followups[0].ephemeral
    assert [m.content for m in alice.ephemerals()] == ["edited", "second"]
    assert bob.ephemerals() == [] and double.messages() == []


async def test_channel_message_edits_replace_and_keep_attachments(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    answer = await alice.slash("demo announce")
    done = await double.resolved(answer)
    assert done.content == "announced" and not done.ephemeral
    table = next(m for m in double.messages() if m.content.startswith("table"))
    assert table.content == "table v3"
    assert [a.data for a in table.attachments] == [BLUE]
    assert table.embed_image() == BLUE and table.images()[0].width == 64
    assert [s.content for s in table.history] == ["table v1", "table v2"]
    assert [a.data for a in table.history[0].attachments] == [RED]
    await double.wait_until(lambda: table.id in bot.seen_messages)


async def test_threads_opened_from_a_message(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    await alice.slash("demo thread")
    starter = await double.wait_for_message(lambda m: m.content == "Table 1")
    await double.wait_until(lambda: starter.thread_id is not None, what="the thread")
    thread = double.state.channels[starter.id]  # a thread started from a message takes its id
    inside = await double.wait_for_message(channel=thread)
    assert (
        thread.is_thread
        and thread.parent_id == double.channel.id
        and inside.content == "in the thread"
    )
    assert bot.get_channel(thread.id) is not None


async def test_rate_limits_are_waited_out_and_nothing_is_lost(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    double.rate_limit("POST", "/channels/{channel_id}/messages", times=2)
    double.rate_limit("POST", "/webhooks/{application_id}/{token}", times=1)
    answer = await alice.slash("demo announce")
    done = await double.resolved(answer)
    assert done.content == "announced"
    posts = double.requests_to("POST", "/channels/{channel_id}/messages")
    assert [r.status for r in posts] == [429, 429, 200]
    assert [r.status for r in double.requests_to("POST", "/webhooks/{application_id}/{token}")] == [
        429,
        200,
    ]
    assert [m.content for m in double.messages()] == ["announced", "table v3"]


async def test_persistent_buttons_work_after_a_restart_and_views_do_not(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    counter = (await alice.slash("demo counter")).message
    table = await open_table(double, bot, alice)
    assert counter is not None
    await alice.click(counter, "Count 0")
    assert counter.content == "count 1"

    await double.stop_client(bot)
    with pytest.raises(InteractionNotAnswered, match="no bot"):
        await alice.click(counter, "Count 1")
    restarted = TinyBot(guild_id=double.guild.id)
    await double.start_client(restarted)
    assert len([p for p in double.gateway.received if p["op"] == 2]) == 2

    await alice.click(counter, "Count 1")
    assert counter.content == "count 2"
    with pytest.raises(InteractionNotAnswered, match="did not answer"):
        await alice.click(table, "Join", timeout=0.3)
    # The restarted bot synced guild commands: they carry the guild id in the interaction.
    answer = await alice.slash("demo counter")
    assert answer.data["guild_id"] == str(double.guild.id)


async def test_the_gateway_resumes_and_replays_what_was_missed(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    await double.drop_gateway()
    posted = await double.state.create_message(double.channel, {"content": "while away"}, [])
    (session,) = double.gateway.sessions.values()
    sequence = next(p["s"] for p in session.sent if p["d"].get("id") == str(posted.id))
    await double.wait_until(lambda: posted.id in bot.seen_messages, what="the missed event")
    resumes = [p["d"] for p in double.gateway.received if p["op"] == 6]
    assert len(resumes) == 1 and resumes[0]["seq"] < sequence  # so it came by replay
    assert len([p for p in double.gateway.received if p["op"] == 2]) == 1
    await double.request_reconnect()  # op 7: the client reconnects and resumes again
    await double.wait_until(
        lambda: len([p for p in double.gateway.received if p["op"] == 6]) == 2, what="a RESUME"
    )
    await double.wait_until(lambda: double.gateway.ready_sessions, what="the resumed session")
    answer = await alice.slash("demo counter")
    assert answer.message is not None and answer.message.content == "count 0"


async def test_a_late_answer_fails_like_on_discord(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    double.state.interaction_deadline = 0.1
    with pytest.raises(InteractionNotAnswered, match="did not answer"):
        await alice.slash("demo late")
    await double.wait_until(lambda: bot.late_error_codes, what="the bot's late callback")
    assert bot.late_error_codes == [10062]


async def test_an_empty_message_is_refused_as_discord_refuses_it(
    double: DiscordDouble, bot: TinyBot
) -> None:
    # Payloads past Discord's schemas and limits: test_spec.py.
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=double.channel.id)
    with pytest.raises(discord.HTTPException) as empty:
        await bot.http.request(route, json={"content": ""})
    assert empty.value.code == 50006
    assert double.messages() == []


async def test_unknown_routes_and_escapes_are_recorded(double: DiscordDouble, bot: TinyBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/voice/regions"))
    assert [(r.method, r.path) for r in double.unexpected] == [("GET", "/api/v10/voice/regions")]
    with pytest.raises(aiohttp.ClientConnectionError):
        await bot.http.get_from_cdn("https://cdn.discordapp.com/attachments/1/2/x.png")
    assert double.escaped == ["GET https://cdn.discordapp.com/attachments/1/2/x.png"]
    with pytest.raises(AssertionError, match=r"escaped.*\n.*unknown route"):
        double.assert_clean()
    double.escaped.clear()
    double.requests.clear()


async def test_a_wrong_token_is_refused(double: DiscordDouble) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert [(r.route, r.status) for r in double.requests] == [("/users/@me", 401)]


async def test_json_answers_carry_exactly_application_json(double: DiscordDouble) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{double.api_url}/gateway") as response:
            assert response.headers["Content-Type"] == "application/json"
            assert await response.json() == {"url": double.gateway_url}
        async with session.get(f"{double.api_url}/users/@me") as response:
            assert response.status == 401  # no bot token
    double.requests.clear()


def test_snowflakes_are_unique_increasing_and_carry_their_time() -> None:
    ids = [Snowflakes().next() for _ in range(3)]  # separate generators in one millisecond
    generator = Snowflakes()
    many = [generator.next() for _ in range(5000)]  # past 4096 per millisecond
    assert many == sorted(set(many))
    for snowflake in [*ids, *many[::997]]:
        assert discord.utils.snowflake_time(snowflake) == snowflake_time(snowflake)


async def test_discords_clock_moves_forward_and_never_back(double: DiscordDouble) -> None:
    later = time.time() + 20 * 3600
    double.advance_to(later)
    first = double.state.snowflakes.next()
    assert snowflake_time(first).timestamp() >= later
    double.advance_to(later - 3600)  # already past: no change
    second = double.state.snowflakes.next()
    assert second > first and snowflake_time(second).timestamp() < later + 3600


def test_a_label_shared_by_several_rows_needs_its_row() -> None:
    def row(card: str) -> dict[str, Any]:
        buttons = [
            {"type": BUTTON, "style": 2, "label": label, "custom_id": f"place:{card}:{label}"}
            for label in ("Top", "Middle", "Bottom")
        ]
        return {"type": 1, "components": buttons}

    rows = [row("Ah"), row("Kd")]
    with pytest.raises(ComponentError, match="2 components"):
        find(rows, types=(BUTTON,), label="Top")
    assert find(rows, types=(BUTTON,), label="Top", row=1).custom_id == "place:Kd:Top"


async def test_forged_custom_ids_reach_the_bot_as_a_modified_client_sends_them(
    double: DiscordDouble, bot: TinyBot, alice: Member
) -> None:
    counter = (await alice.slash("demo counter")).message
    assert counter is not None
    # discord.py runs a DynamicItem only if its custom_id is on the message: a forged id that
    # matches the template but is not there is dropped unanswered, as on Discord.
    with pytest.raises(InteractionNotAnswered):
        await alice.forge(counter, "tiny:count:999", timeout=0.3)
    forged = list(double.state.interactions.values())[-1]
    assert forged.data["custom_id"] == "tiny:count:999" and forged.callback_type is None
    assert counter.content == "count 0"
    await alice.forge(counter, "tiny:count:0")  # the genuine id, sent raw
    assert counter.content == "count 1"


async def test_a_cancelled_wait_ends_cancelled_while_the_double_keeps_changing(
    double: DiscordDouble,
) -> None:
    # A wait cancelled in the very turn its change event fires must still end: with
    # asyncio.wait_for (Python 3.11) the event's result won and the cancel was lost, so a
    # helper task a test had cancelled could run for ever.
    async def churn() -> None:
        while True:
            double.state.changed()
            await asyncio.sleep(0)

    churner = asyncio.create_task(churn())
    try:
        for _ in range(100):
            waiting = asyncio.create_task(double.wait_until(lambda: False, timeout=PATIENCE))
            await asyncio.sleep(0.002)
            waiting.cancel()
            done, _ = await asyncio.wait({waiting}, timeout=PATIENCE)
            assert done and waiting.cancelled()
    finally:
        churner.cancel()


async def test_a_waiter_sees_whole_requests_even_when_something_changed_meanwhile(
    double: DiscordDouble, bot: TinyBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A message is in its channel before its MESSAGE_CREATE is sent; its request is recorded
    # after. Here the dispatch is held and something else changes meanwhile (a member's
    # action, another request ending): a waiter must still see the request whole.
    entered, release = asyncio.Event(), asyncio.Event()
    dispatch = double.gateway.dispatch

    async def held(event: str, data: dict[str, Any], intent: int | None) -> None:
        if event == "MESSAGE_CREATE":
            entered.set()
            await release.wait()
        await dispatch(event, data, intent)

    monkeypatch.setattr(double.gateway, "dispatch", held)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=double.channel.id)
    sending = asyncio.create_task(bot.http.request(route, json={"content": "whole"}))
    await entered.wait()
    double.state.changed()
    recorded: list[int] = []

    def sent() -> bool:
        recorded.append(len(double.requests_to("POST", "/channels/{channel_id}/messages")))
        return bool(double.messages())

    waiting = asyncio.create_task(double.wait_until(sent, what="the message"))
    await asyncio.sleep(0)  # the waiter's first look
    release.set()
    await sending
    await waiting
    assert recorded[-1] == 1  # when it saw the message, it saw its request
