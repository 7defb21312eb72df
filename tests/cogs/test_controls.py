"""The placement controls (docs/players/playing.md): street 1 and turbo's 4-card streets one
action row per dealt card, pineapple's later streets a grid of rows by cards, never more than
4 buttons to a line but for the finishing ones; full rows disabled, Confirm within Discord's 5
rows of 5; Fantasyland menus."""

from dataclasses import replace
from typing import Any

import discord

from bot.engine.cards import INDEX, JOKERS, card_str, parse_card
from bot.engine.match import Match, PlayerSpec
from bot.engine.ordering import order_cards
from bot.engine.placement import auto_assignment
from bot.engine.rules import TableRules
from bot.tables import LobbySeat, LobbyView, SeatState
from cogs.common.format import card_label
from cogs.tables.controls import controls_view
from cogs.tables.ids import FantasyRowId, PlaceId, StepId, Turn, parse_place
from cogs.tables.lobby import lobby_view

PLAYERS = [PlayerSpec(11, "alice", 200), PlayerSpec(22, "bob", 200)]


def new_match(variant: str = "pineapple", fantasy_seat: int | None = None) -> Match:
    match = Match.new(TableRules(variant=variant, seats=2), PLAYERS, button=1, seed=5)
    if fantasy_seat is not None:
        match.seats[fantasy_seat].fantasy = 14  # owed from the hand before (R8)
    match.start_hand(0.0)
    return match


def state_of(match: Match, seat: int, draft: dict[int, str], free: dict[str, int],
             street: int, *, away: bool = False) -> SeatState:
    return SeatState(table_id=7, player_id=PLAYERS[seat].player_id, seat=seat,
                     view=match.view_for(seat), hand_no=match.hand_no, street=street,
                     draft=draft, to_act=True, deadline=None, free=free, away=away)


def items(view: discord.ui.View) -> list[Any]:
    """The buttons and menus, unwrapped from their DynamicItem."""
    return [child.item for child in view.children]  # type: ignore[attr-defined]


def rows_of(view: discord.ui.View) -> dict[int, list[Any]]:
    rows: dict[int, list[Any]] = {}
    for item in items(view):
        rows.setdefault(item.row, []).append(item)
    return dict(sorted(rows.items()))


def test_street_one_is_a_line_per_card_named_by_it_with_confirm_on_the_last() -> None:
    match = new_match()
    seat = match.pending()[0]
    state = state_of(match, seat, {}, {"top": 3, "middle": 5, "bottom": 5, "discard": 0}, 1)
    dealt = state.view.dealt
    rows = rows_of(controls_view("en-US", state))
    assert list(rows) == [0, 1, 2, 3, 4]  # Discord's limit: 5 action rows
    for n, card in enumerate(dealt):
        name, *places = rows[n][:4]
        # the card, greyed, then its rows: 4 short buttons fit one line of a phone
        assert (name.label, name.disabled, name.custom_id) == (
            card_label("en-US", card), True, f"ofc:row:card{INDEX[card]}")
        assert [b.label for b in places] == ["Top", "Middle", "Bottom"]
        assert [parse_place(b.custom_id) for b in places] == [
            PlaceId(Turn(7, 1, 1, seat), card, r) for r in ("top", "middle", "bottom")]
    # No Reset (a card moves with one tap; a sixth line would not fit), and Confirm waits
    # for all five cards.
    assert [b.label for b in rows[4][4:]] == ["Confirm"] and rows[4][4].disabled
    assert rows[4][4].custom_id == str(StepId(Turn(7, 1, 1, seat), "confirm"))
    assert all(len(r) <= 5 for r in rows.values())


def test_a_full_row_is_disabled_except_for_the_cards_drafted_into_it() -> None:
    match = new_match()
    seat = match.pending()[0]
    dealt = match.dealt_to(seat)
    draft = dict.fromkeys(dealt[:3], "top")  # top row holds 3: now full
    state = state_of(match, seat, draft, {"top": 0, "middle": 5, "bottom": 5, "discard": 0}, 1)
    rows = rows_of(controls_view("en-US", state))
    for n, card in enumerate(dealt):
        top, middle = rows[n][1], rows[n][2]
        if card in draft:
            assert not top.disabled and top.style is discord.ButtonStyle.success
        else:
            assert top.disabled and top.style is discord.ButtonStyle.secondary
        assert not middle.disabled and middle.style is discord.ButtonStyle.secondary


def later_street(variant: str) -> tuple[Match, int]:
    """Street 2, both seats' street 1 placed (R10's placement is as good as any)."""
    match = new_match(variant)
    for _ in range(2):
        seat = match.pending()[0]
        match.place(seat, auto_assignment(match.view_for(seat).board, match.dealt_to(seat), 0),
                    1.0)
    return match, match.pending()[0]


def test_pineapple_street_two_is_a_grid_of_rows_by_cards() -> None:
    match, seat = later_street("pineapple")
    dealt = match.dealt_to(seat)
    assert len(dealt) == 3  # R7: 3 dealt, 2 placed, 1 discarded
    draft = {dealt[1]: "top"}
    state = state_of(match, seat, draft, {"top": 3, "middle": 5, "bottom": 0, "discard": 1}, 2)
    rows = rows_of(controls_view("en-US", state))
    # one short line per row on a phone: its name, greyed, then a button per card
    assert list(rows) == [0, 1, 2, 3, 4]
    for n, (name, target) in enumerate([("Top", "top"), ("Middle", "middle"),
                                        ("Bottom", "bottom"), ("Discard", "discard")]):
        label, *cards = rows[n]
        assert (label.label, label.disabled, label.custom_id) == (name, True, f"ofc:row:{target}")
        assert [b.label for b in cards] == [card_label("en-US", c) for c in dealt]
        assert [parse_place(b.custom_id) for b in cards] == [
            PlaceId(Turn(7, 1, 2, seat), c, target) for c in dealt]
    assert all(b.disabled for b in rows[2][1:])  # the bottom was filled on street 1
    assert rows[0][2].style is discord.ButtonStyle.success  # the card drafted to the top
    assert [b.label for b in rows[4]] == ["Reset", "Confirm"]
    assert rows[4][1].disabled  # Confirm waits for a complete street


def test_turbo_four_cards_are_a_line_per_card_and_a_line_to_finish() -> None:
    match, seat = later_street("turbo")
    state = state_of(match, seat, {}, {"top": 3, "middle": 5, "bottom": 0, "discard": 0}, 2)
    rows = rows_of(controls_view("en-US", state))
    # no Discard in turbo (R7); a name and a card per line would be 5 buttons, too wide
    assert [len(r) for r in rows.values()] == [4, 4, 4, 4, 2]
    assert [b.label for b in rows[0][1:]] == ["Top", "Middle", "Bottom"]
    assert [b.label for b in rows[4]] == ["Reset", "Confirm"]


def test_fantasyland_has_three_row_menus_over_every_card_and_solve_reset_confirm() -> None:
    match = new_match(fantasy_seat=0)
    dealt = match.dealt_to(0)
    assert len(dealt) == 14
    draft = {dealt[0]: "top", dealt[1]: "bottom"}
    state = state_of(match, 0, draft, {"top": 2, "middle": 5, "bottom": 4, "discard": 1}, 0)
    rows = rows_of(controls_view("en-US", state))
    menus = [rows[n][0] for n in range(3)]
    assert [m.custom_id for m in menus] == [str(FantasyRowId(Turn(7, 1, 0, 0), r))
                                            for r in ("top", "middle", "bottom")]
    assert [m.max_values for m in menus] == [3, 5, 5] and all(m.min_values == 0 for m in menus)
    for menu in menus:
        assert [o.value for o in menu.options] == [str(INDEX[c]) for c in order_cards(dealt)]
    assert [o.label for o in menus[0].options if o.default] == [card_label("en-US", dealt[0])]
    assert [o.label for o in menus[2].options if o.default] == [card_label("en-US", dealt[1])]
    assert not any(o.default for o in menus[1].options)
    assert [b.label for b in rows[3]] == ["Solve", "Reset", "Confirm"]


def test_an_away_seat_gets_only_the_button_to_come_back() -> None:
    match = new_match()
    state = state_of(match, 0, {}, {"top": 3, "middle": 5, "bottom": 5, "discard": 0}, 1,
                     away=True)
    view = controls_view("en-US", state)
    assert [(b.label, b.custom_id) for b in items(view)] == [("I'm back", "ofc:back:7")]


def test_card_labels_use_suit_symbols() -> None:
    assert [card_label("en-US", parse_card(t)) for t in ("Ah", "Td", "2c", "Ks")] == [
        "A♥", "T♦", "2♣", "K♠"]
    assert card_label("en-US", JOKERS[0]) == "Joker" and card_str(parse_card("Ah")) == "Ah"


def test_lobby_buttons_follow_the_seats() -> None:
    seats = (LobbySeat(11, "alice", None, 200),)
    lobby = LobbyView(table_id=4, guild_id=1, channel_id=2, thread_id=None, host_id=11,
                      rules=TableRules(seats=2), seats=seats, status="lobby", created_at=0.0,
                      expires_at=900.0)
    buttons = {b.label: b for b in items(lobby_view("en-US", lobby))}
    assert list(buttons) == ["Join", "Leave", "Start", "Cancel", "Add computer (easy)",
                             "Add computer (strong)", "Remove computer"]
    assert buttons["Start"].disabled  # one player cannot start (R7: 2 or more)
    assert buttons["Remove computer"].disabled  # no computer seated
    assert buttons["Join"].custom_id == "ofc:lobby:4:join"
    full = replace(lobby, seats=(*seats, LobbySeat(-1, "Computer 1 (easy)", "easy", 200)))
    buttons = {b.label: b for b in items(lobby_view("en-US", full))}
    assert buttons["Join"].disabled and not buttons["Start"].disabled
    assert not buttons["Remove computer"].disabled
    assert lobby_view("en-US", replace(full, status="playing")).children == []
    assert lobby_view("en-US", replace(lobby, lent=True)).children == []  # the tournament's
