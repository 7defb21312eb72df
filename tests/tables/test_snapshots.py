"""Snapshots of every earlier version still load, and save as this version writes them.

`data/snapshots/v<N>.json` holds live-table snapshots (`state_json` in storage) as version N
wrote them, never edited. Version 1's: lobbies, hands in play with drafts and DM messages,
Fantasyland, simultaneous order, turbo, jokers, cash tables, money operations of every kind
still pending, and (the last) a table closed by its match's end, offering a rematch. The
current version's (`write_snapshots.py`): each field a change of shape added, with a value
other than the one its upgrade fills in. `v<N>-now.json` holds each of version N's as the
current version writes it, by the rules of the steps since (snapshot_versions.py), checked by
hand: a change to how a table, a match, a hand's history, an engine event or a money operation
is written shows up as a difference.
"""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.events import KINDS
from bot.storage import Storage
from bot.tables import FakeClock, TableService
from bot.tables.match_runner import FAST
from bot.tables.snapshot_versions import CURRENT, STEPS, BadSnapshot, upgrade
from bot.tables.state import TableState

from .driver import ALICE, BOB, CHANNEL, GUILD, QUICK_AI, act
from .write_snapshots import play_tables

FOLDER = Path(__file__).parent / "data" / "snapshots"
WRITTEN = {int(path.stem[1:]): json.loads(path.read_text())
           for path in FOLDER.glob("v*.json") if not path.stem.endswith("-now")}
NOW = {version: json.loads((FOLDER / f"v{version}-now.json").read_text())
       for version in WRITTEN if version != CURRENT}
STORED = [(version, text, NOW[version][i] if version in NOW else text)
          for version, texts in sorted(WRITTEN.items()) for i, text in enumerate(texts)]


def loads(text: str) -> TableState:
    return TableState.loads(text, table_id=1, guild_id=10, channel_id=20)


def test_every_version_but_the_current_one_says_how_it_is_written_now() -> None:
    assert max(WRITTEN) == CURRENT  # a change of shape adds snapshots of its version
    assert sorted(NOW) == sorted(WRITTEN)[:-1]
    assert all(len(NOW[version]) == len(WRITTEN[version]) for version in NOW)


@pytest.mark.parametrize(("version", "text", "now"), STORED,
                         ids=[f"v{v}-{i}" for v, texts in sorted(WRITTEN.items())
                              for i in range(len(texts))])
def test_a_stored_snapshot_loads_and_saves_as_this_version_writes_it(
        version: int, text: str, now: str) -> None:
    state = loads(text)
    assert state.dumps() == now
    # The steps alone give every field: no default of the codec stands in for one.
    assert upgrade(json.loads(text)) == json.loads(now)
    assert loads(state.dumps()).dumps() == now


@pytest.mark.parametrize("text", WRITTEN[CURRENT])
def test_a_snapshot_written_before_versions_were_counted_passes_the_steps_unchanged(
        text: str) -> None:
    """Every snapshot written before the steps existed says version 1, whatever fields it
    has: one holding all of them (as this version's do) keeps its values."""
    data = json.loads(text)
    assert upgrade({**data, "service_version": 1}) == data


def test_a_snapshot_from_a_newer_bot_is_refused() -> None:
    text = WRITTEN[CURRENT][0].replace(f'"service_version":{CURRENT},',
                                       f'"service_version":{CURRENT + 1},', 1)
    with pytest.raises(BadSnapshot, match=f"version {CURRENT + 1} was written by a newer bot"):
        loads(text)


@pytest.mark.parametrize("version", [None, 0, "1", 1.0, True])
def test_a_snapshot_without_a_version_is_refused(version: Any) -> None:
    data = json.loads(WRITTEN[CURRENT][0])
    data["service_version"] = version
    with pytest.raises(BadSnapshot, match="is not a version"):
        loads(json.dumps(data))


def test_the_snapshots_cover_every_money_operation() -> None:
    kinds = {op["op"] for text in WRITTEN[1] for op in json.loads(text)["pending"]}
    assert kinds == {"buy_in", "settle", "cash_out", "match_end", "close", "refund"}


def _rules(**options: Any) -> dict[str, Any]:
    return {"variant": "pineapple", **options}


# (version the step starts from, a snapshot of that version, the same at the next version):
# the least each step reads, and what it must leave alone.
STEP_CASES: list[tuple[int, dict[str, Any], dict[str, Any]]] = [
    (1, {"pending": [{"op": "match_end", "match_id": 3, "winners": [101]},
                     {"op": "match_end", "match_id": 4, "winners": [], "cancelled": True},
                     {"op": "close"}]},
     {"pending": [{"op": "match_end", "match_id": 3, "winners": [101], "cancelled": False},
                  {"op": "match_end", "match_id": 4, "winners": [], "cancelled": True},
                  {"op": "close"}]}),
    (2, {"dm": {"101": [5, 6], "102": [7, 8, 2, 3]}},
     {"dm": {"101": [5, 6, 0, 0], "102": [7, 8, 2, 3]}}),
    (3, {"status": "closed"}, {"status": "closed", "rematch": False}),
    (3, {"status": "closed", "rematch": True}, {"status": "closed", "rematch": True}),
    (4, {"rules": _rules(), "match": None},
     {"rules": _rules(hints="off"), "match": None, "practice": False}),
    (4, {"rules": _rules(hints="on"), "practice": True,
         "match": {"rules": _rules(), "history": {"before": {"rules": _rules()}}}},
     {"rules": _rules(hints="on"), "practice": True,
      "match": {"rules": _rules(hints="off"), "history": {"before": {"rules": _rules()}}}}),
    (5, {"rules": _rules(), "match": {"rules": _rules(sit_out_when_away=False)}},
     {"rules": _rules(sit_out_when_away=True),
      "match": {"rules": _rules(sit_out_when_away=False)}}),
    (6, {"match": {"showdown": {"seats": [], "transfers": []}}},
     {"match": {"showdown": {"seats": [], "transfers": [], "button": None}}}),
    (6, {"match": {"showdown": None}}, {"match": {"showdown": None}}),
    (6, {"match": None}, {"match": None}),
    (7, {"status": "lobby"}, {"status": "lobby", "lent": False}),
    (8, {"rules": _rules(), "match": None},
     {"rules": _rules(fantasy_deal="first", clock="per_street", time_bank_refill_seconds=0),
      "match": None}),
    (8, {"rules": _rules(clock="per_hand"),
         "match": {"rules": _rules(), "seats": [{"player_id": 101}, None],
                   "hand": {"seats": [{"seat": 0}, {"seat": 1, "used": 4.5}]}}},
     {"rules": _rules(clock="per_hand", fantasy_deal="first", time_bank_refill_seconds=0),
      "match": {"rules": _rules(fantasy_deal="first", clock="per_street",
                                time_bank_refill_seconds=0),
                "seats": [{"player_id": 101, "bank_filled": None}, None],
                "hand": {"seats": [{"seat": 0, "used": 0.0}, {"seat": 1, "used": 4.5}]}}}),
    (8, {"rules": _rules(), "match": {"rules": _rules(), "seats": [], "hand": None}},
     {"rules": _rules(fantasy_deal="first", clock="per_street", time_bank_refill_seconds=0),
      "match": {"rules": _rules(fantasy_deal="first", clock="per_street",
                                time_bank_refill_seconds=0), "seats": [], "hand": None}}),
    (9, {"pending": [{"op": "match_end", "match_id": 3, "winners": [], "cancelled": False},
                     {"op": "settle", "hand_no": 1}]},
     {"pending": [{"op": "match_end", "match_id": 3, "winners": [], "cancelled": False,
                   "computers": []},
                  {"op": "settle", "hand_no": 1}]}),
    (10, {"match": None}, {"match": None}),
    (10, {"match": {"seats": [{"player_id": 101, "away": True}, None], "hand": None}},
     {"match": {"seats": [{"player_id": 101, "away": True, "absences": 0}, None],
                "hand": None}}),
    (11, {"match": None}, {"match": None}),
    (11, {"match": {"seats": [], "history": None}},
     {"match": {"seats": [], "history": None, "kept_banks": {}}}),
    (11, {"match": {"history": None, "kept_banks": {"101": {"time_bank": 0.0, "filled": 5.0}}}},
     {"match": {"history": None, "kept_banks": {"101": {"time_bank": 0.0, "filled": 5.0}}}}),
]


@pytest.mark.parametrize(("version", "before", "after"), STEP_CASES,
                         ids=[f"{v}to{v + 1}-{i}" for i, (v, _, _) in enumerate(STEP_CASES)])
def test_each_step_fills_what_its_change_added(
        version: int, before: dict[str, Any], after: dict[str, Any]) -> None:
    kept = copy.deepcopy(before)
    upgraded = STEPS[version - 1](before)
    assert upgraded == after
    assert list(upgraded) == list(after)  # an added field comes after the others
    assert before == kept  # a step changes nothing it is given


def test_every_step_is_tested() -> None:
    assert {version for version, _, _ in STEP_CASES} == set(range(1, CURRENT))


async def test_every_snapshot_saved_is_the_json_of_its_table(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    # A snapshot writes the parts that cannot change as text once (codec.dumps) and the
    # hand's history from what it wrote before (HandLog.text): over tables played through
    # the service, every snapshot must be the very text json writes from the table's state.
    saved: list[str] = []
    dumps = TableState.dumps

    def compared(state: TableState) -> str:
        text = dumps(state)
        assert text == json.dumps(state.to_json(), separators=(",", ":"))
        saved.append(text)
        return text

    monkeypatch.setattr(TableState, "dumps", compared)
    await play_tables(storage)
    await _come_and_go(storage)
    kinds = {event["kind"] for text in saved if (match := json.loads(text)["match"])
             for event in (match["history"] or {"events": []})["events"]}
    assert kinds == set(KINDS), sorted(set(KINDS) - kinds)


async def _come_and_go(storage: Storage) -> None:
    """Cash tables where people sit down, get up, bust, time out and come back: the events
    the tables of `play_tables` do not show."""
    clock = FakeClock(1_700_000_000.0)
    service = TableService(storage, clock, QUICK_AI, FAST)
    try:
        small = (await service.create_table(GUILD, CHANNEL + 9, ALICE, "Alice",
                                            {"format": "cash", "buy_in": 1}, seed=3)).table_id
        await service.add_computer(small, ALICE, "easy", is_admin=True)
        await service.start(small, ALICE)
        await service.idle()
        await act(service, small, ALICE)
        await service.join(small, BOB, "Bob")
        await service.leave(small, ALICE)  # gets up once the hand is over
        await service.stay(small, ALICE)  # takes it back...
        await service.leave(small, ALICE)  # ...and asks again
        await _run(service, clock, small, [ALICE, BOB], until_back=False)
        away = (await service.create_table(GUILD, CHANNEL + 10, ALICE, "Alice",
                                           {"format": "cash"}, seed=4)).table_id
        await service.join(away, BOB, "Bob")
        await service.start(away, ALICE)
        await _run(service, clock, away, [ALICE], until_back=True)
        gone = (await service.create_table(GUILD, CHANNEL + 11, ALICE, "Alice",
                                           {"format": "cash"}, seed=5)).table_id
        await service.join(gone, BOB, "Bob")
        await service.add_computer(gone, ALICE, "easy", is_admin=True)
        await service.start(gone, ALICE)
        await _run(service, clock, gone, [ALICE], until_back=False, steps=60)  # Bob sits out
    finally:
        await service.close()


async def _run(service: TableService, clock: FakeClock, table: int, people: list[int],
               until_back: bool, steps: int = 300) -> None:
    """Play the table: `people` act when it is their turn; with `until_back`, Bob does not
    act until he is away, then comes back and plays a few turns."""
    came_back = 0
    for _ in range(steps):
        await service.idle()
        if table not in service.live_tables() or came_back > 5:
            return
        seats = service.seats(table).values()
        if until_back and BOB in seats and service.private_view(table, BOB).away:
            await service.back(table, BOB)
            came_back = 1
        elif came_back and BOB in seats and service.private_view(table, BOB).to_act:
            await act(service, table, BOB)
            came_back += 1
        elif any(pid in seats and service.private_view(table, pid).to_act for pid in people):
            await act(service, table, next(pid for pid in people if pid in seats and
                                           service.private_view(table, pid).to_act))
        elif not await clock.advance_to_next():
            return
