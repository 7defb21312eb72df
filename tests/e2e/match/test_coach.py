"""The coach end to end, through the real bot and the Discord double: a member opens
`/ofc practice`, plays a hand in its thread by pressing Suggest and Confirm on each street,
then goes over it with `/ofc review` (and Review under the hand in `/ofc history`); nothing
touched their wallet, and the practice is not in their stats. At a table with hints off there
is no Suggest, and a forged one is refused."""

import re

from bot.app import OFCBot
from bot.engine.cards import Card
from bot.tables.play import HINTS_OFF
from cogs.common.format import cards_label
from cogs.economy.embeds import placement_line
from tests.cogs.conftest import buttons, enabled
from tests.e2e.discord_double import Channel, DiscordDouble, Member, Message
from tests.e2e.flows import (
    STARTING,
    Seat,
    act,
    action_of,
    balance,
    chosen_row,
    confirm,
    dealt,
    description,
    match_over,
    open_table,
    ready,
    title,
)
from tests.e2e.privacy import PrivacyWatch

LONG = 120.0  # a strong suggestion thinks for a second; a review for a few


async def _practice_thread(double: DiscordDouble, member: Member, hands: int = 1) -> Channel:
    answer = await double.resolved(await member.slash("ofc practice", level="easy",
                                                      hands=hands), timeout=LONG)
    assert answer.ephemeral and "no chips at stake" in str(answer.content)
    found = re.search(r"<#(\d+)>", str(answer.content))
    assert found is not None
    thread = double.state.channels[int(found[1])]
    assert thread.parent_id == double.channel.id
    return thread


async def _play_with_suggest(double: DiscordDouble, member: Member,
                             thread: Channel) -> list[tuple[list[Card], dict[Card, str]]]:
    """Each street: Suggest, wait for the draft, Confirm; the cards dealt and the rows drafted
    as the prompt showed them. A Fantasyland hand takes Solve (R8)."""
    seat = Seat(member)
    played = []
    while True:
        prompt = await double.wait_until(
            lambda: match_over(double, thread) or (p if ready(p := seat.prompt()) else None),
            timeout=LONG, what="a street or the end")
        if not isinstance(prompt, Message) or title(prompt) == "Match over":
            return played
        seat.done.add(str(action_of(prompt)))
        # The DM says so: each action's record names the practice table.
        records = [m for m in member.dms() if " placed" in title(m)]
        assert all("practice" in str(m.embed["author"]["name"])  # type: ignore[index]
                   for m in records)
        if "Suggest" not in prompt.labels():
            await act(double, member, prompt, timeout=LONG)
            continue
        await member.click(prompt, "Suggest")
        await double.wait_until(lambda p=prompt: enabled(p, "Confirm"), timeout=LONG,
                                what="the suggestion drafted")
        cards = dealt(prompt)
        draft = {c: chosen_row(prompt, c) or "discard" for c in cards}
        assert sum(1 for r in draft.values() if r != "discard") == (5 if len(cards) == 5 else 2)
        played.append((cards, draft))
        await confirm(double, member, prompt, timeout=LONG)


async def test_practice_with_suggest_then_review_the_hand(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member,
        watch: PrivacyWatch) -> None:
    # The server plays without Fantasyland: the practice is its one hand (R11).
    await bot.storage.settings.update_guild_settings(double.guild.id, actor_id=alice.id, now=0.0,
                                                     table_options={"fantasy": "off"})
    thread = await _practice_thread(double, alice)
    table = await double.wait_for_message(lambda m: "My hand" in m.labels(), channel=thread,
                                          timeout=LONG)
    assert "**Practice**" in description(table) and "**Hints on**" in description(table)
    streets = await _play_with_suggest(double, alice, thread)
    assert len(streets) == 5
    over = match_over(double, thread)
    assert over is not None and "Practice over" in description(over)
    assert "Rematch" not in over.labels()
    assert await balance(double, alice) == STARTING  # play chips: the wallet never moved
    assert watch.count("private") and watch.problems(double, thread, (alice,)) == []
    stats = await double.resolved(await alice.slash("ofc stats"))
    assert "has not played a hand here yet" in description(stats)

    reviewed = await double.resolved(await alice.slash("ofc review"), timeout=LONG)
    assert reviewed.ephemeral and reviewed.visible_to == alice.id
    found = re.fullmatch(r"Review: match #(\d+), hand 1 \(practice\)", title(reviewed))
    assert found is not None
    fields = reviewed.embed["fields"]
    for number, ((cards, draft), field) in enumerate(zip(streets, fields, strict=False), 1):
        assert field["name"] == f"Street {number}: {cards_label('en-US', cards)}"
        assert field["value"].splitlines()[0] == f"You: {placement_line('en-US', draft)}"
    assert fields[5]["name"] == "Your board"

    # Bob did not play that hand: refused.
    refused = await double.resolved(await bob.slash("ofc review", hand=f"{found[1]}-1"))
    assert refused.ephemeral and description(refused) == (
        f"You did not play hand 1 of match #{found[1]} in this server.")

    # /ofc history -> the match -> the hand -> Review: the same review.
    listed = await double.resolved(await alice.slash("ofc history"))
    assert "(practice)" in listed.embed["fields"][0]["name"]
    hands = await double.resolved(await alice.select(listed, found[1]))
    shown = await double.resolved(await alice.select(hands, "1"))
    again = await double.resolved(await alice.click(shown, "Review with the strong computer"),
                                  timeout=LONG)
    assert again.embed["fields"] == reviewed.embed["fields"]


async def test_no_suggest_where_hints_are_off_and_a_forged_one_is_refused(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        bob: Member) -> None:
    table = await open_table(double, alice, computers=("easy",), seater=croupier, seats=2,
                             format="hands", hands=1, fantasy="off")
    assert "Hints on" not in description(table)
    seat = Seat(alice)
    prompt = await double.wait_until(lambda: p if ready(p := seat.prompt()) else None,
                                     what="Alice's turn")
    assert "Suggest" not in buttons(prompt)
    forged = str(action_of(prompt)).replace("ofc:confirm:", "ofc:suggest:")
    before = alice.last_ephemeral()
    await alice.forge(prompt, forged)
    answer = await alice.wait_for_ephemeral(lambda m: m.embed is not None, after=before)
    assert description(answer) == str(HINTS_OFF)
    assert not any(chosen_row(prompt, c) for c in dealt(prompt))  # nothing was drafted


async def test_a_practice_lobby_states_play_chips_and_no_wallet_buy_in(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    """The practice table's lobby message (kept in its thread for the whole match) states its
    buy-in in play chips, as its seats do, and never tells to Join with a buy-in that leaves
    the wallet: the bot seats and starts a practice itself. Its match over counts play chips.
    Its two hands take ten Suggests or more while the clock stands still: the first of each
    street is never slowed (6 a minute count only the presses again)."""
    thread = await _practice_thread(double, alice, hands=2)
    lobby = await double.wait_for_message(
        lambda m: title(m).startswith("Practice table"), channel=thread, timeout=LONG)
    for version in [*lobby.history, lobby]:
        (embed,) = version.embeds
        assert "Buy-in 200 play chips," in str(embed["description"])
        assert "wallet;" not in str(embed)
    # The match over says play chips too, as its last line does.
    await _play_with_suggest(double, alice, thread)
    over = match_over(double, thread)
    assert over is not None
    assert re.match(r"1\. .+: \d+ play chips \([+-]\d+\)\n2\. .+: \d+ play chips \(",
                    description(over))


async def test_a_practice_cancelled_says_no_wallet_changed(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    """/ofc cancel in a practice's thread, with hands still to play: the answer and the
    thread's line say the table is closed and that its play chips changed no wallet (not that
    every stack went back to its wallet), and the wallet is indeed as it was."""
    thread = await _practice_thread(double, alice, hands=5)
    await double.wait_for_message(lambda m: "My hand" in m.labels(), channel=thread,
                                  timeout=LONG)
    answer = await double.resolved(await alice.slash("ofc cancel", channel=thread),
                                   timeout=LONG)
    said = "The practice table is closed: these were play chips, no wallet changed."
    assert answer.content == said
    await double.wait_for_message(lambda m: m.content == said, channel=thread, timeout=LONG)
    assert not [m for m in double.messages(thread) if "wallets" in m.content]
    assert await balance(double, alice) == STARTING
