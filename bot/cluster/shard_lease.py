"""The lease on this process's shards: claimed at start, renewed on a heartbeat, released on
a clean stop (the rows and their rules: bot/storage/leases.py).

    keeper = ShardKeeper(storage, plan, clock, seconds=30)
    await keeper.claim()              # ShardsTaken: another live process runs one of them
    task = asyncio.create_task(keeper.keep(on_lost))
    keeper.held()                     # may this process act on its shards' tables now?
    await keeper.release()

The heartbeat renews every third of the lease, so two renewals may fail (a database
restarting) before the lease runs out; it waits for a renewal no longer than the lease lasts
(a database that stopped answering). `held()` reads this process's own view: once the time
of the last successful renewal's expiry has passed, another process may have taken over, so
the table service refuses to act (runtime.py) and `keep` calls `on_lost`, which stops the bot.

That view can be wrong: a process paused past its lease (a long garbage collection, a frozen
virtual machine) finds `held()` true when it resumes. So the claim's fencing token is given
to storage, which refuses every write of a table once another process has claimed its shard
(bot/storage/fencing.py); the first such refusal ends `held()` at once and `keep` calls
`on_lost` without waiting for the next renewal.
"""

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from bot.sharding import ShardPlan
from bot.storage import LeaseLost, ShardLease, Storage
from bot.tables.clock import Clock

log = logging.getLogger(__name__)

RENEWALS_PER_LEASE = 3


def new_owner() -> str:
    """A name no other process has: host, process id and a random part (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class ShardKeeper:
    def __init__(self, storage: Storage, plan: ShardPlan, clock: Clock, *, seconds: float,
                 owner: str | None = None, address: str | None = None) -> None:
        self.storage = storage
        self.plan = plan
        self.clock = clock
        self.seconds = seconds
        self.owner = owner or new_owner()
        self.address = address
        self.expires_at = 0.0  # of the last successful claim or renewal (epoch seconds)
        self.renewals = 0
        self.fenced: str | None = None  # why storage refused a write, once it did
        self._fenced = asyncio.Event()

    async def claim(self) -> list[ShardLease]:
        """All the plan's shards, in one transaction (ShardsTaken: none was taken)."""
        leases = await self.storage.leases.claim_shards(
            self.owner, self.plan.count, self.plan.ids, now=self.clock.now(),
            seconds=self.seconds, address=self.address)
        self.expires_at = min(lease.expires_at for lease in leases)
        self.storage.fence_writes(self.plan.count, leases[0].token, self._refused)
        log.info("%s: claimed %s until %s (fencing token %d)", self.owner, self.plan.describe(),
                 self.expires_at, leases[0].token)
        return leases

    def held(self) -> bool:
        return self.clock.now() < self.expires_at

    def _refused(self, reason: str) -> None:
        """Storage refused a write: another process owns one of these shards now."""
        self.expires_at = 0.0
        if self.fenced is None:
            self.fenced = reason
            self._fenced.set()

    async def keep(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        """Renew until cancelled; when the lease is lost (taken over, or not renewed in time)
        await `on_lost(reason)` and return."""
        interval = self.seconds / RENEWALS_PER_LEASE
        # From the claim: the bot claims before connecting and starts this once set up.
        due = self.expires_at - self.seconds
        while True:
            # On a cadence kept from the claim, not restarted after each renewal: the wait
            # ends at the same time however long the renewal took to come back.
            due = max(due + interval, self.clock.now())
            await self._wait(due)
            if self.held():  # (a refused write, or a pause past the lease, ended it)
                lost = await self._renew()
                if lost is not None:
                    await on_lost(lost)
                    return
            if not self.held():
                # Even when nobody claimed the shards meanwhile: the actions, timers and
                # messages due after the lease ran out were refused and are not done again.
                # A restart (the supervisor's) restores the tables with their timers.
                await on_lost(self.fenced or f"The lease of {self.plan.describe()} ran out "
                              "before it could be renewed: this process no longer runs its "
                              "tables")
                return

    async def _renew(self) -> str | None:
        """Renew the leases, waiting for the database no longer than they last: a renewal it
        does not answer (a network cut brings no error either) leaves them to run out. The
        reason they are lost when the renewal finds them another's."""
        renewal = asyncio.ensure_future(self.storage.leases.renew_shards(
            self.owner, self.plan.ids, now=self.clock.now(), seconds=self.seconds))
        try:
            await self._wait(self.expires_at, renewal)
        finally:
            if not renewal.done():
                renewal.cancel()
        if renewal.cancelled():
            return None
        try:
            renewed = renewal.result()
        except LeaseLost as error:
            return str(error)
        except Exception:  # the database is away: try again while the lease lasts
            log.exception("could not renew the lease of %s", self.plan.describe())
            return None
        if self.held():
            self.expires_at = renewed
            self.renewals += 1
        return None

    async def _wait(self, due: float, work: "asyncio.Future[Any] | None" = None) -> None:
        """Wait until `due` on the clock, or less if a write is refused or `work` ends
        meanwhile."""
        waits = [asyncio.ensure_future(self._until(due)),
                 asyncio.ensure_future(self._fenced.wait())]
        try:
            await asyncio.wait([*waits, *([work] if work is not None else [])],
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _until(self, due: float) -> None:
        await self.clock.sleep(due - self.clock.now())  # now: when the wait begins

    async def release(self) -> None:
        """Give the shards up now (a clean stop): a replacement need not wait for expiry."""
        self.expires_at = 0.0
        await self.storage.leases.release_shards(self.owner)
