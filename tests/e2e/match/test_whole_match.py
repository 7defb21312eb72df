"""Three members play a whole `match` (R11) through the real bot, by clicking their DM
buttons: a planned Fantasyland (R8), its Fantasyland hand, showdowns whose arithmetic is
checked by the rules, wallets that end as the showdowns say, and no card shown to anyone
who may not see it (R7, R8) in any message, embed or image along the way."""

from collections.abc import Mapping

from bot.app import OFCBot
from bot.engine.cards import Card, parse_cards
from tests.e2e import breakdowns
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.flows import (
    check_wallets,
    description,
    display_name,
    open_table,
    play_out,
    seats_of,
    seed_decks,
    title,
)
from tests.e2e.privacy import PrivacyWatch

# Seed 17 at a 3-seat table: the button is seat 2 (carol), so alice (seat 0) acts first, and
# hand 1 deals her Kh Qc Jc Tc 9h / 3h 3c 5h / 8d 8h 7s / Qs 6h 3d / Jh 6d 5d. This plan
# (checked by hand) keeps QQ on top with two pair in the middle and a straight below:
# bottom (straight) >= middle (two pair) >= top (a pair), so the board stands (R3) and QQ on
# top earns a 14-card Fantasyland (R8, standard).
SEED = 17
PLAN = {"top": "Kh Qc Qs", "middle": "Jc 3c 5h 3d 5d", "bottom": "Tc 9h 8h 7s 6d",
        "discard": "3h 8d 6h Jh"}
ALICE_HAND_1 = {card: row for row, text in PLAN.items() for card in parse_cards(text)}


def planned(member: Member, prompt: Message) -> Mapping[Card, str] | None:
    if member.name == "alice" and title(prompt).startswith("Hand 1 of 3 · street"):
        return ALICE_HAND_1
    return None


async def test_three_members_play_a_match_with_fantasyland_to_settled_wallets(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, carol: Member,
        watch: PrivacyWatch) -> None:
    seed_decks(bot, SEED)
    members = (alice, bob, carol)
    table = await open_table(double, alice, bob, carol, seats=3)  # format: match (default)
    over = await play_out(double, table, seats_of(members), planned)

    showdowns = breakdowns.posted(double.messages())
    first = breakdowns.read(showdowns[0])
    assert first.seats["Alice"].fantasy_next == 14 and not first.seats["Alice"].fouled
    assert first.seats["Alice"].royalties == 7 + 2  # QQ on top (R4: 12 - 5), a straight
    (fantasy,) = [m for m in alice.dms() if "Fantasyland" in title(m)]
    assert fantasy.history[0].embeds[0]["title"] == "Hand 2 of 4 · Fantasyland"
    assert title(fantasy) == "Hand 2: your Fantasyland hand placed"  # the DM keeps the record
    # R11: one hand per player (3), plus one Fantasyland hand per hand that earned one.
    earned = sum(1 for m in showdowns[:-1]
                 if any(s.fantasy_next for s in breakdowns.read(m).seats.values()))
    assert len(showdowns) == 3 + earned

    stacks = await check_wallets(double, members)
    assert all(f"{display_name(m)}: {stacks[display_name(m)]} chips" in description(over)
               for m in members)

    # Privacy (R7, R8), by the view behind every image and the text of every message.
    assert watch.problems(double, double.channel, members) == []
    assert watch.count("table") > 20 and watch.count("showdown") == len(showdowns)
    assert watch.count("table", hidden_fantasy=True) > 0  # hand 2: alice's board set, face down
