"""Snapshots written by earlier versions still load, and save again byte for byte but for the
format's deliberate changes (named in `as_written_now`).

`data/snapshots.json` holds live-table snapshots (`state_json` in storage) as the service wrote
them: lobbies, hands in play with drafts and DM messages, Fantasyland, simultaneous order,
turbo, jokers, cash tables, money operations of every kind still pending, and (the last) a
table closed by its match's end, offering a rematch. Any change to how
a table, a match, a hand's history, an engine event or a money operation is written shows up
here as a difference.
"""

import json
from pathlib import Path

import pytest

from bot.tables.state import TableState

SNAPSHOTS = json.loads((Path(__file__).parent / "data" / "snapshots.json").read_text())


def as_written_now(text: str) -> str:
    """A stored snapshot as this version writes it: the stored text with only the format's
    deliberate changes since, each named here. A DM prompt records the hand and street it
    was sent for (a stored one has none: 0, 0, which matches no action); a match's end says
    whether it was cancelled (/stats leaves those out); a table says whether its match over
    offers a rematch (a stored one offers none); the table's and its match's rules say
    whether hints are on (R10: off) and whether an away player sits out (R10; off at
    tournament tables, R13) and, as the table played before these options, that Fantasyland
    is dealt first, the clock runs a street at a time and the time bank never fills again
    (R8, R10), while a hand's history keeps the state it recorded; a seated player says when
    its time bank was last full (a stored one does not: null, set at the next deal) and a
    hand's seat the seconds it spent acting (0: a stored hand's clock starts afresh); the table
    says whether it is a practice (no) and whether the house lent its stacks (a
    tournament's table; a stored one does not say, and is read as not lent); a match's last
    showdown names its hand's dealer (a stored one does not: null, and the match's button is
    shown); a match's end names its computers' levels for the ratings (a stored one names
    none: they are rated as easy)."""
    data = json.loads(text)
    for holder in (data, data["match"] or {}):
        if "rules" in holder:
            holder["rules"]["hints"] = "off"
            holder["rules"]["sit_out_when_away"] = True
            holder["rules"].update(fantasy_deal="first", clock="per_street",
                                   time_bank_refill_seconds=0)
    if data["match"]:
        for player in data["match"]["seats"]:
            if player is not None:
                player["bank_filled"] = None
        for seat in (data["match"]["hand"] or {"seats": []})["seats"]:
            seat["used"] = 0.0
    data["dm"] = {player: [*ids, 0, 0] for player, ids in data["dm"].items()}
    for op in data["pending"]:
        if op["op"] == "match_end":
            op["cancelled"] = False
            op["computers"] = []
    if data["match"] and data["match"].get("showdown"):
        data["match"]["showdown"]["button"] = None
    data.setdefault("rematch", False)
    data["practice"] = False
    data["lent"] = False
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("text", SNAPSHOTS, ids=range(len(SNAPSHOTS)))
def test_a_stored_snapshot_loads_and_saves_unchanged(text: str) -> None:
    state = TableState.loads(text, table_id=1, guild_id=10, channel_id=20)
    assert state.dumps() == as_written_now(text)
    again = TableState.loads(state.dumps(), table_id=1, guild_id=10, channel_id=20)
    assert again.dumps() == state.dumps()


def test_the_snapshots_cover_every_money_operation() -> None:
    kinds = {op["op"] for text in SNAPSHOTS for op in json.loads(text)["pending"]}
    assert kinds == {"buy_in", "settle", "cash_out", "match_end", "close", "refund"}
