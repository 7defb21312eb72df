"""The gateway websocket: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME with the
events missed while disconnected, member chunks, and dispatch of events to every session."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, WSMsgType, web

from .state import GUILDS_INTENT

if TYPE_CHECKING:
    from .server import DiscordDouble

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
AUTHENTICATION_FAILED, INVALID_SHARD = 4004, 4010


@dataclass
class Session:
    """A gateway session: survives a dropped connection until resumed or invalidated."""

    id: str
    intents: int
    shard: tuple[int, int] | None = None
    """[shard_id, shard_count] from IDENTIFY; None: every guild and every event."""
    sequence: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    socket: Connection | None = None

    def routes(self, guild_id: int | None) -> bool:
        """Does Discord send this guild's events (None: a DM's) to this session?"""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)


class Connection:
    """One websocket, with zlib-stream compression when the client asked for it."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._zlib = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload)
        async with self._lock:
            if self.ws.closed:
                raise ConnectionResetError("gateway socket closed")
            if self._zlib is None:
                await self.ws.send_str(text)
            else:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


class Gateway:
    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.received: list[dict[str, Any]] = []
        """Every payload a client sent (heartbeats included), for tests of the gateway."""

    @property
    def ready_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.socket is not None]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request.query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        session: Session | None = None
        try:
            await conn.send(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.received.append(payload)
                session = await self._receive(conn, payload) or session
        finally:
            self.connections.discard(conn)
            if session is not None and session.socket is conn:
                # Kept for a RESUME: close codes cannot tell a bot's shutdown from a drop, since
                # discord.py answers either with 4000; `DiscordDouble.stop_client` ends sessions.
                session.socket = None
            self.double.state.changed()
        return ws

    async def _receive(self, conn: Connection, payload: dict[str, Any]) -> Session | None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            return await self._identify(conn, data)
        elif op == RESUME:
            return await self._resume(conn, data)
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(conn, data)
        return None

    def _token_ok(self, token: str | None) -> bool:
        return token is not None and token.removeprefix("Bot ") == self.double.token

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if not self._token_ok(data.get("token")):
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None and not (
                isinstance(shard, list) and len(shard) == 2
                and all(isinstance(n, int) for n in shard) and 0 <= shard[0] < shard[1]):
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents") or 0),
                          shard=None if shard is None else (shard[0], shard[1]))
        self.sessions[session.id] = session
        state = self.double.state
        guilds = [g for g in state.guilds.values() if session.routes(g.id)]
        ready = {
            "v": 10,
            "user": {**state.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.double.gateway_url,
            "application": {"id": str(state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        session.socket = conn
        await self._send_event(session, "READY", ready)
        for guild in guilds:
            await self._send_event(session, "GUILD_CREATE", guild.payload())
        state.changed()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or not self._token_ok(data.get("token")):
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        if session.socket is not None and session.socket is not conn:
            await session.socket.ws.close(code=4009)
        session.socket = conn
        after = int(data.get("seq") or 0)
        for payload in session.sent:
            if payload["s"] > after:
                await conn.send(payload)
        await self._send_event(session, "RESUMED", {})
        self.double.state.changed()
        return session

    async def _members_chunk(self, conn: Connection, data: dict[str, Any]) -> None:
        guild = self.double.state.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (m.user.id in wanted if wanted else m.user.username.lower().startswith(query))
        ]
        chunk = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        }
        for session in self.sessions.values():
            if session.socket is conn:
                await self._send_event(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_event(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.sequence += 1
        payload = {"op": DISPATCH, "t": event, "s": session.sequence, "d": data}
        if event != "RESUMED":
            session.sent.append(payload)
        if session.socket is not None:
            with contextlib.suppress(ConnectionResetError):  # kept in `sent` for a RESUME
                await session.socket.send(payload)

    async def dispatch(
        self, event: str, data: dict[str, Any], intent: int | None = GUILDS_INTENT
    ) -> None:
        """Send an event to every session whose intents ask for it (`intent=None`: to all, as
        INTERACTION_CREATE goes whatever the intents) and whose shard owns its guild, as
        Discord routes: `(guild_id >> 22) % shard_count`; an event of no guild (a DM, a click
        in a DM) to shard 0 only."""
        whole_guild = event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")
        guild = data.get("id") if whole_guild else data.get("guild_id")
        for session in list(self.sessions.values()):
            if (intent is None or session.intents & intent) and session.routes(
                    None if guild is None else int(guild)):
                await self._send_event(session, event, data)

    async def drop_connections(self, code: int = 4000) -> None:
        """Cut every socket as a network failure would: sessions stay resumable."""
        for conn in list(self.connections):
            await conn.ws.close(code=code)

    async def request_reconnect(self) -> None:
        """Op 7: Discord asks the client to reconnect and resume."""
        for conn in list(self.connections):
            await conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.ws.close(code=WSCloseCode.GOING_AWAY)
