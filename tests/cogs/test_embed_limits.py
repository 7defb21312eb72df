"""Issue 21: every embed the bot builds fits Discord's limits whatever the input: the longest
names (32 characters), the largest values the options and storage allow, the most players."""

import json
from dataclasses import fields

import discord
import pytest

from bot.ai.review import HandReview, StreetReview
from bot.ai.solver import solve
from bot.engine.board import Board
from bot.engine.cards import parse_cards
from bot.engine.rules import TableRules
from bot.engine.scoresheet import parse_boards, score_sheet
from bot.engine.showdown import show_down
from bot.engine.tournament import MAX_REASON as MAX_SANCTION_REASON
from bot.storage import (
    DailyClaim,
    GuildSettings,
    HandHistory,
    LeaderRow,
    MatchSummary,
    PlayedHand,
    PlayerStats,
    SettingsChange,
    Storage,
    Wallet,
)
from bot.storage.records import MatchPlayer, PlayerHandResult, SanctionRecord
from bot.storage.validate import MAX_CHIPS
from bot.tables import FakeClock, LobbySeat, LobbyView, Standing, TableService
from bot.tables.simulate import FAST
from cogs.economy import embeds as economy
from cogs.economy.history import RECENT_MATCHES, RECENT_SANCTIONS
from cogs.economy.wallets import MAX_REASON
from cogs.tables.embeds import (
    Where,
    lobby_embed,
    placed_embed,
    prompt_embed,
    result_embed,
    showdown_embed,
    standings_embed,
    table_embed,
)
from cogs.tools import embeds as tools
from cogs.tools.score_input import MAX_NAME, score_input
from tests.service.driver import ALICE, BOB, CAROL, CHANNEL, GUILD, QUICK_AI, act

BIG_POINT = 1_000_000  # the largest point_value option
USER = 2**63 - 1  # the longest snowflake
MENTION = f"<@{USER}>"
TYPED = ("Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",  # four boards, 52 distinct cards
         "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c",
         "Kh Ks 4c / 6s 6d 8c 8h Qc / 2d 3d 4d 8d 9d",
         "Jh Jd 5c / Th Tc 6h 6c 7s / 4s 8s 9s Js Qs")
BOARDS = tuple(Board.parse(*typed.split(" / ")) for typed in TYPED)
FOUR = TableRules(variant="turbo", seats=4, point_value=BIG_POINT)


# Discord's longest server and channel names (100 characters each), and a message link.
WHERE = Where("S" * 100, "c" * 100,
              f"https://discord.com/channels/{USER}/{USER}/{USER}")
LONG_NOTE = "Time ran out: your cards were placed for you."


def name(n: int) -> str:
    return (f"*_Player {n}_*" * 8)[:MAX_NAME]  # markdown that escaping lengthens


def within_limits(embed: discord.Embed) -> None:
    """Discord's embed limits (https://discord.com/developers/docs/resources/message)."""
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name or "") <= 256, field.name
        assert 0 < len(field.value or "") <= 1024, (field.name, len(field.value or ""))
    assert len(embed.footer.text or "") <= 2048
    assert len(embed.author.name or "") <= 256
    assert len(embed) <= 6000


def test_score_of_four_long_names_at_the_largest_point_value() -> None:
    request = score_input([f"{name(n)}: {typed}" for n, typed in enumerate(TYPED)], FOUR)
    sheet = score_sheet(request)
    embed = tools.score(FOUR, parse_boards(request["players"], FOUR), sheet)
    within_limits(embed)
    assert sum(f.name.startswith("Head to head") for f in embed.fields) >= 2  # split, not cut


def test_solution_and_rules_of_every_variant() -> None:
    for variant in ("pineapple", "turbo", "joker"):
        rules = TableRules(variant=variant)
        within_limits(tools.rules(rules, "x" * 200))
    rules = TableRules()
    cards = parse_cards("As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c 4c 4d 4h")
    within_limits(tools.solution(rules, solve(cards, rules), len(cards)))


def test_showdown_and_standings_of_four_long_names_and_huge_stacks() -> None:
    stacks = dict.fromkeys(range(4), MAX_CHIPS)
    view = show_down(FOUR, dict(enumerate(BOARDS)), {}, stacks, button=3)
    names = {seat: name(seat) for seat in range(4)}
    within_limits(showdown_embed(99, view, names, point_value=BIG_POINT))
    for seat in range(4):
        result = result_embed(99, view, seat, names, WHERE)
        assert result is not None
        within_limits(result)
    within_limits(standings_embed(
        Standing(seat, USER, name(seat), MAX_CHIPS, -MAX_CHIPS) for seat in range(4)))


def test_economy_embeds_at_their_largest() -> None:
    row = LeaderRow(1, USER, MAX_CHIPS, MAX_CHIPS, 2 * MAX_CHIPS)
    within_limits(economy.balance(MENTION, Wallet(1, USER, MAX_CHIPS, None), row,
                                  2e9, 0))
    within_limits(economy.daily(DailyClaim(MAX_CHIPS, MAX_CHIPS, 2e9)))
    within_limits(economy.leaderboard([row] * 10, row, "n" * 100))
    within_limits(economy.granted(MENTION, MAX_CHIPS, MAX_CHIPS, "*" * MAX_REASON,
                                  MENTION))
    options = json.dumps({"variant": "turbo", "seats": 4, "point_value": BIG_POINT,
                          "buy_in": 1_000_000_000})
    players = tuple(MatchPlayer(USER - n, -MAX_CHIPS, -MAX_CHIPS, 999, n == 0)
                    for n in range(4))
    match = MatchSummary(USER, USER, USER, options, 2e9, 2e9, 9999, players)
    within_limits(economy.history(MENTION, USER, [match] * 10))
    sanction = SanctionRecord(USER, "warning", 25, "r" * MAX_SANCTION_REASON, 999, USER, True,
                              2e9, USER)
    shown = economy.history(MENTION, USER, [match] * RECENT_MATCHES,
                            [sanction] * RECENT_SANCTIONS)
    within_limits(shown)
    assert shown.fields[-1].name.startswith("Tournament warnings and penalties")
    results = tuple(PlayerHandResult(USER - n, -9999, -MAX_CHIPS, True, 999, True, True, True)
                    for n in range(4))
    hands = [HandHistory(USER, n, "{}", 2e9, results) for n in range(1, 200)]
    within_limits(economy.match_hands(match, hands))
    within_limits(economy.hand_detail(USER, hands[-1]))
    big = 10**12
    within_limits(economy.stats(MENTION,
                                PlayerStats(big, -big, -big, big, big, big, big, big, big, big,
                                            big, big)))


@pytest.mark.parametrize("lines", [["x" * 5000], ["y" * 300] * 10, []])
def test_add_lines_splits_and_clips(lines: list[str]) -> None:
    from cogs.common.format import add_lines
    embed = discord.Embed()
    add_lines(embed, "n" * 300, lines)
    within_limits(embed)
    assert sum(len(f.value or "") for f in embed.fields) >= min(sum(map(len, lines)), 1000)


def test_lobby_and_settings_at_their_largest() -> None:
    rules = TableRules(variant="turbo", seats=4, buy_in=1_000_000_000, point_value=BIG_POINT)
    seats = tuple(LobbySeat(-n if n % 2 else USER - n, name(n), "strong" if n % 2 else None,
                            1_000_000_000) for n in range(4))
    for status in ("lobby", "playing", "closed"):
        within_limits(lobby_embed(LobbyView(USER, USER, USER, USER, USER - 2, rules, seats,
                                            status, 2e9, 2e9)))  # type: ignore[arg-type]
    options = {field.name: getattr(rules, field.name) for field in fields(TableRules)}
    changes = [SettingsChange(USER, "table_options", options, options, 2e9)] * 10
    within_limits(tools.settings(GuildSettings(MAX_CHIPS, MAX_CHIPS, options),
                                 (MAX_CHIPS, MAX_CHIPS), rules, changes,
                                 ["starting chips", "daily chips", "table options"]))


async def test_table_prompt_and_placed_embeds_of_a_live_four_seat_table(
        storage: Storage, clock: FakeClock) -> None:
    """Four long names at the largest point value, every street of a hand: the table message,
    each seat's prompt (with the server and channel it belongs to) and its placed record."""
    service = TableService(storage, clock, QUICK_AI, FAST)
    try:
        people = [ALICE, BOB, CAROL, ALICE + 100]
        options = {"variant": "turbo", "seats": 4, "point_value": BIG_POINT,
                   "format": "hands", "hands": 1}
        table = (await service.create_table(GUILD, CHANNEL, people[0], name(0), options,
                                            seed=7)).table_id
        for seat, person in enumerate(people[1:], start=1):
            await service.join(table, person, name(seat))
        await service.start(table, people[0])
        checked = 0
        while (view := service.public_view(table)) is not None and view.phase == "playing":
            within_limits(table_embed(view))
            for person in people:
                state = service.private_view(table, person)
                within_limits(prompt_embed(state, LONG_NOTE, where=WHERE))
                within_limits(placed_embed(state.hand_no, state.street, state, LONG_NOTE,
                                           where=WHERE))
                checked += 1
            await act(service, table, service.seats(table)[view.to_act[0]])
        assert checked >= 4 * 4  # at least one look per seat on every street of turbo
    finally:
        await service.close()


def test_a_review_of_five_streets_and_of_a_seventeen_card_fantasyland() -> None:
    """Issue 18: /ofc review at its longest, a normal hand (every street differing, the clock
    placing one) and an ultimate Fantasyland hand of 17 cards, the match id the longest."""
    deck = parse_cards(" ".join(TYPED).replace("/", ""))
    board = Board(tuple(deck[:3]), tuple(deck[3:8]), tuple(deck[8:13]))
    rows = ("top", "middle", "bottom", "discard")
    streets = tuple(
        StreetReview(n, board, tuple(deck[13 + 3 * n:16 + 3 * n]),
                     dict(zip(deck[13 + 3 * n:16 + 3 * n], rows, strict=False)), n == 2,
                     dict(zip(deck[13 + 3 * n:16 + 3 * n], rows[::-1], strict=False)),
                     -123.45, 67.8) for n in range(1, 6))
    fantasy = StreetReview(0, Board(), tuple(deck[:17]), dict.fromkeys(deck[:17], "bottom"),
                           True, dict.fromkeys(deck[:17], "discard"), 999.9, 99.9)
    played = PlayedHand(USER, 10**9, 1e10, -BIG_POINT, True)
    for hand in (HandReview(3, 0, name(0), streets, board, -BIG_POINT, True, 0),
                 HandReview(4, 0, name(0), (fantasy,), board, BIG_POINT, False, 0)):
        within_limits(economy.review(played, hand))
