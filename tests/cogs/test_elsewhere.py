"""A DM prompt's question "does its player sit at another table?" (cogs/tables/elsewhere.py):
this process's tables in memory on every draw; a sharded bot's database once an action of a
seat, with a bounded number of answers kept."""

from types import SimpleNamespace
from typing import Any

import pytest

from bot.sharding import ShardPlan
from cogs.tables import elsewhere
from cogs.tables.elsewhere import Elsewhere


class Stored:
    """The storage part: counts its reads; a player sits elsewhere when in `seated`."""

    def __init__(self) -> None:
        self.reads: list[tuple[int, int]] = []
        self.seated: set[int] = set()

    async def seated_elsewhere(self, user_id: int, table_id: int) -> bool:
        self.reads.append((user_id, table_id))
        return user_id in self.seated


class Local:
    def __init__(self) -> None:
        self.seated: set[int] = set()

    def seated_elsewhere(self, player_id: int, table_id: int) -> bool:
        return player_id in self.seated


def seat(player: int, hand: int, street: int) -> Any:
    return SimpleNamespace(player_id=player, hand_no=hand, street=street)


async def test_the_database_is_read_once_an_action() -> None:
    stored, local = Stored(), Local()
    asked = Elsewhere(local, stored, ShardPlan(2, (0,)))  # type: ignore[arg-type]
    assert [await asked.seated(7, seat(1, 1, 1)) for _ in range(3)] == [False] * 3
    assert stored.reads == [(1, 7)]
    stored.seated.add(1)  # sat down at another process's table: named from the next action
    assert await asked.seated(7, seat(1, 1, 1)) is False
    assert await asked.seated(7, seat(1, 1, 2)) is True
    assert stored.reads == [(1, 7), (1, 7)]
    local.seated.add(2)  # at another table of this process: no read
    assert await asked.seated(7, seat(2, 1, 1)) is True
    assert stored.reads == [(1, 7), (1, 7)]


async def test_an_unsharded_bot_never_reads() -> None:
    stored = Stored()
    asked = Elsewhere(Local(), stored, ShardPlan())  # type: ignore[arg-type]
    assert await asked.seated(7, seat(1, 1, 1)) is False and stored.reads == []


async def test_the_answers_kept_are_bounded_the_oldest_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(elsewhere, "KEPT", 2)
    stored = Stored()
    asked = Elsewhere(Local(), stored, ShardPlan(2, (0,)))  # type: ignore[arg-type]
    for player in (1, 2, 1, 3):  # 1 asked again: 2 is now the oldest, dropped for 3
        await asked.seated(7, seat(player, 1, 1))
    await asked.seated(7, seat(1, 1, 1))
    assert stored.reads == [(1, 7), (2, 7), (3, 7)]
    await asked.seated(7, seat(2, 1, 1))
    assert stored.reads[-1] == (2, 7)
