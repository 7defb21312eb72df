"""Skill ratings by season in storage (bot/storage/ratings.py), on both databases: a finished
match updates them in its end's transaction; practice and cancelled matches change nothing;
seasons close with their boards; every rating recomputes from the recorded results."""

import asyncio

from bot import ratings
from bot.ratings import DEFAULT, Rating
from bot.storage import (
    HandRecord,
    InvalidInput,
    PlayerHandResult,
    Storage,
    TournamentResult,
)
from tests.storage.conftest import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD

R = PlayerHandResult
OPTIONS = '{"format": "match"}'


async def _match(storage: Storage, points: dict[int, int], *, now: float,
                 practice: bool = False, cancelled: bool = False,
                 computers: dict[int, str] | None = None) -> int:
    table = await storage.tables.create_table(GUILD, CHANNEL + int(now), '{"hand": 0}', now=now)
    match = await storage.history.record_match_start(table, OPTIONS, list(points), now=now,
                                                     practice=practice)
    await storage.history.record_hand(HandRecord(match, 1, '{"hand": 1}', tuple(
        R(player, p, p) for player, p in points.items())), now=now + 1)
    await storage.history.record_match_end(match, [], now=now + 2, cancelled=cancelled,
                                           computers=computers)
    return match


async def test_a_finished_match_rates_its_people_by_points(storage: Storage) -> None:
    match = await _match(storage, {ALICE: 6, BOB: -2, CAROL: -4}, now=10.0)
    expected = ratings.rate([DEFAULT] * 3, [1, 2, 3])
    season, board = await storage.ratings.rating_board(GUILD)
    assert season is not None and (season.number, season.name) == (1, "Season 1")
    assert [(row.rank, row.user_id, row.matches) for row in board] == \
        [(1, ALICE, 1), (2, BOB, 1), (3, CAROL, 1)]
    assert [Rating(row.mu, row.sigma) for row in board] == expected
    changes = await storage.ratings.rating_changes(match)
    assert {c.user_id: (c.place, c.before, c.after) for c in changes} == {
        ALICE: (1, DEFAULT, expected[0]), BOB: (2, DEFAULT, expected[1]),
        CAROL: (3, DEFAULT, expected[2])}


async def test_a_board_gives_its_first_lines_or_every_line(storage: Storage) -> None:
    await _match(storage, {ALICE: 6, BOB: -2, CAROL: -4}, now=10.0)
    _, top = await storage.ratings.rating_board(GUILD, limit=2)
    _, whole = await storage.ratings.rating_board(GUILD, limit=None)
    assert [row.user_id for row in top] == [ALICE, BOB]
    assert [row.user_id for row in whole] == [ALICE, BOB, CAROL]
    assert await storage.ratings.rating_of(GUILD, CAROL) == (whole[2], 3)


async def test_practice_and_cancelled_matches_change_nothing(storage: Storage) -> None:
    practice = await _match(storage, {ALICE: 6, BOT: -6}, now=10.0, practice=True)
    cancelled = await _match(storage, {ALICE: 6, BOB: -6}, now=20.0, cancelled=True)
    assert await storage.ratings.rating_changes(practice) == []
    assert await storage.ratings.rating_changes(cancelled) == []
    assert await storage.ratings.rating_board(GUILD) == (None, [])
    assert await storage.ratings.rating_of(GUILD, ALICE) == (None, 0)


async def test_a_computer_plays_at_its_levels_fixed_rating(storage: Storage) -> None:
    await _match(storage, {ALICE: 5, BOT: -5}, now=10.0, computers={BOT: "strong"})
    await _match(storage, {BOB: 5, BOT - 1: -5}, now=20.0, computers={BOT - 1: "easy"})
    (alice, rated), (bob, _) = (await storage.ratings.rating_of(GUILD, ALICE),
                                await storage.ratings.rating_of(GUILD, BOB))
    assert alice is not None and bob is not None and rated == 2
    assert alice.mu > bob.mu > DEFAULT.mu  # a beaten strong computer counts more
    assert [row.user_id for row in (await storage.ratings.rating_board(GUILD))[1]] == [ALICE, BOB]
    season = (await storage.ratings.seasons(GUILD))[0]
    for changes in await storage.ratings.season_results(season.id):
        computer = next(c for c in changes if c.user_id < 0)
        assert computer.before == ratings.COMPUTERS[computer.level or ""]


async def test_a_new_season_starts_everyone_again_and_keeps_the_old_board(
        storage: Storage) -> None:
    await _match(storage, {ALICE: 6, BOB: -6}, now=10.0)
    _, first = await storage.ratings.rating_board(GUILD)
    started, _ = await storage.ratings.start_season(GUILD, "Winter", now=100.0)
    assert (started.number, started.name, started.ended_at) == (2, "Winter", None)
    assert await storage.ratings.rating_board(GUILD) == (started, [])
    await _match(storage, {BOB: 6, ALICE: -6}, now=200.0)
    _, second = await storage.ratings.rating_board(GUILD)
    assert [row.user_id for row in second] == [BOB, ALICE]
    assert second[0].matches == 1 and Rating(second[0].mu, second[0].sigma) == \
        ratings.rate([DEFAULT, DEFAULT], [1, 2])[0]  # from the default again
    old, board = await storage.ratings.rating_board(GUILD, season=1)
    assert old is not None and old.ended_at == 100.0 and board == first
    assert await storage.ratings.rating_board(GUILD, season=3) == (None, [])
    for bad in ("", " ", "x" * 61, "Win\x00ter"):  # NUL: PostgreSQL's text cannot hold it
        try:
            await storage.ratings.start_season(GUILD, bad, now=300.0)
        except InvalidInput:
            continue
        raise AssertionError(f"{bad!r} was taken as a season's name")
    assert len(await storage.ratings.seasons(GUILD)) == 2  # the refusals changed nothing


async def test_every_rating_recomputes_from_the_recorded_results(storage: Storage) -> None:
    results = [{ALICE: 6, BOB: -2, CAROL: -4}, {ALICE: -3, BOB: 3}, {BOB: 0, CAROL: 0, BOT: 0},
               {CAROL: 9, ALICE: -9, BOT: 0}, {ALICE: 1, BOB: 1, CAROL: -2}]
    for number, points in enumerate(results):
        await _match(storage, points, now=10.0 * (number + 1), computers={BOT: "strong"})
    season = (await storage.ratings.seasons(GUILD))[0]
    recomputed: dict[int, Rating] = {}
    played: dict[int, int] = {}
    recorded = await storage.ratings.season_results(season.id)
    assert len(recorded) == len(results)
    for changes, points in zip(recorded, results, strict=True):
        assert {c.user_id for c in changes} == set(points)
        before = [recomputed.get(c.user_id, DEFAULT) if c.user_id > 0
                  else ratings.computer(c.level) for c in changes]
        assert [c.before for c in changes] == before
        assert [c.place for c in changes] == ratings.places([points[c.user_id]
                                                             for c in changes])
        after = ratings.rate(before, [c.place for c in changes])
        assert [c.after for c in changes] == after
        for change, rating in zip(changes, after, strict=True):
            if change.user_id > 0:
                recomputed[change.user_id] = rating
                played[change.user_id] = played.get(change.user_id, 0) + 1
    stored = await storage.ratings.season_ratings(season.id)
    assert {user: (Rating(row.mu, row.sigma), row.matches) for user, row in stored.items()} \
        == {user: (rating, played[user]) for user, rating in recomputed.items()}


async def test_matches_ending_at_once_rate_one_after_the_other(storage: Storage) -> None:
    """On PostgreSQL two match ends run at once: the first rated match of a server opens one
    season, and each update starts from the ratings the other left (none is lost)."""
    matches = []
    for number, points in enumerate(({ALICE: 4, BOB: -4}, {ALICE: -2, CAROL: 2},
                                     {BOB: 1, CAROL: -1})):
        table = await storage.tables.create_table(GUILD, CHANNEL + number, '{"hand": 0}', now=1.0)
        match = await storage.history.record_match_start(table, OPTIONS, list(points), now=1.0)
        await storage.history.record_hand(HandRecord(match, 1, '{"hand": 1}', tuple(
            R(player, p, p) for player, p in points.items())), now=2.0)
        matches.append(match)
    await asyncio.gather(*(storage.history.record_match_end(m, [], now=3.0) for m in matches))
    (season,) = await storage.ratings.seasons(GUILD)
    latest: dict[int, Rating] = {}
    for changes in await storage.ratings.season_results(season.id):
        for change in changes:
            assert change.before == latest.get(change.user_id, DEFAULT)
            latest[change.user_id] = change.after
    stored = await storage.ratings.season_ratings(season.id)
    assert {user: Rating(row.mu, row.sigma) for user, row in stored.items()} == latest
    assert {row.matches for row in stored.values()} == {2}


async def test_a_finished_tournament_rates_its_people_once_by_their_places(
        storage: Storage) -> None:
    await _match(storage, {ALICE: 6, BOB: -6}, now=10.0)  # Alice and Bob already rated
    _, board = await storage.ratings.rating_board(GUILD)
    held = {r.user_id: Rating(r.mu, r.sigma) for r in board}
    tournament = await storage.tournaments.create_tournament(GUILD, CHANNEL, "{}", now=20.0)
    places = {ALICE: 3, BOB: 1, CAROL: 2}
    results = [TournamentResult(user, place, 3, 0, 0, False) for user, place in places.items()]
    # not over yet
    await storage.tournaments.save_tournament(tournament, "{}", now=21.0, results=results)
    season = (await storage.ratings.seasons(GUILD))[0].id
    assert len(await storage.ratings.season_results(season)) == 1
    for _ in range(2):  # a repeat (a restart writes the results again) rates it once
        await storage.tournaments.save_tournament(tournament, "{}", now=30.0, status="finished",
                                                  results=results)
    season = (await storage.ratings.seasons(GUILD))[0]
    match, rated = await storage.ratings.season_results(season.id)
    people = sorted(places)  # rated by id, each at its final place
    after = ratings.rate([held.get(p, DEFAULT) for p in people], [places[p] for p in people])
    assert [(c.user_id, c.place, c.after) for c in rated] == \
        [(p, places[p], a) for p, a in zip(people, after, strict=True)]
    assert {row.user_id: row.matches for row in (await storage.ratings.rating_board(GUILD))[1]} == \
        {ALICE: 2, BOB: 2, CAROL: 1}
    assert len(match) == 2


async def test_history_tells_a_cancelled_match_from_a_finished_one(storage: Storage) -> None:
    cancelled = await _match(storage, {ALICE: 6, BOB: -6}, now=10.0, cancelled=True)
    finished = await _match(storage, {ALICE: 6, BOB: -6}, now=20.0)
    summaries = {m.match_id: m for m in await storage.history.recent_matches(GUILD, ALICE)}
    assert (summaries[cancelled].cancelled, summaries[finished].cancelled) == (True, False)

async def test_a_table_refunded_as_unrestorable_ends_its_match_unrated(storage: Storage) -> None:
    """A table that cannot be restored is refunded: its match can never finish, so it ends as
    a cancelled one does (not rated, not in /ofc stats) instead of staying "in play"."""
    table = await storage.tables.create_table(GUILD, CHANNEL, '{"hand": 0}', now=1.0)
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=1.0)
    await storage.history.record_hand(HandRecord(match, 1, '{"hand": 1}', (
        R(ALICE, 6, 6), R(BOB, -6, -6))), now=2.0)
    await storage.tables.refund_table(table, "snapshot could not be restored", now=9.0)
    (summary,) = await storage.history.recent_matches(GUILD, ALICE)
    assert (summary.ended_at, summary.cancelled) == (9.0, True)
    assert await storage.history.current_match(table) is None
    assert await storage.ratings.rating_changes(match) == []
    assert await storage.ratings.rating_board(GUILD) == (None, [])
    assert (await storage.history.stats(GUILD, ALICE)).hands == 0


async def test_a_repeated_season_start_starts_one_season(storage: Storage) -> None:
    """The same start made again (a redelivered /ofc-admin season start: its key) returns the
    season it opened: it does not close that season at once and open another; a start with
    another key does, at the very same time too."""
    await _match(storage, {ALICE: 6, BOB: -6}, now=10.0)
    started, applied = await storage.ratings.start_season(GUILD, "Winter", now=100.0, key="a")
    assert applied and (started.number, started.name) == (2, "Winter")
    assert await storage.ratings.start_season(GUILD, "Winter", now=100.0, key="a") == \
        (started, False)
    assert [(s.number, s.ended_at) for s in await storage.ratings.seasons(GUILD)] == \
        [(1, 100.0), (2, None)]
    later, applied = await storage.ratings.start_season(GUILD, None, now=100.0, key="b")
    assert applied and (later.number, later.name) == (3, "Season 3")
    other, applied = await storage.ratings.start_season(GUILD + 1, None, now=100.0, key="a")
    assert applied and other.number == 1  # keys are per server


async def test_a_match_of_computers_only_rates_nothing(storage: Storage) -> None:
    """No person played it: nobody's rating moves, so nothing is recorded and no season opens
    (a tournament's table of computers only, `ofc simulate` into a database)."""
    match = await _match(storage, {BOT: 5, BOT - 1: -5}, now=10.0,
                         computers={BOT: "strong", BOT - 1: "easy"})
    assert await storage.ratings.rating_changes(match) == []
    assert await storage.ratings.seasons(GUILD) == []


async def test_a_match_in_play_at_a_season_start_counts_in_the_new_season(
        storage: Storage) -> None:
    """A match is rated in the season open when it ends (docs/players/ratings.md), from that
    season's ratings: the default, however its players did in the season before."""
    await _match(storage, {ALICE: 6, BOB: -6}, now=10.0)
    table = await storage.tables.create_table(GUILD, CHANNEL, '{"hand": 0}', now=20.0)
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=20.0)
    await storage.history.record_hand(HandRecord(match, 1, '{"hand": 1}', (
        R(ALICE, -3, -3), R(BOB, 3, 3))), now=21.0)
    new, _ = await storage.ratings.start_season(GUILD, None, now=30.0)
    await storage.history.record_match_end(match, [BOB], now=40.0)
    first, second = await storage.ratings.seasons(GUILD)
    assert [len(await storage.ratings.season_results(s.id)) for s in (first, second)] == [1, 1]
    (changes,) = await storage.ratings.season_results(new.id)
    assert [(c.user_id, c.place, c.before) for c in changes] == \
        [(ALICE, 2, DEFAULT), (BOB, 1, DEFAULT)]



async def test_season_starts_at_once_start_a_season_each(storage: Storage) -> None:
    """Admins start seasons at the same moment (on PostgreSQL the transactions run at once):
    each start closes the season open when it runs and opens its own, as one after the other
    do, so each is answered with the season it started."""
    await _match(storage, {ALICE: 6, BOB: -6}, now=10.0)
    names = [f"Season of {n}" for n in range(6)]
    started = await asyncio.gather(*(storage.ratings.start_season(GUILD, name, now=100.0,
                                                                  key=name)
                                     for name in names))
    assert all(applied for _, applied in started)
    assert sorted(season.name for season, _ in started) == names
    seasons = await storage.ratings.seasons(GUILD)
    assert [s.number for s in seasons] == list(range(1, 8))
    assert [s.ended_at is None for s in seasons] == [False] * 6 + [True]
