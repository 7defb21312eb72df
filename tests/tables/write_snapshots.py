"""Write the stored snapshots of the current version: `python -m tests.tables.write_snapshots`.

Plays a few tables through the table service (a fake clock, a throwaway SQLite file), keeps
every snapshot storage is given, and writes the first one showing each shape worth keeping
(`SHAPES`) to `data/snapshots/v<version>.json`, where `test_snapshots.py` reads them. Run it
after a change of shape (docs/maintainers/snapshots.md), and check by eye what it wrote.
"""

import asyncio
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.tables import DmPrompt, FakeClock, TableService
from bot.tables.match_runner import FAST
from bot.tables.snapshot_versions import CURRENT
from bot.tables.state import TableState

from .driver import ALICE, BOB, CHANNEL, GUILD, QUICK_AI, act, play

FOLDER = Path(__file__).parent / "data" / "snapshots"

Shape = Callable[[dict[str, Any]], bool]


def _match(d: dict[str, Any]) -> dict[str, Any]:
    return d["match"] or {}


def _pending(d: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [op for op in d["pending"] if op["op"] == kind]


# Each shape names what a snapshot holds that a stored one should show, with values other
# than the ones an upgrade fills in.
SHAPES: dict[str, Shape] = {
    "a lobby": lambda d: d["status"] == "lobby",
    "a draft and a DM prompt of the action": lambda d: bool(d["drafts"]) and any(
        ids[2] > 0 for ids in d["dm"].values()),
    "a seat's time spent and its bank's last fill": lambda d: any(
        seat["used"] > 0 for seat in (_match(d).get("hand") or {"seats": []})["seats"]) and any(
        p is not None and p["bank_filled"] is not None for p in _match(d).get("seats", [])),
    "a showdown naming its dealer": lambda d: (_match(d).get("showdown") or {}).get(
        "button") is not None,
    "a match end naming its computers": lambda d: any(
        op["computers"] for op in _pending(d, "match_end")),
    "a cancelled match's end": lambda d: any(op["cancelled"] for op in _pending(d, "match_end")),
    "a cash table's clock a street and its bank's refill": lambda d: d["rules"]["clock"] ==
    "per_street" and d["rules"]["time_bank_refill_seconds"] > 0 and d["match"] is not None,
    "a practice": lambda d: d["practice"] and d["match"] is not None,
    "a table the house lent its stacks, where an away player stays": lambda d: d["lent"] and not
    d["rules"]["sit_out_when_away"] and d["match"] is not None,
    "a player the clock marked away": lambda d: any(
        p is not None and p["absences"] > 0 for p in _match(d).get("seats", [])),
    "hints and Fantasyland dealt last": lambda d: d["rules"]["hints"] == "on" and d["rules"][
        "fantasy_deal"] == "last",
    "a closed table offering a rematch": lambda d: d["status"] == "closed" and d["rematch"],
    "a cash table keeping the bank of a player who got up": lambda d: bool(
        _match(d).get("kept_banks")),
}


def keep_snapshots(storage: Storage, kept: list[str]) -> None:
    """Keep every snapshot text storage is given to write (changes as the whole snapshot
    they make with the one storage holds)."""
    tables = storage.tables

    async def whole(table_id: int, text: str, changes: bool) -> str:
        if not changes:
            return text
        return TableState.stored(replace(await tables.table(table_id), changes_json=text)).dumps()

    def wrap(name: str, texts: Callable[[tuple[Any, ...], dict[str, Any]],
                                        list[tuple[int, str, bool]]]) -> None:
        method = getattr(tables, name)

        async def write(*args: Any, **kwargs: Any) -> Any:
            kept.extend([await whole(*entry) for entry in texts(args, kwargs) if entry[1]])
            return await method(*args, **kwargs)

        setattr(tables, name, write)

    wrap("save_snapshot", lambda args, kwargs: [(args[0], args[1], kwargs.get("changes", False))])
    wrap("save_snapshots", lambda args, kwargs: list(args[0]))
    for name in ("buy_in", "cash_out", "settle_hand", "close_table"):
        wrap(name, lambda args, kwargs: [(0, kwargs.get("snapshot") or "", False)])


async def play_tables(storage: Storage) -> None:
    clock = FakeClock(1_700_000_000.0)
    service = TableService(storage, clock, QUICK_AI, FAST)
    try:
        cash = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                           {"format": "cash", "hints": "on"}, seed=11)).table_id
        await service.add_computer(cash, ALICE, "strong", is_admin=True)
        await service.start(cash, ALICE)
        await service.idle()
        seat = service.private_view(cash, ALICE)
        await service.set_dm_message(cash, ALICE, DmPrompt(900, 901, seat.hand_no, seat.street))
        await clock.advance(7)
        await act(service, cash, ALICE)
        await service.idle()
        await service.cancel(cash, ALICE)
        await service.idle()

        match = (await service.create_table(GUILD, CHANNEL + 1, BOB, "Bob",
                                            {"format": "hands", "hands": 2}, seed=12)).table_id
        await service.add_computer(match, BOB, "easy", is_admin=True)
        await service.start(match, BOB)
        await play(service, clock, match, [BOB])

        practice = (await service.practice(GUILD, CHANNEL + 2, ALICE, "Alice",
                                           seed=13)).table_id
        await act(service, practice, ALICE)

        lent = (await service.create_table(GUILD, CHANNEL + 3, BOB, "Bob",
                                           {"sit_out_when_away": False}, seed=14,
                                           lent=True)).table_id
        await service.add_computer(lent, BOB, "easy", is_admin=True, by_tournament=True)
        await service.start(lent, BOB, by_tournament=True)
        await service.idle()
        await clock.advance(3600)  # Bob's turn and time bank run out: away (R10)
        await service.idle()

        kept = (await service.create_table(GUILD, CHANNEL + 4, ALICE, "Alice",
                                           {"format": "cash"}, seed=15)).table_id
        await service.join(kept, BOB, "Bob")
        await service.add_computer(kept, ALICE, "easy", is_admin=True)
        await service.start(kept, ALICE)
        await service.idle()
        await service.leave(kept, BOB)  # gets up after this hand; the next deal frees the seat
        while service.public_view(kept).hand_no < 2:
            people = [p for p in (ALICE, BOB) if service.private_view(kept, p).to_act]
            for pid in people:
                await act(service, kept, pid)
            if not people:
                await clock.advance_to_next()
            await service.idle()
    finally:
        await service.close()


def chosen(texts: list[str]) -> list[str]:
    found: list[str] = []
    for name, shape in SHAPES.items():
        text = next((t for t in texts if shape(json.loads(t))), None)
        if text is None:
            sys.exit(f"no snapshot shows {name}")
        if text not in found:
            found.append(text)
    return found


async def main() -> None:
    kept: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(str(Path(folder) / "snapshots.sqlite3"))
        try:
            keep_snapshots(storage, kept)
            await play_tables(storage)
        finally:
            await storage.close()
    path = FOLDER / f"v{CURRENT}.json"
    path.write_text("[\n" + ",\n".join(json.dumps(t) for t in chosen(kept)) + "\n]\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    asyncio.run(main())
