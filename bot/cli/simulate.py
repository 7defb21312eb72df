"""`ofc simulate`: whole matches between computer players through the table service.

`--hands H` deals are played; when the players differ, every deal is played once per seating
(the seats rotated, the same seed: seat-swapped pairs heads-up), so the luck of the cards
cancels between them. Deals are grouped into short matches ("hands" format, Fantasyland hands
added as earned, R11); each group, over all its seatings, is one sample of a player's points
per hand, from which the 95% interval is taken. Stacks are deep enough that nobody busts, so
points are what R5 scores, not what table stakes (R6) let through. The report ends with the last
hand played, every board as text (`--images`: every showdown as the players see it).
An entry of `--ai` may carry a budget of its own (ai_entries.py): its rows are labelled by it.
"""

import argparse
import asyncio
import json
import math
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai.commands import MAX_HANDS, USAGE_ERROR, board_lines, number, parse_options
from bot.ai.players import AIPlayers
from bot.cli.ai_entries import Entry, parse_entries
from bot.engine.cards import Card
from bot.engine.deal import streets
from bot.engine.errors import RuleError
from bot.engine.rules import TableRules
from bot.engine.tournament import MAX_PLAYERS as MAX_TOURNAMENT_PLAYERS
from bot.engine.views import PrivateView, SeatView, TableView
from bot.process.workers import exit_with_parent, stop_pool
from bot.refusal import error_line, named
from bot.storage import StorageError
from bot.tables.match_runner import MatchResult, play_computer_match, simulation_storage
from bot.tables.table_events import HandStarted, ShowdownDone

GROUP_HANDS = 10  # deals per match
DEEP_STACK = 10**9  # buy-in: nobody busts (R6 would cap what is paid)
TOURNAMENT_STACK = 100_000  # a tournament table's chips, lent by the house
DEFAULT_PLAYOUTS = 200  # the strong player's playouts per decision: reproducible, quick
Z95 = 1.96
MAX_WORKERS = 64
SET_BY_RUN = ("seats", "hands", "format", "buy_in")  # table options a run sets (_options)


@dataclass
class Tally:
    """One player's (one entry of --ai) results."""

    entry: Entry
    samples: list[float] = field(default_factory=list)  # points per hand of each group
    hands: int = 0
    points: int = 0
    fouls: int = 0
    royalties: int = 0
    normal_hands: int = 0
    entries: int = 0  # normal hands that earned Fantasyland (R8)
    fantasy_hands: int = 0
    stays: int = 0
    fantasy_points: int = 0  # points scored in its Fantasyland hands
    decisions: list[float] = field(default_factory=list)  # seconds
    playouts: int = 0  # made in all its decisions (one candidate, one future)

    def add(self, other: "Tally") -> None:
        """Fold in another tally of the same entry (a match played elsewhere)."""
        self.samples += other.samples
        self.decisions += other.decisions
        for name in ("hands", "points", "fouls", "royalties", "normal_hands", "entries",
                     "fantasy_hands", "stays", "fantasy_points", "playouts"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, Any]:
        mean = statistics.fmean(self.samples) if self.samples else 0.0
        # One match (a single sample) has no spread to measure: the JSON contract keeps its
        # [low, high] shape, as [mean, mean], and the printed table says there is no interval.
        half = (Z95 * statistics.stdev(self.samples) / math.sqrt(len(self.samples))
                if len(self.samples) > 1 else 0.0)
        return {
            "ai": self.entry.label,
            "level": self.entry.level,
            "playouts": self.entry.playouts,
            "seconds": self.entry.seconds,
            "points_per_hand": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "matches": len(self.samples),
            "foul_rate": _rate(self.fouls, self.hands),
            "fantasy_entry_rate": _rate(self.entries, self.normal_hands),
            "fantasy_stay_rate": _rate(self.stays, self.fantasy_hands),
            "avg_royalties": _rate(self.royalties, self.hands),
            "decision_ms": round(1000 * statistics.fmean(self.decisions), 1)
            if self.decisions else 0.0,
            "decision_max_ms": round(1000 * max(self.decisions), 1) if self.decisions else 0.0,
            "decisions": len(self.decisions),
            "playouts_per_decision": _rate(self.playouts, len(self.decisions)),
            "hands": self.hands,
            "fantasy_hands": self.fantasy_hands,
            "fantasy_hand_points": _rate(self.fantasy_points, self.fantasy_hands),
        }


def _rate(count: float, total: int) -> float:
    return round(count / total, 4) if total else 0.0


class _Timed:
    """The computer players, each seat's within the budget of the entry seated there, timing
    each decision for that entry."""

    def __init__(self, seats: Sequence[Tally], fantasy_value: float | None) -> None:
        self.seats = seats
        self.players = [tally.entry.players(fantasy_value) for tally in seats]

    def decide(self, view: PrivateView, level: str, seed: int | None, *,
               seconds: float | None = None) -> dict[Card, str]:
        start = time.perf_counter()
        choice, played = self.players[view.seat].decide_counted(view, level, seed,
                                                                seconds=seconds)
        tally = self.seats[view.seat]
        tally.decisions.append(time.perf_counter() - start)
        tally.playouts += played
        return choice

    def suggest(self, view: PrivateView) -> dict[Card, str]:
        return self.players[view.seat].suggest(view)


def _count(showdowns: Sequence[ShowdownDone], seats: Sequence[Tally]) -> list[tuple[int, int]]:
    """Add a match's hands to the seated entries; (points, hands) per seat."""
    per_seat = [(0, 0)] * len(seats)
    in_fantasy: set[int] = set()
    for event in showdowns:
        for seat_view in event.view.seats:
            tally = seats[seat_view.seat]
            earned = event.fantasy_next.get(seat_view.seat, 0) > 0
            tally.hands += 1
            tally.points += seat_view.points
            tally.fouls += seat_view.fouled
            tally.royalties += sum(seat_view.royalties)
            if seat_view.seat in in_fantasy:
                tally.fantasy_hands += 1
                tally.stays += earned
                tally.fantasy_points += seat_view.points
            else:
                tally.normal_hands += 1
                tally.entries += earned
            points, hands = per_seat[seat_view.seat]
            per_seat[seat_view.seat] = (points + seat_view.points, hands + 1)
        in_fantasy = {s for s, cards in event.fantasy_next.items() if cards}
    return per_seat


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\rsimulate [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     "matches")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


class ImageNotSaved(Exception):
    """A showdown's image could not be written: the run stops, with one line (a plain
    message, so that it comes back whole from a worker process)."""


def _save_images(result: MatchResult, entries: Sequence[Entry], rules: TableRules,
                 folder: Path, prefix: str) -> None:
    """Each showdown of a match as the showdown image players see (rendering), one PNG each."""
    from rendering import showdown_png

    started: dict[int, HandStarted] = {}
    for event in result.events:
        if isinstance(event, HandStarted):
            started[event.hand_no] = event
        elif isinstance(event, ShowdownDone):
            hand = started[event.hand_no]
            seats = tuple(
                SeatView(seat=s.seat, player_id=event.player_ids[s.seat],
                         name=f"{entries[s.seat].label} {s.seat + 1}", stack=s.stack_after,
                         board=s.board, in_fantasy=s.seat in hand.fantasy, is_ai=True,
                         ai_level=entries[s.seat].level)
                for s in event.view.seats)
            plan = len(streets(rules))
            view = TableView(rules=rules, hand_no=event.hand_no, phase="showdown", street=plan,
                             streets=plan, button=hand.button, seats=seats,
                             showdown=event.view)
            path = folder / f"{prefix}-hand{event.hand_no:03d}.png"
            try:
                path.write_bytes(showdown_png(view))
            except OSError as error:  # checked writable before playing, but a disk fills up
                raise ImageNotSaved(f"cannot save {path}: {error.strerror}") from None


async def simulate(entries: Sequence[Entry], hands: int, seed: int,
                   options: dict[str, Any], fantasy_value: float | None = None,
                   progress: bool = True, images: Path | None = None, workers: int = 1,
                   database: str | None = None) -> dict[str, Any]:
    """Play `hands` deals (each in every seating when the entries differ) and tally them;
    `fantasy_value`: what a Fantasyland hand is worth to the players (None: their own); with
    `images`, save every showdown's image there; on `database` (else a throwaway SQLite file
    per match). With `workers` > 1 the matches are shared among that many processes; every
    match has its own seed, so the tallies are the same."""
    groups = math.ceil(hands / GROUP_HANDS)
    tallies = [Tally(entry) for entry in entries]
    work = [(entries, group, min(GROUP_HANDS, hands - group * GROUP_HANDS), seed, options,
             fantasy_value, images, database) for group in range(groups)]
    if workers <= 1:
        done: list[Played] = []
        for index, job in enumerate(work):
            done.append(await _play_group(*job))
            if progress:
                _progress(index + 1, groups)
    else:
        loop = asyncio.get_running_loop()
        context = multiprocessing.get_context("spawn")
        # Its processes end with this one, as the bot's do (bot/process/workers.py).
        with ProcessPoolExecutor(workers, mp_context=context,
                                 initializer=exit_with_parent) as pool:
            futures = [loop.run_in_executor(pool, _play_group_in_process, job) for job in work]
            try:
                for count, future in enumerate(asyncio.as_completed(futures), start=1):
                    await future
                    if progress:
                        _progress(count, groups)
            except BaseException:
                # Stopped (Ctrl+C): the matches not yet started are dropped and those under
                # way ended, not played out by the pool's exit while the command seems to
                # have stopped (their futures cancelled first: no result is waited for).
                for future in futures:
                    future.cancel()
                stop_pool(pool)
                raise
            done = [f.result() for f in futures]
    for group_tallies, _ in done:  # in group order, whatever order they finished in
        for tally, part in zip(tallies, group_tallies, strict=True):
            tally.add(part)
    return {"hands": hands, "players": [t.to_dict() for t in tallies],
            "last_hand": done[-1][1]}


Played = tuple[list[Tally], dict[str, Any]]  # a group's tallies, and its last hand


def _play_group_in_process(job: tuple[Any, ...]) -> Played:
    return asyncio.run(_play_group(*job))


def _last_hand(result: MatchResult, entries: Sequence[Entry], match: int,
               seating: int) -> dict[str, Any]:
    """A match's last showdown as plain data: every board as placed, with its result."""
    event = result.showdowns[-1]
    return {"match": match, "seating": seating, "hand": event.hand_no, "seats": [
        {"seat": s.seat + 1, "ai": entries[s.seat].label, **s.board.text(), "rows": list(s.names),
         "royalties": list(s.royalties), "fouled": s.fouled, "points": s.points,
         "fantasy_next": s.fantasy_next} for s in event.view.seats]}


def last_hand_lines(hand: dict[str, Any]) -> list[str]:
    """The last hand of a report as text: each seat's result, then its board."""
    lines = [f"The last hand: match {hand['match']}, seating {hand['seating']}, hand "
             f"{hand['hand']}"]
    for seat in hand["seats"]:
        notes = [f"{seat['points']:+d} points", f"royalties {sum(seat['royalties'])}"]
        if seat["fouled"]:
            notes.append("fouled")
        if seat["fantasy_next"]:
            notes.append(f"Fantasyland next ({seat['fantasy_next']} cards)")
        lines.append(f"seat {seat['seat']}, {seat['ai']}: {', '.join(notes)}")
        lines += [f"  {line}" for line in board_lines(seat, seat["rows"], seat["royalties"])]
    return lines


async def _play_group(entries: Sequence[Entry], group: int, deals: int, seed: int,
                      options: dict[str, Any], fantasy_value: float | None,
                      images: Path | None, database: str | None) -> Played:
    """One match of `deals` deals in every seating (one when the entries are the same), on
    `database` (else a throwaway SQLite file); one tally per entry, with this group's points per
    hand as a sample, and the last hand of its last seating."""
    tallies = [Tally(entry) for entry in entries]
    count = len(entries)
    seatings = [0] if len(set(entries)) == 1 else list(range(count))
    rules = {**options, "seats": count, "buy_in": DEEP_STACK, "format": "hands",
             "hands": deals}
    totals = [(0, 0)] * count
    last: dict[str, Any] = {}
    async with simulation_storage(database) as storage:
        for shift in seatings:
            # seat s holds entry (s + shift) % count
            order = [(s + shift) % count for s in range(count)]
            seated = [tallies[i] for i in order]
            result = await play_computer_match(
                storage, [t.entry.level for t in seated], rules, seed=seed * 100_003 + group,
                ai=_Timed(seated, fantasy_value))
            last = _last_hand(result, [t.entry for t in seated], group + 1, shift + 1)
            if images is not None:
                _save_images(result, [t.entry for t in seated],
                             TableRules.from_mapping(rules), images,
                             f"match{group + 1:04d}-seating{shift + 1}")
            for s, (points, played) in enumerate(_count(result.showdowns, seated)):
                p, h = totals[order[s]]
                totals[order[s]] = (p + points, h + played)
    for tally, (points, played) in zip(tallies, totals, strict=True):
        if played:
            tally.samples.append(points / played)
    return tallies, last


def add_simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=2, help="seats at the table (2-4)")
    p.add_argument("--hands", type=int, default=None,
                   help=f"deals to play (per seating; default 100, at most {MAX_HANDS:,}), "
                        "or a tournament table's hands (default 20)")
    p.add_argument("--tournament", action="store_true",
                   help="a shootout tournament of --players computers (RULES.md R13)")
    p.add_argument("--seats", type=int, default=None,
                   help="tournament tables seat 2 or 3 (default 3)")
    p.add_argument("--seed", type=int, default=1, help="makes the whole run reproducible")
    p.add_argument("--ai", default="strong,easy",
                   help="levels, one per seat or one for all: easy, strong, strong-v2, "
                        "strong-v1, strong-learned; a strong level may take a budget of its "
                        "own: strong@200 (playouts per decision), strong@1s (seconds per "
                        "decision)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="K=V",
                   help="table options by their RULES.md names, e.g. variant=turbo")
    budget = p.add_mutually_exclusive_group()  # one budget: the other would be ignored
    budget.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS,
                        help="strong players' playouts per decision, where --ai gives none "
                             f"(default {DEFAULT_PLAYOUTS})")
    budget.add_argument("--seconds", type=number, default=None,
                        help="strong players' time per decision instead (not reproducible)")
    p.add_argument("--stay-value", type=number, default=None,
                   help="points a Fantasyland hand is worth to the players (default: as "
                        "measured for strong, 13 for easy and strong-v1)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--images", type=named, metavar="DIR",
                   help="save each showdown's image in this folder")
    p.add_argument("--workers", type=int, default=1,
                   help="processes to share the matches among (default 1; same results)")
    p.add_argument("--database", type=named, metavar="URL",
                   help="play on this database (an SQLite file or a postgresql:// URL; its "
                        "tables and history stay there) instead of a throwaway SQLite file")
    p.set_defaults(run=simulate_command)


def _run_budget(args: argparse.Namespace) -> dict[str, Any]:
    """The budget of a strong player whose entry gives none: --seconds, else --playouts."""
    return {"playouts": None if args.seconds is not None else args.playouts,
            "seconds": args.seconds}


def _entries(args: argparse.Namespace, seats: int) -> list[Entry]:
    """--ai's entries, a plain level within the run's budget (checked first)."""
    if args.playouts < 1 or (args.seconds is not None and args.seconds <= 0):
        raise RuleError("the strong player needs a positive budget")
    return parse_entries(args.ai, seats, **_run_budget(args))


def _writable_folder(folder: Path) -> None:
    """RuleError unless `folder` is a folder a file can be written in: found out before
    the hands are played, not at the first image saved."""
    if not folder.is_dir():
        raise RuleError(f"{folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise RuleError(f"cannot write in {folder}: {error.strerror}") from None


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """--rules, checked, without the options a run sets itself: given there they would be
    overridden without a word."""
    options = parse_options(args.rules)
    for name in options:
        if name in SET_BY_RUN:
            raise RuleError(f"--rules cannot set {name}: the simulation sets seats (--players, "
                            "--seats), hands (--hands), format and buy_in")
    return options


def _refused(error: RuleError | StorageError | ImageNotSaved) -> int:
    print(error_line("ofc simulate", str(error)), file=sys.stderr)
    return USAGE_ERROR


def _on_database(run: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any] | None:
    """Run a simulation; None (and one line on stderr) when its database cannot be used, or
    an image cannot be saved."""
    try:
        return asyncio.run(run)
    except (StorageError, ImageNotSaved) as error:
        _refused(error)
        return None


def _check_stay_value(args: argparse.Namespace) -> None:
    if args.stay_value is not None and args.stay_value < 0:
        raise RuleError("the stay value cannot be negative")


def _computer_players(args: argparse.Namespace) -> AIPlayers:
    return AIPlayers(**_run_budget(args), fantasy_value=args.stay_value)


def simulate_command(args: argparse.Namespace) -> int:
    if args.tournament:
        return tournament_command(args)
    args.hands = 100 if args.hands is None else args.hands
    try:
        options = _options(args)
        rules = TableRules.from_mapping(options)
        if args.seats is not None:  # it would be ignored without a word
            raise RuleError("--seats sizes a tournament's tables: give --tournament, or "
                            "--players for one table")
        if not 2 <= args.players <= rules.max_seats:
            raise RuleError(f"{rules.variant} seats 2 to {rules.max_seats} players")
        entries = _entries(args, args.players)
        if not 1 <= args.hands <= MAX_HANDS:
            raise RuleError(f"--hands is 1 to {MAX_HANDS:,}")
        _check_stay_value(args)
        if not 1 <= args.workers <= MAX_WORKERS:
            raise RuleError(f"--workers is 1 to {MAX_WORKERS}")
        if args.workers > 1 and args.database is not None:
            raise RuleError("--database plays in one process: leave --workers at 1")
        images = Path(args.images) if args.images else None
        if images is not None:
            _writable_folder(images)
    except (RuleError, StorageError) as error:
        return _refused(error)
    report = _on_database(simulate(entries, args.hands, args.seed, options, args.stay_value,
                                   images=images, workers=args.workers,
                                   database=args.database))
    if report is None:
        return USAGE_ERROR
    if args.json:
        print(json.dumps(report))
        return 0
    deals = report["hands"]
    print(f"{deals} deal{'' if deals == 1 else 's'} per seating")
    width = max(8, *(len(p["ai"]) + 1 for p in report["players"]))
    print(f"{'ai':{width}}{'points/hand':>12}{'95% interval':>20}{'fouls':>8}{'FL in':>8}"
          f"{'FL stay':>9}{'royalties':>11}{'ms/decision':>13}")
    for p in report["players"]:
        interval = ("needs 2 matches" if p["matches"] < 2
                    else "[{:.2f}, {:.2f}]".format(*p["ci95"]))
        print(f"{p['ai']:{width}}{p['points_per_hand']:>12.2f}{interval:>20}"
              f"{p['foul_rate']:>8.1%}{p['fantasy_entry_rate']:>8.1%}"
              f"{p['fantasy_stay_rate']:>9.1%}{p['avg_royalties']:>11.2f}"
              f"{p['decision_ms']:>13.1f}")
    print()
    print("\n".join(last_hand_lines(report["last_hand"])))
    return 0


def tournament_command(args: argparse.Namespace) -> int:
    """`ofc simulate --tournament`: levels, tables and final standings of computer players
    (who play for no one's chips: no prizes)."""
    from bot.tournaments.tournament_runner import play_tournament, print_report

    hands = 20 if args.hands is None else args.hands
    seats = 3 if args.seats is None else args.seats
    try:
        options = _options(args)
        TableRules.from_mapping(options)
        if not 2 <= args.players <= MAX_TOURNAMENT_PLAYERS:
            raise RuleError(f"a tournament takes 2 to {MAX_TOURNAMENT_PLAYERS} players")
        entries = _entries(args, len(args.ai.split(",")))  # the entries take them in turn
        if len(entries) > args.players:  # a level past the last entry would never play
            raise RuleError(f"--ai names {len(entries)} levels but the tournament has "
                            f"{args.players} players")
        if any(entry.label != entry.level for entry in entries):
            raise RuleError("--tournament seats levels without a budget of their own: give "
                            "--playouts or --seconds")
        _check_stay_value(args)
        if seats not in (2, 3) or not 1 <= hands <= 1000:
            raise RuleError("--seats is 2 or 3 and --hands from 1 to 1000")
        if args.workers != 1 or args.images:
            raise RuleError("--tournament plays in one process and saves no images: leave out "
                            "--workers and --images")
    except (RuleError, StorageError) as error:
        return _refused(error)
    players = _computer_players(args)
    seated = [entries[i % len(entries)].level for i in range(args.players)]
    deep = {"buy_in": TOURNAMENT_STACK, **options}  # points are chips: nobody busts
    report = _on_database(play_tournament(seated, seed=args.seed, hands=hands,
                                          seats=seats, options=deep, ai=players,
                                          database=args.database))
    if report is None:
        return USAGE_ERROR
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0
