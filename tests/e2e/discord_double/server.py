"""`DiscordDouble`: Discord's REST API and gateway on 127.0.0.1, for real discord.py clients.

async with DiscordDouble() as double:
    alice = double.add_member("alice")
    await double.start_client(bot)          # real discord.py HTTP + websocket
    answer = await alice.slash("ofc create", variant="pineapple")
    ...
    await double.stop_client(bot)           # then start another: a restart
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .gateway import Gateway
from .limits import PayloadErrors, problems_of
from .model import MEMBER_OVERWRITE, ROLE_OVERWRITE, Channel, Guild, Message, Overwrite, Role
from .openapi import Problem, spec
from .rest import AFTER, API, BODY, UPLOADS, Rest, json_response, read_body
from .state import PATIENCE, ApiError, DoubleState, Interaction
from .users import Member

LOOPBACK = "127.0.0.1"
INVALID_FORM_BODY = 50035
_PUBLIC_ROUTES = (API + "/webhooks/", API + "/interactions/")


@dataclass
class RecordedRequest:
    """One HTTP request a client made to the double, and the status it got."""

    method: str
    path: str
    route: str
    """The route template without the API prefix, e.g. `/channels/{channel_id}/messages`."""
    query: dict[str, str]
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    """(filename, bytes) of each uploaded file."""
    status: int = 0
    unexpected: bool = False
    """True for a route the double does not know (answered 404): the bot did something new."""


@dataclass
class Violation:
    """A request Discord would refuse (its OpenAPI schemas or its documented limits), or an
    answer of the double that Discord's specification does not promise."""

    side: str
    """"request" (the client's fault) or "answer" (the double's)."""
    method: str
    path: str
    problems: list[Problem]

    def __str__(self) -> str:
        whose = "Discord refuses this request" if self.side == "request" else (
            "the double's answer breaks Discord's specification")
        lines = "".join(f"\n    {p}" for p in self.problems)
        return f"{self.method} {self.path}: {whose}:{lines}"


@dataclass
class RateLimit:
    method: str
    route: str
    times: int
    retry_after: float
    is_global: bool

    def response(self) -> web.Response:
        scope = "global" if self.is_global else "user"
        headers = {
            "Retry-After": str(math.ceil(self.retry_after)),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": _bucket(self.route),
            "X-RateLimit-Scope": scope,
            # discord.py treats a 429 without `Via` as a Cloudflare ban, not a rate limit.
            "Via": "1.1 google",
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "code": 0,
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": self.is_global,
        }
        return json_response(body, 429, headers)


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    return None


def _bucket(route: str) -> str:
    return hashlib.md5(route.encode()).hexdigest()


def _quota_headers(route: str) -> dict[str, str]:
    """A generous quota on every answer, so discord.py's bucket logic runs but never waits."""
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": _bucket(route),
    }


@dataclass
class Hold:
    """Requests to `method route` (in `channel_id` only, when given) wait until `release()`:
    a slow Discord, made deterministic. `held` counts the requests that came while holding."""

    method: str
    route: str
    channel_id: int | None = None
    held: int = 0
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def matches(self, method: str, route: str, channel_id: str | None) -> bool:
        return (method, route) == (self.method, self.route) and (
            self.channel_id is None or channel_id == str(self.channel_id))

    def release(self) -> None:
        self.released.set()


class ErrorLog(logging.Handler):
    """ERROR records from the watched loggers (discord.py's by default: an exception in a
    command, a view or an event handler)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [
            f"{r.name}: {r.getMessage()}\n{self.format(r) if r.exc_info else ''}"
            for r in self.records
        ]


class DiscordDouble:
    """A local Discord: one guild (`guild`) with one text channel (`channel`) to start with."""

    def __init__(
        self,
        *,
        token: str = "ZG91YmxlLWJvdA.double.token",
        guild_name: str = "OFC Test Server",
        channel_name: str = "ofc-table",
        guild_ready_timeout: float = 0.05,
        watched_loggers: tuple[str, ...] = ("discord",),
        shard_count: int = 1,
    ) -> None:
        self.token = token
        self.shard_count = shard_count
        """What GET /gateway/bot recommends; guilds are routed by the shard each IDENTIFY
        names (`add_guild(shard=)` puts one on a shard)."""
        self.watched_loggers = watched_loggers
        self.guild_ready_timeout = guild_ready_timeout
        self.state = DoubleState(base_url=lambda: self.base_url, dispatch=self._dispatch)
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        self.requests: list[RecordedRequest] = []
        self.escaped: list[str] = []
        """Requests a client tried to send anywhere but the double (blocked)."""
        self.violations: list[Violation] = []
        """Requests refused for breaking Discord's specification or limits (answered 400 /
        50035 naming the fields), and answers of the double that break the specification.
        Any left fails `assert_clean` and the end of `async with DiscordDouble()`."""
        self.errors = ErrorLog()
        self.reaction_time = 0.05
        """Seconds a scripted user waits after a message changed before clicking it (or after
        a modal opened before submitting it): a person cannot click what the bot has not yet
        finished sending, and the bot stores a view only once it has its answer."""
        # On shard 0 whatever the shard count from 1 to 8 (840 is a multiple of each).
        self.guild: Guild = self.state.add_guild(guild_name, 0, 840)
        self.channel: Channel = self.state.add_text_channel(self.guild, channel_name)
        self._rate_limits: list[RateLimit] = []
        self._holds: list[Hold] = []
        self._clients: dict[discord.Client, asyncio.Task[None]] = {}
        self._members: dict[int, Member] = {}
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> DiscordDouble:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_routes(self.rest.routes())
        app.router.add_get("/ws", self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self.rest.attachment
        )
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, LOOPBACK, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        # discord.py reads both when it builds a Route or opens the gateway: point them here.
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.api_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        for name in self.watched_loggers:
            logging.getLogger(name).addHandler(self.errors)
        return self

    async def __aexit__(self, kind: object, *exc: object) -> None:
        try:
            await self._close()
        finally:
            # A test that ends on its own failure keeps it; otherwise a violation fails it.
            assert kind is not None or not self.violations, "\n".join(self._violation_lines())

    async def _close(self) -> None:
        for client in list(self._clients):
            await self.stop_client(client)
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        for name in self.watched_loggers:
            logging.getLogger(name).removeHandler(self.errors)

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def api_url(self) -> str:
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}/ws"

    # -- clients ---------------------------------------------------------------------------

    async def start_client(self, client: discord.Client, *, timeout: float = PATIENCE) -> None:
        """Log `client` in with the double's token and wait for on_ready. Its HTTP session may
        reach only the double: any other URL is blocked and recorded in `escaped`."""
        guard = self._loopback_guard()
        if client.http.http_trace is not None:  # the client's own trace (the bot's metrics)
            client.http.http_trace.on_request_start.extend(guard.on_request_start)
        else:
            client.http.http_trace = guard
        # Ready fires this long after the last GUILD_CREATE; Discord's 2 s would slow every test.
        client._connection.guild_ready_timeout = self.guild_ready_timeout
        # discord.py waits 5 s between two shards' IDENTIFYs (Discord's identify rate limit,
        # which the double does not have).
        client.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
        task = asyncio.create_task(
            client.start(self.token), name=f"discord-double-client-{id(client)}"
        )
        self._clients[client] = task
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not client.is_ready():
            if task.done():
                self._clients.pop(client)
                task.result()
                raise RuntimeError("the client stopped before it was ready")
            if loop.time() > deadline:
                await self.stop_client(client)
                raise TimeoutError(f"the client was not ready within {timeout} s")
            await asyncio.sleep(0.01)

    async def stop_client(self, client: discord.Client) -> None:
        """Close `client` as a bot shutting down does: its gateway session ends for good."""
        task = self._clients.pop(client, None)
        if isinstance(client, discord.AutoShardedClient):  # one session per shard
            sockets = [shard._parent.ws for shard in client.shards.values()]  # type: ignore[attr-defined]
        else:
            sockets = [client.ws]
        session_ids = [ws.session_id for ws in sockets if ws is not None]
        await client.close()
        if task is not None:
            await asyncio.wait_for(task, 10)
        for session_id in session_ids:
            session = self.gateway.sessions.get(session_id or "")
            if session is not None:
                # discord.py closes with 4000 (resumable); a stopped bot never resumes: end it.
                await self.state.wait_until(
                    lambda s=session: s.socket is None, 5.0, "the gateway socket to close"
                )
                self.gateway.sessions.pop(session.id, None)

    def _loopback_guard(self) -> aiohttp.TraceConfig:
        trace = aiohttp.TraceConfig()

        async def on_request_start(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
        ) -> None:
            url = params.url
            if url.host != LOOPBACK or url.port != self.port:
                self.escaped.append(f"{params.method} {url}")
                raise aiohttp.ClientConnectionError(
                    f"the Discord double blocked a request to {url}"
                )

        trace.on_request_start.append(on_request_start)
        return trace

    # -- the world -------------------------------------------------------------------------

    def add_member(
        self, name: str, *, roles: tuple[Role, ...] = (), guild: Guild | None = None,
        locale: str = "en-US", bot: bool = False,
    ) -> Member:
        """A person in the guild (before the bot connects, or announced by GUILD_CREATE only
        on its next connect), whose Discord client is in `locale` (sent with each of their
        interactions); `bot=True`: another bot's account instead."""
        guild = guild or self.guild
        user = self.state.add_user(name, bot=bot)
        self.state.join(guild, user, roles)
        member = Member(self, user, guild, locale)
        self._members[user.id] = member
        return member

    def member(self, user_id: int) -> Member:
        return self._members[user_id]

    def add_role(self, name: str, permissions: int, *, guild: Guild | None = None) -> Role:
        return self.state.add_role(guild or self.guild, name, permissions)

    async def set_permissions(
        self,
        channel: Channel,
        target: Member | Role | None = None,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """The channel's permission overwrite for `target` (a member, a role, or None for
        @everyone), as a server admin sets it: interactions there carry the permissions it
        gives (`app_permissions` for the bot), the bot's channel routes answer 403 without
        them, and a connected bot gets CHANNEL_UPDATE. `allow=0, deny=0` removes it."""
        guild = self.state.guild_of(channel)
        assert guild is not None, "overwrites are for a server's channels"
        if target is None:
            key, kind = guild.id, ROLE_OVERWRITE
        elif isinstance(target, Role):
            key, kind = target.id, ROLE_OVERWRITE
        else:
            key, kind = target.id, MEMBER_OVERWRITE
        if allow or deny:
            channel.overwrites[key] = Overwrite(key, kind, allow, deny)
        else:
            channel.overwrites.pop(key, None)
        await self.gateway.dispatch("CHANNEL_UPDATE", channel.payload())
        self.state.changed()

    def add_text_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        return self.state.add_text_channel(guild or self.guild, name)

    async def create_text_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        """A channel a server admin creates while the bot is connected: the bot gets
        CHANNEL_CREATE (a channel added by `add_text_channel` is one the bot's cache never
        saw, as if it came while it was away)."""
        channel = self.add_text_channel(name, guild=guild)
        await self.gateway.dispatch("CHANNEL_CREATE", channel.payload())
        self.state.changed()
        return channel

    async def delete_channel(self, channel: Channel, *, announce: bool = True) -> None:
        """A moderator deletes `channel` (and its threads); `announce=False`: the clients miss
        the CHANNEL_DELETE event, and learn of it from a 404 Unknown Channel."""
        await self.state.delete_channel(channel, announce=announce)

    def add_guild(self, name: str, *, shard: int = 0) -> Guild:
        """A guild whose id puts it on `shard` of `shard_count` (what Discord routes by)."""
        return self.state.add_guild(name, shard, self.shard_count)

    def advance_to(self, epoch: float) -> None:
        """Discord's clock reads `epoch` (Unix seconds) now, if that is ahead of it (it never
        goes back): what is created from now on (interactions, messages) carries an id, and so
        a creation time, from there on."""
        flakes = self.state.snowflakes
        ahead = math.ceil(epoch * 1000) - math.floor(time.time() * 1000)
        flakes.ahead_ms = max(flakes.ahead_ms, ahead)

    def close_dms(self, member: Member) -> None:
        """From now on a DM to `member` fails with 403 / 50007, as with DMs closed."""
        self.state.closed_dms.add(member.id)

    def open_dms(self, member: Member) -> None:
        self.state.closed_dms.discard(member.id)

    # -- faults ----------------------------------------------------------------------------

    def rate_limit(
        self,
        method: str,
        route: str,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        """Answer the next `times` requests to `method route` (a template such as
        `/channels/{channel_id}/messages`) with 429 and Retry-After, as Discord does."""
        self._rate_limits.append(RateLimit(method.upper(), route, times, retry_after, is_global))

    def hold(self, method: str, route: str, *, channel_id: int | None = None) -> Hold:
        """Hold back every request to `method route` (a template such as
        `/channels/{channel_id}/messages`) until the returned hold is released."""
        hold = Hold(method.upper(), route, channel_id)
        self._holds.append(hold)
        return hold

    async def drop_gateway(self) -> None:
        """Cut the gateway socket as a network failure would; the client resumes."""
        await self.gateway.drop_connections()

    async def request_reconnect(self) -> None:
        """Discord's op 7 RECONNECT; the client reconnects and resumes."""
        await self.gateway.request_reconnect()

    # -- reading ---------------------------------------------------------------------------

    @property
    def unexpected(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.unexpected]

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == method.upper() and r.route == route]

    def messages(self, channel: Channel | None = None) -> list[Message]:
        """Public, undeleted messages of `channel` (default: the main channel), oldest first:
        what everybody sees there."""
        channel = channel or self.channel
        return [m for m in channel.messages if not m.deleted and not m.ephemeral]

    def last_message(self, channel: Channel | None = None) -> Message | None:
        found = self.messages(channel)
        return found[-1] if found else None

    async def wait_for_message(
        self,
        predicate: Callable[[Message], Any] | None = None,
        *,
        channel: Channel | None = None,
        after: Message | None = None,
        timeout: float = PATIENCE,
    ) -> Message:
        """The latest public message of `channel` (newer than `after`) satisfying `predicate`."""

        return await self.state.wait_for_latest(
            lambda: self.messages(channel), predicate, after, timeout, "a channel message"
        )

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float = PATIENCE, what: str = "a condition"
    ) -> Any:
        """Wait until `predicate()` is truthy (re-checked on every change in the double)."""
        return await self.state.wait_until(predicate, timeout, what)

    async def resolved(self, interaction: Interaction, *, timeout: float = PATIENCE) -> Message:
        """The interaction's response message once it is no longer "thinking"."""
        return await self.state.wait_until(
            lambda: (
                interaction.original
                if interaction.original and not interaction.original.loading
                else None
            ),
            timeout,
            f"the response to {interaction.description}",
        )

    def assert_clean(self) -> None:
        """No request left 127.0.0.1, none hit an unknown route, discord.py logged no error,
        and no request or answer broke Discord's specification or limits (`violations`)."""
        problems = [f"escaped: {u}" for u in self.escaped]
        problems += [f"unknown route: {r.method} {r.path}" for r in self.unexpected]
        problems += [f"logged: {line}" for line in self.errors.lines()]
        problems += self._violation_lines()
        assert not problems, "\n".join(problems)

    def _violation_lines(self) -> list[str]:
        return [f"violation: {v}" for v in self.violations]

    # -- plumbing --------------------------------------------------------------------------

    async def _dispatch(self, event: str, data: dict[str, Any], intent: int | None) -> None:
        await self.gateway.dispatch(event, data, intent)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/ws":
            return await handler(request)
        await self._wait_for_holds(request)
        async with self.state.busy:
            response = await self._handle(request, handler)
        self.state.changed()
        return response

    async def _wait_for_holds(self, request: web.Request) -> None:
        resource = request.match_info.route.resource
        route = (resource.canonical if resource else request.path).removeprefix(API)
        channel_id = request.match_info.get("channel_id")
        for hold in self._holds:
            if not hold.released.is_set() and hold.matches(request.method, route, channel_id):
                hold.held += 1
                await hold.released.wait()

    async def _handle(self, request: web.Request, handler: Any) -> web.StreamResponse:
        match = request.match_info
        route = match.route.resource.canonical if match.route.resource else request.path
        record = RecordedRequest(
            request.method, request.path, route.removeprefix(API), dict(request.query)
        )
        try:
            if match.http_exception is not None:
                record.unexpected = True
                raise ApiError(404, 0, "404: Not Found")
            record.json, uploads = await read_body(request)
            record.files = [(u.filename, u.data) for u in uploads]
            request[BODY], request[UPLOADS], request[AFTER] = record.json, uploads, []
            self._check_auth(request)
            self._check_request(request, record.json)
            limited = self._take_rate_limit(request.method, record.route)
            if limited is not None:
                response: web.StreamResponse = limited.response()
            else:
                response = await handler(request)
                response.headers.update(_quota_headers(record.route))
        except ApiError as error:
            if error.code == INVALID_FORM_BODY:
                problems = problems_of(error.errors or {}) or [Problem("body", error.message)]
                self._violate("request", request, problems)
            response = json_response(error.body(), error.status)
        self._check_answer(request, response)
        record.status = response.status
        self.requests.append(record)
        for after in request.get(AFTER, ()):
            after()
        return response

    def _check_request(self, request: web.Request, body: Any) -> None:
        """Refuse, as Discord does (400 / 50035 naming each field), what its OpenAPI schemas
        refuse; the double's own checks of Discord's documented limits come after."""
        if not request.path.startswith(API + "/"):
            return
        problems = spec().request_problems(
            request.method,
            request.path.removeprefix(API),
            request.query,
            request.content_type if request.can_read_body else None,
            body,
        )
        if problems:
            errors = PayloadErrors()
            for problem in problems:
                errors.add(problem.field, problem.message)
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors.errors)

    def _check_answer(self, request: web.Request, response: web.StreamResponse) -> None:
        if not request.path.startswith(API + "/") or request.match_info.http_exception:
            return
        body = response.body if isinstance(response, web.Response) else None
        problems = spec().response_problems(
            request.method,
            request.path.removeprefix(API),
            response.status,
            response.content_type if body else None,
            body if isinstance(body, bytes) else b"",
        )
        if problems:
            self._violate("answer", request, problems)

    def _violate(self, side: str, request: web.Request, problems: list[Problem]) -> None:
        self.violations.append(Violation(side, request.method, request.path, problems))

    def _check_auth(self, request: web.Request) -> None:
        public = request.path.startswith(_PUBLIC_ROUTES) or request.path == API + "/gateway"
        if public or not request.path.startswith(API):
            return
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _take_rate_limit(self, method: str, route: str) -> RateLimit | None:
        for rule in self._rate_limits:
            if rule.method == method and rule.route == route and rule.times > 0:
                rule.times -= 1
                return rule
        return None
