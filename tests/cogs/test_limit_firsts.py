"""Limit.take's `once`: the first use for an action is free, repeats count, and what is
remembered stays bounded (cogs/common/interactions.py)."""

from types import SimpleNamespace
from typing import Any

import pytest

from bot.tables import FakeClock
from cogs.common.interactions import Limit, Slowed


def pressed(client: Any, member: int) -> Any:
    return SimpleNamespace(client=client, user=SimpleNamespace(id=member))


def test_firsts_are_free_and_repeats_count() -> None:
    client = SimpleNamespace(clock=FakeClock())
    limit = Limit(2, 60)
    for street in range(10):
        limit.take(pressed(client, 1), once=("table", street))
    limit.take(pressed(client, 1), once=("table", 0))  # a repeat: counted (1 of 2)
    limit.take(pressed(client, 1))  # no action: counted (2 of 2)
    with pytest.raises(Slowed):
        limit.take(pressed(client, 1), once=("table", 9))
    limit.take(pressed(client, 2), once=("table", 9))  # another member's first


def test_what_is_remembered_is_bounded() -> None:
    client = SimpleNamespace(clock=FakeClock())
    limit = Limit(1, 60)
    limit.FIRSTS, limit.MEMBERS = 3, 2
    for street in range(5):
        limit.take(pressed(client, 1), once=street)
    assert client.ofc_firsts[(limit, 1)] == [2, 3, 4]  # the latest FIRSTS
    limit.take(pressed(client, 2), once=0)
    limit.take(pressed(client, 1), once=5)  # member 1 used one last: member 2 is oldest
    limit.take(pressed(client, 3), once=0)
    assert list(client.ofc_firsts) == [(limit, 1), (limit, 3)]
    limit.take(pressed(client, 1), once=0)  # forgotten: a first again
    limit.take(pressed(client, 1), once=0)  # counted (1 of 1)
    with pytest.raises(Slowed):
        limit.take(pressed(client, 1), once=0)
