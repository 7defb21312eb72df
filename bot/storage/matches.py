"""Match and hand history, and the queries behind /history and /stats."""

from collections.abc import Collection, Mapping, Sequence

from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import Part, open_table
from bot.storage.errors import InvalidInput, UnknownHand, UnknownMatch
from bot.storage.ratings import rate_match
from bot.storage.records import (
    HandHistory,
    HandRecord,
    MatchPlayer,
    MatchSummary,
    PlayedHand,
    PlayerHandResult,
    PlayerStats,
)

_RESULT_COLUMNS = (
    "user_id, points, chips, fouled, royalties, in_fantasy, fantasy_entered, fantasy_stayed, "
    "scoops"
)


def _checked_result(result: PlayerHandResult) -> PlayerHandResult:
    """Validate one player's hand line; Fantasyland entry happens outside it, a stay inside."""
    checked = PlayerHandResult(
        validate.player(result.user_id),
        validate.integer("points", result.points),
        validate.integer("chips", result.chips),
        validate.flag("fouled", result.fouled),
        validate.count("royalties", result.royalties),
        validate.flag("in_fantasy", result.in_fantasy),
        validate.flag("fantasy_entered", result.fantasy_entered),
        validate.flag("fantasy_stayed", result.fantasy_stayed),
        validate.count("scoops", result.scoops),
    )
    if checked.fantasy_entered and checked.in_fantasy:
        raise InvalidInput("A player in Fantasyland stays in it; entering is from outside (R8).")
    if checked.fantasy_stayed and not checked.in_fantasy:
        raise InvalidInput("Only a player in Fantasyland can stay in it (R8).")
    return checked


def _checked_hand(hand: HandRecord) -> HandRecord:
    results = tuple(_checked_result(r) for r in hand.results)
    if len({r.user_id for r in results}) != len(results):
        raise InvalidInput("A hand record lists a player twice.")
    if not isinstance(hand.history_json, str) or not hand.history_json:
        raise InvalidInput("A hand's history must be a non-empty JSON string.")
    return HandRecord(
        validate.snowflake("match id", hand.match_id),
        validate.count("hand number", hand.hand_no),
        hand.history_json,
        results,
    )


async def _match_row(conn: Connection, match_id: int, *,
                     lock: bool = True) -> tuple[int, int, float | None]:
    """(table id, guild id, ended_at) of a match; UnknownMatch if there is none. With `lock`
    (a hand or the end is about to be recorded) the match's row is held until the
    transaction ends."""
    rows = await conn.fetch(
        f"SELECT table_id, guild_id, ended_at FROM matches WHERE id = ?"
        f"{conn.for_update if lock else ''}", (match_id,))
    if not rows:
        raise UnknownMatch(match_id)
    return int(rows[0][0]), int(rows[0][1]), rows[0][2]


# A hand, inserted only while its match (`id = ?`) takes hands.
_INSERT_HAND = ("INSERT INTO hands (match_id, hand_no, history_json, played_at) "
                "SELECT id, ?, ?, ? FROM matches WHERE id = ? AND ended_at IS NULL")


async def insert_hand(
    conn: Connection, hand: HandRecord, now: float, *, table_id: int | None = None
) -> bool:
    """Record a finished hand (inside the caller's transaction); False if already recorded.

    With `table_id`, the match must be that table's (settle_hand passes it).
    """
    hand = _checked_hand(hand)
    # One statement when the match takes the hand, its row held as _match_row holds it (a
    # statement each is a round trip on PostgreSQL); when nothing was inserted, the match's
    # row says why, or the hand was recorded already.
    at_table = "" if table_id is None else " AND table_id = ?"
    inserted = await conn.execute(
        f"{_INSERT_HAND}{at_table}{conn.for_update} ON CONFLICT DO NOTHING",
        (hand.hand_no, hand.history_json, now, hand.match_id,
         *(() if table_id is None else (table_id,))),
    )
    if not inserted:
        match_table, _, ended_at = await _match_row(conn, hand.match_id)
        if table_id is not None and match_table != table_id:
            raise InvalidInput(f"Match #{hand.match_id} is not played at table #{table_id}.")
        if ended_at is not None:
            raise InvalidInput(f"Match #{hand.match_id} is over: it takes no more hands.")
        return False
    # Players who join a running match (format=cash) become participants with their first hand.
    await conn.executemany(
        "INSERT INTO match_players (match_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(hand.match_id, r.user_id) for r in hand.results],
    )
    await conn.executemany(
        f"INSERT INTO hand_results (match_id, hand_no, {_RESULT_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (hand.match_id, hand.hand_no, r.user_id, r.points, r.chips, r.fouled, r.royalties,
             r.in_fantasy, r.fantasy_entered, r.fantasy_stayed, r.scoops)
            for r in hand.results
        ],
    )
    return True


def hand_at_once(hand: HandRecord, table_id: int, now: float) -> tuple[str, list[object]]:
    """PostgreSQL: `insert_hand`'s writes as parts of one statement's WITH (`hand`, `players`,
    `results`) and their parameters, for a statement that checks `hand` inserted one row
    (none: the match is over, is another table's, or has the hand already) and otherwise undoes
    itself. Its players and results are written only with the hand, so that a repeat raises
    nothing but that check."""
    hand = _checked_hand(hand)
    columns = [[int(getattr(r, name)) for r in hand.results]
               for name in _RESULT_COLUMNS.split(", ")]  # user_id first
    sql = (f"hand AS ({_INSERT_HAND} AND table_id = ? FOR NO KEY UPDATE "
           "ON CONFLICT DO NOTHING RETURNING 1), "
           "players AS (INSERT INTO match_players (match_id, user_id) "
           "SELECT ?, u FROM unnest(?::bigint[]) AS u WHERE EXISTS (SELECT 1 FROM hand) "
           "ON CONFLICT DO NOTHING), "
           f"results AS (INSERT INTO hand_results (match_id, hand_no, {_RESULT_COLUMNS}) "
           "SELECT ?, ?, r.* FROM unnest(" + ", ".join(["?::bigint[]"] * len(columns)) + ") "
           f"AS r ({_RESULT_COLUMNS}) WHERE EXISTS (SELECT 1 FROM hand))")
    params: list[object] = [hand.hand_no, hand.history_json, now, hand.match_id, table_id,
                            hand.match_id, columns[0], hand.match_id, hand.hand_no, *columns]
    return sql, params


# A match /stats counts: ended, not by /ofc cancel, and not a practice (play chips).
_FINISHED = "m.ended_at IS NOT NULL AND m.cancelled = 0 AND m.practice = 0"
_PLAYED_HAND = (
    "SELECT h.match_id, h.hand_no, h.played_at, r.points, m.practice, h.history_json "
    "FROM hand_results AS r JOIN hands AS h ON h.match_id = r.match_id AND h.hand_no = r.hand_no "
    "JOIN matches AS m ON m.id = r.match_id WHERE m.guild_id = ? AND r.user_id = ? "
)


def _result(row: Sequence[int]) -> PlayerHandResult:
    user_id, points, chips, fouled, royalties, in_fl, entered, stayed, scoops = row
    return PlayerHandResult(
        user_id, points, chips, bool(fouled), royalties, bool(in_fl), bool(entered),
        bool(stayed), scoops,
    )


class History(Part):
    """Matches, their hands, and the figures read from them (`storage.history`)."""

    async def record_match_start(
        self, table_id: int, options_json: str, players: Sequence[int], *, now: float,
        practice: bool = False,
    ) -> int:
        """Start a match at an open table and return its id. A `practice` match (play chips)
        is kept in the history but left out of `stats`.

        A table runs one match at a time: while its match is unfinished this returns that
        match's id (so a restart that replays the start does not open a second one). Until
        that match has a hand, `players` replace its players: a bot stopped before the deal
        was saved comes back to the lobby, whose seats may change before the start is made
        again, and only who is dealt in has played the match.
        """
        table_id = validate.snowflake("table id", table_id)
        if not isinstance(options_json, str) or not options_json:
            raise InvalidInput("A match's options must be a non-empty JSON string.")
        seated = [validate.player(p) for p in players]
        async with self._db.transaction() as conn:
            guild_id = await open_table(conn, table_id)
            await self._core.fenced(conn, guild_id)
            running = await conn.fetch(
                "SELECT id FROM matches WHERE table_id = ? AND ended_at IS NULL", (table_id,)
            )
            if running:
                match_id = int(running[0][0])
                if await conn.fetch("SELECT 1 FROM hands WHERE match_id = ? LIMIT 1", (match_id,)):
                    return match_id
                await conn.execute("DELETE FROM match_players WHERE match_id = ?", (match_id,))
                await conn.execute("UPDATE matches SET started_at = ? WHERE id = ?",
                                   (now, match_id))
            else:
                rows = await conn.fetch(
                    "INSERT INTO matches (table_id, guild_id, options_json, started_at, "
                    "practice) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (table_id, guild_id, options_json, now,
                     int(validate.flag("practice", practice))),
                )
                match_id = int(rows[0][0])
            await conn.executemany(
                "INSERT INTO match_players (match_id, user_id) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                [(match_id, p) for p in seated],
            )
        return match_id

    async def current_match(self, table_id: int) -> int | None:
        """The id of a table's unfinished match, if any."""
        table_id = validate.snowflake("table id", table_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT id FROM matches WHERE table_id = ? AND ended_at IS NULL", (table_id,)
            )
        return int(rows[0][0]) if rows else None

    async def record_hand(self, hand: HandRecord, *, now: float) -> bool:
        """Record a hand on its own (settle_hand can record it with the chips instead).
        False when that hand number of that match is already recorded."""
        async with self._db.transaction() as conn:
            await self._core.fenced(conn, (await _match_row(conn, hand.match_id))[1])
            return await insert_hand(conn, hand, now)

    async def record_match_end(
        self, match_id: int, winners: Collection[int], *, now: float, cancelled: bool = False,
        computers: Mapping[int, str] | None = None,
    ) -> bool:
        """Finish a match; `winners` (participants, the caller's choice, ties allowed) count
        as won for /stats. Net points and chips come from the recorded hands. A `cancelled`
        match (no winners) ends too, but /stats leaves it out. A finished match that is not
        a practice updates its players' ratings in the same transaction (ratings.py), each
        computer at its level in `computers` (by seat id; easy when not named).
        False when the match had already ended."""
        match_id = validate.snowflake("match id", match_id)
        won = {validate.player(w) for w in winners}
        if cancelled and won:
            raise InvalidInput("A cancelled match has no winners.")
        async with self._db.transaction() as conn:
            _, guild_id, ended_at = await _match_row(conn, match_id)
            await self._core.fenced(conn, guild_id)
            if ended_at is not None:
                return False
            rows = await conn.fetch(
                "SELECT user_id FROM match_players WHERE match_id = ?", (match_id,)
            )
            strangers = won - {int(r[0]) for r in rows}
            if strangers:
                raise InvalidInput(
                    f"Player {min(strangers)} did not play match #{match_id}, so cannot win it."
                )
            await conn.executemany(
                "UPDATE match_players SET won = 1 WHERE match_id = ? AND user_id = ?",
                [(match_id, w) for w in won],
            )
            await conn.execute("UPDATE matches SET ended_at = ?, cancelled = ? WHERE id = ?",
                               (now, int(cancelled), match_id))
            ((guild_id, practice),) = await conn.fetch(
                "SELECT guild_id, practice FROM matches WHERE id = ?", (match_id,))
            if not cancelled and not practice:
                await rate_match(conn, match_id, int(guild_id), computers or {}, now)
        return True

    async def table_results(self, table_id: int) -> dict[int, tuple[int, int]]:
        """Player -> (points, chips) over the hands played at a table (its history)."""
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT r.user_id, sum(r.points), sum(r.chips) FROM hand_results AS r "
                "JOIN matches AS m ON m.id = r.match_id WHERE m.table_id = ? "
                "GROUP BY r.user_id", (table_id,))
        return {int(user): (int(points), int(chips)) for user, points, chips in rows}

    async def recent_matches(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[MatchSummary]:
        """A player's latest matches in a guild, newest first, with every player's totals
        (standings order: most points first)."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.player(user_id)
        async with self._db.transaction(write=False) as conn:
            matches = await conn.fetch(
                "SELECT m.id, m.table_id, m.guild_id, m.options_json, m.started_at, m.ended_at, "
                "(SELECT count(*) FROM hands AS h WHERE h.match_id = m.id), m.practice, "
                "m.cancelled, t.lent, coalesce(t.thread_id, t.channel_id) "
                "FROM matches AS m JOIN match_players AS mp ON mp.match_id = m.id "
                "JOIN live_tables AS t ON t.id = m.table_id "
                "WHERE m.guild_id = ? AND mp.user_id = ? ORDER BY m.id DESC LIMIT ?",
                (guild_id, user_id, validate.count("limit", limit)),
            )
            players: dict[int, list[MatchPlayer]] = {int(m[0]): [] for m in matches}
            marks = ", ".join("?" for _ in players)
            rows = [] if not players else await conn.fetch(
                "SELECT mp.match_id, mp.user_id, coalesce(sum(r.points), 0) AS points, "
                "coalesce(sum(r.chips), 0), count(r.hand_no), mp.won "
                "FROM match_players AS mp LEFT JOIN hand_results AS r "
                "ON r.match_id = mp.match_id AND r.user_id = mp.user_id "
                f"WHERE mp.match_id IN ({marks}) GROUP BY mp.match_id, mp.user_id "
                "ORDER BY points DESC, mp.user_id",
                tuple(players),
            )
        for match_id, user, points, chips, hands, won in rows:
            players[match_id].append(MatchPlayer(user, points, chips, hands, bool(won)))
        return [MatchSummary(m[0], m[1], m[2], m[3], m[4], m[5], m[6], tuple(players[m[0]]),
                             bool(m[7]), bool(m[8]), bool(m[9]), int(m[10]))
                for m in matches]

    async def played_hands(self, guild_id: int, user_id: int, limit: int = 25
                           ) -> list[PlayedHand]:
        """The hands a player played in a guild, newest first (for /ofc review)."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.player(user_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                _PLAYED_HAND + "ORDER BY h.played_at DESC, h.match_id DESC, "
                "h.hand_no DESC LIMIT ?",
                (guild_id, user_id, validate.count("limit", limit)),
            )
        return [PlayedHand(m, h, at, points, bool(practice))
                for m, h, at, points, practice, _ in rows]

    async def played_hand(self, guild_id: int, user_id: int, match_id: int, hand_no: int
                          ) -> tuple[PlayedHand, str]:
        """One hand the player played in the guild, with its history JSON; UnknownHand when
        they did not play it there (or there is no such hand)."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.player(user_id)
        match_id = validate.snowflake("match id", match_id)
        hand_no = validate.count("hand number", hand_no)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                _PLAYED_HAND + "AND h.match_id = ? AND h.hand_no = ?",
                (guild_id, user_id, match_id, hand_no),
            )
        if not rows:
            raise UnknownHand(match_id, hand_no)
        m, h, at, points, practice, history = rows[0]
        return PlayedHand(m, h, at, points, bool(practice)), history

    async def match_hands(self, match_id: int) -> list[HandHistory]:
        """Every recorded hand of a match, in order, with each player's line."""
        match_id = validate.snowflake("match id", match_id)
        async with self._db.transaction(write=False) as conn:
            await _match_row(conn, match_id, lock=False)
            hands = await conn.fetch(
                "SELECT hand_no, history_json, played_at FROM hands WHERE match_id = ? "
                "ORDER BY hand_no",
                (match_id,),
            )
            rows = await conn.fetch(
                f"SELECT hand_no, {_RESULT_COLUMNS} FROM hand_results WHERE match_id = ? "
                "ORDER BY hand_no, user_id",
                (match_id,),
            )
        results: dict[int, list[PlayerHandResult]] = {int(h[0]): [] for h in hands}
        for row in rows:
            results[row[0]].append(_result(row[1:]))
        return [
            HandHistory(match_id, no, history, played_at, tuple(results[no]))
            for no, history, played_at in hands
        ]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's totals in a guild over the finished matches: a match still running or
        cancelled counts for nothing, its hands included."""
        return await self._stats(validate.snowflake("guild id", guild_id),
                                 "= ?", (validate.player(user_id),))

    async def server_stats(self, guild_id: int) -> PlayerStats:
        """Every person's hands of a guild's finished matches together (computers left out):
        the server's averages beside a player's (`matches` counts each player's matches)."""
        return await self._stats(validate.snowflake("guild id", guild_id), "> 0", ())

    async def _stats(self, guild_id: int, who: str, params: tuple[int, ...]) -> PlayerStats:
        async with self._db.transaction(write=False) as conn:
            # a tournament's table plays with chips the house lends: they never reach a
            # wallet, so they stay out of the net chips (its hands count as any other)
            hands = await conn.fetch(
                "SELECT count(*), coalesce(sum(r.points), 0), "
                "coalesce(sum(CASE WHEN t.lent = 0 THEN r.chips ELSE 0 END), 0), "
                "coalesce(sum(r.fouled), 0), coalesce(sum(1 - r.in_fantasy), 0), "
                "coalesce(sum(r.fantasy_entered), 0), coalesce(sum(r.in_fantasy), 0), "
                "coalesce(sum(r.fantasy_stayed), 0), coalesce(sum(r.scoops), 0), "
                "coalesce(max(r.royalties), 0), coalesce(sum(r.royalties), 0) "
                "FROM hand_results AS r JOIN matches AS m ON m.id = r.match_id "
                "JOIN live_tables AS t ON t.id = m.table_id "
                f"WHERE m.guild_id = ? AND r.user_id {who} AND {_FINISHED}",
                (guild_id, *params),
            )
            matches = await conn.fetch(
                "SELECT count(*), coalesce(sum(mp.won), 0) "
                "FROM match_players AS mp JOIN matches AS m ON m.id = mp.match_id "
                f"WHERE m.guild_id = ? AND mp.user_id {who} AND {_FINISHED}",
                (guild_id, *params),
            )
        (n, points, chips, fouls, chances, entries, fl_hands, stays, scoops, best,
         royalties) = hands[0]
        played, won = matches[0]
        return PlayerStats(
            hands=n, net_points=points, net_chips=chips, matches=played, matches_won=won,
            fouls=fouls, fantasy_chances=chances, fantasy_entries=entries,
            fantasy_hands=fl_hands, fantasy_stays=stays, scoops=scoops, best_royalties=best,
            royalties=royalties,
        )

    async def recent_nets(self, guild_id: int, user_id: int, limit: int = 30) -> list[int]:
        """A player's net points in each of their latest finished matches, oldest first."""
        guild_id = validate.snowflake("guild id", guild_id)
        user_id = validate.player(user_id)
        async with self._db.transaction(write=False) as conn:
            rows = await conn.fetch(
                "SELECT m.id, coalesce(sum(r.points), 0) FROM matches AS m "
                "JOIN match_players AS mp ON mp.match_id = m.id "
                "LEFT JOIN hand_results AS r ON r.match_id = m.id AND r.user_id = mp.user_id "
                f"WHERE m.guild_id = ? AND mp.user_id = ? AND {_FINISHED} "
                "GROUP BY m.id ORDER BY m.id DESC LIMIT ?",
                (guild_id, user_id, validate.count("limit", limit)))
        return [int(net) for _, net in reversed(rows)]
