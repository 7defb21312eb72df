"""Skill ratings by season: updated in the transaction that ends a match (and in the one that
finishes a tournament, by its places), read by the board.

A server's first rated match opens its season 1; `start_season` closes the open one (its board
stays readable) and opens the next, where everyone starts again at the default. Only a
finished match counts: not one cancelled, not a practice, and only with two or more players,
a person among them.
Each update is recorded per player (place, a computer's level, before and after), so every
rating can be recomputed from `rating_changes` (bot/ratings.py is deterministic).
"""

from collections.abc import Mapping

from bot import ratings
from bot.ratings import Rating
from bot.storage import validate
from bot.storage.backend import Connection, Row
from bot.storage.core import Part
from bot.storage.errors import InvalidInput
from bot.storage.records import RatingChange, RatingRow, Season

_SEASON = "id, guild_id, number, name, started_at, ended_at"
_NAME_LENGTH = 60
_BOARD = "SELECT user_id, mu, sigma, matches FROM ratings WHERE season_id = ?"


def _season(row: Row) -> Season:
    id_, guild, number, name, started, ended = row
    return Season(int(id_), int(guild), int(number), str(name), float(started),
                  None if ended is None else float(ended))


async def _open_season(conn: Connection, guild_id: int, now: float) -> Season:
    """The server's open season, opened if there is none, its row held until the transaction
    ends: two matches ending at once in one server (on PostgreSQL) rate one after the other,
    each from the ratings the other left."""
    held = f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND ended_at IS NULL" \
        f"{conn.for_update}"
    rows = await conn.fetch(held, (guild_id,))
    if not rows:
        await _new_season(conn, guild_id, None, now)  # or another transaction's, just made
        rows = await conn.fetch(held, (guild_id,))
    return _season(rows[0])


async def _new_season(conn: Connection, guild_id: int, name: str | None, now: float,
                      key: str | None = None) -> None:
    """Open the server's next season; nothing when another transaction just opened one."""
    ((last,),) = await conn.fetch(
        "SELECT coalesce(max(number), 0) FROM seasons WHERE guild_id = ?", (guild_id,))
    number = int(last) + 1
    await conn.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at, start_key) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (guild_id, number, name or f"Season {number}", now, key))


async def rate_match(conn: Connection, match_id: int, guild_id: int,
                     computers: Mapping[int, str], now: float) -> None:
    """Update the ratings of a finished match's players in its server's open season (inside
    the caller's transaction): places by the match's net points."""
    totals = await conn.fetch(
        "SELECT mp.user_id, coalesce(sum(r.points), 0) FROM match_players AS mp "
        "LEFT JOIN hand_results AS r ON r.match_id = mp.match_id AND r.user_id = mp.user_id "
        "WHERE mp.match_id = ? GROUP BY mp.user_id ORDER BY mp.user_id", (match_id,))
    players = [int(user) for user, _ in totals]
    places = ratings.places([int(points) for _, points in totals])
    await _rate(conn, guild_id, players, places, computers, now, match_id=match_id)


async def rate_tournament(conn: Connection, tournament_id: int, guild_id: int,
                          places: Mapping[int, int], now: float) -> None:
    """A finished tournament's people, by their final places (1 is first), as one more ranked
    result in the open season; once only (its results may be written again)."""
    done = await conn.fetch(
        "SELECT 1 FROM rating_results WHERE tournament_id = ? LIMIT 1", (tournament_id,))
    if done:
        return
    players = sorted(places)
    await _rate(conn, guild_id, players, [places[p] for p in players], {}, now,
                tournament_id=tournament_id)


async def _rate(conn: Connection, guild_id: int, players: list[int], places: list[int],
                computers: Mapping[int, str], now: float, *, match_id: int | None = None,
                tournament_id: int | None = None) -> None:
    """One ranked result of `players` (by id) at `places`, in the server's open season;
    nothing without two players or without a person (computers' ratings never move)."""
    if len(players) < 2 or not any(p > 0 for p in players):
        return
    season = await _open_season(conn, guild_id, now)
    people = [p for p in players if p > 0]
    held: dict[int, Rating] = {}
    if people:
        marks = ", ".join("?" for _ in people)
        for user, mu, sigma, _ in await conn.fetch(
                f"{_BOARD} AND user_id IN ({marks})", (season.id, *people)):
            held[int(user)] = Rating(float(mu), float(sigma))
    before = [held.get(p, ratings.DEFAULT) if p > 0 else ratings.computer(computers.get(p))
              for p in players]
    after = ratings.rate(before, places)
    await conn.executemany(
        "INSERT INTO rating_results (season_id, match_id, tournament_id, user_id, level, place, "
        "mu_before, sigma_before, mu_after, sigma_after, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(season.id, match_id, tournament_id, p, None if p > 0 else computers.get(p, "easy"),
          place, b.mu, b.sigma, a.mu, a.sigma, now)
         for p, place, b, a in zip(players, places, before, after, strict=True)])
    await conn.executemany(
        "INSERT INTO ratings (season_id, user_id, mu, sigma, matches, updated_at) "
        "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (season_id, user_id) DO UPDATE SET "
        "mu = excluded.mu, sigma = excluded.sigma, matches = ratings.matches + 1, "
        "updated_at = excluded.updated_at",
        [(season.id, p, a.mu, a.sigma, now)
         for p, a in zip(players, after, strict=True) if p > 0])


def _board(rows: list[Row]) -> list[RatingRow]:
    """Best shown value first; equal values share a rank, ordered by matches, then id."""
    lines = sorted(((Rating(float(mu), float(sigma)), int(user), int(matches))
                    for user, mu, sigma, matches in rows),
                   key=lambda line: (-line[0].shown, -line[2], line[1]))
    shown = [rating.shown for rating, _, _ in lines]
    return [RatingRow(rank, user, rating.shown, rating.mu, rating.sigma, matches)
            for rank, (rating, user, matches) in zip(ratings.places(shown), lines, strict=True)]


class Ratings(Part):
    """Skill ratings by season (`storage.ratings`)."""

    async def seasons(self, guild_id: int) -> list[Season]:
        """A server's seasons, the first first (none before its first rated match)."""
        guild_id = validate.snowflake("guild id", guild_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,))
        return [_season(row) for row in rows]

    async def start_season(self, guild_id: int, name: str | None, *, now: float,
                           key: str | None = None) -> tuple[Season, bool]:
        """Close the server's open season (its board stays) and open the next: (it, True).
        A start with the `key` of one made before (a redelivered interaction) starts nothing:
        (the season that one started, False)."""
        guild_id = validate.snowflake("guild id", guild_id)
        key = None if key is None else validate.key(key)
        if name is not None:
            name = name.strip()
            if not 0 < len(name) <= _NAME_LENGTH:
                raise InvalidInput(f"A season's name has 1 to {_NAME_LENGTH} characters.")
            validate.storable("season's name", name)
        async with self._db.transaction() as conn:
            # Starts at the same time (PostgreSQL) run one after the other: each sees the
            # season the one before opened (and its key), closes it and opens its own.
            await conn.lock_table("seasons")
            if key is not None:
                made = await conn.fetch(f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? "
                                        "AND start_key = ?", (guild_id, key))
                if made:
                    return _season(made[0]), False
            await conn.execute(
                "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL",
                (now, guild_id))
            await _new_season(conn, guild_id, name, now, key)
            return await _open_season(conn, guild_id, now), True

    async def rating_board(self, guild_id: int, season: int | None = None,
                           limit: int | None = 10) -> tuple[Season | None, list[RatingRow]]:
        """A season's board (`season`: its number; None: the open or last one), best first,
        its first `limit` lines (None: every line); (None, []) when the server has no such
        season."""
        guild_id = validate.snowflake("guild id", guild_id)
        limit = None if limit is None else validate.count("limit", limit)
        async with self._db.transaction(write=False) as conn:
            chosen = await self._season_of(conn, guild_id, season)
            if chosen is None:
                return None, []
            rows = await conn.fetch(_BOARD, (chosen.id,))
        return chosen, _board(rows)[:limit]

    async def rating_of(self, guild_id: int, user_id: int,
                        season: int | None = None) -> tuple[RatingRow | None, int]:
        """A person's line on a season's board (None: the open or last one), None before
        their first rated match of it; and how many are on that board."""
        user_id = validate.human(user_id)
        _, board = await self.rating_board(guild_id, season, limit=None)
        return next((row for row in board if row.user_id == user_id), None), len(board)

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        """The updates a match made, by player id (none: not rated)."""
        match_id = validate.snowflake("match id", match_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT user_id, level, place, mu_before, sigma_before, mu_after, sigma_after "
                "FROM rating_results WHERE match_id = ? ORDER BY user_id", (match_id,))
        return [RatingChange(int(u), lv, int(pl), Rating(float(mb), float(sb)),
                             Rating(float(ma), float(sa)))
                for u, lv, pl, mb, sb, ma, sa in rows]

    async def season_results(self, season_id: int) -> list[list[RatingChange]]:
        """Every rated result of a season (a match, or a tournament's places) in the order it
        was rated: its changes."""
        season_id = validate.snowflake("season id", season_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT match_id, tournament_id, user_id, level, place, mu_before, "
                "sigma_before, mu_after, sigma_after FROM rating_results WHERE season_id = ? "
                "ORDER BY id", (season_id,))
        results: dict[tuple[int | None, int | None], list[RatingChange]] = {}
        for m, tm, u, lv, pl, mb, sb, ma, sa in rows:
            results.setdefault((m, tm), []).append(RatingChange(
                int(u), lv, int(pl), Rating(float(mb), float(sb)), Rating(float(ma), float(sa))))
        return list(results.values())

    async def season_ratings(self, season_id: int) -> dict[int, RatingRow]:
        """Every stored rating of a season, by person."""
        season_id = validate.snowflake("season id", season_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(_BOARD, (season_id,))
        return {row.user_id: row for row in _board(rows)}

    @staticmethod
    async def _season_of(conn: Connection, guild_id: int, number: int | None) -> Season | None:
        if number is None:
            rows = await conn.fetch(
                f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1",
                (guild_id,))
        else:
            rows = await conn.fetch(
                f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND number = ?",
                (guild_id, validate.count("season", number)))
        return _season(rows[0]) if rows else None
