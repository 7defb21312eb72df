"""Clicks the table must survive, through the real bot: another member's controls, a stale
street's buttons, forged custom_ids, a confirm out of turn, the same button twice, two clicks
at once. Each is refused with a reason or applied once; the hand then plays on to a showdown
whose arithmetic holds (R3, R5, R6) and wallets that match it."""

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.app import OFCBot
from bot.engine.cards import Card
from bot.tables import DmPrompt
from cogs.common.format import card_label
from tests.cogs.conftest import buttons, enabled, placement, placements
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Interaction, Member, Message
from tests.e2e.flows import (
    SUCCESS,
    action_of,
    check_wallets,
    confirm,
    dealt,
    description,
    draft,
    open_table,
    place_id,
    play_out,
    play_until,
    ready,
    seats_of,
    title,
)
from tests.e2e.privacy import CARD_TEXT

NOT_VALID = "That control is not valid."
PLACED_ALREADY = "Those cards are already placed."
OUT_OF_DATE = ("This prompt is out of date: use your newest one, or **My hand** on the table "
               "message.")


def refusals(member: Member, since: Message | None) -> list[str]:
    """The reasons the bot gave `member` (ephemeral embeds) after `since`."""
    return [description(m) for m in member.ephemerals()
            if m.embed is not None and (since is None or m.id > since.id)]


async def refused(double: DiscordDouble, member: Member, click: Awaitable[Interaction]) -> str:
    """The one reason the bot gives for `click` (a click or a forge)."""
    before = member.last_ephemeral()
    await click
    answer = await member.wait_for_ephemeral(lambda m: m.embed is not None, after=before)
    return description(answer)


def chosen(prompt: Message, card: Card, row: str) -> bool:
    return placement(prompt, card, row).get("style") == SUCCESS


async def test_bad_clicks_are_refused_or_applied_once_and_the_hand_plays_on(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    seats = seats_of((alice, bob))
    first = (await double.wait_until(lambda: next((s for s in seats if ready(s.prompt())),
                                                  None))).member
    second = bob if first is alice else alice
    prompt, theirs = first.last_dm(), await second.wait_for_dm()
    assert prompt is not None
    cards, their_cards = dealt(prompt), dealt(theirs)
    _, _, table_id, hand, street, seat = str(action_of(prompt)).split(":")

    # Out of turn: the second may arrange (R7) but not confirm; the draft is kept.
    await draft(double, second, theirs, their_cards[0], "top")
    # Confirm waits for a whole street: a modified client sends it anyway.
    assert not enabled(theirs, "Confirm")
    confirm_id = str(buttons(theirs)["Confirm"]["custom_id"])
    reason = await refused(double, second, second.forge(theirs, confirm_id))
    assert reason == f"It is {first.user.global_name}'s turn."
    assert chosen(theirs, their_cards[0], "top")

    # Another member's control, sent from the second's own DM by a modified client.
    foreign = place_id(prompt, cards[0], "top")
    reason = await refused(double, second, second.forge(theirs, foreign))
    assert reason == "These controls belong to another player."
    # Forged ids no button carries: a card index past the deck, an unknown row or kind, and
    # a well-formed id of a hand that is not being played.
    turn = f"{table_id}:{hand}:{street}:{seat}"
    for custom_id in (f"ofc:place:{turn}:77:top", f"ofc:place:{turn}:0:sideways",
                      "ofc:launch:1"):
        assert await refused(double, first, first.forge(prompt, custom_id)) == NOT_VALID
    # A hand before this one is over; a later one's prompt could only come from play that a
    # restore from a backup undid (backup.md).
    stale_hand = f"ofc:place:{table_id}:0:{street}:{seat}:0:top"
    assert await refused(double, first, first.forge(prompt, stale_hand)) == "That hand is over."
    later_hand = f"ofc:place:{table_id}:9:{street}:{seat}:0:top"
    assert await refused(double, first, first.forge(prompt, later_hand)) == OUT_OF_DATE
    assert [b for b in placements(prompt).values() if b.get("style") == SUCCESS] == []

    # The same button twice at once: applied once (a card is in one row).
    top = place_id(prompt, cards[0], "top")
    before = first.last_ephemeral()
    await asyncio.gather(first.click(prompt, custom_id=top), first.click(prompt, custom_id=top))
    await double.wait_until(lambda: chosen(prompt, cards[0], "top"))
    rows = ["bottom", "bottom", "middle", "middle"]
    for card, row in zip(cards[1:], rows, strict=True):
        await draft(double, first, prompt, card, row)
    assert refusals(first, before) == []

    # Confirm twice at once: placed once, the other click told the cards are placed.
    street_1, stale = len(prompt.history), place_id(prompt, cards[1], "top")
    await asyncio.gather(first.click(prompt, "Confirm"), first.click(prompt, "Confirm"))
    await double.wait_until(lambda: action_of(prompt) is None and refusals(first, before))
    assert refusals(first, before) == [PLACED_ALREADY]
    assert title(prompt) == "Hand 1: street 1 placed"
    assert sorted(CARD_TEXT.findall(description(prompt))) == sorted(
        card_label("en-US", c) for c in cards)

    # A stale client clicks the street-1 buttons it still shows.
    reason = await refused(double, first, first.click(prompt, custom_id=stale,
                                                      version=street_1 - 1))
    assert reason == PLACED_ALREADY

    # The second acts (its kept draft included); on street 2 two discards race for one.
    await confirm_after_drafting(double, second, theirs)
    street_2 = await first.wait_for_dm(lambda m: ready(m), after=prompt)
    two = dealt(street_2)
    before = first.last_ephemeral()
    await asyncio.gather(first.click(street_2, custom_id=place_id(street_2, two[0], "discard")),
                         first.click(street_2, custom_id=place_id(street_2, two[1], "discard")))
    # Fewer taps: a second discard swaps with the first rather than being refused.
    await double.wait_until(lambda: chosen(street_2, two[0], "discard")
                            != chosen(street_2, two[1], "discard"))
    assert refusals(first, before) == []
    # The greyed names of the grid's rows do nothing; a modified client is told so.
    reason = await refused(double, first, first.forge(street_2, "ofc:row:discard"))
    assert reason == "That button names the row: press a card in it."

    await play_out(double, table, seats)  # the rest of the hand, as usual
    (shown,) = [breakdowns.read(m) for m in breakdowns.posted(double.messages())]
    assert set(shown.seats) == {"Alice", "Bob"}
    await check_wallets(double, (alice, bob))


async def confirm_after_drafting(double: DiscordDouble, member: Member, prompt: Message) -> None:
    """Draft the cards not drafted yet, bottom up, and confirm."""
    await double.wait_until(lambda: ready(prompt), what=f"{member.name}'s turn")
    rows = iter(["bottom", "bottom", "middle", "middle", "top"])
    for card in dealt(prompt):
        if not any(chosen(prompt, card, r) for r in ("top", "middle", "bottom")):
            await draft(double, member, prompt, card, next(rows))
    await confirm(double, member, prompt)


async def test_my_hand_says_the_table_closed_and_a_lobby_seat_waits_for_start(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """The table message of a match over neither offers "My hand" nor tells to press it; a "My
    hand" still shown by a client says the table is closed (not a prompt titled with its last
    street); `/ofc hand` in the Rematch's lobby tells a seated
    member their cards come once the match starts (not that they are not playing)."""
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    over = await play_out(double, table, seats_of((alice, bob)))
    # The closed table's message no longer offers My hand, nor tells to press it (its last
    # edit goes out beside the channel's posts, so it may come after the match's end).
    await double.wait_until(
        lambda: "My hand" not in table.labels() and "My hand" not in str(table.embed),
        what="the table message's last edit")
    stale = alice.click(table, "My hand", version=len(table.history) - 1)
    answer = await refused(double, alice, stale)
    assert answer == "This table is closed."
    assert all("street" not in title(m) for m in alice.ephemerals())

    await alice.click(over, "Rematch")
    await double.wait_until(lambda: "rematch is open" in str(alice.last_ephemeral().content))
    shown = await double.resolved(await alice.slash("ofc hand"))
    assert description(shown) == ("The match has not started yet: your cards come once the "
                                  "host presses **Start**.")


async def test_a_refusal_while_the_table_message_is_recorded_keeps_one_table_message(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A click refused (here a Confirm before every card has a row, as a client still showing
    Confirm enabled sends it) while the bot is recording the table message it just posted:
    the table message is still edited in place afterwards, never posted a second time (which
    left the first one behind, its turn line stale and its My hand live)."""
    storage = bot.storage.tables
    record = storage.set_table_messages
    recording, release = asyncio.Event(), asyncio.Event()

    async def held(table_id: int, **fields: Any) -> None:
        if isinstance(fields.get("table_message_id"), int):
            recording.set()
            await release.wait()  # the test lets it go once the click was refused
        await record(table_id, **fields)

    monkeypatch.setattr(storage, "set_table_messages", held)
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    seats = seats_of((alice, bob))
    first = (await double.wait_until(lambda: next((s for s in seats if ready(s.prompt())),
                                                  None))).member
    prompt = first.last_dm()
    assert prompt is not None
    await recording.wait()
    reason = await refused(double, first, first.forge(prompt, action_of(prompt) or ""))
    assert reason == "Place all 5 cards."
    release.set()

    await play_out(double, table, seats)
    # The table message's edits are spaced out: its showdown may come after the match-over post.
    await double.wait_until(lambda: "showdown" in title(table), what="the table's showdown")
    tables = [m for m in double.messages() if title(m).startswith("Hand 1 of 1")]
    assert tables == [table]


@pytest.mark.parametrize("hands", [1, 2])
async def test_cancel_mid_street_turns_open_prompts_into_records_that_say_why(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, hands: int) -> None:
    """/ofc cancel completes the hand in play (its cards placed by R10's rule) and closes the
    table: each DM prompt still open becomes its record and says so (not that time ran out,
    nor "Your turn" with a countdown to a moment that never comes), whether that hand was the
    match's last or more were to come."""
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=hands,
                             fantasy="off")
    seats = seats_of((alice, bob))
    await double.wait_until(lambda: any(ready(s.prompt()) for s in seats))
    prompts = [await member.wait_for_dm() for member in (alice, bob)]
    await double.resolved(await alice.slash("ofc cancel"))
    await double.wait_until(lambda: all(not p.components for p in prompts)
                            and "My hand" not in table.labels(), what="prompts closed")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    for prompt in prompts:
        assert description(prompt).startswith(
            "Table closed: your cards were placed for you.")
        assert "Your turn" not in description(prompt) and "Waiting" not in description(prompt)
        assert title(prompt) == "Hand 1: street 1 placed"
    # The table message stays in the channel: no hand is promised after the close.
    assert description(table).splitlines()[0] == (
        "The match is over." if hands == 1 else "This table is closed.")


async def test_a_prompt_sent_as_the_table_closes_becomes_its_record_too(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """A street's DM prompt sent, but not yet recorded, when the table closes (here /ofc
    cancel lands between the two; at a cash table, the last person sitting out as the
    computers finish the hand does the same) ends as the prompts the close saw: its record,
    saying why, with no controls, not "Waiting for Bob" and live buttons at a closed table."""
    service = bot.tables
    record = service.set_dm_message
    cancelled: list[bool] = []

    async def cancel_first(table_id: int, player_id: int, prompt: DmPrompt | None) -> None:
        if prompt is not None and prompt.street == 2 and player_id == alice.id \
                and not cancelled:
            cancelled.append(True)
            await service.cancel(table_id, alice.id, is_admin=False)
        await record(table_id, player_id, prompt)

    service.set_dm_message = cancel_first  # type: ignore[method-assign]
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    # Street 1 is played; once street 2 is dealt nobody clicks (the table is closing).
    await play_until(double, table, seats_of((alice, bob)), lambda: next(
        (m for m in (*alice.dms(), *bob.dms()) if "street 2" in title(m)), None))
    await double.wait_until(lambda: cancelled and "My hand" not in table.labels(),
                            what="the table closed")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    assert cancelled
    prompt = next(m for m in alice.dms() if "street 2" in title(m))
    assert prompt.components == []
    assert title(prompt) == "Hand 1: street 2 placed"
    assert description(prompt).startswith("Table closed: your cards were placed for you.")
