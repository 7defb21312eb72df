"""The double accepts only what Discord accepts: each request is checked against Discord's
published OpenAPI specification (tests/e2e/discord_double/spec) and the documented limits the
schemas leave out, and refused as Discord refuses it (400 / 50035 naming the field); the test
that sent it fails, naming the field too. The double's own answers are checked the same way."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.http import Route

from .discord_double import DiscordDouble
from .discord_double.limits import (
    COMMAND_SIZE_LIMIT,
    PayloadErrors,
    check_command,
    check_message,
    command_size,
    problems_of,
)
from .discord_double.model import User
from .discord_double.openapi import spec

MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def http(double: DiscordDouble) -> AsyncIterator[discord.Client]:
    """A client logged in over REST only: it sends exactly the requests a test writes."""
    client = discord.Client(intents=discord.Intents.default())
    await client.login(double.token)
    yield client
    await client.close()


def row(n: int, *, custom_id: str | None = None) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id or f"go:{n}"}
        ],
    }


async def refused(double: DiscordDouble, client: discord.Client, body: Any) -> str:
    """Send `body` as a new message; return the error Discord's shape gives the bot."""
    route = Route("POST", MESSAGES, channel_id=double.channel.id)
    with pytest.raises(discord.HTTPException) as error:
        await client.http.request(route, json=body)
    assert (error.value.status, error.value.code) == (400, 50035)
    assert double.messages() == []
    return error.value.text


def fails_loudly(double: DiscordDouble, field: str) -> None:
    """The test that sent it fails, naming the field; then forgets it (the refusal is this
    test's purpose)."""
    with pytest.raises(AssertionError, match=rf"violation: POST .*\n\s+{field}: "):
        double.assert_clean()
    double.violations.clear()
    double.requests.clear()


async def test_a_101_character_custom_id_is_refused_naming_the_field(
    double: DiscordDouble, http: discord.Client
) -> None:
    long_id = [row(0, custom_id="y" * 101)]
    text = await refused(double, http, {"content": "x", "components": long_id})
    field = r"components\.0\.components\.0\.custom_id"
    assert "In components.0.components.0.custom_id: 101 characters, at most 100" in text
    fails_loudly(double, field)


async def test_a_sixth_action_row_is_refused_naming_the_field(
    double: DiscordDouble, http: discord.Client
) -> None:
    text = await refused(double, http, {"content": "x", "components": [row(n) for n in range(6)]})
    assert "In components: Must be 5 or fewer in length." in text
    fails_loudly(double, "components")


async def test_a_duplicated_custom_id_and_an_unknown_query_are_refused(
    double: DiscordDouble, http: discord.Client
) -> None:
    twice = [row(0, custom_id="same"), row(1, custom_id="same")]
    text = await refused(double, http, {"content": "x", "components": twice})
    assert "In components.1.custom_id: Component custom id cannot be duplicated" in text
    fails_loudly(double, r"components\.1\.custom_id")
    route = Route("GET", MESSAGES, channel_id=double.channel.id)
    with pytest.raises(discord.HTTPException, match=r"In query\.limit: 500 is greater"):
        await http.http.request(route, params={"limit": 500})
    with pytest.raises(AssertionError, match=r"violation: GET .*\n\s+query\.limit: "):
        double.assert_clean()
    double.violations.clear()


async def test_a_double_left_with_a_violation_fails_without_the_fixture() -> None:
    """The load run and the shard tests use `async with DiscordDouble()` without the fixture's
    assert_clean: leaving it fails too."""
    with pytest.raises(AssertionError, match=r"violation: POST .*\n\s+components: Must be 5"):
        async with DiscordDouble() as double:
            client = discord.Client(intents=discord.Intents.default())
            await client.login(double.token)
            try:
                await refused(double, client, {"components": [row(n) for n in range(6)]})
            finally:
                await client.close()


async def test_an_answer_of_the_double_off_the_spec_fails_the_test(
    double: DiscordDouble, http: discord.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = User.payload

    def numeric_id(user: User) -> dict[str, Any]:
        return {**plain(user), "id": user.id}

    monkeypatch.setattr(User, "payload", numeric_id)
    await http.fetch_user(double.state.bot.id)
    (violation,) = double.violations
    assert violation.side == "answer"
    bot_id = double.state.bot.id
    assert [str(p) for p in violation.problems] == [f"id: {bot_id} is not of type 'string'"]
    double.violations.clear()


async def test_a_rate_limit_answer_carries_code(double: DiscordDouble) -> None:
    problems = spec().response_problems(
        "POST", "/channels/1/messages", 429, "application/json",
        b'{"message": "You are being rate limited.", "retry_after": 0.05, "global": false}',
    )
    assert [str(p) for p in problems] == ["body: 'code' is a required property"]


def test_ids_may_be_sent_as_numbers_but_are_answered_as_strings() -> None:
    body = {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}
    json = "application/json"
    assert spec().request_problems("POST", "/channels/1/messages", {}, json, body) == []
    answer = (b'{"id": 5, "username": "a", "avatar": null, "discriminator": "0",'
              b' "public_flags": 0, "flags": 0, "global_name": null, "primary_guild": null}')
    problems = spec().response_problems("GET", "/users/5", 200, json, answer)
    assert [str(p) for p in problems] == ["id: 5 is not of type 'string'"]


def errors_of(check: Any, body: Any) -> list[str]:
    errors = PayloadErrors()
    check(body, errors)
    return [str(p) for p in problems_of(errors.errors)]


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "ofc", "description": "Play", "type": 1, **fields}


def test_command_names_descriptions_choices_and_locales_are_checked() -> None:
    assert errors_of(check_command, command()) == []
    assert errors_of(check_command, command(name="Ofc")) == [
        "name: Invalid command name 'Ofc': lowercase, no spaces"]
    assert errors_of(check_command, command(description="d" * 101)) == [
        "description: Must be between 1 and 100 in length."]
    assert errors_of(check_command, command(name_localizations={"xx": "ofc"})) == [
        "name_localizations.xx: Invalid locale"]
    choices: list[dict[str, Any]] = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    choices[0] = {"name": "n" * 101, "value": "v" * 101, "name_localizations": {"ru": ""}}
    option = {"type": 3, "name": "variant", "description": "Variant", "choices": choices}
    assert errors_of(check_command, command(options=[option])) == [
        "options.0.choices: Must be 25 or fewer in length.",
        "options.0.choices.0.name: Must be between 1 and 100 in length.",
        "options.0.choices.0.name_localizations.ru: Must be between 1 and 100 in length.",
        "options.0.choices.0.value: Must be 100 or fewer in length.",
    ]
    optional = {"type": 3, "name": "a", "description": "A"}
    required = {"type": 3, "name": "b", "description": "B", "required": True}
    assert errors_of(check_command, command(options=[optional, required])) == [
        "options.1.required: Required options must be placed before optional"]


def test_a_commands_size_counts_each_fields_longest_localization() -> None:
    # name 3 (ofc) + description 11 (the Russian) + option name 7 (вариант) + description 7
    # + choice name 9 (Ананасик, 8; the English "Pineapple" is 9) + value 9 (pineapple)
    payload = command(
        description_localizations={"ru": "Играть в OF"},
        options=[{
            "type": 3, "name": "variant", "name_localizations": {"ru": "вариант"},
            "description": "Variant",
            "choices": [{"name": "Pineapple", "name_localizations": {"ru": "Ананасик"},
                         "value": "pineapple"}],
        }],
    )
    assert command_size(payload) == 3 + 11 + 7 + 7 + 9 + 9
    options = [{"type": 3, "name": f"o{j}", "description": "d" * 100} for j in range(3)]
    big = command(options=[
        {"type": 1, "name": f"s{i:02}", "description": "d" * 100, "options": options}
        for i in range(25)
    ])
    assert command_size(big) == 3 + 4 + 25 * (3 + 100 + 3 * (2 + 100)) > COMMAND_SIZE_LIMIT
    assert errors_of(check_command, big) == [
        f"body: Application command exceeds maximum size (8000): {command_size(big)}"]


def test_message_limits_the_schema_leaves_out() -> None:
    select = {"type": 3, "custom_id": "pick", "placeholder": "p" * 151,
              "options": [{"label": "l" * 101, "value": "v"}]}
    embed = {"title": "t", "description": "d" * 4000, "footer": {"text": "f" * 2049}}
    body = {"content": "c" * 2001, "embeds": [embed], "components": [
        {"type": 1, "components": [select]}]}
    assert sorted(errors_of(check_message, body)) == [
        "components.0.options.0.label: Must be 100 or fewer in length.",
        "components.0.placeholder: Must be 150 or fewer in length.",
        "content: Must be 2000 or fewer in length.",
        "embeds.0.footer.text: Must be 2048 or fewer in length.",
        "embeds: Embed size exceeds maximum size of 6000",
    ]
    layout = {"flags": 1 << 15, "components": [{"type": 10, "content": "x" * 2001}] * 2}
    assert errors_of(check_message, layout) == [
        "components: Text displays hold at most 4000 characters, not 4002"]


class Layout(discord.ui.LayoutView):
    """Discord's newer message layout as discord.py builds it: a container of text, a section
    with a button beside it, an image gallery, a row of buttons and a select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        row: discord.ui.ActionRow[Layout] = discord.ui.ActionRow()
        row.add_item(discord.ui.Button(label="Top", custom_id="place:top"))
        row.add_item(discord.ui.Button(label="Bottom", custom_id="place:bottom"))
        choose: discord.ui.ActionRow[Layout] = discord.ui.ActionRow()
        choose.add_item(discord.ui.Select(custom_id="pick", placeholder="Card", options=[
            discord.SelectOption(label="A♠", value="As")]))
        self.add_item(discord.ui.Container(
            discord.ui.TextDisplay("## Hand 1 · street 2"),
            discord.ui.Section(
                discord.ui.TextDisplay("alice 12 pts"),
                accessory=discord.ui.Button(label="Confirm", custom_id="confirm"),
            ),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
            discord.ui.Separator(),
            row,
            choose,
            accent_colour=discord.Colour.green(),
        ))


async def test_a_components_v2_layout_from_discord_py_is_accepted(
    double: DiscordDouble, http: discord.Client
) -> None:
    channel = await http.fetch_channel(double.channel.id)
    assert isinstance(channel, discord.TextChannel)
    image = discord.File(io.BytesIO(b"\x89PNG"), filename="board.png")
    message = await channel.send(view=Layout(), file=image)
    shown = double.state.message(double.channel, message.id)
    assert shown.flags & (1 << 15)
    assert [c["type"] for c in shown.components] == [17]
    (gallery,) = [c for c in shown.components[0]["components"] if c["type"] == 12]
    (uploaded,) = shown.attachments
    assert gallery["items"][0]["media"]["url"] == uploaded.url  # attachment:// resolved
    assert gallery["items"][0]["media"]["attachment_id"] == str(uploaded.id)
    assert double.violations == []
