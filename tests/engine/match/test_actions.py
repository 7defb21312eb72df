"""Bad actions of every kind are refused with a message a player can read, and change nothing."""

from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.errors import RuleError
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from tests.engine.match.helpers import cards_of, new_match, start_with


def refused(match: Match, action: Callable[[], Any], message: str) -> None:
    before = match.to_json()
    with pytest.raises(RuleError) as error:
        action()
    assert str(error.value) == message
    assert match.to_json() == before


def assign(cards: str, *rows: str) -> dict[int, str]:
    return dict(zip(cards_of(cards), rows, strict=True))


STREET1 = "Ah Kh Qh Jh Th  2c 3c 4c 5c 6c  2d 3d 4d  7s 8s 9s"


def two_players() -> Match:
    """Seat 0 (Ann) acts first (button 1). Street 1: Ann Ah Kh Qh Jh Th, Bob 2c-6c."""
    match = new_match(2, button=1)
    start_with(match, STREET1)
    return match


def test_setup_limits() -> None:
    specs = [PlayerSpec(i, f"P{i}", 100) for i in range(5)]
    for variant, count, message in [
        ("pineapple", 4, "This table seats at most 3 players."),
        ("joker", 4, "This table seats at most 3 players."),
        ("lowball", 1, "A match needs at least two players."),
        ("turbo", 5, "This table seats at most 4 players."),
    ]:
        rules = TableRules.from_mapping({"variant": variant,
                                         "seats": 4 if variant == "turbo" else 3})
        with pytest.raises(RuleError, match=message):
            Match.new(rules, specs[:count])
    assert Match.new(TableRules(variant="turbo", seats=4), specs[:4]).seats[3] is not None
    with pytest.raises(RuleError, match="A player can sit at a table only once"):
        Match.new(TableRules(), [specs[0], specs[0]])
    with pytest.raises(RuleError, match="needs chips"):
        Match.new(TableRules(), [specs[0], PlayerSpec(9, "Zed", 0)])


def test_street_one_refusals() -> None:
    match = two_players()
    refused(match, lambda: match.place(1, assign("2c 3c 4c 5c 6c", *["bottom"] * 5), 1.0),
            "It is Ann's turn.")
    refused(match, lambda: match.place(0, assign("Ah Kh Qh Jh Qs", *["bottom"] * 5), 1.0),
            "Qs is not in your hand.")
    refused(match, lambda: match.place(0, assign("Ah Kh Qh Jh", *["bottom"] * 4), 1.0),
            "Place all 5 cards.")
    refused(match, lambda: match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "top",
                                                 "top", "middle"), 1.0),
            "Top row has room for only 3 cards.")
    refused(match, lambda: match.place(0, assign("Ah Kh Qh Jh Th", "bottom", "bottom",
                                                 "bottom", "bottom", "discard"), 1.0),
            "No card is discarded on this street: place them all.")
    refused(match, lambda: match.place(0, assign("Ah Kh Qh Jh Th", "side", "top", "top",
                                                 "top", "middle"), 1.0),
            "'side' is not a row (top, middle, bottom or discard).")
    refused(match, lambda: match.place(7, {}, 1.0), "There is no seat 7.")
    refused(match, lambda: match.start_hand(1.0), "A hand is already being played.")
    refused(match, lambda: match.back(0, 1.0), "You are not marked away.")
    refused(match, lambda: match.join(PlayerSpec(9, "Eve", 10)),
            "Players can join only a cash table once the match has begun.")
    refused(match, lambda: match.leave(0), "Players can leave only a cash table; this match "
                                           "ends on its own.")


def test_later_street_refusals() -> None:
    match = two_players()
    match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "top", "middle", "middle"), 1.0)
    match.place(1, assign("2c 3c 4c 5c 6c", *["bottom"] * 5), 2.0)
    # Street 2: Ann holds 2d 3d 4d; her top row is full.
    refused(match, lambda: match.place(0, assign("2d 3d 4d", "middle", "middle", "middle"),
                                       3.0), "Discard exactly one card.")
    refused(match, lambda: match.place(0, assign("2d 3d 4d", "middle", "discard", "discard"),
                                       3.0), "Discard exactly one card.")
    refused(match, lambda: match.place(0, assign("2d 3d", "middle", "discard"), 3.0),
            "Place 2 cards and discard 1.")
    refused(match, lambda: match.place(0, assign("2d 3d 4d", "top", "middle", "discard"), 3.0),
            "Top row is full.")
    match.place(0, assign("2d 3d 4d", "middle", "middle", "discard"), 3.0)
    # Bob's bottom is full; his middle has room.
    refused(match, lambda: match.place(1, assign("7s 8s 9s", "bottom", "top", "discard"), 4.0),
            "Bottom row is full.")
    refused(match, lambda: match.place(0, assign("2d 3d 4d", "middle", "middle", "discard"),
                                       4.0), "It is Bob's turn.")


def test_row_room_is_named() -> None:
    match = two_players()
    match.place(0, assign("Ah Kh Qh Jh Th", "top", "top", "middle", "middle", "middle"), 1.0)
    match.place(1, assign("2c 3c 4c 5c 6c", *["bottom"] * 5), 2.0)
    refused(match, lambda: match.place(0, assign("2d 3d 4d", "top", "top", "discard"), 3.0),
            "Top row has room for only 1 card.")


def test_simultaneous_and_fantasyland_refusals() -> None:
    match = new_match(3, button=2, order="simultaneous")
    match.seats[2].fantasy = 15  # type: ignore[union-attr]
    start_with(match, "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h Ks As  7c 8c 9c Tc Jc")
    fl = cards_of("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h Ks As")
    rows = ["bottom"] * 5 + ["middle"] * 5 + ["top"] * 3
    refused(match, lambda: match.place(2, dict(zip(fl, [*rows, "discard", "top"],
                                                   strict=True)), 1.0),
            "Discard exactly 2 cards.")
    refused(match, lambda: match.place(2, dict(zip(fl[:14], [*rows, "discard"], strict=True)),
                                       1.0), "Place 13 cards and discard 2.")
    match.place(2, dict(zip(fl, [*rows, "discard", "discard"], strict=True)), 1.0)
    refused(match, lambda: match.place(2, {}, 2.0),
            "You have already set your Fantasyland board.")
    match.place(0, assign("7c 8c 9c Tc Jc", *["bottom"] * 5), 2.0)
    refused(match, lambda: match.place(0, {}, 3.0),
            "You have placed this street; waiting for Bob.")


def test_no_hand_and_over() -> None:
    match = new_match(2)
    refused(match, lambda: match.place(0, {}, 0.0), "No hand is being played.")
    match.finish()
    refused(match, lambda: match.start_hand(0.0), "The match is over.")
    refused(match, lambda: match.finish(), "The match is already over.")


def test_cash_refusals() -> None:
    match = new_match(2, seats=2, format="cash")
    refused(match, lambda: match.join(PlayerSpec(1, "Ann", 10)), "You are already at this table.")
    refused(match, lambda: match.join(PlayerSpec(9, "Eve", 10)), "The table is full.")
    match.leave(1)
    refused(match, lambda: match.start_hand(0.0),
            "At least two players are needed to deal a hand.")
    refused(match, lambda: match.leave(1), "You have already left.")


def test_cash_rejoin_takes_back_the_seat_between_hands() -> None:
    # R11: a player who got up (or busted) may buy in again before the next deal,
    # in the seat it still holds; during a hand it waits for the next deal.
    match = new_match(2, seats=3, format="cash")
    match.leave(0)
    refused(match, lambda: match.join(PlayerSpec(1, "Ann", 10), 2),
            "Your seat is still seat 0 until the next hand is dealt.")
    match.join(PlayerSpec(1, "Ann", 10))
    assert match.seat_of(1) == 0 and match.player(0).status == "joining"
    match.join(PlayerSpec(3, "Cy", 10))
    match.start_hand(0.0)
    match.leave(2)  # Cy gets up after the hand
    refused(match, lambda: match.join(PlayerSpec(3, "Cy", 10)),
            "You are already at this table.")
