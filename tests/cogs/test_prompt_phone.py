"""The prompt on a phone: Confirm only on a complete street, a second Confirm for a board that
fouls, what the board with its draft is making, and the last street's royalties and
Fantasyland (R3, R4, R8)."""

from typing import Any

from bot.engine.board import Board
from bot.engine.cards import parse_cards
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, SeatView, TableView
from bot.tables import SeatState
from cogs.tables.controls import controls_view, fouls
from cogs.tables.embeds import Where, prompt_embed


def board(top: str, middle: str, bottom: str) -> Board:
    return Board(*(tuple(parse_cards(r)) for r in (top, middle, bottom)))


def state(placed: Board, dealt: str, rows: tuple[str, ...], *, complete: bool) -> SeatState:
    seat = SeatView(seat=0, player_id=11, name="alice", stack=100, board=placed)
    table = TableView(rules=TableRules(seats=2), hand_no=2, phase="playing", street=5,
                      streets=5, button=1, seats=(seat,), to_act=(0,), hands_total=3)
    cards = tuple(parse_cards(dealt))
    view = PrivateView(table=table, seat=0, board=placed, dealt=cards, discard_count=1)
    draft = dict(zip(cards, rows, strict=False))
    return SeatState(table_id=7, player_id=11, seat=0, view=view, hand_no=2, street=5,
                     draft=draft, to_act=True, deadline=None, free={"discard": 0},
                     away=False, complete=complete)


def labels(view: Any) -> dict[str, Any]:
    return {child.item.label: child.item for child in view.children}


GOOD = board("Qs Qh", "9s 9h 9d 4c", "Ah Kh 8h 5h")  # a last street toward QQ / trips / flush
# The last street: Ad on top makes aces over a pair of nines in the middle, a foul; 7d on top
# instead would keep the board (so the board was not doomed before this draft).
BAD = board("As Kd", "2s 3h 4d 9s", "Kh Qh 8h 5h 2h")


def test_confirm_waits_for_a_complete_street() -> None:
    half = state(GOOD, "2c 3h 7d", ("top",), complete=False)
    assert labels(controls_view("en-US", half))["Confirm"].disabled
    whole = state(GOOD, "2c 3h 7d", ("top", "bottom", "discard"), complete=True)
    assert not labels(controls_view("en-US", whole))["Confirm"].disabled


def test_a_board_that_fouls_asks_for_a_second_confirm() -> None:
    fouled = state(BAD, "Ad 9c 7d", ("top", "middle", "discard"), complete=True)
    assert fouls(fouled)
    assert not fouls(state(BAD, "Ad 9c 7d", ("discard", "middle", "top"), complete=True))
    asking = labels(controls_view("en-US", fouled, asking=True))
    assert "Confirm" not in asking and asking["Confirm anyway"].style.name == "danger"
    assert "This board fouls** whatever comes" in str(prompt_embed("en-US", fouled).description)
    # Asked to confirm, the question takes the warning's place (and the status's: the prompt
    # fits a phone).
    asked = str(prompt_embed("en-US", fouled, asking=True).description)
    assert asked.startswith("⚠️ **This board fouls: confirm anyway?** No royalties")
    assert "whatever comes" not in asked and "Your turn" not in asked
    assert not fouls(state(GOOD, "2c 3h 7d", ("top", "bottom", "discard"), complete=True))


def test_the_last_street_shows_what_the_draft_earns_and_where_the_table_is() -> None:
    whole = state(GOOD, "2c 3h 7d", ("top", "bottom", "middle"), complete=True)
    where = Where("Poker Club", "ofc", "https://discord.com/channels/1/2/3")
    embed = prompt_embed("en-US", whole, where=where)
    assert embed.title == "Hand 2 of 3 · street 5 of 5"
    text = str(embed.description)
    assert "Top: Pair of Queens" in text and "Royalties **13**" in text
    assert "Fantasyland next hand (14 cards)" in text
    assert embed.author.name == "Poker Club · #ofc" and embed.author.url == where.url
    assert not embed.fields  # the image shows the board: no field repeats it
