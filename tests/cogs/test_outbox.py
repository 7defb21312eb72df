"""The per-table outbox (cogs/tables/outbox.py): table message edits coalesced, latest state wins,
at most one per interval; posts in order; one failure does not stop the rest."""

import asyncio
import logging

import pytest

from cogs.tables import outbox
from cogs.tables.outbox import Outbox


async def test_refreshes_while_one_runs_collapse_into_one_with_the_latest_job(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def pause(seconds: float) -> None:
        pauses.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(outbox.asyncio, "sleep", pause)
    box = Outbox(interval=1.5, may_send=lambda: True)
    gate = asyncio.Event()
    ran: list[int] = []

    async def edit(n: int) -> None:
        ran.append(n)
        if n == 0:
            await gate.wait()

    box.refresh("table", lambda: edit(0))
    await real_sleep(0)  # the first edit is under way
    for n in range(1, 6):
        box.refresh("table", lambda n=n: edit(n))
    gate.set()
    await box.drain()
    assert ran == [0, 5]  # one edit for the five requests: the latest state
    assert pauses == [1.5, 1.5]  # each edit is followed by the interval before the next
    assert not box.busy


async def test_posts_run_in_order_and_a_failure_is_logged_not_fatal(
        caplog: pytest.LogCaptureFixture) -> None:
    box = Outbox(interval=0, may_send=lambda: True)
    sent: list[str] = []

    async def send(text: str) -> None:
        if text == "bad":
            raise RuntimeError("channel deleted")
        sent.append(text)

    for text in ("dm", "bad", "showdown", "standings"):
        box.post(lambda t=text: send(t))
    with caplog.at_level(logging.ERROR, logger="cogs.tables.outbox"):
        await box.drain()
    assert sent == ["dm", "showdown", "standings"]
    assert [r.getMessage() for r in caplog.records] == ["sending a table message failed"]


async def test_a_refresh_caught_up_by_the_running_job_is_not_run_again() -> None:
    """The table image reads the table's state when a worker is free to draw it: the
    refreshes asked for before then are in what it shows."""
    box = Outbox(interval=0, may_send=lambda: True)
    gate = asyncio.Event()
    ran: list[str] = []

    async def edit(label: str, catch_up: bool) -> None:
        ran.append(label)
        await gate.wait()
        if catch_up:
            box.caught_up("table")  # the image is drawn from the state as it is now

    box.refresh("table", lambda: edit("first", True))
    await asyncio.sleep(0)  # under way, its image waiting
    box.refresh("table", lambda: edit("second", False))  # a newer state meanwhile
    gate.set()
    await box.drain()
    assert ran == ["first"]  # the newer state was drawn by the first job
    box.caught_up("table")  # nothing running: nothing to forget
    box.refresh("table", lambda: edit("third", False))
    await box.drain()
    assert ran == ["first", "third"]


async def test_nothing_is_sent_once_the_lease_has_run_out(
        caplog: pytest.LogCaptureFixture) -> None:
    """A process paused past its lease resumes with its stale messages queued: they stay
    unsent, and the log says why once."""
    held = [True]
    box = Outbox(interval=0, may_send=lambda: held[0])
    gate = asyncio.Event()
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)
        if text == "first":
            await gate.wait()

    box.post(lambda: send("first"))
    await asyncio.sleep(0)  # under way when the process is paused
    box.post(lambda: send("stale prompt"))
    box.refresh("table", lambda: send("stale image"))
    box.post(lambda: send("stale showdown"))
    held[0] = False  # resumed past its lease
    gate.set()
    with caplog.at_level(logging.WARNING, logger="cogs.tables.outbox"):
        await box.drain()
    assert sent == ["first"]
    assert [r.getMessage() for r in caplog.records] == [
        "not sending a table's messages: this process's lease on its shards has run out"]
