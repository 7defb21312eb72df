"""A four-player shootout through the real bot and the Discord double (RULES.md R13): two
heads-up tables in threads the bot opens, then a final; one warning and one penalty; every
chip audited at the end."""

from pathlib import Path

from bot.engine.tournament import Tournament
from bot.tables import FakeClock
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import start_bot
from tests.storage.audit import audit


async def test_four_players_two_heads_up_tables_then_a_final(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member,
        tmp_path: Path) -> None:
    clock = FakeClock()
    database = tmp_path / "ofc.sqlite3"
    bot = await start_bot(double, database, clock)
    try:
        await alice.slash("ofc tournament create", buy_in=50, table_seats=2, table_hands=1,
                          payouts="65/35", turn_seconds=10, time_bank_seconds=0)
        await bob.slash("ofc tournament join")
        await carol.slash("ofc tournament join")
        await alice.slash("ofc tournament computer")
        await alice.slash("ofc tournament computer", level="strong")
        (t,) = bot.tournaments.live()
        tid = t.tournament_id
        assert len(t.entries) == 4 and t.pool == 200
        await double.resolved(await alice.slash("ofc tournament start"))  # deferred, then seated
        await double.wait_until(lambda: (tables := bot.tournaments.tournament(tid).tables)
                                and all(table.status == "playing" for table in tables),
                                what="both tables playing")
        t = bot.tournaments.tournament(tid)
        assert sorted(len(table.players) for table in t.current_tables) == [2, 2]
        threads = {table.thread_id for table in t.current_tables}
        assert len(threads) == 2 and None not in threads
        await alice.slash("ofc tournament warn", member=bob, reason="slow play")
        await alice.slash("ofc tournament penalty", member=carol, points=10,
                          reason="time (10 s)")
        refused = await bob.slash("ofc tournament warn", member=carol, reason="no")
        assert refused is not None
        assert bot.tournaments.tournament(tid).warnings(bob.id) == 1
        await alice.slash("ofc tournament standings")
        standings = await double.wait_for_message(
            lambda m: m.embed is not None and "Warnings and penalties" in str(m.embed))
        assert "slow play" in str(standings.embed) and "time (10 s)" in str(standings.embed)
        presenter = bot.get_cog("Play")
        assert presenter is not None
        for _ in range(2000):  # people who do not act are placed for by R10
            await bot.tournaments.idle()
            await presenter.drain()  # type: ignore[attr-defined]
            if not bot.tournaments.live():
                break
            await clock.advance_to_next()
        assert not bot.tournaments.live()
        final = Tournament.from_json((await bot.storage.tournament(tid)).state_json)
        assert final.status == "finished" and final.level == 2
        assert [p.prize for p in final.placings[:2]] == [130, 70]
        await double.wait_for_message(
            lambda m: m.embed is not None and "prizes paid" in str(m.embed))
    finally:
        await double.stop_client(bot)
    assert audit(database) == []
