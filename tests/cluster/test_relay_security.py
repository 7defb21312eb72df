"""The relay's defences (bot/cluster/relay.py): a captured message sent again, or too late, delivers
nothing; TLS when a certificate is set; no wildcard address; and a flood of refusals writes
one log line a minute per reason. The clock is the test's: nothing here depends on speed."""

import importlib.util
import logging
import os
import shutil
import subprocess
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.__main__ import main
from bot.cluster.relay import MAX_AGE_SECONDS, PATH, Relay, RelayError, RelayTLS, relay_key

PAYLOAD = {"id": "1", "type": 3, "data": {"custom_id": "ofc:hand:7"}}
KEY = relay_key("token")


class HeldClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


Captured = tuple[dict[str, str], bytes]


@pytest.fixture
async def wiretap() -> AsyncIterator[tuple[str, list[Captured]]]:
    """A listener that takes every message as a relay would (202) and keeps it: what someone
    on the network path would capture."""
    captured: list[Captured] = []

    async def keep(request: web.Request) -> web.Response:
        captured.append((dict(request.headers), await request.read()))
        return web.Response(status=202)

    app = web.Application()
    app.router.add_post(PATH, keep)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield f"127.0.0.1:{port}", captured
    await runner.cleanup()


async def post(address: str, message: Captured) -> int:
    headers, body = message
    async with aiohttp.ClientSession() as session, session.post(
            f"http://{address}{PATH}", data=body, headers=headers) as response:
        return response.status


async def receiver(clock: Callable[[], float], taken: list[dict[str, Any]],
                   **options: Any) -> Relay:
    relay = Relay(KEY, clock=clock, **options)

    async def deliver(payload: dict[str, Any]) -> bool:
        taken.append(payload)
        return True

    relay.deliver = deliver
    return relay


@dataclass
class Pair:
    """A sender and a receiving relay on one held clock; `tap` and `captured`: a wiretap's
    address and what it captured, `taken`: what the receiver delivered."""

    clock: HeldClock
    sender: Relay
    target: Relay
    address: str
    tap: str
    captured: list[Captured]
    taken: list[dict[str, Any]]


@pytest.fixture
async def pair(wiretap: tuple[str, list[Captured]]) -> AsyncIterator[Pair]:
    clock, taken = HeldClock(), []
    sender, target = Relay(KEY, clock=clock), await receiver(clock, taken)
    try:
        yield Pair(clock, sender, target, await target.start("127.0.0.1:0"), *wiretap, taken)
    finally:
        await sender.close()
        await target.close()


async def test_a_captured_message_is_taken_once_and_never_again(pair: Pair) -> None:
    clock, address, taken = pair.clock, pair.address, pair.taken
    await pair.sender.forward(pair.tap, PAYLOAD)
    await pair.sender.forward(pair.tap, {**PAYLOAD, "id": "2"})
    first, second = pair.captured
    assert await post(address, first) == 202
    clock.now += MAX_AGE_SECONDS  # still fresh, but its nonce is spent
    assert await post(address, first) == 403
    assert await post(address, first) == 403
    assert [p["id"] for p in taken] == ["1"]
    clock.now += 0.5  # the second one, never delivered, is now too old
    assert await post(address, second) == 403
    # nor can the nonce be freed by changing the timestamp: that breaks the signature
    headers, body = first
    assert await post(address, ({**headers, "X-OFC-Timestamp": repr(clock.now)}, body)) == 403
    assert [p["id"] for p in taken] == ["1"] and pair.target.refused == 4
    # a fresh message goes through: the sender's clock and the receiver's agree
    await pair.sender.forward(address, {**PAYLOAD, "id": "3"})
    assert [p["id"] for p in taken] == ["1", "3"]


async def test_a_message_from_too_far_in_the_future_is_refused(pair: Pair) -> None:
    await pair.sender.forward(pair.tap, PAYLOAD)
    pair.clock.now -= MAX_AGE_SECONDS + 0.5  # the receiver's clock is now far behind
    assert await post(pair.address, pair.captured[0]) == 403
    assert pair.taken == []


async def test_a_flood_of_refused_posts_writes_one_line_a_minute_per_reason(
        pair: Pair, caplog: pytest.LogCaptureFixture) -> None:
    clock, address = pair.clock, pair.address
    unsigned = ({"Content-Type": "application/json"}, b'{"id": "9"}')
    caplog.set_level(logging.WARNING, logger="bot.cluster.relay")
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            async with session.post(f"http://{address}{PATH}", data=unsigned[1]) as answer:
                assert answer.status == 403
    await pair.sender.forward(pair.tap, PAYLOAD)
    assert await post(address, pair.captured[0]) == 202
    for _ in range(3):
        assert await post(address, pair.captured[0]) == 403
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster.relay"]
    assert lines == ["relay: refused a payload from 127.0.0.1: bad signature",
                     "relay: refused a payload from 127.0.0.1: replayed"]
    clock.now += 59.5  # within the minute: still counted, not written
    assert await post(address, unsigned) == 403
    assert len([r for r in caplog.records if r.name == "bot.cluster.relay"]) == 2
    clock.now += 0.5
    assert await post(address, unsigned) == 403
    assert [r.getMessage() for r in caplog.records if r.name == "bot.cluster.relay"][2:] == [
        "relay: refused a payload from 127.0.0.1: bad signature (and 200 more like it in "
        "the last 60 s, not logged)"]
    assert pair.target.refused == 205 and pair.taken == [PAYLOAD]


@pytest.mark.parametrize("address", ["0.0.0.0:0", "[::]:8400", "*:0"])
async def test_a_wildcard_address_is_refused_with_what_to_name_instead(address: str) -> None:
    relay = Relay(KEY)
    with pytest.raises(RelayError, match="must name the address the other processes of the bot "
                                         "can reach this one at"):
        await relay.start(address)
    await relay.close()


def self_signed(folder: Path, name: str) -> RelayTLS:
    """A certificate for 127.0.0.1 and its key, made here: `cryptography` if installed, else
    the openssl command."""
    certificate, key = folder / f"{name}.pem", folder / f"{name}.key"
    if importlib.util.find_spec("cryptography") is not None:
        _with_cryptography(certificate, key)
    elif shutil.which("openssl"):
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
             "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=ofc relay",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
             str(certificate)], check=True, capture_output=True)
    else:
        pytest.skip("neither the cryptography package nor the openssl command is here")
    return RelayTLS(str(certificate), str(key))


def _with_cryptography(certificate: Path, key: Path) -> None:
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ofc relay")])
    today = datetime.datetime.now(datetime.UTC)
    made = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(private.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(today - datetime.timedelta(days=1))
            .not_valid_after(today + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(private, hashes.SHA256()))
    certificate.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(private.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))


async def test_with_a_certificate_the_relay_speaks_only_tls_to_who_trusts_it(
        tmp_path: Path) -> None:
    tls = self_signed(tmp_path, "relay")
    clock, taken = HeldClock(), []
    target = await receiver(clock, taken, tls=tls)
    sender = Relay(KEY, clock=clock, tls=tls)
    stranger_tls = self_signed(tmp_path, "other")  # trusts only its own certificate
    stranger = Relay(KEY, clock=clock, tls=stranger_tls)
    plain = Relay(KEY, clock=clock)  # the system's trust store: not a self-signed certificate
    address = await target.start("127.0.0.1:0")
    try:
        assert address.startswith("https://127.0.0.1:")
        await sender.forward(address, PAYLOAD)
        assert taken == [PAYLOAD]
        for untrusting in (stranger, plain):
            with pytest.raises(RelayError, match=r"unreachable.*certificate"):
                await untrusting.forward(address, {**PAYLOAD, "id": "2"})
        with pytest.raises(RelayError, match="unreachable"):  # plain HTTP is not answered
            await sender.forward(address.removeprefix("https://"), {**PAYLOAD, "id": "3"})
        assert taken == [PAYLOAD]
    finally:
        for relay in (target, sender, stranger, plain):
            await relay.close()


async def test_unusable_certificate_files_are_named_at_start(tmp_path: Path) -> None:
    relay = Relay(KEY, tls=RelayTLS(str(tmp_path / "none.pem"), str(tmp_path / "none.key")))
    with pytest.raises(RelayError, match=r"certificate .*none\.pem or key .*none\.key cannot"):
        await relay.start("127.0.0.1:0")
    await relay.close()


def test_ofc_bot_refuses_a_wildcard_relay_address_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("OFC_RELAY_ADDRESS", "0.0.0.0:8400")
    monkeypatch.setenv("OFC_DATABASE", str(tmp_path / "ofc.sqlite3"))
    assert main(["--shard-count", "2", "--shards", "1",
                 "--env-file", os.devnull]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "ofc-bot: OFC_RELAY_ADDRESS must name the address the other processes of the bot can "
        "reach this one at (this machine's name or IP address), not the wildcard 0.0.0.0: it "
        "is published to them, and they would each connect to their own machine."]
