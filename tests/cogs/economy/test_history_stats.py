"""/history (with its select menus) and /stats on recorded matches in a real SQLite file."""

import json
import random
from collections.abc import Sequence
from pathlib import Path

from bot import ratings
from bot.engine.match import Match, PlayerSpec
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.storage import HandRecord, PlayerHandResult, Storage
from cogs.common.format import row_label
from cogs.economy.past_play import HandPicker, MatchPicker, history, stats
from tests.cogs.economy.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    T0,
    Invoke,
    User,
    dump,
    run,
)
from tests.cogs.economy.doubles import Interaction

DAY = 86_400.0


async def record_match(storage: Storage, hands: Sequence[Sequence[PlayerHandResult]],
                       winners: Sequence[int], *, guild: int = GUILD, start: float = T0,
                       options: dict[str, object] | None = None,
                       history_json: str = "{}") -> int:
    """A finished match as the table service records it: options, hands, winners."""
    table = await storage.tables.create_table(guild, CHANNEL, "{}", now=start)
    rules = TableRules.from_mapping(options or {})
    players = sorted({r.user_id for hand in hands for r in hand})
    match_id = await storage.history.record_match_start(
        table, json.dumps(rules.to_dict()), players, now=start)
    for number, results in enumerate(hands, start=1):
        await storage.history.record_hand(
            HandRecord(match_id, number, history_json, tuple(results)), now=start + number)
    await storage.history.record_match_end(match_id, winners, now=start + 100)
    await storage.tables.close_table(table, now=start + 100)
    return match_id


def line(user: User | int, points: int, chips: int, **flags: object) -> PlayerHandResult:
    user_id = user if isinstance(user, int) else user.id
    return PlayerHandResult(user_id, points, chips, **flags)  # type: ignore[arg-type]


# Hand-chosen results. Match 1 (Alice wins): hand 1 Alice +7 with 4 in royalties, a scoop,
# and Fantasyland earned; hand 2 Alice plays it, stays, 12 in royalties, Bob fouls.
# Match 2 (Bob wins, 2 chips a point): Alice fouls and loses 6 points.
MATCH_1 = [
    [line(ALICE, 7, 7, royalties=4, fantasy_entered=True, scoops=1), line(BOB, -7, -7)],
    [line(ALICE, 15, 15, royalties=12, in_fantasy=True, fantasy_stayed=True),
     line(BOB, -15, -15, fouled=True)],
]
MATCH_2 = [[line(ALICE, -6, -12, fouled=True), line(BOB, 6, 12, royalties=2)]]


def pick(item: MatchPicker | HandPicker, interaction: Interaction, value: str) -> None:
    """What discord.py does with a select interaction's data before the callback."""
    item.item._refresh_state(interaction, {"values": [value]})  # type: ignore[arg-type]


async def test_stats_counts_and_rates_by_hand(invoke: Invoke, storage: Storage) -> None:
    await record_match(storage, MATCH_1, [ALICE.id])
    await record_match(storage, MATCH_2, [BOB.id], start=T0 + DAY, options={"point_value": 2})
    interaction = invoke(ALICE)
    await run(stats, interaction)
    answer = interaction.answer
    assert answer.ephemeral
    fields = {f.name: f.value for f in answer.embed.fields}
    # Ratings: Alice first then Bob first, each from the model's update (tests/ratings).
    after_1 = ratings.rate([ratings.DEFAULT, ratings.DEFAULT], [1, 2])
    alice, bob = ratings.rate(after_1, [2, 1])
    rank = 1 if alice.shown >= bob.shown else 2
    # 3 hands: 7 + 15 - 6 = 16 points (5.33 a hand), 7 + 15 - 12 = 10 chips; 1 of 2 matches;
    # 1 foul in 3 hands; 1 entry in 2 hands outside Fantasyland; 1 stay in 1 FL hand. The
    # server's 6 hands: 2 fouls (33%), 1 entry in 5 hands outside it (20%), 16 + 2 royalties.
    assert fields == {
        "Rating": f"{alice.shown:,} (#{rank} of 2)",
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
    assert answer.file is not None and answer.file.filename == "stats.png"
    assert answer.embed.image.url == "attachment://stats.png"
    of_bob = invoke(ALICE)
    await run(stats, of_bob, member=BOB)
    fields = {f.name: f.value for f in of_bob.answer.embed.fields}
    assert (fields["Net points"], fields["Fouls"], fields["Matches won"]) == (
        "-16 (-5.33 a hand)", "1 (33% of hands)", "1 of 2 (50%)")


async def test_stats_of_a_newcomer(invoke: Invoke) -> None:
    interaction = invoke(BOB)
    await run(stats, interaction)
    assert "has not played a hand here yet" in interaction.answer.text
    assert not interaction.answer.embed.fields


async def test_history_lists_matches_newest_first_with_the_hands_behind_menus(
        invoke: Invoke, storage: Storage) -> None:
    first = await record_match(storage, MATCH_1, [ALICE.id])
    second = await record_match(storage, MATCH_2, [BOB.id], start=T0 + DAY,
                                options={"point_value": 2, "variant": "turbo"})
    interaction = invoke(ALICE)
    await run(history, interaction)
    answer = interaction.answer
    assert answer.ephemeral
    newest, oldest = answer.embed.fields
    assert newest.name == f"Match #{second}: lost"
    assert f"<t:{int(T0 + DAY)}:d>" in newest.value
    assert "Turbo · 1-6 · american royalties · standard Fantasyland · 2 chips a point" \
        in newest.value
    assert "place 2 of 2 · -6 points · -12 chips · 1 hand" in newest.value
    assert oldest.name == f"Match #{first}: won"
    assert "place 1 of 2 · +22 points · +22 chips · 2 hands" in oldest.value

    (menu,) = answer.view.children
    assert isinstance(menu, MatchPicker)
    assert [o.value for o in menu.item.options] == [str(second), str(first)]
    chosen = invoke(ALICE)
    pick(menu, chosen, str(first))
    await menu.callback(chosen)
    hands = chosen.answer
    assert hands.ephemeral and hands.embed.title == f"Match #{first}"
    assert [f.name for f in hands.embed.fields] == ["Hand 1", "Hand 2"]
    assert f"{ALICE.mention}: +7 points · +7 chips · royalties 4 · enters Fantasyland" \
        in hands.embed.fields[0].value
    assert f"{BOB.mention}: -15 points · -15 chips · **fouled**" in hands.embed.fields[1].value
    (hand_menu,) = hands.view.children
    assert isinstance(hand_menu, HandPicker)
    assert [o.value for o in hand_menu.item.options] == ["1", "2"]


async def test_a_hand_shows_the_boards_of_its_showdown(invoke: Invoke, storage: Storage) -> None:
    """A hand played by the engine (seeded, random legal placements), recorded with the
    history the table service stores: the detail shows the boards of its showdown event."""
    rules = TableRules.from_mapping({"seats": 2})
    match = Match.new(rules, [PlayerSpec(ALICE.id, "Alice", 200), PlayerSpec(BOB.id, "Bob", 200)],
                      seed=5)
    match.start_hand(T0)
    rng = random.Random(5)
    while match.phase == "playing":
        for seat in match.pending():
            match.place(seat, match.random_assignment(seat, rng), T0)
    shown = match.showdown
    assert shown is not None
    results = [line(ALICE if s.seat == 0 else BOB, s.points, s.chips, fouled=s.fouled,
                    royalties=sum(s.royalties)) for s in shown.seats]
    match_id = await record_match(storage, [results], [], history_json=json.dumps(match.history()))

    menu = HandPicker(BOB.id, match_id)
    chosen = invoke(BOB)
    pick(menu, chosen, "1")
    await menu.callback(chosen)
    detail = chosen.answer
    assert detail.embed.title == f"Match #{match_id}, hand 1"
    assert [f.name for f in detail.embed.fields] == ["Alice", "Bob"]
    for seat, field in zip(shown.seats, detail.embed.fields, strict=True):
        for row, cards, name in zip(ROWS, seat.board.rows, seat.names, strict=True):
            # sorted as the hand they make
            assert f"{row.capitalize()}: {row_label('en-US', row, cards)}: {name}" in field.value
        assert f"{seat.points:+d} points" in field.value


async def test_menus_refuse_a_match_of_another_server_or_a_forged_choice(
        invoke: Invoke, storage: Storage, db_path: Path) -> None:
    elsewhere = await record_match(storage, MATCH_1, [ALICE.id], guild=OTHER_GUILD)
    here = await record_match(storage, MATCH_2, [BOB.id])
    before = dump(db_path)
    not_here = f"Match #{elsewhere} is not among that member's matches in this server."
    for picker, value, message in [
        (MatchPicker(ALICE.id), str(elsewhere), not_here),
        (HandPicker(ALICE.id, elsewhere), "1", not_here),
        (MatchPicker(ALICE.id), "1; DROP TABLE", "That menu choice is not valid."),
        (HandPicker(ALICE.id, here), "9", f"Match #{here} has no hand 9."),
    ]:
        interaction = invoke(ALICE)
        pick(picker, interaction, value)
        await picker.callback(interaction)
        assert interaction.answer.ephemeral
        assert interaction.answer.embed.description == message
    assert dump(db_path) == before


async def test_history_of_a_member_without_matches(invoke: Invoke) -> None:
    interaction = invoke(ALICE)
    await run(history, interaction, member=BOB)
    assert "has not played a match in this server yet" in interaction.answer.text
    assert not interaction.answer.view.children
