"""The real path of the worker pool: the bot's CPU work (images, a strong computer's decisions) in
worker processes, end to end: a hand against a strong computer plays to settled wallets,
every image still traces to the view it was drawn from (privacy, R7/R8), and closing the bot
leaves no worker process behind."""

import os
from pathlib import Path

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import settings_for
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import check_wallets, open_table, play_out, seats_of
from tests.e2e.privacy import PrivacyWatch
from tests.process.test_workers import alive

WORKERS = 2


async def test_a_hand_against_a_strong_computer_with_worker_processes(
        double: DiscordDouble, croupier: Member, alice: Member, bob: Member,
        clock: FakeClock, database: Path, watch: PrivacyWatch) -> None:
    bot = OFCBot(settings_for(double, database, workers=WORKERS), clock=clock)
    await double.start_client(bot)
    try:
        started = bot.workers.pids()  # at start-up, not at the first table's first image
        assert 1 <= len(started) <= WORKERS and all(alive(pid) for pid in started)
        table = await open_table(double, alice, bob, computers=("strong",), seater=croupier,
                                 seats=3, format="hands", hands=1, fantasy="off")
        await play_out(double, table, seats_of((alice, bob)))
        pids = bot.workers.pids()
        assert pids and os.getpid() not in pids and len(pids) <= WORKERS
        await check_wallets(double, (alice, bob), computers=("Computer 1 (strong)",))
        assert watch.count("private") and watch.count("table")
        assert watch.problems(double, double.channel, (alice, bob)) == []
    finally:
        await double.stop_client(bot)
    assert not any(alive(pid) for pid in pids)
