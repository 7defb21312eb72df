"""A whole tournament of computer players through the real services on a fake clock
(`ofc simulate --tournament`), reported as plain JSON values."""

from collections.abc import Mapping, Sequence
from itertools import count
from typing import Any

from bot.engine.tournament import Tournament, TournamentTable
from bot.i18n import ENGLISH
from bot.i18n import t as say
from bot.tables.clock import FakeClock
from bot.tables.match_runner import FAST, SIMULATION_HOST, StuckTable, simulation_storage
from bot.tables.seating import ComputerPlayers
from bot.tables.service import TableService
from bot.tournaments.director import TournamentDirector
from bot.tournaments.limits import UNLIMITED

GUILD = 1
CHANNEL = 1


async def play_tournament(levels: Sequence[str], *, seed: int, hands: int, seats: int,
                          options: Mapping[str, Any], ai: ComputerPlayers | None = None,
                          database: str | None = None) -> dict[str, Any]:
    """Register one computer per entry of `levels`, play every level, return the report;
    on `database` (else a throwaway SQLite file)."""
    async with simulation_storage(database) as storage:
        clock = FakeClock()
        tables = TableService(storage, clock, ai, FAST)
        threads = count(1000)

        async def opener(t: Tournament, table: TournamentTable) -> int:
            return next(threads)

        service = TournamentDirector(storage, tables, clock, opener, UNLIMITED,
                                     seeded_tables=True)  # the same seed, the same report
        try:  # computers play for no one's chips: a free tournament
            t = await service.create(GUILD, CHANNEL, SIMULATION_HOST, buy_in=0,
                                     seats=seats, hands=hands, options=options, seed=seed)
            tid = t.tournament_id
            for level in levels:
                await service.add_computer(tid, SIMULATION_HOST, level)
            await service.start(tid, SIMULATION_HOST)
            for _ in range(1_000_000):
                await service.idle()
                if tid not in {x.tournament_id for x in service.live()}:
                    break
                if not await clock.advance_to_next():
                    raise StuckTable(f"tournament {tid} has nothing due and is not over")
            final = Tournament.from_json((await storage.tournaments.tournament(tid)).state_json)
        finally:
            await service.idle()
            await service.close()
            await tables.close()
    return report(final)


def report(t: Tournament) -> dict[str, Any]:
    names = {e.player_id: e.name for e in t.entries}
    levels: list[dict[str, Any]] = []
    for level in range(1, t.level + 1):
        levels.append({"level": level, "final": level == t.level, "tables": [
            {"table": table.index + 1, "players": [names[p] for p in table.players],
             "points": {names[p]: table.points.get(p, 0) for p in table.players},
             "winner": None if table.winner is None else names[table.winner]}
            for table in t.tables if table.level == level]})
    return {"players": len(t.entries), "seed": t.seed, "seats": t.seats, "hands": t.hands,
            "levels": levels,
            "placings": [{"place": p.place, "name": p.name} for p in t.placings]}


def print_report(data: Mapping[str, Any]) -> None:
    # In English, the command line's language, with the standings' plural forms.
    hands = say(ENGLISH, "{n} hand a table", "{n} hands a table", n=data["hands"])
    # RULES.md: with 2 seats an odd number of players puts three at one table.
    tables = ("tables of 2 (one of 3 when the number is odd)" if data["seats"] == 2
              else f"tables of at most {data['seats']}")
    print(f"{data['players']} players, seed {data['seed']}, {tables}, {hands}")
    for level in data["levels"]:
        print(f"Level {level['level']}{' (final)' if level['final'] else ''}")
        for table in level["tables"]:
            scores = ", ".join(f"{n} {p:+d}" for n, p in table["points"].items())
            print(f"  table {table['table']}: {scores} -> {table['winner']}")
    for place in data["placings"]:
        print(f"{place['place']}. {place['name']}")
