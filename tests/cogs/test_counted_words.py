"""A number of chips or points is said with the plural form its number takes, in every message
that counts them: "+1 point, +1 chip", "1 chip went back", "+21 фишка", "1 mark".
Each expected text is written by hand from the language's grammar."""

import json

import pytest

from bot.engine.board import Board
from bot.engine.rules import TableRules
from bot.engine.showdown import show_down
from bot.i18n import t
from bot.storage.records import MatchPlayer, MatchSummary
from cogs.economy.embeds import history
from cogs.tables.embeds import left_notice, result_embed, showdown_embed
from cogs.tables.unpostable import told_after_restart, told_channel_gone, told_refused

# Both boards hold: alice wins the top (QQ over ace high) and loses the middle (nines and
# fives under tens and threes) and the bottom (a flush under a full house): lines -1; her
# royalties, QQ top 7 and flush bottom 4, against bob's full house 6: +5. Alice +4 points (R4,
# R5). Bob has 1 chip: at 1 chip a point the cap moves exactly 1 (R6).
ALICE = Board.parse("Qh Qd 2c", "5s 5d 9c 9h Kd", "2h 3h 4h 5h 7h")
BOB = Board.parse("Ah Kc 2s", "Ts Td Jc 3s 3c", "As Ad Ac 7d 7c")


def one_chip_moved() -> object:
    return show_down(TableRules(seats=2), {0: ALICE, 1: BOB}, {}, {0: 100, 1: 1}, button=1)


def test_the_showdown_and_the_result_say_one_chip() -> None:
    view = one_chip_moved()
    embed = showdown_embed("en-US", 1, view, {0: "alice", 1: "bob"}, point_value=1)  # type: ignore[arg-type]
    names = [f.name for f in embed.fields]
    assert "alice: +4 points, +1 chip (stack 101)" in names
    assert "bob: -4 points, -1 chip (stack 0)" in names
    result = result_embed("en-US", 1, view, 1, {0: "alice", 1: "bob"})  # type: ignore[arg-type]
    assert result is not None and "**-4 points** · **-1 chip** (stack 0)" in (
        result.description or "")
    ru = showdown_embed("ru", 1, view, {0: "alice", 1: "bob"}, point_value=1)  # type: ignore[arg-type]
    assert "alice: +4 очка, +1 фишка (стек 101)" in [f.name for f in ru.fields]


@pytest.mark.parametrize(("loc", "chips", "said"), [
    ("en-US", 1, "Ann left the table: 1 chip went back to the wallet."),
    ("en-US", 200, "Ann left the table: 200 chips went back to the wallet."),
    ("sv-SE", 1, "Ann lämnade bordet: 1 mark gick tillbaka till plånboken."),
    ("ru", 21, "Ann ушёл(ушла) из-за стола, в кошелёк возвращено: 21 фишка."),
    ("ru", 242, "Ann ушёл(ушла) из-за стола, в кошелёк возвращено: 242 фишки."),
])
def test_a_player_who_gets_up_is_told_the_chips_in_their_plural(loc: str, chips: int,
                                                                 said: str) -> None:
    assert t(loc, left_notice("Ann", chips, away=False, practice=False)) == said


def test_sat_out_and_play_chips_too() -> None:
    assert t("en-US", left_notice("Ann", 1, away=True, practice=False)) == \
        "Ann sat out (away): 1 chip went back to the wallet."
    assert t("en-US", left_notice("Ann", 1, away=False, practice=True)) == \
        "Ann left the table: 1 play chip, no wallet changed."
    assert t("ru", left_notice("Ann", 22, away=True, practice=True)) == \
        "Ann пропускает игру (отошёл): 22 тренировочные фишки, кошелёк не изменился."


def test_a_closed_tables_dms_say_one_chip() -> None:
    for told in (told_after_restart, told_channel_gone, told_refused):
        assert t("en-US", told(5, 1)).endswith("your 1 chip went back to your wallet.")
        assert t("ru", told(5, 21)).endswith("в кошелёк возвращено: 21 фишка.")


@pytest.mark.parametrize(("kind", "said"), [
    ({}, "+1 point · +1 chip · 1 hand"),
    ({"practice": True}, "+1 point · +1 play chip · 1 hand"),
    ({"tournament": True}, "+1 point · +1 tournament chip · 1 hand"),
])
def test_history_says_one_point_and_one_chip(kind: dict[str, bool], said: str) -> None:
    match = MatchSummary(7, 1, 1, json.dumps({}), 1e9, 1e9 + 60, 1,
                         (MatchPlayer(11, 1, 1, 1, True), MatchPlayer(22, -1, -1, 1, False)),
                         **kind)
    (field,) = history("en-US", "<@11>", 11, [match]).fields
    assert said in (field.value or "")


def test_a_review_says_one_point() -> None:
    from bot.ai.review import HandReview
    from bot.engine.board import Board as Empty
    from bot.storage.records import PlayedHand
    from cogs.economy.embeds import review
    played = PlayedHand(12, 2, 1e9, -1, False)
    for fouled, said in ((False, "you scored **-1 point**."),
                         (True, "you scored **-1 point, fouled**.")):
        embed = review("en-US", played, HandReview(12, 2, "Ann", (), Empty(), -1, fouled, 0))
        assert said in (embed.description or "")


def test_a_penalty_of_one_point_says_one_point() -> None:
    from bot.engine.tournament import Sanction
    from cogs.tournaments.embeds import sanction_line
    penalty = Sanction("penalty", 11, 1, "slow play", 1, 1e9, 22)
    assert sanction_line("en-US", penalty, "Ann") == "Penalty: Ann loses 1 point (slow play)."
    assert sanction_line("ru", penalty, "Ann") == "Штраф: Ann теряет 1 очко (slow play)."


@pytest.mark.parametrize(("loc", "chips"), [
    ("en-US", "-1 play chip"),
    ("ru", "-1 тренировочная фишка"),
    ("sv-SE", "-1 träningsmark"),
    ("zh-CN", "-1 练习筹码"),
])
def test_a_practice_result_and_showdown_say_play_chips(loc: str, chips: str) -> None:
    # A practice table's stacks are play chips: its result DM and showdown say so, as its
    # other messages do, never wallet chips.
    view = one_chip_moved()
    result = result_embed(loc, 1, view, 1, {0: "alice", 1: "bob"}, practice=True)  # type: ignore[arg-type]
    assert result is not None and f"**{chips}**" in (result.description or "")
    shown = showdown_embed(loc, 1, view, {0: "alice", 1: "bob"}, point_value=1,  # type: ignore[arg-type]
                           practice=True)
    assert chips in shown.fields[1].name
