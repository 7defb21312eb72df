"""The prompt on a phone: Confirm only on a complete street, a second Confirm for a board that
fouls, what the board with its draft is making, and the last street's royalties and
Fantasyland (R3, R4, R8)."""

from dataclasses import replace
from typing import Any

from bot.engine.board import Board
from bot.engine.cards import parse_cards
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, SeatView, TableView
from bot.i18n import LOCALES, t
from bot.tables import SeatState
from cogs.tables.controls import PlaceButton, controls_view, fouls
from cogs.tables.embeds import Where, action_title, author_line, placed_embed, prompt_embed
from rendering import samples
from tests.phone import AUTHOR_SIZE, EMBED_INNER, TEXT_SIZE, TITLE_SIZE, lines
from tests.phone_prompts import new_match as phone_match
from tests.phone_prompts import seat_state


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


def test_a_fantasyland_board_that_fouls_is_warned_as_arranged() -> None:
    """A Fantasyland hand is dealt at once (R8): no card comes, so its warning says the
    board fouls as arranged, never "whatever comes" (which the streets keep)."""
    empty = Board((), (), ())
    # Aces on top over a middle of nothing: a foul; the bottom and the discard are free.
    dealt = "As Ad 2c  3d 5h 7s 9c Jd  Kh Qh 8h 6h 4h  2s"
    rows = ("top",) * 3 + ("middle",) * 5 + ("bottom",) * 5 + ("discard",)
    fantasy = replace(state(empty, dealt, rows, complete=True), street=0)
    fantasy = replace(fantasy, view=replace(fantasy.view, discard_count=1))
    assert fouls(fantasy)
    warned = str(prompt_embed("en-US", fantasy).description)
    assert "⚠️ **This board fouls** as arranged." in warned
    assert "whatever comes" not in warned
    sv = str(prompt_embed("sv-SE", fantasy).description)
    assert "⚠️ **Handen blir död** med den här uppställningen." in sv


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
    # The title links to the table (no author line: a phone has no room for it); the record
    # the prompt becomes names the server and channel.
    assert embed.url == where.url and embed.author.name is None
    assert not embed.fields  # the image shows the board: no field repeats it
    placed = placed_embed("en-US", 2, 5, whole, where=where)
    assert placed.author.name == "Poker Club · #ofc" and placed.author.url == where.url


def test_the_author_line_of_a_record_keeps_to_one_phone_line() -> None:
    where = Where("The Friday Night Open-Face Club of Greater Manchester",
                  "ofc-pineapple-high-stakes", None)
    for loc in LOCALES:
        for practice in (False, True):
            name = author_line(loc, replace(where, practice=practice))
            assert lines(name, AUTHOR_SIZE, EMBED_INNER) == 1, name
    assert author_line("en-US", where).endswith(" · #ofc-pineapple-high-stakes")
    assert all(author_line(loc, replace(where, practice=True)).endswith(
        t(loc, "#{channel} · practice", channel="")[1:]) for loc in LOCALES)
    assert author_line("en-US", Where("Club", "ofc", None)) == "Club · #ofc"


def test_a_player_at_two_tables_reads_the_channel_first_in_the_title() -> None:
    """A player seated at another table too tells the prompts apart by their title: the
    table's channel leads it, cut with an ellipsis so the title takes at most two lines on a
    phone. A player at one table keeps the one-line title (the screen has no room to spare);
    a channel the bot cannot name leaves the action alone."""
    whole = state(GOOD, "2c 3h 7d", ("top", "bottom", "middle"), complete=True)
    named = Where("Poker Club", "ofc", "https://discord.com/channels/1/2/3", named=True)
    assert prompt_embed("en-US", whole, where=named).title == \
        "#ofc · Hand 2 of 3 · street 5 of 5"
    long = Where("Club", "ofc-pineapple-high-stakes-friday-night-tables", None, named=True)
    for loc in LOCALES:
        title = str(prompt_embed(loc, whole, where=long).title)
        assert title.startswith("#ofc-pineapple") and "…" in title, title
        assert title.endswith(" · " + action_title(loc, whole)), title
        assert lines(title, TITLE_SIZE, EMBED_INNER, bold=True) <= 2, title
    assert prompt_embed("en-US", whole, where=replace(named, channel=None)).title == \
        "Hand 2 of 3 · street 5 of 5"
    # A thread's name is free text (a practice's holds its player's name): shown as typed.
    thread = replace(named, channel="Practice: **Al** vs")
    assert prompt_embed("en-US", whole, where=thread).title == \
        "#Practice: \\*\\*Al\\*\\* vs · Hand 2 of 3 · street 5 of 5"


def sequential_and_simultaneous(order: str) -> tuple[SeatState, SeatState]:
    """Street 1 of a 2-seat table: the seat to act and the other seat, each with its whole
    street drafted."""
    match = Match.new(TableRules(seats=2, order=order),  # type: ignore[arg-type]
                      [PlayerSpec(1, "Alice", 200), PlayerSpec(2, "Bob", 200)], seed=3)
    match.start_hand(0.0)
    first = match.pending()[0]
    other = 1 - first
    return (seat_state(match, first, samples.choice(match, first)),
            seat_state(match, other, samples.choice(match, other)))


def test_confirm_is_enabled_only_on_the_seats_turn_in_sequential_play() -> None:
    acting, waiting = sequential_and_simultaneous("sequential")
    assert acting.to_act and acting.complete and not labels(
        controls_view("en-US", acting))["Confirm"].disabled
    # The waiting seat drafts its whole street ahead, but confirms on its turn (its prompt
    # is redrawn then, Confirm enabled).
    assert not waiting.to_act and waiting.complete
    controls = controls_view("en-US", waiting)
    assert labels(controls)["Confirm"].disabled
    assert not any(item.item.disabled for item in controls.children
                   if isinstance(item, PlaceButton))
    assert "Waiting for Alice" in str(prompt_embed("en-US", waiting).description) or \
        "Waiting for Bob" in str(prompt_embed("en-US", waiting).description)


def test_a_waiting_seat_is_told_to_arrange_until_its_draft_is_complete() -> None:
    # docs/players/playing.md: "Waiting for Alice: arrange now." while there is something to
    # arrange; once every card has a place, only whom it waits for (Confirm is grey until the
    # seat's turn), in every language on one phone line even for a long name.
    _, waiting = sequential_and_simultaneous("sequential")
    acting = waiting.view.table.seats[waiting.view.table.to_act[0]].name
    empty = replace(waiting, draft={}, complete=False)
    assert str(prompt_embed("en-US", empty).description).split("\n")[0] == \
        f"⏳ Waiting for {acting}: arrange now."
    assert str(prompt_embed("en-US", waiting).description).split("\n")[0] == \
        f"⏳ Waiting for {acting}."
    seats = tuple(replace(s, name="Bartholomew the Great") for s in waiting.view.table.seats)
    long = replace(waiting, view=replace(waiting.view, table=replace(
        waiting.view.table, seats=seats)))
    for loc in LOCALES:
        line = str(prompt_embed(loc, long).description).split("\n")[0]
        assert "Bartholomew the Great" in line and lines(line, TEXT_SIZE, EMBED_INNER) == 1, line


def test_confirm_is_enabled_for_every_seat_in_simultaneous_play() -> None:
    for state in sequential_and_simultaneous("simultaneous"):
        assert state.to_act and state.complete
        assert not labels(controls_view("en-US", state))["Confirm"].disabled


def test_only_the_seat_in_fantasyland_reads_fantasyland_in_its_title() -> None:
    # The last seat holds 14 cards (R8): dealt first, it arranges while the others wait;
    # dealt last, the others play their first street while it waits.
    first = phone_match("pineapple", 3, "off", 14, fantasy_deal="first")
    fantasy = first.public_view().seats[-1].seat
    assert list(first.pending()) == [fantasy]
    assert action_title("en-US", seat_state(first, fantasy)) == "Hand 1 of 3 · Fantasyland"
    last = phone_match("pineapple", 3, "off", 14, fantasy_deal="last")
    others = last.pending()
    assert others and fantasy not in others
    assert all(action_title("en-US", seat_state(last, seat)) == "Hand 1 of 3 · street 1 of 5"
               for seat in others)


def test_nothing_to_place_while_fantasyland_is_set_names_no_task() -> None:
    """Street 0 is the Fantasyland boards' (R8): a seat with nothing dealt then (its own
    Fantasyland board confirmed, seen through My hand) reads that there is nothing to place,
    not "set 13 of 0, discard 0"."""
    waiting = state(GOOD, "", (), complete=False)
    waiting = replace(waiting, street=0, to_act=False,
                      view=replace(waiting.view, discard_count=0))
    assert str(prompt_embed("en-US", waiting).description) == "Nothing to place right now."


def test_a_seat_waiting_for_the_fantasyland_boards_reads_no_fantasyland_title() -> None:
    """R8, playing.md: the others play a normal hand with the usual titles. A player outside
    Fantasyland who presses My hand while the Fantasyland boards are set first (nothing dealt
    to them yet) reads the hand alone, not "Fantasyland"."""
    waiting = state(GOOD, "", (), complete=True)
    waiting = replace(waiting, street=0, to_act=False)
    assert action_title("en-US", waiting) == "Hand 2 of 3"
    seats = tuple(replace(s, in_fantasy=True) for s in waiting.view.table.seats)
    setting = replace(waiting, view=replace(waiting.view, table=replace(
        waiting.view.table, seats=seats)))
    assert action_title("en-US", setting) == "Hand 2 of 3 · Fantasyland"


def test_a_fantasyland_of_13_cards_asks_to_set_them_all_not_to_discard_none() -> None:
    """Turbo's Fantasyland deals 13 cards, all set (R9): the task reads "set all 13 cards",
    not "set 13 of 13, discard 0", in every language."""
    game = phone_match("turbo", 3, "off", 13, fantasy_deal="first")
    fantasy = game.public_view().seats[-1].seat
    seat = seat_state(game, fantasy)
    assert len(seat.view.dealt) == 13 and seat.view.discard_count == 0
    tasks = {"en-US": "Fantasyland: set all 13 cards", "ru": "Фантазия: выложите все 13 карт",
             "sv-SE": "Fantasyland: lägg alla 13 korten", "zh-CN": "梦幻乐园：摆好全部 13 张牌"}
    for loc, task in tasks.items():
        first = str(prompt_embed(loc, seat).description).split("\n")[0]
        assert first.endswith(f" {task}"), first
    fourteen = phone_match("pineapple", 3, "off", 14, fantasy_deal="first")
    dealt14 = seat_state(fourteen, fourteen.public_view().seats[-1].seat)
    assert str(prompt_embed("en-US", dealt14).description).split("\n")[0].endswith(
        " Fantasyland: set 13 of 14, discard 1")
