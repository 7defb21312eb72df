"""Suggest when the worker processes fail (a worker that died twice, the pool shut down): a
clear answer after the deferral, never silence, and the next Suggest drafts."""

import pytest

from bot.app import OFCBot
from bot.process.workers import WorkerError
from tests.cogs.conftest import placements, started
from tests.e2e.discord_double import DiscordDouble, Member, Message

SOMETHING_WRONG = "Something went wrong; nothing was lost. Please try again."


async def test_a_suggest_the_workers_could_not_run_is_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await started(double, alice, bob, hints="on")
    prompt = await alice.wait_for_dm(lambda m: bool(placements(m)))
    real = bot.workers.run

    async def failing(fn: object, *args: object, **kwargs: object) -> object:
        if getattr(fn, "__name__", "") == "suggest":
            raise WorkerError("The computer could not finish this task; please try again.")
        return await real(fn, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.workers, "run", failing)
    await alice.click(prompt, "Suggest")
    await alice.wait_for_dm(lambda m: m.content == SOMETHING_WRONG)
    (failed,) = double.errors.records  # logged once for the operator, by the control's name
    assert failed.getMessage().startswith("component 'ofc:suggest:")
    double.errors.records.clear()
    monkeypatch.setattr(bot.workers, "run", real)
    assert not drafted(prompt)
    await alice.click(prompt, "Suggest")  # the workers are back: the prompt shows the draft
    await double.wait_until(lambda: drafted(prompt), what="the suggestion drafted")


def drafted(prompt: Message) -> bool:
    """The prompt names what its rows hold (it does once cards are drafted)."""
    return prompt.embed is not None and "Bottom:" in str(prompt.embed["description"])
