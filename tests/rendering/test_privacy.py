"""R7, R8: images are drawn from views only, so changing what a viewer may not see (other
seats' dealt cards and discards, the deck, a set Fantasyland board, a simultaneous street's
placements) changes not one byte of the public image or of another seat's private image."""

from dataclasses import replace

from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.royalties import ROWS
from rendering import private_png, samples, showdown_png, table_png


def swap_hidden(match: Match, keep: int | None) -> Match:
    """A copy in which every card hidden from seat `keep` (from everyone when None) is
    replaced by a card from the undealt deck, and the rest of the deck is reversed."""
    changed = match.copy()
    hand = changed.hand
    assert hand is not None
    pool = list(hand.deck[hand.next_card:])
    returned: list[Card] = []

    def swap(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        new = tuple(pool.pop() for _ in cards)
        returned.extend(cards)
        return new

    for seat, sh in hand.seats.items():
        if seat == keep:
            continue
        board = sh.board
        hidden = sh.hidden
        if sh.fantasy and sh.acted and changed.phase == "playing":
            board = Board(*(swap(board.row(r)) for r in ROWS))
        elif hidden:
            new_hidden = swap(hidden)
            mapping = dict(zip(hidden, new_hidden, strict=True))
            board = Board(*(tuple(mapping.get(c, c) for c in board.row(r)) for r in ROWS))
            hidden = new_hidden
        hand.seats[seat] = replace(sh, dealt=swap(sh.dealt), discards=swap(sh.discards),
                                   board=board, hidden=hidden)
    hand.deck[hand.next_card:] = list(reversed(pool + returned))
    return changed


def hidden_cards(match: Match, keep: int | None) -> list[tuple[Card, ...]]:
    hand = match.hand
    assert hand is not None
    return [sh.dealt + sh.discards + sh.hidden + (sh.board.cards if sh.fantasy else ())
            for s, sh in sorted(hand.seats.items()) if s != keep]


def test_others_dealt_cards_discards_and_the_deck_do_not_show(mid_hand: Match) -> None:
    viewer = mid_hand.pending()[0]
    changed = swap_hidden(mid_hand, keep=viewer)
    assert hidden_cards(changed, viewer) != hidden_cards(mid_hand, viewer)  # really changed
    assert table_png(changed.public_view()) == table_png(mid_hand.public_view())
    draft = samples.choice(mid_hand, viewer)
    assert (private_png(changed.view_for(viewer), draft)
            == private_png(mid_hand.view_for(viewer), draft))


def test_the_check_sees_a_change_of_the_viewers_own_cards(mid_hand: Match) -> None:
    # The control: swapping the viewer's own dealt cards does change its private image.
    viewer = mid_hand.pending()[0]
    changed = swap_hidden(mid_hand, keep=None)
    assert private_png(changed.view_for(viewer)) != private_png(mid_hand.view_for(viewer))


def test_a_set_fantasyland_board_does_not_show(fantasy: Match) -> None:
    match = fantasy.copy()
    seat = samples.fantasy_seat(match)
    match.place(seat, samples.choice(match, seat), 101.0)
    other = next(s for s in match.pending() if s != seat)
    changed = swap_hidden(match, keep=other)
    assert changed.hand is not None and match.hand is not None
    assert changed.hand.seats[seat].board != match.hand.seats[seat].board
    assert table_png(changed.public_view()) == table_png(match.public_view())
    assert private_png(changed.view_for(other)) == private_png(match.view_for(other))


def test_a_fantasyland_hand_being_arranged_does_not_show(fantasy: Match) -> None:
    seat = samples.fantasy_seat(fantasy)
    other = next(s.seat for s in fantasy.public_view().seats if s.seat != seat)
    changed = swap_hidden(fantasy, keep=other)
    assert hidden_cards(changed, other) != hidden_cards(fantasy, other)
    assert table_png(changed.public_view()) == table_png(fantasy.public_view())
    assert private_png(changed.view_for(other)) == private_png(fantasy.view_for(other))


def test_a_simultaneous_street_does_not_show_before_it_ends() -> None:
    match = samples.finish(
        samples.new_match(3, seed=4, order="simultaneous"),
        lambda m: m.public_view().street == 2 and len(m.pending()) == 2)
    placed = next(s for s, sh in match.hand.seats.items() if sh.hidden)  # type: ignore[union-attr]
    viewer = match.pending()[0]
    changed = swap_hidden(match, keep=viewer)
    assert changed.hand.seats[placed].hidden != match.hand.seats[placed].hidden  # type: ignore[union-attr]
    assert table_png(changed.public_view()) == table_png(match.public_view())
    assert private_png(changed.view_for(viewer)) == private_png(match.view_for(viewer))


def test_discards_do_not_show_at_showdown(eventful_showdown: Match) -> None:
    # The deck is nearly used up: the seats pass their discards round instead.
    changed = eventful_showdown.copy()
    hand = changed.hand
    assert hand is not None
    seats = sorted(hand.seats)
    discards = [hand.seats[s].discards for s in seats]
    for s, cards in zip(seats, discards[1:] + discards[:1], strict=True):
        hand.seats[s] = replace(hand.seats[s], discards=cards)
    view = eventful_showdown.public_view()
    assert hidden_cards(changed, None) != hidden_cards(eventful_showdown, None)
    assert showdown_png(changed.public_view()) == showdown_png(view)
    assert table_png(changed.public_view()) == table_png(view)
