"""Table play through the real bot and a local Discord (tests/e2e/discord_double): placement
clicks drafting cards, Confirm, refused clicks (stale, another seat's, forged), closed DMs and
"My hand", buttons that outlive a restart, showdown and match end."""

import asyncio
import re
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

from bot.app import OFCBot
from bot.engine.cards import INDEX, Card, card_str, parse_cards
from bot.engine.placement import auto_assignment
from bot.tables import FakeClock, SeatState
from cogs.common.format import card_label
from cogs.tables.ids import FantasyRowId, PlaceId, StepId, TableButtonId, Turn
from tests.cogs.conftest import (
    EXTENSIONS,
    buttons,
    enabled,
    placement,
    placements,
    started,
    table_message,
)
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.discord_double.model import ATTACH_FILES

SUCCESS = 3  # Discord's green button style: the row a card is drafted to
# A result's points and chips, "**-1 point** · **-1 chip**"
RESULT_AMOUNTS = re.compile(r"\*\*([+-]\d+) (points?)\*\* · \*\*([+-]\d+) (chips?)\*\*")


def table_id(bot: OFCBot, double: DiscordDouble) -> int:
    found = bot.tables.table_for_channel(double.channel.id)
    assert found is not None
    return found


def to_act(bot: OFCBot, table: int, *members: Member) -> tuple[Member, Member]:
    """The member whose turn it is, and the other one (R7 sequential order)."""
    seats = bot.tables.seats(table)
    first = seats[bot.tables.public_view(table).to_act[0]]  # type: ignore[union-attr]
    acting = next(m for m in members if m.id == first)
    return acting, next(m for m in members if m is not acting)


def seat_state(bot: OFCBot, table: int, member: Member) -> SeatState:
    return bot.tables.private_view(table, member.id)


def place_id(table: int, seat: int, card: Card, row: str, street: int = 1) -> str:
    """The custom_id of the button putting `card` in `row` (hand 1)."""
    return str(PlaceId(Turn(table, 1, street, seat), card, row.lower()))


async def draft(double: DiscordDouble, member: Member, prompt: Message, card: Card,
                row: str) -> None:
    await member.click(prompt, custom_id=str(placement_id(prompt, card, row)))
    await double.wait_until(lambda: placement(prompt, card, row.lower()).get("style") == SUCCESS,
                            what=f"{card_label('en-US', card)} drafted to {row}")


def placement_id(prompt: Message, card: Card, row: str) -> str:
    return str(placement(prompt, card, row.lower())["custom_id"])


async def refused(member: Member, prompt: Message, text: str, custom_id: str | None = None,
                  custom_id_shown: str | None = None, **click: object) -> None:
    """Click (or with `custom_id`, forge) on `prompt` (the button `custom_id_shown` shows);
    the answer is an ephemeral `text`."""
    before = member.last_ephemeral()
    if custom_id is None:
        await member.click(prompt, custom_id=custom_id_shown, **click)  # type: ignore[arg-type]
    else:
        await member.forge(prompt, custom_id)
    answer = await member.wait_for_ephemeral(after=before)
    assert answer.embed is not None and answer.embed["description"] == text


async def opening(double: DiscordDouble, bot: OFCBot, alice: Member,
                  bob: Member) -> tuple[int, Member, Member, Message, tuple[Card, ...]]:
    """A started heads-up table: its id, who acts first and second, the first one's DM prompt
    and the cards it holds."""
    await started(double, alice, bob)
    table = table_id(bot, double)
    first, second = to_act(bot, table, alice, bob)
    prompt = await first.wait_for_dm()
    return table, first, second, prompt, seat_state(bot, table, first).view.dealt


async def play_hand(bot: OFCBot, table: int, members: tuple[Member, ...],
                    choose: Callable[[Member, SeatState], Mapping[Card, str]]) -> None:
    """Play the hand in progress to its end through the service: `choose` places each action."""
    service = bot.tables
    hand = service.lobby(table).hand_no
    while (view := service.public_view(table)) is not None and view.hand_no == hand \
            and view.phase == "playing":
        seat_player = service.seats(table)[view.to_act[0]]
        member = next(m for m in members if m.id == seat_player)
        state = seat_state(bot, table, member)
        await service.place(table, member.id, choose(member, state), hand_no=state.hand_no,
                            street=state.street)


def auto(member: Member, state: SeatState) -> Mapping[Card, str]:
    """R10's placement: legal, quick."""
    return auto_assignment(state.view.board, state.view.dealt, state.view.discard_count)


async def test_clicks_draft_the_street_and_confirm_places_it(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table, first, second, prompt, dealt = await opening(double, bot, alice, bob)
    assert "**Your turn.** ⏱" in prompt.embed["description"]  # type: ignore[index]

    await draft(double, first, prompt, dealt[0], "Top")
    assert seat_state(bot, table, first).draft == {dealt[0]: "top"}
    assert "Top: " in prompt.embed["description"]  # type: ignore[index]  # what the top holds
    rows = ["Bottom", "Bottom", "Middle", "Middle"]
    for card, row in zip(dealt[1:], rows, strict=True):
        await draft(double, first, prompt, card, row)
    await draft(double, first, prompt, dealt[0], "Bottom")  # rearranging before Confirm (R7)
    assert seat_state(bot, table, first).draft[dealt[0]] == "bottom"
    # A phone's data: six clicks redrew the prompt, and its image was uploaded once (the draft shows
    # on the buttons); every version still shows it.
    uploaded = {a.id for snap in prompt.history for a in snap.attachments} | \
        {a.id for a in prompt.attachments}
    assert len(prompt.history) >= 6 and len(uploaded) == 1 and prompt.embed_image()

    await first.click(prompt, "Confirm")
    await double.wait_until(lambda: prompt.embed["title"] == "Hand 1: street 1 placed")
    assert buttons(prompt) == {}  # the DM is now the record of what was placed
    board = seat_state(bot, table, first).view.board
    assert set(board.bottom) == {dealt[0], dealt[1], dealt[2]}
    assert set(board.middle) == {dealt[3], dealt[4]} and board.top == ()
    other = await second.wait_for_dm()
    await double.wait_until(lambda: "**Your turn.**" in other.embed["description"],
                            what="the second player's prompt to show their turn")
    table_msg = await table_message(double)
    await double.wait_until(lambda: second.name.capitalize() in table_msg.embed["description"]
                            or second.name in table_msg.embed["description"])


async def test_a_click_acts_while_its_defer_travels_and_is_redrawn_once_it_is_through(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    # The member waits for the longer of Discord taking the defer and the bot's work, not for
    # both in turn; nothing is sent in the click's name before Discord has taken its defer.
    table, first, second, prompt, dealt = await opening(double, bot, alice, bob)
    gate = asyncio.Event()
    callback = double.state.callback

    async def slow_discord(*args: object) -> object:
        await gate.wait()
        return await callback(*args)  # type: ignore[arg-type]

    double.state.callback = slow_discord  # type: ignore[method-assign]
    label = placement_id(prompt, dealt[0], "top")
    versions, told = len(prompt.history), len(first.ephemerals())
    clicking = asyncio.ensure_future(first.click(prompt, custom_id=label))
    async def drafted() -> None:  # the bot's own state: the double sees no change yet
        while seat_state(bot, table, first).draft != {dealt[0]: "top"}:
            await asyncio.sleep(0.01)

    await drafted()  # while Discord holds the defer
    other_seat = next(s for s, p in bot.tables.seats(table).items() if p == second.id)
    forged = PlaceId(Turn(table, 1, 1, other_seat), dealt[1], "top")  # refused by the service
    refusing = asyncio.ensure_future(refused(
        first, prompt, "These controls belong to another player.", str(forged)))
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(prompt.history) == versions and len(first.ephemerals()) == told
    gate.set()
    double.state.callback = callback  # type: ignore[method-assign]
    await asyncio.gather(clicking, refusing)
    await double.wait_until(lambda: placement(prompt, dealt[0], "top").get("style") == SUCCESS,
                            what="the prompt redrawn after the defer")


async def test_stale_foreign_and_forged_clicks_are_refused_and_change_nothing(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table, first, second, prompt, dealt = await opening(double, bot, alice, bob)
    for card, row in zip(dealt, ["Bottom"] * 3 + ["Middle"] * 2, strict=True):
        await draft(double, first, prompt, card, row)
    await first.click(prompt, "Confirm")
    await double.wait_until(lambda: buttons(prompt) == {})
    placed = seat_state(bot, table, first).view.board

    # Stale: a client that has not seen the edit clicks the street-1 button it still shows.
    first_seat = next(s for s, p in bot.tables.seats(table).items() if p == first.id)
    await refused(first, prompt, "Those cards are already placed.", version=0,
                  custom_id_shown=place_id(table, first_seat, dealt[0], "top"))

    # Another seat's control, sent by a modified client from the second player's own DM.
    theirs = await second.wait_for_dm()
    state = seat_state(bot, table, second)
    forged = PlaceId(Turn(table, 1, 1, first_seat), state.view.dealt[0], "top")
    mine = "These controls belong to another player."
    await refused(second, theirs, mine, str(forged))
    await refused(second, theirs, mine, str(StepId(Turn(table, 1, 1, first_seat), "confirm")))

    # Forged ids no button carries (one not even shaped like the bot's).
    for custom_id in ("ofc:place:1:1:1:0:99:top", f"ofc:place:{table}:1:1:0:5:sideways",
                      "ofc:launch:1", "launch"):
        await refused(second, theirs, "That control is not valid.", custom_id)

    assert seat_state(bot, table, first).view.board == placed
    assert seat_state(bot, table, second).draft == {}
    assert seat_state(bot, table, second).view.board.cards == ()


async def test_closed_dms_are_told_to_use_my_hand_which_opens_the_controls(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    double.close_dms(bob)
    table_msg = await started(double, alice, bob)
    table = table_id(bot, double)
    notice = await double.wait_for_message(lambda m: m.content.startswith(bob.mention))
    assert "cannot send you direct messages" in notice.content and "My hand" in notice.content
    assert bob.dms() == []

    await bob.click(table_msg, "My hand")
    mine = await bob.wait_for_ephemeral(lambda m: "Confirm" in buttons(m))
    dealt = seat_state(bot, table, bob).view.dealt
    assert mine.embed_image() and len(placements(mine)) == 5 * 3
    await draft(double, bob, mine, dealt[2], "Middle")
    assert seat_state(bot, table, bob).draft == {dealt[2]: "middle"}

    answer = await double.resolved(await bob.slash("ofc hand"))  # the same, by command
    assert answer.ephemeral and placement(answer, dealt[2], "middle").get("style") == SUCCESS
    not_seated = await double.resolved(await double.add_member("dave").slash("ofc hand"))
    assert not_seated.embed["description"] == "You are not playing at this table."  # type: ignore[index]
    assert len(double.messages()) == 3  # lobby, table, one notice: no notice per street


async def test_buttons_keep_working_after_a_restart_and_prompts_are_redrawn(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock,
        tmp_path: Path) -> None:
    await started(double, alice, bob)
    table = table_id(bot, double)
    prompt = await alice.wait_for_dm()
    edits = len(prompt.history)
    dealt = seat_state(bot, table, alice).view.dealt
    await double.stop_client(bot)

    restarted = OFCBot(bot.settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(restarted)
    try:
        # The restored table redraws the prompt it had sent, rather than sending another.
        await double.wait_until(lambda: len(prompt.history) > edits, what="the prompt redrawn")
        assert alice.dms() == [prompt]
        assert prompt.embed["title"] == "Hand 1 of 2 · street 1 of 5"  # type: ignore[index]
        await draft(double, alice, prompt, dealt[4], "Top")  # the pre-restart DM's button
        assert restarted.tables.private_view(table, alice.id).draft == {dealt[4]: "top"}
    finally:
        await double.stop_client(restarted)


async def test_showdown_and_match_end_are_posted(double: DiscordDouble, bot: OFCBot,
                                                alice: Member, bob: Member) -> None:
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    table = table_id(bot, double)
    await play_hand(bot, table, (alice, bob), auto)
    shown = await double.wait_for_message(lambda m: m.embed is not None
                                          and m.embed["title"] == "Hand 1: showdown")
    assert shown.embed_image() and "Points per pair" in str(shown.embed)
    # The showdown checked by the rules (R3-R6) from the buy-ins of 200: each DM below says
    # its reader's points and chips of it.
    shown_down = breakdowns.read(shown)
    stacks = breakdowns.check(shown_down, dict.fromkeys(shown_down.seats, 200))
    seat_of = {name.lower(): seat for name, seat in shown_down.seats.items()}
    # Each player's own result by DM, naming the server and channel, linking to
    # the table message.
    table_msg = bot.tables.messages(table).table_message_id
    link = f"https://discord.com/channels/{double.guild.id}/{double.channel.id}/{table_msg}"
    for member in (alice, bob):
        result = await member.wait_for_dm(lambda m: "your result" in str(m.embed))
        embed = result.embed
        assert embed is not None and embed["title"] == "Hand 1: your result"
        assert embed["url"] == link and embed["author"]["url"] == link
        assert embed["author"]["name"].endswith(f"#{double.channel.name}")
        text = embed["description"]
        # "**+1 point**" as well as "**+3 points**": a hand of one point is common.
        amounts = RESULT_AMOUNTS.search(text)
        assert "Rows won" in text and amounts is not None
        for number, noun in ((amounts[1], amounts[2]), (amounts[3], amounts[4])):
            assert noun.endswith("s") == (abs(int(number)) != 1)
        seat = seat_of[member.name]
        assert (int(amounts[1]), int(amounts[3])) == (seat.points, seat.chips)
        assert "Top: " in text and "Bottom: " in text
    over = await double.wait_for_message(lambda m: m.embed is not None
                                         and m.embed["title"] == "Match over")
    lines = over.embed["description"].splitlines()  # type: ignore[index]
    wallets = {m.name: (await bot.storage.wallets.wallet(double.guild.id, m.id, now=0)).balance
               for m in (alice, bob)}
    # Each standing line "n. Name: stack chips (net)": stacks went back (R11, R12).
    for line in lines[:2]:
        name, rest = line.split(". ", 1)[1].split(": ")
        assert wallets[name.lower()] == 1000 - 200 + int(rest.split()[0])
        assert int(rest.split()[0]) == stacks[name]
    assert sum(wallets.values()) == 2000  # chips are conserved (R6)

    # Rematch opens a table here with the same options; each click sits its
    # member down, and the buy-ins are taken again (R12).
    await alice.click(over, "Rematch")
    lobby = await double.wait_for_message(
        lambda m: m.embed is not None and m.embed["title"] == "OFC table: waiting for players")
    assert alice.mention in str(lobby.embed) and "1 hand" in str(lobby.embed)
    await bob.click(over, "Rematch")
    await double.wait_until(lambda: bob.mention in str(lobby.embed), what="bob seated")
    for member in (alice, bob):
        wallet = await bot.storage.wallets.wallet(double.guild.id, member.id, now=0)
        assert wallet.balance == wallets[member.name] - 200
    final = await double.wait_for_message(  # the table message, edited a last time
        lambda m: m.embed is not None and m.embed["title"] == "Hand 1 of 1: showdown"
        and m.embed["description"] == "The match is over.")
    assert buttons(final) == {} and final.embed_image()


# With seed 4 at a 2-seat table, seat 0 is dealt (over its 5 streets) the cards of this board
# and one discard per street 2-5: AA on top earns Fantasyland, 14 cards (R8).
FANTASY_PLAN = {"top": "Ah Kc Ac", "middle": "8d 7h 8c 7s 7c", "bottom": "9h Js Jh 9d Jd"}


async def fantasy_table(double: DiscordDouble, bot: OFCBot, alice: Member,
                        bob: Member) -> int:
    """A started one-hand heads-up table (seed 4) with alice in seat 0: its id."""
    options = {"seats": 2, "format": "hands", "hands": 1}
    lobby = await bot.tables.create_table(double.guild.id, double.channel.id, alice.id,
                                          "alice", options, seed=4)
    await bot.tables.join(lobby.table_id, bob.id, "bob")
    await bot.tables.start(lobby.table_id, alice.id)
    return lobby.table_id


def toward_fantasy(player_id: int) -> Callable[[Member, SeatState], Mapping[Card, str]]:
    """`player_id` places FANTASY_PLAN's cards (the others dealt to it are discarded); every
    other seat places R10's way."""
    plan = {card: row for row, text in FANTASY_PLAN.items() for card in parse_cards(text)}

    def choose(member: Member, state: SeatState) -> Mapping[Card, str]:
        if member.id != player_id:
            return auto(member, state)
        return {c: plan.get(c, "discard") for c in state.view.dealt}
    return choose


async def test_fantasyland_menus_solve_and_confirm(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table = await fantasy_table(double, bot, alice, bob)
    await play_hand(bot, table, (alice, bob), toward_fantasy(alice.id))
    await double.wait_for_message(lambda m: m.embed is not None
                                  and "Fantasyland next hand: 14 cards" in str(m.embed))

    prompt = await alice.wait_for_dm(lambda m: "Fantasyland" in m.embed["title"])
    state = seat_state(bot, table, alice)
    assert state.street == 0 and len(state.view.dealt) == 14
    assert prompt.embed["title"] == "Hand 2 of 2 · Fantasyland"
    top = state.view.dealt[:3]
    await alice.select(prompt, *(card_label("en-US", c) for c in top), placeholder="Top (3)")
    await double.wait_until(lambda: seat_state(bot, table, alice).draft == dict.fromkeys(
        top, "top"), what="the top row drafted")
    await alice.select(prompt, card_label("en-US", top[0]), placeholder="Middle (5)")  # moves it
    await double.wait_until(lambda: seat_state(bot, table, alice).draft.get(top[0]) == "middle")

    await alice.click(prompt, "Solve")  # the solver fills the draft (R8 helper)
    await double.wait_until(lambda: len(seat_state(bot, table, alice).draft) >= 13)
    await double.wait_until(lambda: enabled(prompt, "Confirm"), what="13 cards: Confirm")
    await alice.click(prompt, "Confirm")
    await double.wait_until(
        lambda: prompt.embed["title"] == "Hand 2: your Fantasyland hand placed")
    assert len(seat_state(bot, table, alice).view.board.cards) == 13


async def test_a_refused_fantasyland_menu_leaves_the_draft_as_it_was(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """A menu's choice is applied whole or not at all: a modified client sending more cards
    than the row holds, or a card not dealt, is refused with the draft as it was before."""
    table = await fantasy_table(double, bot, alice, bob)
    await play_hand(bot, table, (alice, bob), toward_fantasy(alice.id))
    prompt = await alice.wait_for_dm(lambda m: "Fantasyland" in m.embed["title"])
    state = seat_state(bot, table, alice)
    cards = state.view.dealt
    await alice.select(prompt, *(card_label("en-US", c) for c in cards[:2]), placeholder="Top (3)")
    await alice.select(prompt, card_label("en-US", cards[2]), placeholder="Middle (5)")
    drafted = {cards[0]: "top", cards[1]: "top", cards[2]: "middle"}
    await double.wait_until(lambda: seat_state(bot, table, alice).draft == drafted,
                            what="two cards on top, one in the middle")
    top = str(FantasyRowId(Turn(table, 2, 0, state.seat), "top"))
    not_dealt = next(c for c in INDEX if c not in cards)
    for values, why in (([cards[2], *cards[3:6]], "Top row is full."),
                        ([cards[3], not_dealt],
                         f"{card_str(not_dealt)} is not in your hand.")):
        before = alice.last_ephemeral()
        await alice.forge(prompt, top, component_type=3, values=[str(INDEX[c]) for c in values])
        answer = await alice.wait_for_ephemeral(after=before)
        assert answer.embed is not None and answer.embed["description"] == why
        assert seat_state(bot, table, alice).draft == drafted


async def test_a_table_that_cannot_be_restored_refunds_and_says_so(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock) -> None:
    await started(double, alice, bob)
    await double.stop_client(bot)
    with sqlite3.connect(bot.settings.database) as db:  # a snapshot no code can read
        db.execute("UPDATE live_tables SET state_json = '{\"version\": 999}'")

    restarted = OFCBot(bot.settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(restarted)
    try:
        notice = await double.wait_for_message(lambda m: "could not be restored" in m.content)
        assert alice.mention in notice.content and bob.mention in notice.content
        for member in (alice, bob):  # the buy-ins came back (R12)
            wallet = await restarted.storage.wallets.wallet(double.guild.id, member.id, now=0)
            assert wallet.balance == 1000
        assert restarted.tables.table_for_channel(double.channel.id) is None
        logged = [r.getMessage() for r in double.errors.records]
        assert len(logged) == 1 and "cannot be restored" in logged[0]
        double.errors.records.clear()  # the one error this test provokes
    finally:
        await double.stop_client(restarted)


async def test_a_rematch_offer_outlives_restarts(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, clock: FakeClock) -> None:
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    table = table_id(bot, double)
    await play_hand(bot, table, (alice, bob), auto)
    over = await double.wait_for_message(lambda m: m.embed is not None
                                         and m.embed["title"] == "Match over")
    wallets = {m.id: (await bot.storage.wallets.wallet(double.guild.id, m.id, now=0)).balance
               for m in (alice, bob)}
    await double.stop_client(bot)

    # The offer was saved with the table that closed: a new bot on the same database honours
    # the button it never drew.
    restarted = OFCBot(bot.settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(restarted)
    try:
        assert restarted.tables.table_for_channel(double.channel.id) is None  # all closed
        await alice.click(over, "Rematch")
        lobby = await double.wait_for_message(
            lambda m: m.embed is not None
            and m.embed["title"] == "OFC table: waiting for players")
        assert alice.mention in str(lobby.embed) and "1 hand\n" in lobby.embed["description"]
        rematch = table_id(restarted, double)
        assert rematch != table and restarted.tables.lobby(rematch).rules.fantasy == "off"
        # A forged Rematch from another channel of the server is refused (a forged id).
        elsewhere = await double.state.create_message(double.add_text_channel("lounge"),
                                                      {"content": "hello"}, [])
        before = bob.last_ephemeral()
        await bob.forge(elsewhere, str(TableButtonId("rematch", table)))
        answer = await bob.wait_for_ephemeral(after=before)
        assert answer.embed is not None and \
            answer.embed["description"] == "That control belongs to a table in another channel."
    finally:
        await double.stop_client(restarted)

    # Restarted again, with the rematch's lobby open: the old button seats the next member.
    again = OFCBot(bot.settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(again)
    try:
        await bob.click(over, "Rematch")
        await double.wait_until(lambda: again.tables.lobby(rematch).seated(bob.id),
                                what="bob seated at the rematch")
        for member in (alice, bob):  # each buy-in taken once more (R12)
            wallet = await again.storage.wallets.wallet(double.guild.id, member.id, now=0)
            assert wallet.balance == wallets[member.id] - 200
    finally:
        await double.stop_client(again)


async def test_a_rematch_where_the_bot_lost_a_permission_takes_no_chips(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """The new lobby could not be posted: Rematch names what is missing, as /ofc create does."""
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    await play_hand(bot, table_id(bot, double), (alice, bob), auto)
    over = await double.wait_for_message(lambda m: m.embed is not None
                                         and m.embed["title"] == "Match over")
    balance = (await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)).balance
    (role,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    await double.set_permissions(double.channel, role, deny=ATTACH_FILES)

    before = alice.last_ephemeral()
    await alice.click(over, "Rematch")
    answer = await alice.wait_for_ephemeral(after=before)
    assert answer.embed is not None
    assert "**Attach Files**" in answer.embed["description"]
    assert "No chips were taken." in answer.embed["description"]
    assert bot.tables.table_for_channel(double.channel.id) is None
    after = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)
    assert after.balance == balance


async def test_two_rematch_clicks_at_once_open_one_table_and_seat_both(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """The first click opens the rematch, the other sits down at it, whichever comes first:
    neither is told the channel already has a table."""
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    await play_hand(bot, table_id(bot, double), (alice, bob), auto)
    over = await double.wait_for_message(lambda m: m.embed is not None
                                         and m.embed["title"] == "Match over")
    before = {m.id: m.last_ephemeral() for m in (alice, bob)}
    await asyncio.gather(alice.click(over, "Rematch"), bob.click(over, "Rematch"))
    answers = [await m.wait_for_ephemeral(after=before[m.id]) for m in (alice, bob)]
    assert [a.embed for a in answers] == [None, None], answers  # no refusal
    rematch = table_id(bot, double)
    await double.wait_until(lambda: all(bot.tables.lobby(rematch).seated(m.id)
                                        for m in (alice, bob)), what="both seated")


async def test_a_closed_table_leaves_no_outbox_behind(double: DiscordDouble, bot: OFCBot,
                                                      alice: Member, bob: Member) -> None:
    """The presenter keeps one outbox per table while it has messages to send; a closed
    table's is dropped once its last messages are sent, so a bot running for weeks does not
    keep one for every table it ever showed."""
    await started(double, alice, bob, format="hands", hands=1, fantasy="off")
    table = table_id(bot, double)
    presenter = bot.get_cog("TablePresenter")
    assert presenter is not None and table in presenter.outboxes  # type: ignore[attr-defined]
    await bot.tables.cancel(table, alice.id)  # the hand completed, then the table closed
    await bot.tables.idle()
    await presenter.drain()  # type: ignore[attr-defined]
    assert bot.tables.live_tables() == []
    assert table not in presenter.outboxes  # type: ignore[attr-defined]
