"""The private image is made for a phone (Discord shows it about 550 px wide there): narrow,
light, each own row labelled with its hand, and a foul that can no longer be avoided warned."""

from dataclasses import replace

import pytest

from bot.engine.match import Match
from bot.engine.outlook import Outlook
from rendering import private, private_png, samples, theme
from rendering.hand import status
from rendering.private import private_image
from tests.rendering.conftest import png
from tests.rendering.test_images import has

MAX_PRIVATE_KB = 50


def test_private_images_are_narrow_and_light(mid_hand: Match, fantasy: Match) -> None:
    views = [samples.private_mid_hand(seats) for seats in (2, 3, 4)]
    seat = samples.fantasy_seat(fantasy)
    views.append((fantasy.view_for(seat), samples.choice(fantasy, seat)))
    views += [samples.private_foul(), samples.private_last_street()]
    for view, draft in views:
        for four_colour in (False, True):
            data = private_png(view, draft, four_colour)
            assert len(data) <= MAX_PRIVATE_KB * 1024
            assert png(data).width == private.WIDTH <= 700


def test_one_players_dms_of_a_hand_stay_under_300_kb() -> None:
    # Each street's prompt and its full draft before Confirm: 10 images in a hand.
    sizes: list[int] = []

    def prompted(m: Match) -> None:
        if m.pending()[:1] == (1,):
            view = m.view_for(1)
            sizes.extend((len(private_png(view)), len(private_png(view, samples.choice(m, 1)))))

    match = samples.new_match(3, seed=11)
    prompted(match)
    for m in samples.play(match):
        prompted(m)
    assert len(sizes) == 10
    assert sum(sizes) <= 300 * 1024


def test_one_players_dms_of_a_four_seat_hand_stay_under_300_kb() -> None:
    # A DM uploads the image again whenever what it shows changes (the image drawn without
    # the draft). At most: a new image after the deal and after every placement of the hand
    # (4 seats x 3 streets of turbo, R7).
    match = samples.new_match(4, seed=11)
    sizes = [len(private_png(match.view_for(1)))]
    sizes += [len(private_png(m.view_for(1))) for m in samples.play(match)]
    assert len(sizes) == 1 + 4 * 3
    assert sum(sizes) <= 300 * 1024


def test_a_foul_that_cannot_be_avoided_is_warned() -> None:
    view, draft = samples.private_foul()
    assert has(private_image(view, draft), theme.FOUL)


def test_no_warning_while_a_finish_avoids_the_foul(mid_hand: Match) -> None:
    seat = mid_hand.pending()[0]
    view = mid_hand.view_for(seat)
    assert not has(private_image(view, samples.choice(mid_hand, seat)), theme.FOUL)


def labels_drawn(monkeypatch: pytest.MonkeyPatch, match: Match) -> bool:
    """Whether the private image of the seat to act, with a draft, changes with its rows'
    labels."""
    seat = match.pending()[0]
    view, draft = match.view_for(seat), samples.choice(match, seat)
    labelled = private_image(view, draft)
    real = private.draft_outlook

    def unlabelled(*args, **kwargs):  # type: ignore[no-untyped-def]
        return replace(real(*args, **kwargs), rows=("", "", ""))

    with monkeypatch.context() as patched:
        patched.setattr(private, "draft_outlook", unlabelled)
        return private_image(view, draft).tobytes() != labelled.tobytes()


def test_the_rows_hands_are_left_to_the_prompt(monkeypatch: pytest.MonkeyPatch,
                                              mid_hand: Match, fantasy: Match) -> None:
    # The prompt's text names each row's hand (with the draft), so no image repeats it
    # (the prompt fits a phone): street 1, streets 2-5 and a Fantasyland hand.
    assert mid_hand.public_view().street == 3
    for match in (samples.new_match(3), mid_hand, fantasy):
        assert not labels_drawn(monkeypatch, match)


def test_street_1_and_fantasyland_show_the_cards_to_place_and_the_others(
        mid_hand: Match, fantasy: Match) -> None:
    # The own board is still empty there: the image is the cards to place and the other
    # seats' strips, shorter than a later street's (the whole prompt's budget is in
    # tests/cogs/test_dm_height.py).
    street_1 = samples.new_match(3)
    first = private_image(street_1.view_for(street_1.pending()[0]))
    later = private_image(mid_hand.view_for(mid_hand.pending()[0]))
    seat = samples.fantasy_seat(fantasy)
    hand = private_image(fantasy.view_for(seat))
    assert first.width == later.width == hand.width == private.WIDTH
    assert first.height < later.height and hand.height < later.height * 1.2
    assert private.dealing(street_1.view_for(street_1.pending()[0]))
    assert private.dealing(fantasy.view_for(seat))
    assert not private.dealing(mid_hand.view_for(mid_hand.pending()[0]))


def test_status_under_the_board() -> None:
    rows = ("", "", "")
    assert status("en-US", Outlook(rows, False, False)) == []
    assert [p[0] for p in status("en-US", Outlook(rows, True, False))] == [
        "FOUL AHEAD · NO FINISH AVOIDS IT"]
    assert [p[0] for p in status("en-US", Outlook(rows, True, True, True))] == [
        "FOULED · NO ROYALTIES"]
    full = Outlook(rows, False, True, False, (7, 2, 4), 14)
    assert [p[0] for p in status("en-US", full)] == ["ROYALTIES +13", "FANTASYLAND NEXT · 14 CARDS"]
    assert status("en-US", Outlook(rows, False, True)) == []
