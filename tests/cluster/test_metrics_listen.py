"""`listen` binds OFC_METRICS_HOST:OFC_METRICS_PORT before the bot connects: every address the
host names, as aiohttp's TCPSite would, or one line saying why it cannot."""

import contextlib
import socket

import pytest

from bot.cluster.metrics import listen
from bot.config import ConfigError


def test_it_binds_every_address_the_host_names() -> None:
    wanted = {info[4][0] for info in socket.getaddrinfo(
        "localhost", 1, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)}
    for _ in range(20):  # a port free on each of localhost's addresses
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with contextlib.suppress(ConfigError):
            bound = listen("localhost", port)
            break
    else:
        pytest.fail("no port was free on every address of localhost")
    try:
        assert {one.getsockname()[0] for one in bound} == wanted
        assert {one.getsockname()[1] for one in bound} == {port}
    finally:
        for one in bound:
            one.close()


def test_a_port_taken_is_refused_and_nothing_stays_bound() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError) as refused:
            listen("127.0.0.1", port)
    assert str(refused.value).startswith(
        f"cannot serve /health and /metrics on 127.0.0.1:{port} (OFC_METRICS_HOST, "
        "OFC_METRICS_PORT): ")
    listen("127.0.0.1", port)[0].close()  # free again: the refused attempt kept nothing
