"""/ofc history (with its select menus) and /ofc stats as members use them, through the real
bot and the local Discord double, on matches recorded in a real SQLite file as the table
service records them."""

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import ratings
from bot.app import OFCBot
from bot.engine.match import Match, PlayerSpec
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.storage import HandRecord, PlayerHandResult, Storage
from cogs.common.format import row_label
from tests.cogs.conftest import dump, text
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.discord_double.components import walk

T0 = 1_700_000_000.0
DAY = 86_400.0
CHANNEL = 222_222_222_222_222_222  # where the recorded matches were played
OTHER_GUILD = 111_111_111_111_111_222
STRING_SELECT = 3


async def record_match(storage: Storage, hands: Sequence[Sequence[PlayerHandResult]],
                       winners: Sequence[int], *, guild: int, start: float = T0,
                       options: dict[str, object] | None = None,
                       history_json: str = "{}", cancelled: bool = False,
                       lent: bool = False) -> int:
    """A finished match as the table service records it: options, hands, winners (none when
    `cancelled`, as /ofc cancel ends it)."""
    table = await storage.tables.create_table(guild, CHANNEL, "{}", now=start, lent=lent)
    rules = TableRules.from_mapping(options or {})
    players = sorted({r.user_id for hand in hands for r in hand})
    match_id = await storage.history.record_match_start(
        table, json.dumps(rules.to_dict()), players, now=start)
    for number, results in enumerate(hands, start=1):
        await storage.history.record_hand(
            HandRecord(match_id, number, history_json, tuple(results)), now=start + number)
    await storage.history.record_match_end(match_id, winners, now=start + 100,
                                           cancelled=cancelled)
    await storage.tables.close_table(table, now=start + 100)
    return match_id


def line(user: Member | int, points: int, chips: int, **flags: object) -> PlayerHandResult:
    user_id = user if isinstance(user, int) else user.id
    return PlayerHandResult(user_id, points, chips, **flags)  # type: ignore[arg-type]


def match_1(alice: Member, bob: Member) -> list[list[PlayerHandResult]]:
    """Hand-chosen results, Alice wins: hand 1 Alice +7 with 4 in royalties, a scoop, and
    Fantasyland earned; hand 2 Alice plays it, stays, 12 in royalties, Bob fouls."""
    return [
        [line(alice, 7, 7, royalties=4, fantasy_entered=True, scoops=1), line(bob, -7, -7)],
        [line(alice, 15, 15, royalties=12, in_fantasy=True, fantasy_stayed=True),
         line(bob, -15, -15, fouled=True)],
    ]


def match_2(alice: Member, bob: Member) -> list[list[PlayerHandResult]]:
    """Bob wins, 2 chips a point: Alice fouls and loses 6 points."""
    return [[line(alice, -6, -12, fouled=True), line(bob, 6, 12, royalties=2)]]


def menu(message: Message) -> dict[str, Any]:
    """The message's one select menu, as Discord stores it."""
    (found,) = [c for c in walk(message.components) if c.get("type") == STRING_SELECT]
    return found


def fields(message: Message) -> dict[str, str]:
    assert message.embed is not None
    return {f["name"]: f["value"] for f in message.embed.get("fields", [])}


async def test_stats_counts_and_rates_by_hand(double: DiscordDouble, bot: OFCBot,
                                              alice: Member, bob: Member) -> None:
    guild = double.guild.id
    await record_match(bot.storage, match_1(alice, bob), [alice.id], guild=guild)
    await record_match(bot.storage, match_2(alice, bob), [bob.id], guild=guild,
                       start=T0 + DAY, options={"point_value": 2})
    shown = await double.resolved(await alice.slash("ofc stats"))
    assert shown.ephemeral
    # Ratings: Alice first then Bob first, each from the model's update (tests/ratings).
    after_1 = ratings.rate([ratings.DEFAULT, ratings.DEFAULT], [1, 2])
    rated_alice, rated_bob = ratings.rate(after_1, [2, 1])
    rank = 1 if rated_alice.shown >= rated_bob.shown else 2
    # 3 hands: 7 + 15 - 6 = 16 points (5.33 a hand), 7 + 15 - 12 = 10 chips; 1 of 2 matches;
    # 1 foul in 3 hands; 1 entry in 2 hands outside Fantasyland; 1 stay in 1 FL hand. The
    # server's 6 hands: 2 fouls (33%), 1 entry in 5 hands outside it (20%), 16 + 2 royalties.
    assert fields(shown) == {
        "Rating": f"{rated_alice.shown:,} (#{rank} of 2)",
        "Net points, last 2 matches": "+16",
        "Server average": "Fouls 33%, Fantasyland entries 20%, royalties 3.0 a hand",
        "Hands played": "3",
        "Net points": "+16 (+5.33 a hand)",
        "Net chips": "+10",
        "Matches won": "1 of 2 (50%)",
        "Fouls": "1 (33% of hands)",
        "Fantasyland entries": "1 (50% of normal hands)",
        "Fantasyland stays": "1 of 1 (100%)",
        "Scoops": "1",
        "Best royalties": "12 in one hand",
    }
    assert [a.filename for a in shown.attachments] == ["stats.png"]
    assert shown.embed_image().startswith(b"\x89PNG")  # the embed shows that image
    of_bob = fields(await double.resolved(await alice.slash("ofc stats", member=bob)))
    assert (of_bob["Net points"], of_bob["Fouls"], of_bob["Matches won"]) == (
        "-16 (-5.33 a hand)", "1 (33% of hands)", "1 of 2 (50%)")


async def test_stats_of_a_newcomer(double: DiscordDouble, bot: OFCBot, bob: Member) -> None:
    shown = await double.resolved(await bob.slash("ofc stats"))
    assert "has not played a hand here yet" in text(shown)
    assert not fields(shown)


async def test_history_lists_matches_newest_first_with_the_hands_behind_menus(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    guild = double.guild.id
    first = await record_match(bot.storage, match_1(alice, bob), [alice.id], guild=guild)
    second = await record_match(bot.storage, match_2(alice, bob), [bob.id], guild=guild,
                                start=T0 + DAY, options={"point_value": 2, "variant": "turbo"})
    listed = await double.resolved(await alice.slash("ofc history"))
    assert listed.ephemeral and listed.embed is not None
    newest, oldest = listed.embed["fields"]
    assert newest["name"] == f"Match #{second}: lost"
    assert f"<t:{int(T0 + DAY)}:d>" in newest["value"]
    assert "Turbo · 1-6 · american royalties · Turbo Fantasyland · 2 chips a point" \
        in newest["value"]
    assert "place 2 of 2 · -6 points · -12 chips · 1 hand" in newest["value"]
    assert oldest["name"] == f"Match #{first}: won"
    assert "place 1 of 2 · +22 points · +22 chips · 2 hands" in oldest["value"]

    matches = menu(listed)
    assert matches["custom_id"] == f"ofc:hist:{alice.id}"  # the match picker
    assert [o["value"] for o in matches["options"]] == [str(second), str(first)]
    hands = await double.resolved(await alice.select(listed, str(first)))
    assert hands.ephemeral and hands.embed is not None
    assert hands.embed["title"] == f"Match #{first}"
    assert [f["name"] for f in hands.embed["fields"]] == ["Hand 1", "Hand 2"]
    assert f"{alice.mention}: +7 points · +7 chips · royalties 4 · enters Fantasyland" \
        in hands.embed["fields"][0]["value"]
    assert f"{bob.mention}: -15 points · -15 chips · **fouled**" \
        in hands.embed["fields"][1]["value"]
    hand_menu = menu(hands)
    assert hand_menu["custom_id"] == f"ofc:histhand:{alice.id}:{first}"  # the hand picker
    assert [o["value"] for o in hand_menu["options"]] == ["1", "2"]


async def test_a_hand_shows_the_boards_of_its_showdown(double: DiscordDouble, bot: OFCBot,
                                                       alice: Member, bob: Member) -> None:
    """A hand played by the engine (seeded, random legal placements), recorded with the
    history the table service stores: the detail shows the boards of its showdown event."""
    rules = TableRules.from_mapping({"seats": 2})
    match = Match.new(rules, [PlayerSpec(alice.id, "Alice", 200),
                              PlayerSpec(bob.id, "Bob", 200)], seed=5)
    match.start_hand(T0)
    rng = random.Random(5)
    while match.phase == "playing":
        for seat in match.pending():
            match.place(seat, match.random_assignment(seat, rng), T0)
    shown = match.showdown
    assert shown is not None
    results = [line(alice if s.seat == 0 else bob, s.points, s.chips, fouled=s.fouled,
                    royalties=sum(s.royalties)) for s in shown.seats]
    match_id = await record_match(bot.storage, [results], [], guild=double.guild.id,
                                  history_json=json.dumps(match.history()))

    listed = await double.resolved(await bob.slash("ofc history"))
    hands = await double.resolved(await bob.select(listed, str(match_id)))
    detail = await double.resolved(await bob.select(hands, "1"))
    assert detail.embed is not None
    assert detail.embed["title"] == f"Match #{match_id}, hand 1"
    assert [f["name"] for f in detail.embed["fields"]] == ["Alice", "Bob"]
    for seat, field in zip(shown.seats, detail.embed["fields"], strict=True):
        for row, cards, name in zip(ROWS, seat.board.rows, seat.names, strict=True):
            # sorted as the hand they make
            assert f"{row.capitalize()}: {row_label('en-US', row, cards)}: {name}" \
                in field["value"]
        assert f"{seat.points:+d} points" in field["value"]


async def test_menus_refuse_a_match_of_another_server_or_a_forged_choice(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path) -> None:
    """What only a modified client sends: menu choices that were never offered."""
    storage = bot.storage
    elsewhere = await record_match(storage, match_1(alice, bob), [alice.id], guild=OTHER_GUILD)
    here = await record_match(storage, match_2(alice, bob), [bob.id], guild=double.guild.id)
    listed = await double.resolved(await alice.slash("ofc history"))
    hands = await double.resolved(await alice.select(listed, str(here)))
    before = dump(db_path)
    not_here = f"Match #{elsewhere} is not among that member's matches in this server."
    for shown, custom_id, value, message in [
        (listed, f"ofc:hist:{alice.id}", str(elsewhere), not_here),
        # A hand picker no message here carries: refused before any match is read.
        (hands, f"ofc:histhand:{alice.id}:{elsewhere}", "1", "That control is not valid."),
        (listed, f"ofc:hist:{alice.id}", "1; DROP TABLE", "That menu choice is not valid."),
        (hands, f"ofc:histhand:{alice.id}:{here}", "9", f"Match #{here} has no hand 9."),
    ]:
        refused = await double.resolved(await alice.forge(
            shown, custom_id, component_type=STRING_SELECT, values=[value]))
        assert refused.ephemeral and refused.embed is not None
        assert refused.embed["description"] == message
    assert dump(db_path) == before


async def test_history_of_a_member_without_matches(double: DiscordDouble, bot: OFCBot,
                                                   alice: Member, bob: Member) -> None:
    shown = await double.resolved(await alice.slash("ofc history", member=bob))
    assert "has not played a match in this server yet" in text(shown)
    assert not [c for c in walk(shown.components) if c.get("type") == STRING_SELECT]


async def test_the_match_menu_speaks_the_members_language(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """Each option's line under the match's number ("2 hands · +22 chips") in Russian for a
    Russian client, the count in its plural (CLDR: 2 is "few", раздачи), as the embed is."""
    guild = double.guild.id
    first = await record_match(bot.storage, match_1(alice, bob), [alice.id], guild=guild)
    alice.locale = "ru"
    listed = await double.resolved(await alice.slash("ofc history"))
    (option,) = menu(listed)["options"]
    assert option["value"] == str(first)
    assert option["description"] == "2 раздачи · +22 фишки"


LEVEL = "level"  # a match each player ended level: net 0 chips, +3 then -3


@pytest.mark.parametrize(("how", "en", "ru"), [("cancelled", "cancelled", "отменён"),
                                                (LEVEL, "tied", "ничья")])
async def test_history_shows_a_match_neither_won_nor_lost_as_what_it_was(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, how: str, en: str,
        ru: str) -> None:
    """A cancelled match (/ofc cancel, or a table refunded) was neither won nor lost, and a
    match ended level has no winner while neither lost a chip: both players see which."""
    if how == LEVEL:
        match = await record_match(bot.storage, [[line(alice, 3, 3), line(bob, -3, -3)],
                                                 [line(alice, -3, -3), line(bob, 3, 3)]],
                                   [], guild=double.guild.id)
    else:
        match = await record_match(bot.storage, match_2(alice, bob), [],
                                   guild=double.guild.id, cancelled=True)
    for member in (alice, bob):
        listed = await double.resolved(await member.slash("ofc history"))
        assert list(fields(listed)) == [f"Match #{match}: {en}"]
    alice.locale = "ru"
    shown = await double.resolved(await alice.slash("ofc history"))
    assert list(fields(shown)) == [f"Матч №{match}: {ru}"]


async def test_history_gives_equal_points_one_place(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """Equal points share a place, as they do in the rating (docs/players/ratings.md): each
    of two players level after two hands is "place 1 of 2"."""
    await record_match(bot.storage, [[line(alice, 3, 3), line(bob, -3, -3)],
                                      [line(alice, -3, -3), line(bob, 3, 3)]],
                       [], guild=double.guild.id)
    for member in (alice, bob):
        (value,) = fields(await double.resolved(await member.slash("ofc history"))).values()
        assert value.splitlines()[1].startswith("place 1 of 2 · +0 points · +0 chips")


async def test_large_numbers_are_grouped_as_the_reader_groups_them(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """1,234 points at 1,000 chips a point: every count and net in /ofc stats and /ofc history
    grouped as elsewhere ("2,000 chips"), in Russian with its no-break spaces."""
    await record_match(bot.storage, [[line(alice, 1200, 1_200_000), line(bob, -1200, -1_200_000)],
                                     [line(alice, 34, 34_000), line(bob, -34, -34_000)]],
                       [alice.id], guild=double.guild.id, options={"point_value": 1000})
    shown = fields(await double.resolved(await alice.slash("ofc stats")))
    assert (shown["Net points, last 1 match"], shown["Net points"], shown["Net chips"]) == (
        "+1,234", "+1,234 (+617.00 a hand)", "+1,234,000")
    (listed,) = fields(await double.resolved(await alice.slash("ofc history"))).values()
    assert "place 1 of 2 · +1,234 points · +1,234,000 chips · 2 hands" in listed
    alice.locale = "ru"
    for command in ("ofc stats", "ofc history"):
        shown_ru = "\n".join(fields(await double.resolved(await alice.slash(command))).values())
        assert "+1\xa0234\xa0000" in shown_ru and "+1\xa0234" in shown_ru.replace(
            "+1\xa0234\xa0000", "")


async def test_a_tournament_tables_chips_are_marked_and_left_out_of_net_chips(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    """A tournament's table plays with chips the house lends (docs/players/tournaments.md):
    /ofc history says so, and /ofc stats' net chips, what play brought the wallet, leave them
    out; the hands count as any other."""
    guild = double.guild.id
    await record_match(bot.storage, match_2(alice, bob), [bob.id], guild=guild)
    tournament = await record_match(bot.storage, [[line(alice, 25, 5000), line(bob, -25, -5000)]],
                                    [alice.id], guild=guild, start=T0 + DAY, lent=True)
    shown = fields(await double.resolved(await alice.slash("ofc stats")))
    assert (shown["Hands played"], shown["Net points"], shown["Net chips"]) == (
        "2", "+19 (+9.50 a hand)", "-12")
    listed = fields(await double.resolved(await alice.slash("ofc history")))
    assert "place 1 of 2 · +25 points · +5,000 tournament chips · 1 hand" in \
        listed[f"Match #{tournament}: won (tournament)"]
