"""Every layout renders from real views (R7-R11), deterministically, within the size targets;
the marks each state calls for are drawn, and only then."""

from dataclasses import replace

import pytest
from PIL import Image

from bot.engine.board import Board
from bot.engine.match import Match
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, SeatView, TableView
from rendering import canvas, cards, private_png, samples, showdown_png, table_png, theme
from rendering.private import private_image
from rendering.showdown import showdown_image
from rendering.table import table_image
from tests.rendering.conftest import png

MAX_KB = 250


def has(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    rgb = image.convert("RGB")  # the images are drawn in palette mode
    return any(c == colour for _, c in rgb.getcolors(rgb.width * rgb.height))


def check_png(data: bytes) -> Image.Image:
    assert len(data) <= MAX_KB * 1024
    image = png(data)
    assert 600 <= image.width <= 1300
    return image


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_street_to_showdown_renders_and_each_action_shows(seats: int) -> None:
    match = samples.new_match(seats, seed=11)
    before = table_png(match.public_view())
    check_png(before)
    images = [before]
    for m in samples.play(match):
        images.append(check_png(table_png(m.public_view())).tobytes())
        for seat in m.pending():
            view = m.view_for(seat)
            check_png(private_png(view, samples.choice(m, seat)))
            check_png(private_png(view))
    # R7: every placement is public in sequential order, so no two table images are alike.
    assert len(set(images)) == len(images)
    view = match.public_view()
    assert view.showdown is not None and len(view.showdown.seats) == seats
    check_png(showdown_png(view))
    check_png(table_png(view))


def test_same_view_same_bytes_even_with_cold_caches(mid_hand: Match) -> None:
    view = mid_hand.public_view()
    seat = mid_hand.pending()[0]
    private = mid_hand.view_for(seat)
    draft = samples.choice(mid_hand, seat)
    first = (table_png(view), private_png(private, draft))
    for cached in (cards.face, cards.tile, cards.back, cards.slot, cards.ring, canvas.rounded,
                   canvas.panel_base):
        cached.cache_clear()
    again = (table_png(mid_hand.public_view()), private_png(mid_hand.view_for(seat), draft))
    assert first == again


def test_cards_placed_this_street_are_ringed_gold(mid_hand: Match) -> None:
    view = mid_hand.public_view()
    assert any(s.new_cards for s in view.seats)
    quiet = replace(view, to_act=(), seats=tuple(replace(s, new_cards=()) for s in view.seats))
    assert has(table_image(replace(view, to_act=())), theme.GOLD)
    assert not has(table_image(quiet), theme.GOLD)


def test_whose_turn_is_highlighted(mid_hand: Match) -> None:
    view = mid_hand.public_view()
    quiet = tuple(replace(s, new_cards=()) for s in view.seats)
    assert has(table_image(replace(view, seats=quiet)), theme.GOLD)
    assert not has(table_image(replace(view, seats=quiet, to_act=())), theme.GOLD)


def test_fantasyland_board_is_backs_until_set_then_hidden(fantasy: Match) -> None:
    match = fantasy.copy()
    seat = samples.fantasy_seat(match)
    before = match.public_view()
    assert not has(table_image(before), theme.BACK)
    assert has(table_image(before), theme.FANTASY)  # the badge
    match.place(seat, samples.choice(match, seat), 101.0)
    after = match.public_view()
    assert next(s for s in after.seats if s.seat == seat).hidden_cards == 13
    assert has(table_image(after), theme.BACK)
    check_png(table_png(after))


def test_fantasyland_private_shows_every_card_and_the_arrangement(fantasy: Match) -> None:
    seat = samples.fantasy_seat(fantasy)
    view = fantasy.view_for(seat)
    assert 14 <= len(view.dealt) <= 17
    draft = samples.choice(fantasy, seat)
    assert "discard" in draft.values()
    drafted = private_image(view, draft)
    assert has(drafted, theme.DRAFT) and has(drafted, theme.DISCARD)
    plain = private_image(view)
    assert not has(plain, theme.DRAFT) and not has(plain, theme.DISCARD)
    check_png(private_png(view, draft))


def test_a_set_fantasyland_board_shows_to_its_owner(fantasy: Match) -> None:
    match = fantasy.copy()
    seat = samples.fantasy_seat(match)
    match.place(seat, samples.choice(match, seat), 101.0)
    view = match.view_for(seat)
    assert view.board.complete and not view.dealt
    check_png(private_png(view))


def test_fouled_board_is_stamped(eventful_showdown: Match) -> None:
    view = eventful_showdown.public_view()
    assert view.showdown is not None
    assert any(s.fouled for s in view.showdown.seats)
    assert has(showdown_image(view), theme.FOUL)
    clean = replace(view.showdown, seats=tuple(replace(s, fouled=False)
                                               for s in view.showdown.seats))
    assert not has(showdown_image(replace(view, showdown=clean)), theme.FOUL)


def test_fantasyland_earned_is_shown(eventful_showdown: Match) -> None:
    view = eventful_showdown.public_view()
    assert view.showdown is not None
    assert any(s.fantasy_next for s in view.showdown.seats)
    assert has(showdown_image(view), theme.FANTASY)
    none = replace(view.showdown, seats=tuple(replace(s, fantasy_next=0)
                                              for s in view.showdown.seats))
    assert not has(showdown_image(replace(view, showdown=none)), theme.FANTASY)


def test_jokers_show_what_they_stand_for(joker_showdown: Match) -> None:
    view = joker_showdown.public_view()
    image = showdown_image(view)
    assert has(image, theme.JOKER_TINT) and has(image, theme.JOKER_NOTE)
    check_png(showdown_png(view))


def test_away_seat_is_marked() -> None:
    view = samples.away_hand().public_view()
    away = [s for s in view.seats if s.away]
    assert away and not any(s.sitting_out for s in view.seats)
    assert has(table_image(view), theme.AWAY)
    back = replace(view, seats=tuple(replace(s, away=False) for s in view.seats))
    assert not has(table_image(back), theme.AWAY)


def test_a_seat_sitting_out_is_dimmed() -> None:
    view = samples.joining_hand().public_view()
    out = next(s for s in view.seats if s.sitting_out)
    dimmed = table_image(view)
    shown = table_image(replace(view, seats=tuple(
        replace(s, sitting_out=False) if s.seat == out.seat else s for s in view.seats)))
    # Its name is drawn in full white only when it is not dimmed.
    assert has(shown, theme.TEXT)
    assert dimmed.tobytes() != shown.tobytes()
    check_png(table_png(view))


def test_before_the_first_hand_and_a_seat_not_dealt_in() -> None:
    match = Match.new(TableRules(), [samples_spec(1), samples_spec(2)], seed=1)
    check_png(table_png(match.public_view()))
    check_png(private_png(match.view_for(0)))


def samples_spec(n: int):  # type: ignore[no-untyped-def]
    from bot.engine.match import PlayerSpec

    return PlayerSpec(n, samples.NAMES[n - 1], samples.STACK)


def test_a_lone_seat_and_long_names_and_large_stacks_fit() -> None:
    # /ofc solve shows one seat and no others; names run to Discord's 32 characters.
    seat = SeatView(seat=0, player_id=0, name="W" * 32, stack=123_456_789, board=Board(),
                    in_fantasy=True, fantasy_size=17)
    table = TableView(rules=TableRules(), hand_no=1, phase="playing", street=0, streets=5,
                      button=0, seats=(seat,), to_act=(0,), fantasy_hand=True)
    from bot.engine.cards import DECK

    view = PrivateView(table=table, seat=0, board=Board(), dealt=DECK[:17], discard_count=4)
    check_png(private_png(view))
    check_png(table_png(replace(table, seats=(seat, replace(seat, seat=1, name="Ω" * 32)))))


def test_all_samples_are_within_the_size_target() -> None:
    for name, data in samples.samples().items():
        assert len(data) <= MAX_KB * 1024, name
