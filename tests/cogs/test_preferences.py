"""`/ofc preferences`: a player's four-colour deck and their choice of "My hand"
in the channel over DMs, kept per player and used for their images and prompts."""

from typing import Any

import pytest

import rendering
from bot.app import OFCBot
from tests.cogs.conftest import EXTENSIONS, buttons, started
from tests.e2e.discord_double import DiscordDouble, Member


@pytest.fixture
def extensions() -> tuple[str, ...]:
    """tests/cogs' bot with the tools too (`/ofc preferences`)."""
    return (*EXTENSIONS, "cogs.tools")


async def test_preferences_are_shown_changed_and_kept(double: DiscordDouble, bot: OFCBot,
                                                      alice: Member) -> None:
    shown = await double.resolved(await alice.slash("ofc preferences"))
    assert shown.ephemeral and "two colours" in shown.embed["description"]  # type: ignore[index]
    changed = await double.resolved(await alice.slash(
        "ofc preferences", four_colour=True, controls="channel"))
    text = changed.embed["description"]  # type: ignore[index]
    assert "four colours" in text and "My hand" in text
    prefs = await bot.storage.preferences.preferences(alice.id)
    assert prefs.four_colour and prefs.controls == "channel"


async def test_my_hand_over_dms_and_the_four_colour_deck_are_used(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, bool]] = []
    private_png = rendering.private_png

    def recording(view: Any, draft: Any = None, four_colour: bool = False,
                  locale: str = "en-US") -> bytes:
        drawn.append((view.seat, four_colour))
        return private_png(view, draft, four_colour, locale)

    monkeypatch.setattr(rendering, "private_png", recording)
    await double.resolved(await bob.slash("ofc preferences", controls="channel"))
    await double.resolved(await alice.slash("ofc preferences", four_colour=True))
    table = await started(double, alice, bob)
    notice = await double.wait_for_message(lambda m: "as you prefer" in m.content)
    assert bob.mention in notice.content and "My hand" in notice.content
    dm = await alice.wait_for_dm()
    assert dm.embed_image() and bob.dms() == []  # bob plays from the channel
    await bob.click(table, "My hand")
    mine = await bob.wait_for_ephemeral(lambda m: "Confirm" in buttons(m))
    assert mine.embed_image()
    seats = {p: s for s, p in bot.tables.seats(bot.tables.table_for_channel(  # type: ignore[arg-type]
        double.channel.id)).items()}
    assert (seats[alice.id], True) in drawn and (seats[bob.id], False) in drawn
    assert (seats[alice.id], False) not in drawn
