"""Shootouts through the real bot and the Discord double (RULES.md R13): four players on two
heads-up tables in threads the bot opens, then a final, with a warning and a penalty shown in
the standings and in the members' /ofc history; a table closed with /ofc cancel; a channel
where the bot cannot open threads. Every chip audited at the end."""

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.app import OFCBot
from bot.engine.tournament import Tournament
from bot.tables import FakeClock
from bot.tournaments.limits import UNLIMITED
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import (
    CREATE_PUBLIC_THREADS,
    MANAGE_GUILD,
    SEND_MESSAGES_IN_THREADS,
)
from tests.e2e.flows import STARTING, start_bot
from tests.e2e.test_option_bounds import snapshot
from tests.storage.audit import audit


@asynccontextmanager
async def audited_bot(double: DiscordDouble,
                      tmp_path: Path) -> AsyncIterator[tuple[OFCBot, FakeClock]]:
    """The real bot on a fake clock and a fresh database; every chip audited once it stops."""
    clock = FakeClock()
    database = tmp_path / "ofc.sqlite3"
    bot = await start_bot(double, database, clock)
    bot.tournaments.limits = replace(UNLIMITED, min_hands=1)  # short tables, no cooldowns
    # Quick turns for the tables' timeouts: the server's settings, which a tournament's
    # tables take (its create offers only variant, scoring, royalties and fantasy).
    await bot.storage.settings.update_guild_settings(
        double.guild.id, actor_id=1, now=clock.now(),
        table_options={"turn_seconds": 10, "time_bank_seconds": 0})
    try:
        yield bot, clock
    finally:
        await double.stop_client(bot)
    assert audit(database) == []


async def play_out(bot: OFCBot, clock: FakeClock,
                   until: Callable[[], bool] | None = None) -> None:
    """Play on until `until()` holds (default: no tournament is live); people who do not act
    are placed for by R10."""
    presenter = bot.get_cog("TablePresenter")
    assert presenter is not None
    for _ in range(2000):
        await bot.tournaments.idle()
        await presenter.drain()  # type: ignore[attr-defined]
        if until() if until is not None else not bot.tournaments.live():
            return
        await clock.advance_to_next()
    raise AssertionError("the tournament did not get there")


async def two_registered(bot: OFCBot, alice: Member, bob: Member) -> Tournament:
    """Alice (the director) opens a tournament (buy-in 50) and both register."""
    await alice.slash("ofc tournament create", buy_in=50)
    await bob.slash("ofc tournament join")
    await alice.slash("ofc tournament join")
    (t,) = bot.tournaments.live()
    return t


async def two_heads_up_tables(double: DiscordDouble, bot: OFCBot, alice: Member,
                              bob: Member, hands: int) -> int:
    """Alice (the director) and Bob with two computers in a free tournament, started: two
    heads-up tables playing. Returns the tournament's id."""
    await alice.slash("ofc tournament create", buy_in=0, table_seats=2, table_hands=hands)
    for member in (alice, bob):
        await member.slash("ofc tournament join")
    for _ in range(2):
        await alice.slash("ofc tournament computer")
    (t,) = bot.tournaments.live()
    await double.resolved(await alice.slash("ofc tournament start"))
    await double.wait_until(lambda: all(table.status == "playing" for table in
                                        bot.tournaments.tournament(t.tournament_id).tables),
                            what="both tables playing")
    return t.tournament_id


async def _cancelled_and_refunded(double: DiscordDouble, bot: OFCBot, clock: FakeClock,
                                  tournament: int, members: tuple[Member, ...]) -> None:
    """The tournament gets cancelled: its tables close, its pool is empty, and every member
    has the wallet it started with."""
    await double.wait_until(lambda: not bot.tournaments.live(), what="cancelled")
    await play_out(bot, clock)
    assert bot.tables.live_tables() == []
    record = await bot.storage.tournaments.tournament(tournament)
    assert (record.status, record.pool) == ("cancelled", 0)
    for member in members:
        wallet = await bot.storage.wallets.wallet(double.guild.id, member.id, now=0.0)
        assert wallet.balance == STARTING


def the_bots_role(double: DiscordDouble) -> Any:
    (role,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    return role


async def test_four_players_two_heads_up_tables_then_a_final(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member,
        tmp_path: Path) -> None:
    async with audited_bot(double, tmp_path) as (bot, clock):
        await alice.slash("ofc tournament create", buy_in=50, table_seats=2, table_hands=1,
                          payouts="65/35")
        await bob.slash("ofc tournament join")
        await carol.slash("ofc tournament join")
        await alice.slash("ofc tournament join")
        await alice.slash("ofc tournament computer", level="strong")  # fills their tables
        (t,) = bot.tournaments.live()
        tid = t.tournament_id
        assert len(t.entries) == 4 and t.pool == 150  # a computer pays no buy-in
        await double.resolved(await alice.slash("ofc tournament start"))  # deferred, then seated
        await double.wait_until(lambda: (tables := bot.tournaments.tournament(tid).tables)
                                and all(table.status == "playing" for table in tables),
                                what="both tables playing")
        t = bot.tournaments.tournament(tid)
        assert sorted(len(table.players) for table in t.current_tables) == [2, 2]
        threads = {table.thread_id for table in t.current_tables}
        assert len(threads) == 2 and None not in threads
        thread = double.state.channels[next(iter(threads))]
        rules = await double.resolved(await bob.slash("ofc rules", channel=thread))
        assert "a tournament's: its chips are lent for it" in rules.embed["description"]
        await alice.slash("ofc tournament warn", member=bob, reason="slow play")
        await alice.slash("ofc tournament penalty", member=carol, points=10,
                          reason="time (10 s)")
        refused = await bob.slash("ofc tournament warn", member=carol, reason="no")
        assert refused is not None
        assert bot.tournaments.tournament(tid).warnings(bob.id) == 1
        standings = await double.resolved(await alice.slash("ofc tournament standings"))
        assert standings.ephemeral and "Warnings and penalties" in str(standings.embed)
        assert "slow play" in str(standings.embed) and "time (10 s)" in str(standings.embed)
        # Every warning and penalty is in the member's history too, where the member looks.
        for member, shown, hidden in ((bob, "warning (slow play)", "time (10 s)"),
                                      (carol, "penalty, 10 points off (time (10 s))",
                                       "slow play")):
            history = await double.resolved(await member.slash("ofc history"))
            field = next(f for f in history.embed["fields"]
                         if f["name"] == "Tournament warnings and penalties")
            assert f"Tournament #{tid}, level 1: {shown}" in field["value"]
            assert hidden not in field["value"]
        looked_up = await double.resolved(await alice.slash("ofc history", member=carol))
        assert "time (10 s)" in str(looked_up.embed)
        await play_out(bot, clock)
        final = Tournament.from_json((await bot.storage.tournaments.tournament(tid)).state_json)
        assert final.status == "finished" and final.level == 2
        assert [p.prize for p in final.placings if not p.computer] == [98, 52, 0]
        for placing in final.placings:  # /ofc history keeps where each person finished
            member = next((m for m in (alice, bob, carol) if m.id == placing.player_id), None)
            if member is None:
                continue
            history = await double.resolved(await member.slash("ofc history"))
            field = next(f for f in history.embed["fields"] if f["name"] == "Tournaments")
            prize = f"{placing.prize} chip" + ("" if placing.prize == 1 else "s")
            # Bob's third warning (his absences' called clocks) excludes him if the
            # unseeded deals take him to the final.
            where = "excluded" if placing.excluded else f"place {placing.place} of 4"
            assert field["value"].startswith(f"Tournament #{tid}: {where} · prize {prize} · ")
        await double.wait_for_message(
            lambda m: m.embed is not None and "prizes paid" in str(m.embed))
        # Each table's end counts for the tournament: no Rematch on chips the house lent.
        def ends() -> list[Any]:
            return [m for channel in double.state.channels.values()
                    for m in double.messages(channel)
                    if m.embed is not None and m.embed.get("title") == "Match over"]

        await double.wait_until(lambda: len(ends()) == 3, what="two tables, then the final")
        for end in ends():
            assert "Rematch" not in end.labels()
            assert "the tournament's standings" in end.embed["description"]  # type: ignore[index]


async def test_ofc_cancel_at_a_tournament_table_decides_it_and_the_tournament_goes_on(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    async with audited_bot(double, tmp_path) as (bot, clock):
        tid = await two_heads_up_tables(double, bot, alice, bob, hands=3)
        table = next(x for x in bot.tournaments.tournament(tid).current_tables
                     if bob.id in x.players)
        assert table.thread_id is not None
        thread = double.state.channels[table.thread_id]
        refused = await double.resolved(await bob.slash("ofc cancel", channel=thread))
        assert refused.ephemeral and bob.id in table.players  # only the director (host)
        await double.resolved(await alice.slash("ofc cancel", channel=thread))
        await double.wait_for_message(
            lambda m: m.embed is not None and "closed before its last hand" in str(m.embed))
        decided = bot.tournaments.tournament(tid).table(1, table.index)
        assert decided.status == "done" and decided.early and decided.winner is not None
        await play_out(bot, clock)
        final = Tournament.from_json((await bot.storage.tournaments.tournament(tid)).state_json)
        assert final.status == "finished" and final.level == 2
        assert decided.winner in final.tables[-1].players
        assert (await bot.storage.tournaments.tournament(tid)).pool == 0
        wallet = await bot.storage.wallets.wallet(double.guild.id, bob.id, now=clock.now())
        prize = next(p.prize for p in final.placings if p.player_id == bob.id)
        assert prize == 0 and wallet.balance == 1000  # free; the lent table chips went back


async def test_start_says_which_thread_permission_is_missing_and_changes_nothing(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    async with audited_bot(double, tmp_path) as (bot, _):
        t = await two_registered(bot, alice, bob)
        before = len(double.state.channels)
        for denied, name in ((CREATE_PUBLIC_THREADS, "Create Public Threads"),
                             (SEND_MESSAGES_IN_THREADS, "Send Messages in Threads")):
            await double.set_permissions(double.channel, the_bots_role(double), deny=denied)
            refused = await double.resolved(await alice.slash("ofc tournament start"))
            assert refused.ephemeral
            text = refused.embed["description"]
            assert f"**{name}**" in text and "Nothing was changed." in text
            assert text.count("**") == 4  # that permission alone, named twice
            now = bot.tournaments.tournament(t.tournament_id)
            assert now.status == "registering" and now.tables == [] and now.pool == 100
            assert len(double.state.channels) == before  # no thread opened
            assert bot.tables.live_tables() == []
            stored = await bot.storage.tournaments.tournament(t.tournament_id)
            assert stored.pool == 100
            assert Tournament.from_json(stored.state_json).status == "registering"
        created = await double.resolved(await bob.slash("ofc tournament create", buy_in=5))
        assert "No tournament was opened." in created.embed["description"]
        assert len(bot.tournaments.live()) == 1
        await double.set_permissions(double.channel, the_bots_role(double))  # granted again
        await double.resolved(await alice.slash("ofc tournament start"))
        await double.wait_until(
            lambda: bot.tournaments.tournament(t.tournament_id).status == "running"
            and len(double.state.channels) == before + 1, what="the table's thread opened")


async def test_a_level_whose_thread_cannot_open_waits_and_the_directors_start_opens_it(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    async with audited_bot(double, tmp_path) as (bot, clock):
        tid = await two_heads_up_tables(double, bot, alice, bob, hands=1)
        # The bot loses Create Public Threads while level 1 plays: the final cannot open.
        await double.set_permissions(double.channel, the_bots_role(double),
                                     deny=CREATE_PUBLIC_THREADS)
        await play_out(bot, clock, until=lambda: bot.tournaments.tournament(tid).level == 2)
        await bot.tournaments.idle()
        told = await double.wait_for_message(
            lambda m: m.embed is not None and "Create Public Threads" in str(m.embed))
        assert "/ofc tournament start" in str(told.embed)
        (final,) = bot.tournaments.tournament(tid).current_tables
        assert final.status == "waiting" and final.thread_id is None
        await double.set_permissions(double.channel, the_bots_role(double))  # granted again
        await double.resolved(await alice.slash("ofc tournament start"))
        await double.wait_until(lambda: bot.tournaments.tournament(tid).current_tables[0]
                                .status == "playing", what="the final playing")
        await play_out(bot, clock)
        assert (await bot.storage.tournaments.tournament(tid)).status == "finished"


async def test_refusals_are_private_and_a_channel_holds_one_tournament(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    async with audited_bot(double, tmp_path) as (bot, _):
        t = await two_registered(bot, alice, bob)
        second = await double.resolved(await bob.slash("ofc tournament create", buy_in=5))
        assert second.ephemeral
        assert second.embed["description"].startswith("This channel already has a tournament.")
        assert bot.tournaments.live() == [t]
        for command in ("ofc tournament start", "ofc tournament cancel"):
            refused = await double.resolved(await bob.slash(command))
            assert refused.ephemeral and "Only the director" in refused.embed["description"]
        assert bot.tournaments.tournament(t.tournament_id).status == "registering"
        started = await double.resolved(await alice.slash("ofc tournament start"))
        assert started.ephemeral  # the director's answer; the channel gets its own post
        again = await double.resolved(await alice.slash("ofc tournament start"))
        assert again.ephemeral
        assert again.embed["description"].startswith("The tournament has already started.")
        await double.resolved(await alice.slash("ofc tournament cancel"))
        assert bot.tournaments.live() == []


async def test_a_swedish_tournament_posts_each_channel_message_once_in_swedish(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    """A server in Swedish, directed by a member whose Discord is in English: the director's
    answers are private and English; the channel reads Swedish, each post once."""
    double.guild.preferred_locale = "sv-SE"
    sven = double.add_member("sven", locale="sv-SE")
    async with audited_bot(double, tmp_path) as (bot, clock):
        created = await double.resolved(await alice.slash(
            "ofc tournament create", buy_in=50, table_seats=2, table_hands=1, payouts="65/35"))
        assert created.ephemeral
        assert created.content == "Tournament #1 is open; the channel was told."
        for member in (sven, bob, alice):
            joined = await double.resolved(await member.slash("ofc tournament join"))
            assert not joined.ephemeral and "anmälde sig" in joined.content  # the channel's
        added = await double.resolved(await alice.slash("ofc tournament computer"))
        assert added.ephemeral and added.content.endswith("registered; the channel was told.")
        started = await double.resolved(await alice.slash("ofc tournament start"))
        assert started.ephemeral and started.content == "Started; the channel was told."
        warned = await double.resolved(await alice.slash("ofc tournament warn", member=bob,
                                                         reason="slow"))
        assert warned.ephemeral and warned.content.startswith("Warning to ")
        await play_out(bot, clock)
        await double.wait_for_message(
            lambda m: m.embed is not None and "priserna är utbetalda" in str(m.embed))
        posts = [f"{m.content or ''} {json.dumps(m.embed or {}, ensure_ascii=False)}"
                 for m in double.messages()]
        assert len(posts) == len(set(posts))  # nothing posted twice
        for once in ("Anmälan är öppen", "Seating genom lottning.",
                     f"Varning till <@{bob.id}> (slow).",
                     "Finalen är slut: priserna är utbetalda."):
            assert sum(once in post for post in posts) == 1, once
        assert any("utbetalning per placering: 65% / 35%" in post for post in posts)
        english = ("Tournament", "Registration", "joined", "level", "Seated", "Warning",
                   "prize pool", "payouts", "Payouts", "registered", "The final")
        for post in posts:
            assert not [word for word in english if word in post], post
        standings = await double.resolved(await sven.slash("ofc tournament standings"))
        assert standings.ephemeral and "Slutställning och prispengar" in str(standings.embed)


async def test_a_sanctions_reason_posted_to_the_channel_pings_no_one_but_the_player(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member,
        tmp_path: Path) -> None:
    """The director's reason is quoted in the channel's post as written: an @everyone, a
    role's or another member's mention in it stays text (a zero-width space after its "@" or
    "<"), its markdown is shown as typed, and only the sanctioned player is mentioned."""
    async with audited_bot(double, tmp_path) as (bot, _):
        await two_registered(bot, alice, bob)
        await double.resolved(await alice.slash("ofc tournament start"))
        reason = f"**slow** play @everyone @here <@&123456789012345678> <@{carol.id}>"
        await double.resolved(await alice.slash("ofc tournament warn", member=bob,
                                                reason=reason))
        await double.wait_until(lambda: any("Warning to" in (m.content or "")
                                            for m in double.messages()), what="the post")
        (post,) = [m for m in double.messages() if "Warning to" in (m.content or "")]
        z = "\u200b"
        assert (f"\\*\\*slow\\*\\* play @{z}everyone @{z}here <{z}@&123456789012345678> "
                f"<{z}@{carol.id}>") in post.content and bob.mention in post.content
        assert post.pinged == [f"user:{bob.id}"]


async def test_a_tournament_tables_lobby_states_lent_chips_and_no_wallet_buy_in(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    """A tournament table's lobby message (kept in its thread) states the stacks lent for it,
    as its seats do, not a buy-in of that many chips, and never tells to Join with a buy-in
    that leaves the wallet: the tournament seats its players and starts the table. Its match
    over counts lent chips too."""
    async with audited_bot(double, tmp_path) as (bot, clock):
        await two_heads_up_tables(double, bot, alice, bob, hands=1)
        threads = {table.thread_id for t in bot.tournaments.live() for table in t.tables}
        for thread in threads:
            channel = double.state.channels[thread]
            lobby = await double.wait_for_message(
                lambda m: str((m.embed or {}).get("title", "")).startswith("OFC table"),
                channel=channel)
            for version in [*lobby.history, lobby]:
                (embed,) = version.embeds
                assert "Buy-in 100,000 lent chips," in str(embed["description"])
                assert "wallet;" not in str(embed)
        await play_out(bot, clock)  # the match over of each table counts lent chips too
        for thread in threads:
            (over,) = [m for m in double.messages(double.state.channels[thread])
                       if (m.embed or {}).get("title") == "Match over"]
            assert str(over.embed["description"]).count(" lent chips (") == 2


async def test_only_the_director_or_manage_server_directs_and_bad_input_changes_nothing(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member,
        tmp_path: Path, held_deferral: None) -> None:
    """tournaments.md: the director (the creator) and members with Manage Server do the
    director's things; anyone else, and every bad value, is refused privately with a reason
    and changes nothing in the database."""
    croupier = double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))
    async with audited_bot(double, tmp_path) as (bot, _):
        bot.tournaments.limits = replace(bot.tournaments.limits, min_hands=20)  # seed 001's
        database = tmp_path / "ofc.sqlite3"
        for options, says in (({"payouts": "abc"}, "is not a payout table"),
                              ({"payouts": "60/30"}, "add up to 100"),
                              ({"payouts": "0/100"}, "add up to 100"),
                              ({"table_hands": 19}, "at least 20")):
            refused = await double.resolved(await alice.slash(
                "ofc tournament create", buy_in=50, **options))
            assert refused.ephemeral and says in refused.embed["description"], options
            assert bot.tournaments.live() == []
        await alice.slash("ofc tournament create", buy_in=50)
        await alice.slash("ofc tournament join")
        alone = await double.resolved(await alice.slash("ofc tournament start"))  # deferred
        assert alone.ephemeral and "at least 2 players" in alone.embed["description"]
        assert bot.tournaments.live()[0].status == "registering"
        await double.resolved(await alice.slash("ofc tournament cancel"))
        t = await two_registered(bot, alice, bob)  # alice directs
        await bot.tournaments.idle()
        before = snapshot(database)

        async def refused(who: Member, command: str, says: str, **options: Any) -> None:
            answer = await double.resolved(await who.slash(command, **options))
            assert answer.ephemeral and says in answer.embed["description"], (command, options)
            await bot.tournaments.idle()
            assert snapshot(database) == before, (command, options)

        director = "Only the director or a member with Manage Server"
        await refused(bob, "ofc tournament computer", director)
        await refused(bob, "ofc tournament warn", director, member=alice, reason="slow")
        await refused(bob, "ofc tournament penalty", director, member=alice, points=5,
                      reason="slow")
        await refused(bob, "ofc tournament time", director, member=alice)
        await refused(bob, "ofc tournament start", director)
        await refused(bob, "ofc tournament cancel", director)
        await refused(alice, "ofc tournament warn", "not in the tournament", member=carol,
                      reason="slow")
        await refused(alice, "ofc tournament warn", "Give a reason", member=bob, reason="   ")
        await refused(carol, "ofc tournament leave", "not registered")
        # A member with Manage Server directs it too.
        warned = await double.resolved(await croupier.slash("ofc tournament warn", member=bob,
                                                             reason="slow"))
        assert warned.ephemeral
        assert bot.tournaments.tournament(t.tournament_id).warnings(bob.id) == 1
        await double.resolved(await croupier.slash("ofc tournament cancel"))
        assert bot.tournaments.live() == []


@pytest.mark.parametrize("phase", ["registering", "closed", "level 1"])
async def test_deleting_a_tournaments_channel_cancels_it_and_refunds_everyone(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member, tmp_path: Path,
        phase: str) -> None:
    """A moderator deletes the channel of a tournament (its tables' threads go with it, and
    their tables close): no command can reach the tournament any more, nor can its next
    level open, so the bot cancels it, every buy-in back, rather than leave it holding them
    (and its director's one tournament) for ever."""
    lounge = double.add_text_channel("lounge")
    async with audited_bot(double, tmp_path) as (bot, clock):
        await double.resolved(await alice.slash("ofc tournament create", channel=lounge,
                                                buy_in=50, table_seats=2, table_hands=1,
                                                window_minutes=5))
        for member in (alice, bob, carol):
            await double.resolved(await member.slash("ofc tournament join", channel=lounge))
        await double.resolved(await alice.slash("ofc tournament computer", channel=lounge))
        (t,) = bot.tournaments.live()
        if phase == "closed":
            await clock.advance(300)
            await bot.tournaments.idle()
            assert bot.tournaments.tournament(t.tournament_id).status == "closed"
        if phase == "level 1":  # two heads-up tables: the final is still to come
            await double.resolved(await alice.slash("ofc tournament start", channel=lounge))
            await double.wait_until(lambda: all(
                table.status == "playing"
                for table in bot.tournaments.tournament(t.tournament_id).tables),
                what="both tables playing")
        await double.delete_channel(lounge)
        await _cancelled_and_refunded(double, bot, clock, t.tournament_id, (alice, bob, carol))
        again = await double.resolved(await alice.slash("ofc tournament create", buy_in=5))
        assert again.ephemeral and "is open" in str(again.content)


async def test_standings_show_a_table_in_play_by_its_hand_not_by_points_not_yet_scored(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    """tournaments.md: a table's points are known once its match is over. While it plays,
    /ofc tournament standings says which hand it is at, not '+0' for everyone (nor a
    penalty's '-10' as if it were the player's score)."""
    async with audited_bot(double, tmp_path) as (bot, _):
        await two_heads_up_tables(double, bot, alice, bob, hands=2)
        await double.resolved(await alice.slash("ofc tournament penalty", member=bob,
                                                points=10, reason="slow"))
        answer = await double.resolved(await alice.slash("ofc tournament standings"))
        assert answer.ephemeral
        shown = [f for f in answer.embed["fields"] if f["name"].startswith("Table ")]
        assert [f["name"] for f in shown] == ["Table 1 (playing: hand 1 of 2)",
                                              "Table 2 (playing: hand 1 of 2)"]
        for field in shown:
            assert "+0" not in field["value"] and "-10" not in field["value"], field


@pytest.mark.parametrize("phase", ["registering", "level 1"])
async def test_a_tournaments_channel_deleted_while_the_bot_was_off_cancels_it_at_start(
        double: DiscordDouble, alice: Member, bob: Member, carol: Member, tmp_path: Path,
        phase: str) -> None:
    """The channel of a tournament is deleted while the bot is off: no CHANNEL_DELETE ever
    reaches it, and the restored tournament's channel is simply absent from the server the
    bot connects to. Once the server is known, the bot asks Discord for the channel; a 404
    Unknown Channel cancels the tournament as a deletion seen live does, every buy-in back."""
    lounge = double.add_text_channel("lounge")
    database = tmp_path / "ofc.sqlite3"
    clock = FakeClock()
    bot = await start_bot(double, database, clock)
    try:
        bot.tournaments.limits = replace(UNLIMITED, min_hands=1)
        await double.resolved(await alice.slash("ofc tournament create", channel=lounge,
                                                buy_in=50, table_seats=2, table_hands=1))
        for member in (alice, bob, carol):
            await double.resolved(await member.slash("ofc tournament join", channel=lounge))
        await double.resolved(await alice.slash("ofc tournament computer", channel=lounge))
        (t,) = bot.tournaments.live()
        if phase == "level 1":
            await double.resolved(await alice.slash("ofc tournament start", channel=lounge))
            await double.wait_until(lambda: all(
                table.status == "playing"
                for table in bot.tournaments.tournament(t.tournament_id).tables),
                what="both tables playing")
    finally:
        await double.stop_client(bot)
    await double.delete_channel(lounge, announce=False)  # while no bot is connected

    restarted = await start_bot(double, database, clock)
    try:
        await _cancelled_and_refunded(double, restarted, clock, t.tournament_id,
                                      (alice, bob, carol))
    finally:
        await double.stop_client(restarted)
    assert audit(database) == []


async def test_a_tournament_whose_channel_is_still_there_survives_a_restart(
        double: DiscordDouble, alice: Member, bob: Member, tmp_path: Path) -> None:
    """The check at start cancels only what Discord says is gone: a tournament whose channel
    the bot sees again is restored, registrations and all."""
    database = tmp_path / "ofc.sqlite3"
    clock = FakeClock()
    bot = await start_bot(double, database, clock)
    try:
        t = await two_registered(bot, alice, bob)
    finally:
        await double.stop_client(bot)
    restarted = await start_bot(double, database, clock)
    try:
        assert [x.tournament_id for x in restarted.tournaments.live()] == [t.tournament_id]
    finally:
        await double.stop_client(restarted)
