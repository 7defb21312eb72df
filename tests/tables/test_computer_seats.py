"""Computer seats at live tables: a computer whose move could not be saved, a decision that
arrives after the table moved on."""

import pytest

from bot.storage import Storage
from bot.tables import FakeClock, Placed, PlayerAway, TableService
from bot.tables.scheduling import RETRY_SECONDS

from .driver import ALICE, CHANNEL, GUILD, Recorder, act, play
from .test_restart import Flaky


async def test_a_computer_whose_move_could_not_be_saved_tries_again(
        service: TableService, storage: Storage, clock: FakeClock, recorder: Recorder,
        caplog: pytest.LogCaptureFixture) -> None:
    # Storage trouble as the computer places (a disk or lock error, a database restarting):
    # it places again a few seconds later, as a timer does, rather than waiting for R10's
    # clock to place its street and mark it away (it would then sit out after the hand).
    table = (await service.create_table(GUILD, CHANNEL, ALICE, "Alice",
                                        {"format": "hands", "hands": 1}, seed=5)).table_id
    await service.add_computer(table, ALICE, "easy", is_admin=True)
    await service.start(table, ALICE)
    if service.private_view(table, ALICE).to_act:
        await act(service, table, ALICE)
    Flaky(storage.tables, "save_snapshot")
    await service.idle()
    assert "retrying" in caplog.text
    assert not [e for e in recorder.of(Placed) if e.player_id < 0]
    await clock.advance(RETRY_SECONDS)
    await service.idle()
    assert [(e.player_id, e.auto) for e in recorder.of(Placed)][-1] == (-1, False)
    await play(service, clock, table, [ALICE])
    assert not recorder.of(PlayerAway)
    assert sum(1 for e in recorder.of(Placed) if e.player_id < 0) == 5  # R7: five streets
