"""Clicks in DMs, handed from shard 0's process to the process that runs their table.

Discord sends every event without a server, so every click in a DM, to shard 0 only (its
gateway documentation: "Gateway events that do not contain a guild_id will only be sent to the
first shard"). A DM prompt's buttons belong to a table, which belongs to a server, which may
be another process's shard. Any process can answer an interaction (its id and token are
enough: the answer is an HTTP call to Discord), so shard 0's process forwards the raw
INTERACTION_CREATE payload to the table's process, which handles it exactly as if its own
gateway had delivered it. Each process listens on `OFC_RELAY_ADDRESS`, published with its
shard leases (bot/storage/leases.py). A payload is signed with a key derived from the bot's
token (HMAC-SHA256), which every process of the bot has and nobody else does, so nobody can
inject clicks.

aiohttp (discord.py's own HTTP library) serves and sends; no discord import here.
"""

import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web

log = logging.getLogger(__name__)

PATH = "/interactions"
SIGNATURE = "X-OFC-Signature"
TIMEOUT_SECONDS = 1.5  # half of Discord's 3 s: the click still gets its answer after a failure


class RelayError(Exception):
    """The payload could not be handed over (nobody listening, refused, too slow)."""


def relay_key(token: str) -> bytes:
    return hashlib.sha256(b"ofc-relay:" + token.encode()).digest()


def _sign(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


async def _nobody(payload: dict[str, Any]) -> bool:
    return False


class Relay:
    """Serves `POST /interactions` for `deliver(payload)` (True: taken, 202; False: not this
    process's, 409), and forwards payloads to other processes' relays."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self.deliver: Callable[[dict[str, Any]], Awaitable[bool]] = _nobody
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.address = ""  # where it listens, once started (the real port when given 0)
        self.received = 0
        self.forwarded = 0

    async def start(self, address: str) -> str:
        host, _, port = address.rpartition(":")
        app = web.Application()
        app.router.add_post(PATH, self._receive)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, int(port))
        await site.start()
        bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]
        self.address = f"{host}:{bound[1]}"
        return self.address

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def forward(self, address: str, payload: dict[str, Any]) -> None:
        """Hand `payload` to the relay at `address`; RelayError when it did not take it."""
        body = json.dumps(payload).encode()
        if self._session is None:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS))
        try:
            async with self._session.post(f"http://{address}{PATH}", data=body, headers={
                    SIGNATURE: _sign(self._key, body),
                    "Content-Type": "application/json"}) as response:
                if response.status != 202:
                    raise RelayError(f"the relay at {address} answered {response.status}")
        except (aiohttp.ClientError, TimeoutError) as error:
            raise RelayError(f"the relay at {address} is unreachable: {error}") from error
        self.forwarded += 1

    async def _receive(self, request: web.Request) -> web.Response:
        body = await request.read()
        if not hmac.compare_digest(request.headers.get(SIGNATURE, ""), _sign(self._key, body)):
            log.warning("relay: refused a payload with a bad signature from %s",
                        request.remote)
            return web.Response(status=403)
        try:
            payload = json.loads(body)
        except ValueError:
            return web.Response(status=400)
        if not await self.deliver(payload):
            return web.Response(status=409)
        self.received += 1
        return web.Response(status=202)
