"""R10 through the real bot: a member who never clicks is placed for when the turn runs out
(short turns, no time bank, a fake clock), placed for at once from then on, and sits out
after the hand with their stack back in the wallet; the others play on."""

import asyncio

from bot.app import OFCBot
from bot.tables import FakeClock
from tests.e2e import breakdowns
from tests.e2e.discord_double import PATIENCE, DiscordDouble, Member, Message
from tests.e2e.flows import (
    RESULT,
    check_wallets,
    description,
    match_over,
    open_table,
    play_out,
    play_until,
    seats_of,
    seed_decks,
    title,
    waiting_for,
)
from tests.e2e.privacy import PrivacyWatch

TURN_SECONDS = 10  # the shortest turn /ofc create allows
SEED = 5  # a fixed deck; the button is carol's seat, so she acts last on every street (R7)


async def run_out_clock_for(double: DiscordDouble, clock: FakeClock, table: Message,
                            name: str) -> None:
    """Whenever the table waits for `name`, let the turn time pass (nobody else waits then:
    the order is sequential, R7), until the match is over (once `name` sits out her turn never
    comes again, however long the others take on a busy machine)."""
    while True:
        await double.wait_until(lambda: name in waiting_for(table) or match_over(double),
                                what=f"{name}'s turn or the match's end")
        if match_over(double):
            return
        shown = len(table.history)
        await clock.advance(TURN_SECONDS)
        await double.wait_until(lambda shown=shown: len(table.history) > shown,
                                what="the table redrawn")


async def test_a_member_who_never_clicks_is_placed_for_and_sits_out(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        clock: FakeClock, watch: PrivacyWatch) -> None:
    seed_decks(bot, SEED)
    table = await open_table(double, alice, bob, carol, seats=3, format="hands", hands=2,
                             fantasy="off", turn_seconds=TURN_SECONDS, time_bank_seconds=0)
    idle = asyncio.create_task(run_out_clock_for(double, clock, table, "Carol"))
    try:
        await play_out(double, table, seats_of((alice, bob)))
    finally:
        await asyncio.wait({idle}, timeout=PATIENCE)
        idle.cancel()
    await idle  # it ended on its own at the match's end (or raises what went wrong)
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]

    # Her first prompt becomes the record of street 1 and says time ran out; each later
    # street's prompt reaches her while the others act (an away seat is then placed the
    # moment its turn begins) and takes over the way back from the one before (one per
    # table); the last, still open when she sat out, loses it then and says so (no way back
    # to a table of hands: only a cash table seats a player again).
    first, *later = [m for m in carol.dms() if RESULT not in title(m)]  # her prompts
    assert len(later) == 4
    assert "Time ran out: your cards were placed for you." in description(first)
    assert [title(p) for p in later] == [f"Hand 1: street {n} placed" for n in range(2, 6)]
    assert description(later[-1]).endswith(" chips went back to your wallet.")
    assert "You sat out (away): " in description(later[-1])
    # Only street 1 ran out of time: the later ones were placed because she was away.
    assert not any("Time ran out" in description(p) for p in later)
    assert not any("I'm back" in description(p) or p.labels() for p in (first, *later))
    assert all(title(p).startswith("Hand 1") for p in carol.dms())  # none in hand 2
    assert not [i for i in double.state.interactions.values()
                if i.user.id == carol.id and i.channel is carol.dm_channel]  # never clicked

    sat_out = [m.content for m in double.messages() if m.content.startswith(carol.mention)]
    assert len(sat_out) == 1 and "sat out (away)" in sat_out[0]
    hands = [breakdowns.read(m) for m in breakdowns.posted(double.messages())]
    assert [sorted(h.seats) for h in hands] == [["Alice", "Bob", "Carol"], ["Alice", "Bob"]]
    carol_stack = hands[0].seats["Carol"].stack
    assert f"{carol_stack} chips went back to the wallet" in sat_out[0]
    stacks = await check_wallets(double, (alice, bob, carol))
    assert stacks["Carol"] == carol_stack
    # Nobody saw the cards the clock placed or discarded for her, nor she theirs (R7).
    assert watch.problems(double, double.channel, (alice, bob, carol)) == []


async def carol_times_out(double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
                          carol: Member, clock: FakeClock) -> Message:
    """A three-seat table where Carol's street 1 runs out (no time bank): she is marked away."""
    seed_decks(bot, SEED)
    table = await open_table(double, alice, bob, carol, seats=3, format="hands", hands=2,
                             fantasy="off", turn_seconds=TURN_SECONDS, time_bank_seconds=0)
    await play_until(double, table, seats_of((alice, bob)),
                     lambda: True if "Carol" in waiting_for(table) else None)
    await clock.advance(TURN_SECONDS)
    return table


async def test_only_the_latest_prompt_of_an_away_player_offers_the_way_back(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        clock: FakeClock) -> None:
    """Carol's street 1 runs out: its prompt becomes its record with "I'm back". Once her
    street 2 prompt comes (offering it in turn), the record loses the button and the away
    line that pointed to it: one way back per table, on the newest prompt, and it works."""
    await carol_times_out(double, bot, alice, bob, carol, clock)

    def prompts() -> list[Message]:
        return [m for m in carol.dms() if RESULT not in title(m)]

    await double.wait_until(lambda: len(prompts()) == 2, what="Carol's street 2 prompt")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    first, second = prompts()
    assert title(first) == "Hand 1: street 1 placed"
    assert "Time ran out: your cards were placed for you." in description(first)
    assert "I'm back" not in description(first) and first.labels() == []
    assert "You are marked away" in description(second) and "I'm back" in second.labels()
    await double.resolved(await carol.click(second, "I'm back"))
    await double.wait_until(lambda: "You are marked away" not in description(second),
                            what="Carol back")


async def test_my_hand_keeps_a_working_way_back_once_the_player_is_back(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        clock: FakeClock) -> None:
    """Away, Carol opens "My hand" (it offers "I'm back", as her newest DM prompt does), then
    comes back through the DM prompt. The "My hand" message's "I'm back" is still on her
    screen (Discord lets the bot edit it only for a while): clicking it shows her action to
    play, as the prompt's did, rather than refusing with "You are not marked away." while the
    message says she is; and it acts once: her DM prompt keeps its controls."""
    table = await carol_times_out(double, bot, alice, bob, carol, clock)
    await double.wait_until(lambda: len(carol.dms()) == 2, what="Carol's street 2 prompt")
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]
    prompt = carol.dms()[-1]
    assert "You are marked away" in description(prompt)
    mine = await double.resolved(await carol.click(table, "My hand"))
    assert "You are marked away" in description(mine) and mine.labels() == ["I'm back"]

    await double.resolved(await carol.click(prompt, "I'm back"))
    await double.wait_until(lambda: "Confirm" in prompt.labels(), what="Carol back")

    def answers() -> list[str]:  # the refusals told to Carol since (ephemeral embeds)
        return [description(m) for m in carol.ephemerals() if m.id > mine.id]

    await carol.click(mine, "I'm back")
    await double.wait_until(lambda: "You are marked away" not in description(mine)
                            or answers(), what="the My hand redrawn, or a refusal")
    assert answers() == []
    assert "Confirm" in mine.labels() and title(mine) == title(prompt)
    assert "Confirm" in prompt.labels()
