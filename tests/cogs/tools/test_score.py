"""/ofc score on RULES.md's worked examples, typed by a member through the real bot and the
local Discord double: the numbers, checked by hand against the rules, are the ones `ofc score`
prints (run as a subprocess on JSON written here by hand) and the ones the command shows. Bad
input is refused with the engine's message and changes nothing; any board fits Discord."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.app import OFCBot
from tests.cogs.conftest import dump
from tests.e2e.discord_double import DiscordDouble, Member

PNG = b"\x89PNG\r\n\x1a\n"
ANSWERED, DEFERRED = 4, 5  # the interaction callback types: an answer, "thinking..."

# Boards checked by hand (RULES.md R2-R5). X beats Y on every row; X ties W's top and wins
# the rest; Z fouls (KK on top over a pair of jacks in the middle).
X = "Kh Qd 2c / As Ah 5c 6d 8s / 9h 9d 9c 3h 4s"
Y = "Jh Td 3c / Qs Qh 5d 7c 9s / 8h 8d 8c 4h 6s"
W = "Ks Qc 2d / Ad Ac 3d 4d 7s / 7h 7d 7c 5s 2s"
Z = "Kc Kd 4d / Jc Js 2d 6h 7d / Tc Ts Th 2h 5s"
# A: QQ on top (7), seven-high heart flush bottom (4): 11. B: aces full on the bottom (6).
A = "Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h"
B = "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"
# R2's example: top Qh Qd 5c beats middle Qs Qc 4h 3d 2s (a foul); Qh Qd 4c equals it (no foul).
R2_FOUL = "Qh Qd 5c / Qs Qc 4h 3d 2s / Ah Ad Ac 7d 7c"
R2_EQUAL = "Qh Qd 4c / Qs Qc 4h 3d 2s / Ah Ad Ac 7d 7c"
PLAIN = "Kh Js 2c / 9s 9h 5d 6d 8s / Th Td Tc 3h 4s"  # no royalty, no foul
# Trips on top (5+8 = 13), trip nines in the middle (2), tens full on the bottom (6): 21.
TRIPS_TOP = "5h 5d 5c / 9s 9h 9d 3c 4s / Ts Th Tc Jd Js"
KINGS_TOP = "Kh Kd 2c / As Ah 5c 6d 8s / 9h 9d 9c 3h 4s"  # KK on top: 8

# (players as typed, command options, hand-checked {name: points}, {name: FL cards}, fouled)
Case = tuple[dict[str, str], dict[str, Any], dict[str, int], dict[str, int], set[str]]
CASES: dict[str, Case] = {
    # R5 1-6: two wins and a tie give 2.
    "two wins and a tie, 1-6": ({"X": X, "W": W}, {}, {"X": 2, "W": -2}, {}, set()),
    # R5 2-4: two wins and a tie give 3.
    "two wins and a tie, 2-4": ({"X": X, "W": W}, {"scoring": "2-4"}, {"X": 3, "W": -3}, {},
                                set()),
    # R5: a scoop is 6 under 1-6, 4 under 2-4.
    "scoop, 1-6": ({"X": X, "Y": Y}, {}, {"X": 6, "Y": -6}, {}, set()),
    "scoop, 2-4": ({"X": X, "Y": Y}, {"scoring": "2-4"}, {"X": 4, "Y": -4}, {}, set()),
    # R3 + R5: a fouled board pays 6 to each board that did not foul; X and Y: X scoops.
    "three players, one fouled": ({"X": X, "Y": Y, "Z": Z}, {"point_value": 2},
                                  {"X": 12, "Y": 0, "Z": -12}, {}, {"Z"}),
    # R4 + R5: A wins the top, loses middle and bottom (-1), royalties 11 - 6 = +5: A +4.
    # Under 2-4 B's two rows give one more: -2 + 5 = 3. QQ on top: 14 cards (R8).
    "royalties, 1-6": ({"A": A, "B": B}, {}, {"A": 4, "B": -4}, {"A": 14}, set()),
    "royalties, 2-4, russian": ({"A": A, "B": B}, {"scoring": "2-4", "royalties": "russian"},
                                {"A": 3, "B": -3}, {"A": 14}, set()),
    # R2: QQ5 over QQ432 fouls: the plain board wins 6. QQ4 equals QQ432: no foul, a scoop
    # (6) plus QQ (7) and aces full (6): 19, and Fantasyland.
    "R2 top beats middle": ({"Alice": R2_FOUL, "Bob": PLAIN}, {},
                            {"Alice": -6, "Bob": 6}, {}, {"Alice"}),
    "R2 top equals middle": ({"Alice": R2_EQUAL, "Bob": PLAIN}, {},
                             {"Alice": 19, "Bob": -19}, {"Alice": 14}, set()),
    # R8 progressive: KK on top enters with 15 cards; a scoop of Y plus 8: 14.
    "progressive kings": ({"Alice": KINGS_TOP, "Bob": Y}, {"fantasy": "progressive"},
                          {"Alice": 14, "Bob": -14}, {"Alice": 15}, set()),
    # R8: trips on top from a Fantasyland hand stays, with 14 cards under progressive (17 is
    # the entry count); 6 for the scoop plus 21 in royalties.
    "progressive stay": ({"Alice": TRIPS_TOP, "Bob": W}, {"fantasy": "progressive",
                                                          "in_fantasy": "alice"},
                         {"Alice": 27, "Bob": -27}, {"Alice": 14}, set()),
}


# Each case's row royalties (R4: top, middle, bottom; nothing for a fouled board) and lines
# (R5, pairs in R6's order: the button is the last player), by hand from the boards above.
# X, Y, W and PLAIN pay nothing (trips on the bottom, a pair in the middle, no top pair).
NOTHING = (0, 0, 0)
Rows = tuple[int, int, int]
BY_HAND: dict[str, tuple[dict[str, Rows], list[tuple[str, str, Rows]]]] = {
    "two wins and a tie, 1-6": ({"X": NOTHING, "W": NOTHING}, [("X", "W", (0, 1, 1))]),
    "two wins and a tie, 2-4": ({"X": NOTHING, "W": NOTHING}, [("X", "W", (0, 1, 1))]),
    "scoop, 1-6": ({"X": NOTHING, "Y": NOTHING}, [("X", "Y", (1, 1, 1))]),
    "scoop, 2-4": ({"X": NOTHING, "Y": NOTHING}, [("X", "Y", (1, 1, 1))]),
    "three players, one fouled": ({"X": NOTHING, "Y": NOTHING, "Z": NOTHING}, [
        ("X", "Y", (1, 1, 1)), ("X", "Z", (1, 1, 1)), ("Y", "Z", (1, 1, 1))]),
    # QQ 7 and a flush 4; aces full 6 on the bottom (the same in both tables).
    "royalties, 1-6": ({"A": (7, 0, 4), "B": (0, 0, 6)}, [("A", "B", (1, -1, -1))]),
    "royalties, 2-4, russian": ({"A": (7, 0, 4), "B": (0, 0, 6)}, [("A", "B", (1, -1, -1))]),
    "R2 top beats middle": ({"Alice": NOTHING, "Bob": NOTHING},
                            [("Alice", "Bob", (-1, -1, -1))]),
    "R2 top equals middle": ({"Alice": (7, 0, 6), "Bob": NOTHING},
                             [("Alice", "Bob", (1, 1, 1))]),
    "progressive kings": ({"Alice": (8, 0, 0), "Bob": NOTHING}, [("Alice", "Bob", (1, 1, 1))]),
    # 555 on top 5 + 8, trip nines in the middle 2, tens full 6.
    "progressive stay": ({"Alice": (13, 2, 6), "Bob": NOTHING}, [("Alice", "Bob", (1, 1, 1))]),
}


@pytest.fixture(scope="module")
def cli_outputs() -> dict[str, dict[str, Any]]:
    """`ofc score` on every case, the processes started together (each loads the engine)."""
    running = {
        case: subprocess.Popen([sys.executable, "-m", "bot.cli", "score", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for case in CASES
    }
    outputs = {}
    for case, process in running.items():
        boards, options, *_ = CASES[case]
        stdout, _ = process.communicate(json.dumps(cli_input(boards, options)))
        assert process.returncode == 0, case
        outputs[case] = json.loads(stdout)
    return outputs


def cli_input(boards: dict[str, str], options: dict[str, Any]) -> dict[str, Any]:
    """The documented `ofc score` input for the same hand, written out directly."""
    rules = {k: v for k, v in options.items() if k != "in_fantasy"}
    players = []
    for name, text in boards.items():
        top, middle, bottom = (row.strip() for row in text.split("/"))
        player: dict[str, Any] = {"name": name, "top": top, "middle": middle, "bottom": bottom}
        if options.get("in_fantasy", "").casefold() == name.casefold():
            player["in_fantasy"] = True
        players.append(player)
    return {"rules": rules, "button": len(players) - 1, "players": players}


@pytest.mark.parametrize("case", CASES)
async def test_score_matches_ofc_score_on_the_worked_examples(
        double: DiscordDouble, bot: OFCBot, alice: Member,
        cli_outputs: dict[str, dict[str, Any]], case: str) -> None:
    boards, options, points, fantasy, fouled = CASES[case]
    cli = cli_outputs[case]
    assert {p["name"]: p["points"] for p in cli["players"]} == points
    assert {p["name"]: p["fantasy_cards"] for p in cli["players"] if p["fantasy_cards"]} == fantasy
    assert {p["name"] for p in cli["players"] if p["fouled"]} == fouled
    royalties, lines = BY_HAND[case]
    assert {p["name"]: tuple(p["row_royalties"][row] for row in ("top", "middle", "bottom"))
            for p in cli["players"]} == royalties
    assert [(p["a"], p["b"], tuple(p["lines"])) for p in cli["pairs"]] == lines

    typed = {f"player{n}": f"{name}: {text}" for n, (name, text) in enumerate(boards.items(), 1)}
    asked = await alice.slash("ofc score", **typed, **options)
    answer = await double.resolved(asked)
    assert not answer.ephemeral  # the whole table reads it
    assert asked.callback_type == DEFERRED  # publicly, while the image renders
    assert [a.filename for a in answer.attachments] == ["showdown.png"]
    assert answer.attachment("showdown.png").data[:8] == PNG
    assert answer.embed_image() == answer.attachment("showdown.png").data  # the embed shows it
    assert answer.embed is not None
    fields = {f["name"]: f["value"] for f in answer.embed["fields"]}
    point_value = options.get("point_value", 1)
    for player in cli["players"]:
        name = player["name"]
        value = fields[f"{name}: FOULED" if player["fouled"] else name]
        money = f" = {player['points'] * point_value:+d} chips" if point_value != 1 else ""
        assert f"**{player['points']:+d} points**{money}" in value
        for row in ("top", "middle", "bottom"):
            royalty = player["row_royalties"][row]
            shown = f": {player['rows'][row]}" + (f" **+{royalty}**" if royalty else "")
            assert shown in value
        if player["fouled"]:
            assert "**Fouled**" in value
        else:
            assert f"Royalties: {player['royalties']}" in value
        cards = player["fantasy_cards"]
        assert (f"Fantasyland next hand: **{cards} cards**" in value) == bool(cards)
    pair_lines = fields["Head to head"].splitlines()
    assert len(pair_lines) == len(cli["pairs"])
    words = {1: "won", 0: "tied", -1: "lost"}
    for pair, text in zip(cli["pairs"], pair_lines, strict=True):
        rows = ", ".join(f"{row} {words[x]}" for row, x in zip(("top", "middle", "bottom"),
                                                                 pair["lines"], strict=True))
        assert text.startswith(f"{pair['a']} v {pair['b']}: {rows} ({pair['line_points']:+d}), "
                               f"bonus {pair['bonus']:+d}, royalties {pair['royalties']:+d} → ")
        winner = pair["a"] if pair["points"] >= 0 else pair["b"]
        assert (f"**{winner} +{abs(pair['points'])}**" if pair["points"] else "**even**") in text


async def test_names_are_optional_and_rows_may_be_split_by_bars(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    answer = await double.resolved(await alice.slash(
        "ofc score", player1=X.replace("/", "|"), player2=f"  : {Y}"))
    assert answer.embed is not None
    names = [f["name"] for f in answer.embed["fields"]]
    assert names == ["Player 1", "Player 2", "Head to head"]
    assert "**+6 points**" in answer.embed["fields"][0]["value"]


@pytest.mark.parametrize(("players", "extra", "message"), [
    ({"player1": "Alice: Qh Qd 1x / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h", "player2": f"Bob: {B}"},
     {}, "Alice: '1x' is not a card."),
    ({"player1": f"Alice: {A}", "player2": "Bob: Qh Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"},
     {}, "Qh appears twice."),
    ({"player1": "Alice: Qh Qd / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h", "player2": f"Bob: {B}"},
     {}, "Alice: the top row needs 3 cards, not 2."),
    ({"player1": "Alice: Qh Qd 2c 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h", "player2": f"Bob: {B}"},
     {}, "Alice: write the three rows split by '/'"),
    ({"player1": f"Alice: {A}", "player2": f"Alice: {B}"}, {},
     "Every player needs a different name."),
    ({"player1": f"Alice: {A}", "player2": f"Bob: {B}"}, {"in_fantasy": "Carol"},
     "'Carol' is not one of the players (Alice, Bob)."),
    # A digit that int() does not read (a superscript two): part of the name, not a count.
    ({"player1": f"Alice: {A}", "player2": f"Bob: {B}"}, {"in_fantasy": "Alice \u00b2"},
     "'Alice \u00b2' is not one of the players (Alice, Bob)."),
    ({"player1": f"Alice: {A}", "player2": f"Bob: {B}"},
     {"in_fantasy": "Alice", "fantasy": "ultimate"},
     "give the cards of Alice's Fantasyland hand, like 'Alice 15'"),
    ({"player1": f"Alice: {A}", "player2": f"Bob: {B}"}, {"variant": "joker", "point_value": 0},
     "The option `point_value` takes a number from 1 to 1,000,000."),
    ({"player1": f"Alice: {X.replace('Kh', 'X')}", "player2": f"Bob: {B}"}, {},
     "Alice: 'X' is not a card."),
    # A name's markdown and mentions are quoted as typed, not formatted.
    ({"player1": "**Al** @here: Qh Qd 1x / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
      "player2": f"Bob: {B}"}, {}, "\\*\\*Al\\*\\* @\u200bhere: '1x' is not a card."),
    ({"player1": f"_A_: {A}", "player2": f"||B||: {B}"}, {"in_fantasy": "C"},
     "'C' is not one of the players (\\_A\\_, \\|\\|B\\|\\|)."),
])
async def test_bad_boards_are_refused_with_the_bad_card_named(
        double: DiscordDouble, bot: OFCBot, alice: Member, db_path: Path, held_deferral: None,
        players: dict[str, str], extra: dict[str, Any], message: str) -> None:
    """Typed by a member, or (a point value the client does not send) by a modified client."""
    before = dump(db_path)
    asked = await alice.raw_slash("ofc score", {**players, **extra})
    answer = await double.resolved(asked)
    assert answer.ephemeral and not answer.attachments
    assert asked.callback_type == ANSWERED  # refused at once, nothing rendered
    assert answer.embed is not None and message in answer.embed["description"]
    assert dump(db_path) == before


@pytest.mark.parametrize(("locale", "said"), [
    ("ru", "У каждого игрока должно быть своё имя."),
    ("sv-SE", "Varje spelare behöver ett eget namn."),
    ("zh-CN", "每位玩家的名字必须各不相同。"),
])
async def test_two_players_of_one_name_are_refused_in_the_players_language(
        double: DiscordDouble, bot: OFCBot, alice: Member, locale: str, said: str) -> None:
    alice.locale = locale
    answer = await double.resolved(await alice.slash(
        "ofc score", player1=f"Alice: {A}", player2=f"Alice: {B}"))
    assert answer.ephemeral and answer.embed is not None
    assert said in answer.embed["description"]


async def test_score_a_typed_hand_publicly(double: DiscordDouble, bot: OFCBot,
                                           alice: Member) -> None:
    answer = await double.resolved(await alice.slash(
        "ofc score", player1="A: Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
        player2="B: Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c", scoring="2-4"))
    assert not answer.ephemeral
    assert answer.embed_image().startswith(b"\x89PNG")  # the boards, as an image
    fields = {f["name"]: f["value"] for f in answer.embed["fields"]}
    assert "**+3 points**" in fields["A"] and "**-3 points**" in fields["B"]
    typo = await double.resolved(await alice.slash(
        "ofc score", player1="A: Qh Qd 2x / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
        player2="B: Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"))
    assert typo.ephemeral and typo.embed["description"] == "A: '2x' is not a card."


async def test_a_scored_hand_shows_the_names_markdown_as_typed(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    answer = await double.resolved(await alice.slash(
        "ofc score", player1=f"**A: {X}", player2=f"_B_: {Z}"))
    fields = answer.embed["fields"]
    assert [f["name"] for f in fields] == ["\\*\\*A", "\\_B\\_: FOULED", "Head to head"]
    assert fields[2]["value"].startswith("\\*\\*A v \\_B\\_: ")
    assert fields[2]["value"].endswith("→ **\\*\\*A +6**")


def long_name(letter: str) -> str:
    return (letter * 32)[:32]  # MAX_NAME characters


async def test_score_of_four_long_names_at_the_largest_point_value_fits_discord(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    boards = ("Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h",
              "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c",
              "Kh Ks 4c / 6s 6d 8c 8h Qc / 2d 3d 4d 8d 9d",
              "Jh Jd 5c / Th Tc 6h 6c 7s / 4s 8s 9s Js Qs")
    players = {f"player{n}": f"{long_name('ABCD'[n - 1])}: {board}"
               for n, board in enumerate(boards, start=1)}
    answer = await double.resolved(await alice.slash(
        "ofc score", variant="turbo", point_value=1_000_000, **players))
    assert not answer.ephemeral and answer.embed is not None  # Discord took it (no 400)
    text = str(answer.embed)
    for letter in "ABCD":
        assert long_name(letter) in text
