"""Members' locales are written in batches (cogs/common/language.py): the members first seen
while a batch is being written go together in the next one, a single transaction."""

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from cogs.common.language import LocaleWrites


class GatedPreferences:
    """Storage's preferences part: records each batch and holds it until `gate` opens, as a
    slow commit would."""

    def __init__(self) -> None:
        self.batches: list[list[tuple[int, str, float]]] = []
        self.gate = asyncio.Event()

    async def set_locales(self, rows: list[tuple[int, str, float]]) -> None:
        self.batches.append(sorted(rows))
        await self.gate.wait()


async def test_members_seen_together_are_one_write_and_those_seen_meanwhile_the_next() -> None:
    storage = GatedPreferences()
    writes = LocaleWrites(cast(Any, SimpleNamespace(preferences=storage)))
    for user in (3, 1, 2):
        writes.add(user, "ru", 1.0)
    for _ in range(20):  # the batch starts within a few turns of the loop, or never
        if storage.batches:
            break
        await asyncio.sleep(0)
    assert storage.batches == [[(1, "ru", 1.0), (2, "ru", 1.0), (3, "ru", 1.0)]]
    writes.add(4, "sv-SE", 2.0)  # while the first batch is being written
    writes.add(1, "zh-CN", 2.5)
    writes.add(1, "en-US", 3.0)  # the same member again: the last locale counts
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(storage.batches) == 1
    storage.gate.set()
    await writes.batches.close()
    assert storage.batches[1] == [(1, "en-US", 3.0), (4, "sv-SE", 2.0)]
