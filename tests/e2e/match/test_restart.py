"""A restart in the middle of a hand (stop the bot, start a new OFCBot on the same database):
each open prompt is redrawn in place with the draft kept (no second DM), its buttons still
work, and the match goes on to its end with wallets as the showdowns say."""

from pathlib import Path

import pytest

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import placement
from tests.e2e.discord_double import DiscordDouble, InteractionNotAnswered, Member
from tests.e2e.flows import (
    SUCCESS,
    Seat,
    act,
    action_of,
    check_wallets,
    dealt,
    draft,
    open_table,
    place_id,
    play_out,
    play_until,
    ready,
    seats_of,
    start_bot,
    title,
)


async def test_a_restart_mid_hand_continues_the_match_with_the_old_buttons(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        database: Path) -> None:
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=2,
                             fantasy="off")
    seats = seats_of((alice, bob))

    def street_2_turn() -> Seat | None:
        for seat in seats:
            shown = seat.prompt()
            if shown is not None and ready(shown) and title(shown).endswith("street 2 of 5"):
                return seat
        return None

    seat = await play_until(double, table, seats, street_2_turn)
    member, prompt = seat.member, seat.prompt()
    assert prompt is not None
    card = dealt(prompt)[0]
    await draft(double, member, prompt, card, "middle")

    shown, edits = action_of(prompt), len(prompt.history)
    await double.stop_client(bot)
    with pytest.raises(InteractionNotAnswered):  # while it is down, clicks go unanswered
        await member.click(prompt, custom_id=place_id(prompt, dealt(prompt)[1], "top"))
    restarted = await start_bot(double, database, clock)
    try:
        # The restored table redraws the prompt it had sent (no second DM for the street).
        await double.wait_until(lambda: len(prompt.history) > edits, what="the prompt redrawn")
        assert member.dms()[-1] is prompt and action_of(prompt) == shown and ready(prompt)
        assert placement(prompt, card, "middle")["style"] == SUCCESS  # draft kept

        seat.done.add(str(action_of(prompt)))
        await act(double, member, prompt)  # the pre-restart DM's buttons, to the Confirm
        assert title(prompt) == "Hand 1: street 2 placed"
        await play_out(double, table, seats)
        await check_wallets(double, (alice, bob))
    finally:
        await double.stop_client(restarted)
