"""Players' words: a hand counter that stays put ("Hand 2 of 3"), a Fantasyland hand named as one
and counted as added (R11), never by street; no countdown while a computer acts."""

from dataclasses import replace
from typing import Any

from bot.engine.board import Board
from bot.engine.rules import TableRules
from bot.engine.settlement import Transfer
from bot.engine.views import SeatView, ShowdownSeat, ShowdownView, TableView
from bot.i18n import t
from cogs.tables.embeds import (
    result_embed,
    showdown_embed,
    table_embed,
    turn_line,
    waiting_notice,
)
from rendering.labels import hand_counter, street_text
from tests.engine.match.boards import P1, P2
from tests.engine.match.helpers import new_match, stacked_deal

SEATS = (SeatView(seat=0, player_id=1, name="alice", stack=200, board=Board()),
         SeatView(seat=1, player_id=2, name="bob", stack=200, board=Board()))


def view(hand: int, total: int, phase: str = "playing", **more: Any) -> TableView:
    fields: dict[str, Any] = {"seats": SEATS, **more}
    return TableView(rules=TableRules(seats=2), hand_no=hand, phase=phase,  # type: ignore[arg-type]
                     street=2, streets=5, button=1, hands_total=total, **fields)


def earned(fantasy: int) -> ShowdownView:
    seat = ShowdownSeat(seat=0, board=Board(), resolved=Board(), fouled=False,
                        names=("", "", ""), royalties=(0, 0, 0), points=0, chips=0,
                        stack_after=200, fantasy_next=fantasy)
    return ShowdownView(seats=(seat,), pairs=(), transfers=())


def test_the_count_stays_put_until_the_added_hand_is_played() -> None:
    assert hand_counter("en-US", view(1, 2)) == "Hand 1 of 2"
    assert table_embed("en-US", view(1, 2)).title == "Hand 1 of 2: street 2 of 5"
    # Hand 1's showdown earned Fantasyland: the match adds a hand, shown from the next on.
    shown = view(1, 3, "showdown", showdown=earned(14))
    assert hand_counter("en-US", shown) == "Hand 1 of 2"
    assert table_embed("en-US", shown).title == "Hand 1 of 2: showdown"
    assert hand_counter("en-US", replace(shown, showdown=earned(0), hands_total=2)) == "Hand 1 of 2"


def test_a_fantasyland_hand_is_named_as_added_and_never_by_street() -> None:
    fantasy = view(3, 3, fantasy_hand=True)
    assert hand_counter("en-US", fantasy) == "Hand 3 of 3 · Fantasyland, added"
    assert table_embed("en-US", fantasy).title == "Hand 3 of 3 · Fantasyland, added"
    assert "Street" not in street_text("en-US", fantasy)
    assert street_text("en-US", view(2, 3)) == "Hand 2 of 3 · Street 2 of 5"
    cash = view(5, 0, fantasy_hand=True)  # no planned number: no "of", and nothing added
    assert hand_counter("en-US", cash) == "Hand 5 · Fantasyland"


def test_no_countdown_while_a_computer_acts() -> None:
    computer = replace(SEATS[1], is_ai=True, ai_level="strong", name="Computer 1 (strong)",
                       deadline=1_000.0)
    person = replace(SEATS[0], deadline=1_000.0)
    thinking = view(1, 2, to_act=(1,), seats=(SEATS[0], computer))
    assert turn_line("en-US", thinking) == "Waiting for **Computer 1 (strong)**."
    assert "<t:1000:R>" in turn_line("en-US", view(1, 2, to_act=(0,), seats=(person, computer)))


def test_a_cash_table_someone_left_waits_for_a_player_and_lists_no_empty_stack() -> None:
    # R11 cash: Bob gets up during the showdown of hand 1 (P1 scoops P2 by 6, see
    # tests/engine/match/test_scenarios). His chips went to his wallet, so the table lists Ann alone
    # and waits for someone to sit down instead of promising a deal it cannot make.
    match = new_match(2, format="cash")
    stacked_deal(match, {0: P1, 1: P2})
    assert turn_line("en-US", match.public_view()) == "Showdown: the next hand is dealt shortly."
    assert table_embed("en-US", match.public_view()).fields[0].value == "Ann 206, Bob 194"
    match.leave(1)
    shown = match.public_view()
    assert shown.phase == "showdown" and [s.out for s in shown.seats] == [False, True]
    assert table_embed("en-US", shown).fields[0].value == "Ann 206"
    assert turn_line("en-US", shown) == ("Waiting for another player to sit down (/ofc join) "
                                         "before the next hand.")


def test_a_table_closed_mid_match_promises_no_next_hand() -> None:
    """/ofc cancel between two hands of a match (the hand in play completed, R10): the table
    message, kept in the channel, says the table is closed, not that a hand comes shortly."""
    match = new_match(2)
    stacked_deal(match, {0: P1, 1: P2})
    shown = replace(match.public_view(), hands_total=3)
    assert shown.phase == "showdown"
    closed = table_embed("en-US", shown, closed=True).description
    assert closed is not None and closed.splitlines()[0] == "This table is closed."
    over = replace(shown, phase="over")
    assert turn_line("en-US", over, closed=True) == "The match is over."


def test_a_result_says_whom_the_points_were_won_against() -> None:
    # P1 scoops P2 (tests/engine/match/test_scenarios): Ann wins all three rows, 6 points from Bob.
    match = new_match(2)
    stacked_deal(match, {0: P1, 1: P2})
    assert match.showdown is not None
    firsts = []
    for seat in (0, 1):
        embed = result_embed("en-US", 1, match.showdown, seat, {0: "Ann", 1: "Bob"})
        assert embed is not None and embed.description is not None
        firsts.append(embed.description.splitlines()[0])
    assert firsts == ["Rows won 3, lost 0 (points: +6 against Bob)",
                      "Rows won 0, lost 3 (points: -6 against Ann)"]


def test_a_cash_table_whose_last_person_busted_says_it_waits() -> None:
    """R11: computers deal no hand among themselves at a cash table: once its last person
    busted, the table message says it waits for a player, not that a hand comes shortly."""
    computers = tuple(replace(SEATS[1], seat=n, player_id=-n, is_ai=True, ai_level="easy",
                              name=f"Computer {n} (easy)") for n in (1, 2))
    busted = replace(SEATS[0], out=True, stack=0)
    cash = TableRules(seats=3, format="cash")
    waiting = replace(view(1, 0, "showdown", seats=(busted, *computers)), rules=cash)
    assert turn_line("en-US", waiting) == ("Waiting for another player to sit down "
                                           "(/ofc join) before the next hand.")
    # the same computers at a `hands` table play on between themselves (R6)
    assert turn_line("en-US", replace(waiting, rules=TableRules(seats=3))) == \
        "Showdown: the next hand is dealt shortly."


def test_the_waiting_notice_names_the_busted_and_the_closing_time() -> None:
    notice = t("en-US", waiting_notice((1, 2), 1_000.0))
    assert notice == ("<@1> and <@2>: out of chips. This cash table waits for a player to "
                      "buy in (/ofc join) before it deals again, and closes <t:1000:R> if "
                      "nobody does.")
    assert t("en-US", waiting_notice((), 1_000.0)) == (
        "This cash table waits for a player to buy in (/ofc join) before it deals again, "
        "and closes <t:1000:R> if nobody does.")


def test_stacks_and_chips_moved_group_their_digits_as_each_language_does() -> None:
    """A tournament's tables lend 100,000 chips a seat (R13): the table message's stacks, the
    showdown's stacks and chips moved, and each result DM write them as the rest of the
    message does ("100 000 фишек в долг"), not as bare digits ("100006")."""
    stacks = (replace(SEATS[0], stack=100_006), replace(SEATS[1], stack=99_994, away=True))
    seats = tuple(ShowdownSeat(seat=s, board=b, resolved=b, fouled=False, names=("", "", ""),
                               royalties=(0, 0, 0), points=p, chips=p * 1000,
                               stack_after=100_000 + p * 1000, fantasy_next=0)
                  for s, b, p in ((0, P1, 6), (1, P2, -6)))  # P1 scoops P2 (boards.py)
    shown = ShowdownView(seats=seats, pairs=(), transfers=(
        Transfer(payer=1, payee=0, owed=6000, paid=6000),
        Transfer(payer=1, payee=0, owed=9000, paid=4000)))  # capped by a stack (R6)
    names = {0: "alice", 1: "bob"}
    for loc, separator, between in (("en-US", ",", ", "), ("ru", "\u00a0", ", "),
                                    ("sv-SE", "\u00a0", ", "), ("zh-CN", ",", "、")):
        def grouped(n: int, separator: str = separator) -> str:
            return f"{n:,}".replace(",", separator)
        field = table_embed(loc, view(1, 2, seats=stacks), lent=True).fields[0].value
        assert field.startswith(f"alice {grouped(100_006)}{between}bob {grouped(99_994)}"), field
        showdown = showdown_embed(loc, 1, shown, names, 1000)
        assert grouped(106_000) in showdown.fields[0].name, showdown.fields[0].name
        moved = showdown.fields[-1].value.split("\n")
        assert moved[0] == f"bob → alice: {grouped(6000)}", moved
        assert grouped(4000) in moved[1] and grouped(9000) in moved[1], moved
        result = result_embed(loc, 1, shown, 0, names)
        assert result is not None and grouped(106_000) in str(result.description)


def test_a_list_reads_as_each_language_lists() -> None:
    """Chinese separates the items of a list with "、" and no space; the others with ", ".
    The stacks and the players a turn waits for, in the table message."""
    carol = SeatView(seat=2, player_id=3, name="carol", stack=150, board=Board(), away=True)
    three = view(1, 2, seats=(*SEATS, carol), to_act=(0, 1, 2))
    stacks = {loc: table_embed(loc, three).fields[0].value for loc in ("zh-CN", "ru", "sv-SE")}
    assert stacks == {"zh-CN": "alice 200、bob 200、carol 150（离开）",
                      "ru": "alice 200, bob 200, carol 150 (отошёл)",
                      "sv-SE": "alice 200, bob 200, carol 150 (borta)"}
    assert turn_line("zh-CN", three) == "等待 **alice**、**bob** 和 **carol**。"
    assert turn_line("sv-SE", three) == "Väntar på **alice**, **bob** och **carol**."
