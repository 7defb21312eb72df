"""Discord's v10 REST routes as the double serves them, over `DoubleState`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .model import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from .state import ApiError, Upload, unknown

if TYPE_CHECKING:
    from .model import Channel
    from .server import DiscordDouble
    from .state import Interaction

API = "/api/v10"
BODY = web.RequestKey("body", object)
UPLOADS = web.RequestKey("uploads", list)
AFTER = web.RequestKey("after", list)
"""Callables to run once the request is answered and recorded."""


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """discord.py decodes a body only when Content-Type is exactly `application/json`."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body, or a multipart body's payload_json and its files[n] parts."""
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""  # type: ignore[union-attr]
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(data)
            elif name.startswith("files[") and name.endswith("]"):
                uploads.append(
                    Upload(
                        index=int(name[6:-1]),
                        filename=part.filename or name,  # type: ignore[union-attr]
                        content_type=part.headers.get("Content-Type", "application/octet-stream"),
                        data=bytes(data),
                    )
                )
        return payload, uploads
    text = await request.text()
    return (json.loads(text) if text else None), []


def refuse_beyond_limits(check: Callable[[Any, limits.PayloadErrors], None], body: Any) -> None:
    """Discord's 400 / 50035 naming each field of `body` past one of its documented limits."""
    errors = limits.PayloadErrors()
    check(body, errors)
    if errors.errors:
        raise ApiError(400, 50035, "Invalid Form Body", errors.errors)


def snowflake(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {
                key: {
                    "_errors": [
                        {"code": "NUMBER_TYPE_COERCE", "message": "Value is not snowflake."}
                    ]
                }
            },
        ) from None


class Rest:
    """The route table; every handler reads the parsed body from `request[BODY]`."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.state = double.state

    def routes(self) -> list[web.RouteDef]:
        r = web
        commands = "/applications/{application_id}/commands"
        guild_commands = "/applications/{application_id}/guilds/{guild_id}/commands"
        webhook_message = "/webhooks/{application_id}/{token}/messages/{message_id}"
        table = [
            r.get("/users/@me", self.get_me),
            r.post("/users/@me/channels", self.create_dm),
            r.get("/users/{user_id}", self.get_user),
            r.get("/oauth2/applications/@me", self.application_info),
            r.get("/applications/@me", self.application_info),
            r.get(commands, self.list_commands),
            r.put(commands, self.put_commands),
            r.post(commands, self.post_command),
            r.get(commands + "/{command_id}", self.get_command),
            r.patch(commands + "/{command_id}", self.patch_command),
            r.delete(commands + "/{command_id}", self.delete_command),
            r.get(guild_commands, self.list_commands),
            r.put(guild_commands, self.put_commands),
            r.post(guild_commands, self.post_command),
            r.get(guild_commands + "/{command_id}", self.get_command),
            r.patch(guild_commands + "/{command_id}", self.patch_command),
            r.delete(guild_commands + "/{command_id}", self.delete_command),
            r.get("/gateway", self.gateway),
            r.get("/gateway/bot", self.gateway_bot),
            r.get("/guilds/{guild_id}", self.get_guild),
            r.get("/guilds/{guild_id}/channels", self.guild_channels),
            r.get("/guilds/{guild_id}/members/{user_id}", self.get_member),
            r.get("/channels/{channel_id}", self.get_channel),
            r.patch("/channels/{channel_id}", self.patch_channel),
            r.delete("/channels/{channel_id}", self.delete_channel),
            r.post("/channels/{channel_id}/typing", self.typing),
            r.get("/channels/{channel_id}/messages", self.list_messages),
            r.post("/channels/{channel_id}/messages", self.create_message),
            r.get("/channels/{channel_id}/messages/{message_id}", self.get_message),
            r.patch("/channels/{channel_id}/messages/{message_id}", self.edit_message),
            r.delete("/channels/{channel_id}/messages/{message_id}", self.delete_message),
            r.post("/channels/{channel_id}/threads", self.create_thread),
            r.post("/channels/{channel_id}/messages/{message_id}/threads", self.create_thread),
            r.put("/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            r.post("/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            r.post("/webhooks/{application_id}/{token}", self.followup),
            r.get(webhook_message, self.get_webhook_message),
            r.patch(webhook_message, self.edit_webhook_message),
            r.delete(webhook_message, self.delete_webhook_message),
        ]
        return [web.route(d.method, API + d.path, d.handler) for d in table]  # type: ignore[attr-defined]

    # -- users and application -------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.state.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.state.users.get(snowflake(request, "user_id"))
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body = request[BODY] or {}
        user = self.state.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            raise unknown("User", 10013)
        return json_response(self.state.dm_channel(user).payload())

    async def application_info(self, request: web.Request) -> web.Response:
        state = self.state
        return json_response(
            {
                "id": str(state.application_id),
                "name": state.bot.global_name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": state.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "type": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(state.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
                "team": None,
                "bot": state.bot.payload(),
            }
        )

    # -- application commands --------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        if snowflake(request, "application_id") != self.state.application_id:
            raise ApiError(403, 50001, "Missing Access")
        return snowflake(request, "guild_id") if "guild_id" in request.match_info else None

    async def list_commands(self, request: web.Request) -> web.Response:
        return json_response(self.state.command_list(self._command_scope(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        bodies = list(request[BODY] or [])
        refuse_beyond_limits(limits.check_commands, bodies)
        return json_response(self.state.replace_commands(scope, bodies))

    async def post_command(self, request: web.Request) -> web.Response:
        refuse_beyond_limits(limits.check_command, request[BODY])
        return json_response(
            self.state.upsert_command(self._command_scope(request), request[BODY]), 201
        )

    async def get_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        return json_response(self.state.command(scope, snowflake(request, "command_id")))

    async def patch_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        command = self.state.command(scope, snowflake(request, "command_id"))
        changed = {**command, **request[BODY]}
        refuse_beyond_limits(limits.check_command, changed)
        return json_response(self.state.upsert_command(scope, changed))

    async def delete_command(self, request: web.Request) -> web.Response:
        self.state.delete_command(self._command_scope(request), snowflake(request, "command_id"))
        return no_content()

    # -- gateway and guilds ----------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.double.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": self.double.gateway_url, "shards": self.double.shard_count,
             "session_start_limit": limit}
        )

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.state.guild(snowflake(request, "guild_id"))
        data = guild.payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self.state.guild(snowflake(request, "guild_id"))
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.state.guild(snowflake(request, "guild_id"))
        member = guild.members.get(snowflake(request, "user_id"))
        if member is None:
            raise unknown("Member", 10007)
        return json_response(member.payload())

    # -- channels and messages -------------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel:
        return self.state.channel(snowflake(request, "channel_id"))

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).payload())

    async def patch_channel(self, request: web.Request) -> web.Response:
        channel = await self.state.update_channel(self._channel(request), request[BODY] or {})
        return json_response(channel.payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        return json_response(await self.state.delete_channel(self._channel(request)))

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        visible = [
            m
            for m in channel.messages
            if not m.deleted and not m.ephemeral and after < m.id < before
        ]
        chosen = visible[:limit] if "after" in request.query else visible[-limit:]
        return json_response([m.payload() for m in reversed(chosen)])

    def _bot_may(self, channel: Channel, *needed: int) -> None:
        """Discord's permission checks on the bot's channel routes (interaction responses
        need none): 50001 without View Channel, 50013 without a permission in `needed`."""
        guild = self.state.guild_of(channel)
        if guild is None:
            return
        allowed = guild.permissions_in(self.state.bot.id, channel)
        if not allowed & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if any(not allowed & bit for bit in needed):
            raise ApiError(403, 50013, "Missing Permissions")

    async def create_message(self, request: web.Request) -> web.Response:
        body, uploads = request[BODY] or {}, request[UPLOADS]
        channel = self._channel(request)
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        self._bot_may(channel, send, *([ATTACH_FILES] if uploads else []))
        message = await self.state.create_message(channel, body, uploads)
        return json_response(message.payload())

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(
            self.state.message(channel, snowflake(request, "message_id")).payload()
        )

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self.state.message(channel, snowflake(request, "message_id"))
        body, uploads = request[BODY] or {}, request[UPLOADS]
        self._bot_may(channel, *([ATTACH_FILES] if uploads else []))
        return json_response(
            (await self.state.edit_message(channel, message, body, uploads)).payload()
        )

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        await self.state.delete_message(
            channel, self.state.message(channel, snowflake(request, "message_id"))
        )
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        source = None
        body = request[BODY] or {}
        if "message_id" in request.match_info:
            source = self.state.message(channel, snowflake(request, "message_id"))
        public = source is not None or int(body.get("type") or 0) == PUBLIC_THREAD
        self._bot_may(channel, CREATE_PUBLIC_THREADS if public else CREATE_PRIVATE_THREADS)
        thread = await self.state.create_thread(channel, body, from_message=source)
        return json_response(thread.payload(), 201)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        raw = request.match_info["user_id"]
        user_id = self.state.bot.id if raw == "@me" else snowflake(request, "user_id")
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        thread.thread_members.add(user_id)
        self.state.changed()
        return no_content()

    # -- interactions and their webhooks ---------------------------------------------------

    async def interaction_callback(self, request: web.Request) -> web.Response:
        interaction = self.state.interaction(
            snowflake(request, "interaction_id"), request.match_info["token"]
        )
        answer = await self.state.callback(interaction, request[BODY] or {}, request[UPLOADS])
        request[AFTER].append(interaction.mark_answered)
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(answer)
        return no_content()

    def _webhook(self, request: web.Request) -> Interaction:
        return self.state.webhook_interaction(
            snowflake(request, "application_id"), request.match_info["token"]
        )

    async def followup(self, request: web.Request) -> web.Response:
        message = await self.state.followup(
            self._webhook(request), request[BODY] or {}, request[UPLOADS]
        )
        return json_response(message.payload())

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        message = self.state.webhook_message(
            self._webhook(request), request.match_info["message_id"]
        )
        return json_response(message.payload())

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        message = await self.state.edit_webhook_message(
            self._webhook(request),
            request.match_info["message_id"],
            request[BODY] or {},
            request[UPLOADS],
        )
        return json_response(message.payload())

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        await self.state.delete_webhook_message(
            self._webhook(request), request.match_info["message_id"]
        )
        return no_content()

    # -- the CDN ---------------------------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.Response:
        found = self.state.attachments.get(str(request.url.with_query(None)))
        if found is None:
            raise unknown("Attachment", 0)
        return web.Response(body=found.data, headers={"Content-Type": found.content_type})
