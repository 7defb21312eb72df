"""No answer lost to a 400: every message, embed, control and image the bot builds fits Discord's
limits whatever the input, in every language: the longest names (32 characters), the largest
values the options and storage allow, the most players. In Simplified Chinese nothing reads
English (a text the code forgot to translate shows up here)."""

import json
import re
from collections.abc import AsyncIterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.ai.review import HandReview, StreetReview
from bot.ai.solver import solve
from bot.engine.board import Board
from bot.engine.cards import parse_cards
from bot.engine.rules import CHOICES, TableRules
from bot.engine.scoresheet import parse_boards, score_sheet
from bot.engine.showdown import show_down
from bot.engine.tournament import MAX_REASON as MAX_SANCTION_REASON
from bot.engine.tournament import Tournament
from bot.i18n import LOCALES, Text, t
from bot.storage import (
    DailyClaim,
    GuildSettings,
    HandHistory,
    LeaderRow,
    MatchSummary,
    PlayedHand,
    PlayerStats,
    Preferences,
    SettingsChange,
    Storage,
    TournamentResult,
    Wallet,
)
from bot.storage.records import MatchPlayer, PlayerHandResult, SanctionRecord
from bot.storage.validate import MAX_CHIPS
from bot.tables import FakeClock, LobbySeat, LobbyView, Standing, TableService
from bot.tables.match_runner import FAST
from cogs.common.format import shown_seat
from cogs.common.permissions import MissingPermissions, require_table_permissions
from cogs.economy import embeds as economy
from cogs.economy.past_play import (
    RECENT_MATCHES,
    RECENT_SANCTIONS,
    RECENT_TOURNAMENTS,
    HandPicker,
    MatchPicker,
)
from cogs.economy.wallets import MAX_REASON
from cogs.tables.controls import controls_view, hand_view
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
from cogs.tables.lobby import lobby_view, rematch_view
from cogs.tools import embeds as tools
from cogs.tools.guide import pages, turner
from cogs.tools.preferences import preferences_text
from cogs.tools.score_input import MAX_NAME, score_input
from cogs.tournaments import embeds as tournaments
from rendering import private_png, score_png, showdown_png, solution_png, table_png
from tests.tables.driver import ALICE, BOB, CAROL, CHANNEL, GUILD, QUICK_AI, act

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
LONG_NOTE = Text("Time ran out: your cards were placed for you.")
MAX_PNG = 10 * 1024 * 1024  # Discord's attachment limit for a bot without boosts
by_locale = pytest.mark.parametrize("loc", LOCALES)

# Words allowed in a Chinese text: what the player typed or picked (names below are "Ｎ…"),
# table option names and values as settings list them, and the bot's own name.
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
ALLOWED = {"OFC", "ofc", "https", "discord", "com", "channels", "True", "False", "true",
           "false", "null"} | set(
    CHOICES) | {
    part for values in CHOICES.values() for value in values for part in value.split("_")} | {
    field.name.replace("_", " ") for field in fields(TableRules)} | {
    part for field in fields(TableRules) for part in field.name.split("_")}


@pytest.fixture
async def export_tree(tmp_path: Path) -> AsyncIterator[Any]:
    """The bot's command tree with every extension loaded, as /ofc help reads it."""
    from bot.app import OFCBot
    from bot.config import Settings
    bot = OFCBot(Settings(database=str(tmp_path / "help.sqlite3")))
    try:
        await bot.load_cogs()
        yield bot.tree
    finally:
        await bot.close()


def name(n: int) -> str:
    # The longest a message shows a name: markdown escaping doubles, a mention broken by a
    # zero-width space, right-to-left text isolated (cogs.common.format.shown). No English.
    return "*" * (MAX_NAME - 3 - len(str(n))) + "<@" + "א" + str(n)


def within_limits(embed: discord.Embed, loc: str = "en-US") -> None:
    """Discord's embed limits (https://discord.com/developers/docs/resources/message), and
    in Chinese no English word the player did not type."""
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name or "") <= 256, field.name
        assert 0 < len(field.value or "") <= 1024, (field.name, len(field.value or ""))
    assert len(embed.footer.text or "") <= 2048
    assert len(embed.author.name or "") <= 256
    assert len(embed) <= 6000
    if loc == "zh-CN":
        texts = [embed.title, embed.description, embed.footer.text,
                 *(x for f in embed.fields for x in (f.name, f.value))]
        no_english(*texts)


def no_english(*texts: str | None) -> None:
    for text in texts:
        words = {w for w in ENGLISH_WORD.findall(re.sub(r"`[^`]*`|<[^>]*>|https?://\S+", "",
                                                         text or ""))
                 if not re.fullmatch(r"[AKQJTX]+", w)} - ALLOWED  # ranks stay symbols
        assert not words, (words, text)


def controls_fit(view: discord.ui.View, loc: str) -> None:
    """Discord's component limits: 5 rows of 5, labels of 80, menus of 25 options."""
    assert len(view.children) <= 25
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            assert item.label and len(item.label) <= 80, item.label
            assert item.custom_id and len(item.custom_id) <= 100
            if loc == "zh-CN":
                no_english(item.label)
        elif isinstance(item, discord.ui.Select):
            assert len(item.options) <= 25 and len(item.placeholder or "") <= 150
            for option in item.options:
                assert len(option.label) <= 100 and len(option.description or "") <= 100
            if loc == "zh-CN":
                no_english(item.placeholder, *(o.label for o in item.options))


@by_locale
def test_score_of_four_long_names_at_the_largest_point_value(loc: str) -> None:
    request = score_input([f"{name(n)}: {typed}" for n, typed in enumerate(TYPED)], FOUR,
                          loc=loc)
    sheet = score_sheet(request)
    embed = tools.score(loc, FOUR, parse_boards(request["players"], FOUR), sheet)
    within_limits(embed, loc)
    head = t(loc, "Head to head")
    assert sum(f.name.startswith(head) for f in embed.fields) >= 2  # split, not cut


@by_locale
def test_solution_and_rules_of_every_variant(loc: str) -> None:
    for variant in ("pineapple", "turbo", "lowball", "joker"):
        for fantasy in ("standard", "ultimate", "off"):
            rules = TableRules(variant=variant, fantasy=fantasy)
            within_limits(tools.rules(loc, rules, Text("{x}", x="#" * 200)), loc)
    rules = TableRules()
    cards = parse_cards("As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c 4c 4d 4h")
    within_limits(tools.solution(loc, rules, solve(cards, rules), len(cards)), loc)


@by_locale
def test_showdown_and_standings_of_four_long_names_and_huge_stacks(loc: str) -> None:
    stacks = dict.fromkeys(range(4), MAX_CHIPS)
    view = show_down(FOUR, dict(enumerate(BOARDS)), {}, stacks, button=3)
    names = {seat: shown_seat(loc, name(seat), False) for seat in range(4)}  # as the presenter
    within_limits(showdown_embed(loc, 99, view, names, point_value=BIG_POINT), loc)
    for seat in range(4):
        result = result_embed(loc, 99, view, seat, names, WHERE)
        assert result is not None
        within_limits(result, loc)
    within_limits(standings_embed(loc, (
        Standing(seat, USER, name(seat), MAX_CHIPS, -MAX_CHIPS) for seat in range(4))), loc)
    controls_fit(rematch_view(loc, USER), loc)


def _matches() -> tuple[MatchSummary, list[HandHistory]]:
    options = json.dumps({"variant": "turbo", "seats": 4, "point_value": BIG_POINT,
                          "buy_in": 1_000_000_000})
    players = tuple(MatchPlayer(USER - n, -MAX_CHIPS, -MAX_CHIPS, 999, n == 0)
                    for n in range(4))
    match = MatchSummary(USER, USER, USER, options, 2e9, 2e9, 9999, players)
    results = tuple(PlayerHandResult(USER - n, -9999, -MAX_CHIPS, True, 999, True, True, True)
                    for n in range(4))
    return match, [HandHistory(USER, n, "{}", 2e9, results) for n in range(1, 200)]


@by_locale
def test_economy_embeds_and_menus_at_their_largest(loc: str) -> None:
    row = LeaderRow(1, USER, MAX_CHIPS, MAX_CHIPS, 2 * MAX_CHIPS)
    within_limits(economy.balance(loc, MENTION, Wallet(1, USER, MAX_CHIPS, None), row,
                                  2e9, 0), loc)
    within_limits(economy.balance(loc, MENTION, Wallet(1, USER, MAX_CHIPS, None), row,
                                  0, 1), loc)
    within_limits(economy.daily(loc, DailyClaim(MAX_CHIPS, MAX_CHIPS, 2e9)), loc)
    within_limits(economy.leaderboard(loc, [row] * 10, row, "Ｎ" * 100), loc)
    within_limits(economy.leaderboard(loc, [], None, None), loc)
    within_limits(economy.granted(loc, MENTION, MAX_CHIPS, MAX_CHIPS, "*" * MAX_REASON,
                                  MENTION), loc)
    match, hands = _matches()
    within_limits(economy.history(loc, MENTION, USER, [match] * 10), loc)
    within_limits(economy.history(loc, MENTION, USER, []), loc)
    sanction = SanctionRecord(USER, "warning", 25, "*" * MAX_SANCTION_REASON, 999, USER, True,
                              2e9, USER)
    shown = economy.history(loc, MENTION, USER, [match] * RECENT_MATCHES,
                            [sanction] * RECENT_SANCTIONS)
    within_limits(shown, loc)
    assert shown.fields[-1].name.startswith(t(loc, "Tournament warnings and penalties"))
    # every list at its longest: the oldest matches give way, the lists below stay whole
    finished = TournamentResult(USER, 999, 999, MAX_CHIPS, 999, False, USER, 2e9)
    for kind in ("practice", "tournament"):
        longest = economy.history(loc, MENTION, USER, [replace(match, **{kind: True})] *
                                  RECENT_MATCHES, [sanction] * RECENT_SANCTIONS,
                                  [finished] * RECENT_TOURNAMENTS)
        within_limits(longest, loc)
        assert str(USER) in (longest.fields[0].name or "")  # the newest match still shown
        assert longest.fields[-1].name.startswith(t(loc, "Tournament warnings and penalties"))
    within_limits(economy.match_hands(loc, match, hands), loc)
    within_limits(economy.hand_detail(loc, match, hands[-1]), loc)
    big = 10**12
    within_limits(economy.stats(loc, MENTION,
                                PlayerStats(big, -big, -big, big, big, big, big, big, big, big,
                                            big, big)), loc)
    within_limits(economy.stats(loc, MENTION, PlayerStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                  loc)
    menus = discord.ui.View()
    menus.add_item(MatchPicker(USER, [match] * 30, loc))
    menus.add_item(HandPicker(USER, USER, hands, loc))
    controls_fit(menus, loc)


@pytest.mark.parametrize("lines", [["x" * 5000], ["y" * 300] * 10, []])
def test_add_lines_splits_and_clips(lines: list[str]) -> None:
    from cogs.common.format import add_lines
    embed = discord.Embed()
    add_lines("en-US", embed, "n" * 300, lines)
    within_limits(embed)
    assert sum(len(f.value or "") for f in embed.fields) >= min(sum(map(len, lines)), 1000)


@by_locale
def test_lobby_settings_preferences_and_refusals_at_their_largest(loc: str) -> None:
    rules = TableRules(variant="turbo", seats=4, buy_in=1_000_000_000, point_value=BIG_POINT)
    seats = tuple(LobbySeat(-n if n % 2 else USER - n, f"Computer {n} (strong)" if n % 2
                            else name(n), "strong" if n % 2 else None, 1_000_000_000)
                  for n in range(4))
    for status in ("lobby", "playing", "closed"):
        lobby = LobbyView(USER, USER, USER, USER, USER - 2, rules, seats[:3],
                          status, 2e9, 2e9)  # type: ignore[arg-type]
        within_limits(lobby_embed(loc, lobby), loc)
        controls_fit(lobby_view(loc, lobby), loc)
    options = {field.name: getattr(rules, field.name) for field in fields(TableRules)}
    changes = [SettingsChange(USER, "table_options", options, options, 2e9)] * 10
    changed = [Text("starting chips"), Text("daily chips"), Text("table options")]
    for language in (None, "zh-CN"):
        within_limits(tools.settings(loc, GuildSettings(MAX_CHIPS, MAX_CHIPS, options, language),
                                     (MAX_CHIPS, MAX_CHIPS), rules, changes, changed, "ru"), loc)
    for four_colour in (True, False):
        for controls in ("dm", "channel"):
            text = preferences_text(loc, Preferences(four_colour, controls))
            assert len(text) <= 4096
            if loc == "zh-CN":
                no_english(text)
    with pytest.raises(MissingPermissions) as refused:
        require_table_permissions(discord.Permissions.none())
    within_limits(discord.Embed(description=t(loc, refused.value.text)), loc)


@by_locale
def test_help_pages_in_every_language(loc: str, export_tree: Any) -> None:
    shown = pages(loc, export_tree)
    for number, page in enumerate(shown):
        within_limits(page, loc)
        controls_fit(turner(loc, number, len(shown)), loc)


@by_locale
def test_tournament_standings_of_the_largest_field(loc: str) -> None:
    tm = Tournament.new(USER, USER, USER, buy_in=10**9, seats=3, hands=1000,
                        payouts=(50, 30, 20), seed=1, closes_at=1e12)
    for n in range(199):
        tm.join(USER - n, name(n), 0.0)
    tm.join(-1, name(199), 0.0, "strong")  # with a buy-in, computers only fill tables
    tm.start()
    for n in range(0, 30, 3):
        for _ in range(3 if n % 2 else 1):
            tm.warn(USER - n, "*" * 200, USER, 0.0)
        tm.penalty(USER - n - 1, 1000, "*" * 200, USER, 0.0)
    for note in (None, Text("Seated by lot.")):
        within_limits(tournaments.standings(loc, tm, note), loc)
    while tm.status == "running":  # the final standings of all 200, paid to three
        for table in list(tm.current_tables):
            tm.table_done(table.level, table.index, {p: 0 for p in table.players})
    within_limits(tournaments.standings(loc, tm, Text("The final is over: prizes paid.")), loc)
    for sanction in tm.sanctions[:4]:
        line = tournaments.sanction_line(loc, sanction, MENTION)
        assert len(line) <= 2000


@by_locale
async def test_table_prompt_controls_placed_embeds_and_images_of_a_live_four_seat_table(
        loc: str, storage: Storage, clock: FakeClock) -> None:
    """Four long names at the largest point value, every street of a hand: the table message
    and image, each seat's prompt (with the server and channel it belongs to), its controls,
    image and placed record, and the showdown."""
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
            within_limits(table_embed(loc, view), loc)
            controls_fit(hand_view(loc, table), loc)
            assert len(table_png(view, False, loc)) <= MAX_PNG
            for person in people:
                state = service.private_view(table, person)
                within_limits(prompt_embed(loc, state, LONG_NOTE, where=WHERE), loc)
                within_limits(prompt_embed(loc, state, LONG_NOTE, where=WHERE, asking=True), loc)
                within_limits(placed_embed(loc, state.hand_no, state.street, state, LONG_NOTE,
                                           where=WHERE), loc)
                controls_fit(controls_view(loc, state), loc)
                controls_fit(controls_view(loc, state, asking=True), loc)
                if state.view.dealt:
                    assert len(private_png(state.view, {}, True, loc)) <= MAX_PNG
                checked += 1
            await act(service, table, service.seats(table)[view.to_act[0]])
        assert checked >= 4 * 4  # at least one look per seat on every street of turbo
        shown = service.public_view(table)
        assert shown is not None and shown.showdown is not None
        assert len(showdown_png(shown, True, loc)) <= MAX_PNG
        assert len(score_png(shown, False, loc)) <= MAX_PNG
        rules = TableRules(variant="joker")
        solved = solve(parse_cards("X X As Ks Qs Js 9h 8h 7h 6h 2c 3c 4d 5s"), rules)
        assert len(solution_png(solved.board, solved.discard, rules, False, loc)) <= MAX_PNG
    finally:
        await service.close()


def test_a_review_of_five_streets_and_of_a_seventeen_card_fantasyland() -> None:
    """/ofc review at its longest, a normal hand (every street differing, the clock
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
        for loc in LOCALES:
            within_limits(economy.review(loc, played, hand), loc)


@by_locale
def test_table_channel_lines_and_closing_dms_fit_a_message(loc: str) -> None:
    """The plain lines a table posts in its channel (a seat left, a cash table waiting with
    every seat busted) and the DMs of a table closed because its channel is gone or refuses
    the bot, at their longest: the longest snowflakes, the largest stack."""
    from cogs.tables import unpostable
    from cogs.tables.embeds import left_notice, waiting_notice
    lines = [left_notice(MENTION, MAX_CHIPS, away=away, practice=practice)
             for away in (True, False) for practice in (True, False)]
    lines.append(waiting_notice([USER - n for n in range(4)], 2e9))
    lines += [told(USER, MAX_CHIPS) for told in (
        unpostable.told_after_restart, unpostable.told_channel_gone,
        unpostable.told_no_stake_gone, unpostable.told_refused,
        unpostable.told_no_stake_refused)]
    for line in lines:
        shown = t(loc, line)
        assert 0 < len(shown) <= 2000, shown
        if loc == "zh-CN":
            no_english(shown)
