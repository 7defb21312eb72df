"""Snapshots written by earlier versions still load, and save again byte for byte.

`data/snapshots.json` holds live-table snapshots (`state_json` in storage) as the service wrote
them: lobbies, hands in play with drafts and DM messages, Fantasyland, simultaneous order,
turbo, jokers, cash tables, and money operations of every kind still pending. Any change to how
a table, a match, a hand's history, an engine event or a money operation is written shows up
here as a difference.
"""

import json
from pathlib import Path

import pytest

from bot.tables.state import TableState

SNAPSHOTS = json.loads((Path(__file__).parent / "data" / "snapshots.json").read_text())


@pytest.mark.parametrize("text", SNAPSHOTS, ids=range(len(SNAPSHOTS)))
def test_a_stored_snapshot_loads_and_saves_unchanged(text: str) -> None:
    state = TableState.loads(text, table_id=1, guild_id=10, channel_id=20)
    assert state.dumps() == text


def test_the_snapshots_cover_every_money_operation() -> None:
    kinds = {op["op"] for text in SNAPSHOTS for op in json.loads(text)["pending"]}
    assert kinds == {"buy_in", "settle", "cash_out", "match_end", "close", "refund"}
