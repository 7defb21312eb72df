"""Clicks in DMs, handed from shard 0's process to the process that runs their table.

Discord sends every event without a server, so every click in a DM, to shard 0 only (its
gateway documentation: "Gateway events that do not contain a guild_id will only be sent to the
first shard"). A DM prompt's buttons belong to a table, which belongs to a server, which may
be another process's shard. Any process can answer an interaction (its id and token are
enough: the answer is an HTTP call to Discord), so shard 0's process forwards the raw
INTERACTION_CREATE payload to the table's process, which handles it exactly as if its own
gateway had delivered it. Each process listens on `OFC_RELAY_ADDRESS`, published with its
shard leases (bot/storage/leases.py).

What a message proves (docs/admins/relay.md):
- it comes from a process of this bot: the timestamp, a nonce and the payload are signed
  with a key derived from the bot's token (HMAC-SHA256), which only the bot's processes have;
- it is fresh and new: one older than MAX_AGE_SECONDS (or as far in the future: clocks are
  in step, as the leases already need), or whose nonce was already taken, is refused, so a
  captured message sent again delivers nothing;
- a click is handled once: a sender that stopped waiting for the answer sends it again (a new
  message), and a process that already took that interaction answers 202 without a second
  delivery; one that was still deciding, and then does not take it (its lease ran out
  meanwhile), answers the click itself with `refuse`, as the sender would have;
- with a certificate and key in the settings (RelayTLS), nobody on the way reads it: the
  payload holds the interaction's token, which answers for the bot for 15 minutes, and the
  DM prompt clicked, with its player's cards.
Refusals are logged once a minute per reason (bot/cluster/throttled_log.py): anyone who can reach
the port can cause them.

aiohttp (discord.py's own HTTP library) serves and sends; no discord import here.
"""
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from bot.cluster.throttled_log import ThrottledLog
from bot.config import ConfigError, split_address

log = logging.getLogger(__name__)

PATH = "/interactions"
SIGNATURE = "X-OFC-Signature"
TIMESTAMP = "X-OFC-Timestamp"
NONCE = "X-OFC-Nonce"
TIMEOUT_SECONDS = 1.5  # half of Discord's 3 s: the click still gets its answer after a failure
# A relayed click is answered within Discord's 3 s or not at all; the margin is for clocks a
# little out of step.
MAX_AGE_SECONDS = 30.0
HTTPS = "https://"


class RelayError(Exception):
    """The payload could not be handed over (nobody listening, refused, too slow), or the
    relay cannot listen where it was told."""


@dataclass(frozen=True, slots=True)
class RelayTLS:
    """PEM files: this process's certificate and private key, and what the other processes'
    certificates are checked against (None: this certificate, one shared by all)."""

    certificate: str
    key: str
    authority: str | None = None

    def server(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(self.certificate, self.key)
        except (OSError, ssl.SSLError) as error:
            raise RelayError(f"the relay's certificate {self.certificate} or key {self.key} "
                             f"cannot be used: {error}") from error
        return context

    def client(self) -> ssl.SSLContext:
        try:
            return ssl.create_default_context(cafile=self.authority or self.certificate)
        except (OSError, ssl.SSLError) as error:
            raise RelayError(f"the relay's certificate authority {self.authority} cannot be "
                             f"used: {error}") from error


def relay_key(token: str) -> bytes:
    return hashlib.sha256(b"ofc-relay:" + token.encode()).digest()


def _sign(key: bytes, timestamp: str, nonce: str, body: bytes) -> str:
    signed = b"\n".join((timestamp.encode(), nonce.encode(), body))
    return hmac.new(key, signed, hashlib.sha256).hexdigest()


async def _nobody(payload: dict[str, Any]) -> bool:
    return False


async def _silent(payload: dict[str, Any]) -> None:
    return None


class Relay:
    """Serves `POST /interactions` for `deliver(payload)` (True: taken, 202; False: not this
    process's, 409; refused: 403), and forwards payloads to other processes' relays.
    `refuse(payload)` answers a click this process said it took (to a copy sent while it was
    still deciding) and then did not. `clock`: epoch seconds (the tests hold it)."""

    def __init__(self, key: bytes, *, tls: RelayTLS | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._key = key
        self._tls = tls
        self._clock = clock
        self.deliver: Callable[[dict[str, Any]], Awaitable[bool]] = _nobody
        self.refuse: Callable[[dict[str, Any]], Awaitable[None]] = _silent
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._seen: OrderedDict[str, float] = OrderedDict()  # nonce -> its timestamp
        # interaction id -> when it was taken: a sender that stopped waiting sends it again
        self._taken: OrderedDict[str, float] = OrderedDict()
        # interaction id -> whether a copy was answered as taken while the first is decided
        self._deciding: dict[str, bool] = {}
        self._refusals = ThrottledLog(log, clock=clock)
        self.address = ""  # where it listens, once started (the real port when given 0)
        self.received = 0
        self.forwarded = 0
        self.refused = 0

    async def start(self, address: str) -> str:
        """Listen on `address` (host:port); returns the address to publish, `https://` first
        with TLS. RelayError for a wildcard host, a port taken or unusable certificate files."""
        try:
            host, port = split_address(address, "the relay's address")
        except ConfigError as error:
            raise RelayError(str(error)) from None
        context = self._tls.server() if self._tls is not None else None
        if context is None and not _loopback(host):
            log.warning("the relay listens on %s without TLS: the clicks it takes carry "
                        "Discord's interaction tokens and the players' cards in clear (set "
                        "OFC_RELAY_TLS_CERT and OFC_RELAY_TLS_KEY)", host)
        app = web.Application()
        app.router.add_post(PATH, self._receive)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, ssl_context=context)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            raise RelayError(f"the relay cannot listen on {address}: {error}") from error
        bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]
        published = address.rpartition(":")[0]
        self.address = f"{HTTPS if context else ''}{published}:{bound[1]}"
        return self.address

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def forward(self, address: str, payload: dict[str, Any]) -> None:
        """Hand `payload` to the relay at `address`; RelayError when it did not take it."""
        body = json.dumps(payload).encode()
        timestamp, nonce = repr(self._clock()), secrets.token_hex(16)
        if self._session is None:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS))
        secure = address.startswith(HTTPS)
        url = f"{address if secure else 'http://' + address}{PATH}"
        context: ssl.SSLContext | bool = True  # the system's trust store
        if secure and self._tls is not None:
            context = self._tls.client()
        try:
            async with self._session.post(url, data=body, ssl=context, headers={
                    SIGNATURE: _sign(self._key, timestamp, nonce, body), TIMESTAMP: timestamp,
                    NONCE: nonce, "Content-Type": "application/json"}) as response:
                if response.status != 202:
                    raise RelayError(f"the relay at {address} answered {response.status}")
        except (aiohttp.ClientError, TimeoutError) as error:
            raise RelayError(f"the relay at {address} is unreachable: {error}") from error
        self.forwarded += 1

    async def _receive(self, request: web.Request) -> web.Response:
        body = await request.read()
        refused = self._refusal(request.headers, body)
        if refused is not None:
            self.refused += 1
            self._refusals.warning(refused, "relay: refused a payload from %s: %s",
                                   request.remote, refused)
            return web.Response(status=403)
        try:
            payload = json.loads(body)
        except ValueError:
            return web.Response(status=400)
        interaction = str(payload.get("id"))
        now = self._clock()
        _forget_before(self._taken, now - MAX_AGE_SECONDS)
        if interaction in self._taken:  # handled (or being handled) here already
            if interaction in self._deciding:
                self._deciding[interaction] = True
            return web.Response(status=202)
        self._taken[interaction] = now
        self._deciding[interaction] = False
        taken = False
        try:
            taken = await self.deliver(payload)
        finally:
            promised = self._deciding.pop(interaction, False)
            if not taken:  # not handled here: a copy is judged afresh
                self._taken.pop(interaction, None)
                if promised:  # its sender stopped at the copy's 202: ours to answer
                    await self.refuse(payload)
        if not taken:
            return web.Response(status=409)
        self.received += 1
        return web.Response(status=202)

    def _refusal(self, headers: Any, body: bytes) -> str | None:
        """Why a message is refused (None: it is taken, and its nonce is spent)."""
        timestamp, nonce = headers.get(TIMESTAMP, ""), headers.get(NONCE, "")
        if not hmac.compare_digest(headers.get(SIGNATURE, ""),
                                   _sign(self._key, timestamp, nonce, body)):
            return "bad signature"
        now = self._clock()
        try:
            sent = float(timestamp)
        except ValueError:
            return "bad signature"  # signed by us: never, unless the key leaked
        if not abs(now - sent) <= MAX_AGE_SECONDS:
            return "too old (or a clock out of step)"
        _forget_before(self._seen, now - MAX_AGE_SECONDS)  # refused by their age already
        if nonce in self._seen:
            return "replayed"
        self._seen[nonce] = sent
        return None


def _forget_before(kept: OrderedDict[str, float], oldest: float) -> None:
    """Forget the first entries of `kept` (in the order they came) whose time is before
    `oldest`."""
    while kept and next(iter(kept.values())) < oldest:
        kept.popitem(last=False)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
