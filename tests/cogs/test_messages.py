"""What the showdown, match-end, lobby and prompt messages say (cogs/tables/embeds.py), checked
by hand against RULES.md."""

from bot.engine.board import Board
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.showdown import show_down
from bot.engine.text import Text
from bot.i18n import t
from bot.i18n.catalogue import LOCALES
from bot.tables import Standing
from cogs.common.format import rules_line, rules_paragraph
from cogs.tables.embeds import showdown_embed, standings_embed, table_embed
from cogs.tools.rules_words import describe

ALICE = Board.parse("Qh Qd 2c", "5s 5d 9c 9h Kd", "2h 3h 4h 5h 7h")
BOB_FOULED = Board.parse("Ah Ad Ks", "Ts Td Jc 3s 4c", "6c 6d 6s 8h 8s")  # top AA > middle TT


def fields_of(embed: object) -> dict[str, str]:
    return {f.name: f.value for f in embed.fields}  # type: ignore[attr-defined]


def test_showdown_breakdown_rows_foul_royalties_pairs_and_the_table_stakes_cap() -> None:
    # R3: bob fouls, so alice wins every line: 3, scoop +3 (R5 1-6), and her royalties
    # QQ top 7 + flush bottom 4 = 11 (R4), bob's none: 17 points. Bob has 10 chips: the cap
    # (R6) lets 10 of the 17 through. Alice's QQ top earns Fantasyland, 14 cards (R8).
    view = show_down(TableRules(seats=2), {0: ALICE, 1: BOB_FOULED}, {}, {0: 100, 1: 10},
                     button=1)
    embed = showdown_embed("en-US", 3, view, {0: "alice", 1: "bob"}, point_value=1)
    fields = fields_of(embed)
    assert embed.title == "Hand 3: showdown"
    assert embed.image.url == "attachment://showdown.png"
    alice = fields["alice: +17 points, +10 chips (stack 110)"]
    assert "Top: Q♥ Q♦ 2♣: Pair of Queens (+7)" in alice
    assert "Bottom: 7♥ 5♥ 4♥ 3♥ 2♥: Flush, seven high (+4)" in alice
    assert "Fantasyland next hand: 14 cards" in alice and "Fouled" not in alice
    bob = fields["bob: -17 points, -10 chips (stack 0)"]
    assert "**Fouled**" in bob and "(+" not in bob
    assert fields["Points per pair"] == (
        "alice vs bob: lines +1 +1 +1, bonus +3, royalties +11 = **+17**")
    assert fields["Chips moved (1 chip per point)"] == (
        "bob → alice: 10 (owed 17, paid 10: table stakes)")


def test_an_uncapped_payment_shows_just_the_chips() -> None:
    # Both boards hold: alice QQ/two pair/flush against bob AK/two pair tens/full house:
    # lines +1 -1 -1, royalties 11 - 6 = +5: alice wins 4 points, x 5 chips = 20 (R5).
    bob = Board.parse("Ah Kc 2s", "Ts Td Jc 3s 3c", "As Ad Ac 7d 7c")
    view = show_down(TableRules(seats=2, point_value=5), {0: ALICE, 1: bob}, {},
                     {0: 100, 1: 100}, button=1)
    fields = fields_of(showdown_embed("en-US", 1, view, {0: "alice", 1: "bob"}, point_value=5))
    assert fields["Chips moved (5 chips per point)"] == "bob → alice: 20"
    assert fields["Points per pair"] == (
        "alice vs bob: lines +1 -1 -1, bonus +0, royalties +5 = **+4**")


def test_standings_list_stacks_and_nets() -> None:
    embed = standings_embed("en-US", (Standing(0, 11, "alice", 260, 60),
                                      Standing(1, 22, "bob", 140, -60)))
    assert embed.description.startswith("1. alice: 260 chips (+60)\n2. bob: 140 chips (-60)")
    assert "wallet" in embed.description


def test_a_member_named_like_a_computer_is_not_translated_as_one() -> None:
    # A computer's name is translated (negative ids are computers'); a person's is as typed,
    # even the one a computer would have.
    embed = standings_embed("ru", (Standing(0, 11, "Computer 1 (strong)", 260, 60),
                                   Standing(1, -1, "Computer 1 (strong)", 140, -60)))
    first, second = embed.description.splitlines()[:2]
    assert first.startswith("1. Computer 1 (strong): ")
    assert second.startswith("2. Компьютер 1 (сильный): ")
    assert "Computer" not in second


def test_rules_paragraph_names_every_option_in_force() -> None:
    text = rules_paragraph("en-US", TableRules(variant="turbo", seats=4, format="hands", hands=8,
                                    scoring="2-4", royalties="russian", fantasy="off",
                                    point_value=2, buy_in=500, order="simultaneous"))
    for part in ("**Turbo**, 4 seats, 8 hands", "Buy-in 500 chips", "2 chips per point",
                 "scoring 2-4", "russian royalties", "no Fantasyland", "simultaneous turns"):
        assert part in text


def test_the_rules_in_short_say_when_there_are_no_royalties() -> None:
    rules = TableRules(royalties="off")
    for text in (rules_paragraph("en-US", rules), rules_line("en-US", rules)):
        assert "no royalties" in text and "off royalties" not in text


def test_the_table_says_when_hints_are_on_and_when_it_is_a_practice() -> None:
    """Hints (R10): the lobby's paragraph, the rules in words and the table message."""
    on = TableRules(hints="on")
    assert "**Hints on**" in rules_paragraph("en-US", on)
    assert "Hints" not in rules_paragraph("en-US", TableRules())
    table = dict(describe("en-US", on))["Table"]
    assert "Hints: on. **Suggest**" in table
    assert "Hints" not in dict(describe("en-US", TableRules()))["Table"]
    view = Match.new(on, [PlayerSpec(1, "a", 200), PlayerSpec(2, "b", 200)]).public_view()
    practice = table_embed("en-US", view, practice=True)
    assert practice.title == "Practice table" and practice.description is not None
    assert "**Practice**" in practice.description and "**Hints on**" in practice.description
    plain = table_embed("en-US", Match.new(TableRules(), [PlayerSpec(1, "a", 200),
                                                 PlayerSpec(2, "b", 200)]).public_view())
    assert plain.title == "OFC table" and "Practice" not in str(plain.description)
    assert "Hints" not in str(plain.description)
    over = standings_embed("en-US", [], practice=True).description or ""
    assert "play chips, no wallet changed" in over and "Rematch" not in over


def test_the_rules_say_when_fantasyland_is_dealt_the_clock_and_the_banks_refill() -> None:
    match = TableRules.from_mapping({})  # seed 000: Fantasyland first, one clock a hand
    text = rules_paragraph("en-US", match)
    assert "standard Fantasyland (set before the others play)" in text
    assert "Time: 300 s for the whole hand" in text and "full again" not in text
    words = dict(describe("en-US", match))
    assert "its player sees none of their cards" in words["Fantasyland"]
    assert "The hand has one clock" in words["Table"]
    cash = TableRules.from_mapping({"format": "cash"})  # seed 003
    text = rules_paragraph("en-US", cash)
    assert "(dealt once the others have played)" in text and "Time: 60 s a street" in text
    assert "time bank 120 s, full again after 3600 s" in text
    words = dict(describe("en-US", cash))
    assert "its player sees their boards while setting" in words["Fantasyland"]
    assert "full again at a deal once 3600 s have passed" in words["Table"]


def test_a_table_without_fantasyland_tells_no_fantasyland_time() -> None:
    # R8 `fantasy = off`: nobody plays Fantasyland, so its clock (R10) is nothing to know;
    # the lobby and /ofc rules tell the turn and the bank, in every language.
    off = TableRules.from_mapping({"fantasy": "off", "fantasy_turn_seconds": 347})
    on = off.with_options({"fantasy": "standard"})
    for loc in LOCALES:
        table = dict(describe(loc, off))[t(loc, Text("Table"))]
        assert "347" not in rules_paragraph(loc, off) and "347" not in table, loc
        assert "347" in rules_paragraph(loc, on) and "347" in dict(describe(loc, on))[
            t(loc, Text("Table"))], loc
    assert "Time: 300 s for the whole hand, time bank 120 s" in rules_paragraph("en-US", off)
    assert ("Time: 300 s for the whole hand, then a 120 s time bank per match; after that"
            in dict(describe("en-US", off))["Table"])
    assert rules_paragraph("en-US", off) == rules_paragraph(
        "en-US", off.with_options({"fantasy_turn_seconds": 180}))
