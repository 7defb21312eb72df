"""What the logs say of a click that failed: which control, never the card it placed (R7:
a card dealt or discarded is its player's alone, and the logs are the bot operator's, often
shared when something goes wrong)."""

import pytest

from bot.app import OFCBot
from bot.engine.cards import INDEX
from bot.tables import TableService
from tests.cogs.conftest import placements, started
from tests.e2e.discord_double import DiscordDouble, Member

SOMETHING_WRONG = "Something went wrong; nothing was lost. Please try again."


async def test_a_click_that_failed_is_logged_without_its_card(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await started(double, alice, bob)
    prompt = await alice.wait_for_dm(lambda m: bool(placements(m)))
    (card, row), button = next(iter(placements(prompt).items()))

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the table service")

    monkeypatch.setattr(TableService, "set_draft", broken)
    await alice.click(prompt, custom_id=str(button["custom_id"]))
    await alice.wait_for_dm(lambda m: m.content == SOMETHING_WRONG)

    (failed,) = double.errors.records  # what the logs show an operator (ERROR and above)
    double.errors.records.clear()  # the one error this test provokes
    logged = failed.getMessage()
    custom_id = str(button["custom_id"])
    kept = custom_id.rsplit(":", 2)[0]  # ofc:place:<table>:<hand>:<street>:<seat>
    # The whole line, not a search for the card's index: a small index (0, 1) also reads as
    # the table, hand, street or seat number in the part the log keeps.
    assert logged == f"component '{kept}:...:{row}' failed"
    assert custom_id.split(":")[-2] == str(INDEX[card])  # the part left out is the card
