"""Each player's preferences (`/ofc preferences`), kept across servers: one person everywhere."""

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.storage import validate
from bot.storage.backend import Connection
from bot.storage.core import UNCHANGED, Core, Part, Unchanged
from bot.storage.errors import InvalidInput
from bot.storage.records import Preferences

CONTROLS = ("dm", "channel")
MAX_LOCALE = 16
# Every prompt reads its player's preferences. This process's own changes reach what it keeps at
# once; another process's (/ofc preferences in a DM goes to shard 0's) within this many seconds.
KEPT_SECONDS = 60.0
KEPT_MOST = 50_000  # players kept; past that the memory starts again


async def _load(conn: Connection, user_id: int) -> Preferences:
    rows = await conn.fetch(
        "SELECT four_colour, controls, locale FROM player_preferences WHERE user_id = ?",
        (user_id,))
    if not rows:
        return Preferences()
    four_colour, controls, locale = rows[0]
    return Preferences(bool(four_colour), str(controls), locale)


class PlayerPreferences(Part):
    """Each player's preferences (`storage.preferences`), kept in memory a while."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        # user -> (when read, Preferences), kept a while
        self._preferences: dict[int, tuple[float, Preferences]] = {}
        self._preference_writes = 0  # a read racing a write keeps nothing
        self.monotonic: Callable[[], float] = time.monotonic  # a test holds this clock

    async def preferences(self, user_id: int) -> Preferences:
        """A player's preferences (the defaults until they choose)."""
        user_id = validate.snowflake("user id", user_id)
        now = self.monotonic()
        kept = self._preferences.get(user_id)
        if kept is not None and now - kept[0] < KEPT_SECONDS:
            return kept[1]
        writes = self._preference_writes
        async with self._db.transaction(write=False) as conn:
            found = await _load(conn, user_id)
        if writes == self._preference_writes:  # no change committed while this read ran
            if len(self._preferences) >= KEPT_MOST:
                self._preferences.clear()
            self._preferences[user_id] = (now, found)
        return found

    async def set_preferences(self, user_id: int, *, now: float,
                              four_colour: bool | Unchanged = UNCHANGED,
                              controls: str | Unchanged = UNCHANGED) -> Preferences:
        """Change some of a player's preferences; returns them all."""
        user_id = validate.snowflake("user id", user_id)
        if not isinstance(four_colour, Unchanged | bool):
            raise InvalidInput("four_colour must be true or false.")
        if not isinstance(controls, Unchanged) and controls not in CONTROLS:
            raise InvalidInput(f"controls must be one of {', '.join(CONTROLS)}.")
        async with self._db.transaction() as conn:
            await conn.lock_table("player_preferences")  # read, then written from what was read
            old = await _load(conn, user_id)
            new = Preferences(
                old.four_colour if isinstance(four_colour, Unchanged) else four_colour,
                old.controls if isinstance(controls, Unchanged) else controls, old.locale)
            await conn.execute(
                "INSERT INTO player_preferences (user_id, four_colour, controls, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "four_colour = excluded.four_colour, controls = excluded.controls, "
                "updated_at = excluded.updated_at",
                (user_id, int(new.four_colour), new.controls, now))
        self._preference_writes += 1
        self._preferences[user_id] = (self.monotonic(), new)  # committed
        return new

    async def set_locales(self, locales: Sequence[tuple[int, str, float]]) -> None:
        """Remember the language each player last used the bot in (a Discord locale code:
        their DMs come in it), (user, locale, now) each, in one transaction: the members a busy
        moment brings cost one commit, not one each. A bad entry: InvalidInput, and none is
        written."""
        rows = []
        for user_id, locale, now in locales:
            if not isinstance(locale, str) or not 0 < len(locale) <= MAX_LOCALE:
                raise InvalidInput("A locale is a short code such as en-US.")
            rows.append((validate.snowflake("user id", user_id), locale, now))
        if not rows:
            return
        async with self._db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO player_preferences (user_id, locale, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at", rows)
        self._preference_writes += 1
        for user_id, locale, _ in rows:  # committed: what is kept learns the new locales
            kept = self._preferences.get(user_id)
            if kept is not None:
                self._preferences[user_id] = (kept[0], replace(kept[1], locale=locale))
