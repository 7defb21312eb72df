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


def test_each_row_is_labelled_with_its_hand_on_street_1(monkeypatch: pytest.MonkeyPatch,
                                                        fantasy: Match) -> None:
    assert labels_drawn(monkeypatch, samples.new_match(3))
    assert labels_drawn(monkeypatch, fantasy)


def test_streets_2_to_5_leave_the_labels_to_the_prompt(monkeypatch: pytest.MonkeyPatch,
                                                      mid_hand: Match) -> None:
    # The compact image: the prompt's text names each row's hand (with the draft), so the
    # image does not repeat it (issue 14: the prompt fits a phone).
    assert mid_hand.public_view().street == 3
    assert not labels_drawn(monkeypatch, mid_hand)


def test_streets_2_to_5_are_compact_and_street_1_is_not(mid_hand: Match) -> None:
    street_1 = samples.new_match(3)
    tall = private_image(street_1.view_for(street_1.pending()[0]))
    short = private_image(mid_hand.view_for(mid_hand.pending()[0]))
    # The compact image is as wide and at most half as tall as the whole screen's budget
    # for it leaves (tests/cogs/test_dm_height.py holds the budget).
    assert short.width == tall.width and short.height < tall.height * 0.6


def test_status_under_the_board() -> None:
    rows = ("", "", "")
    assert status(Outlook(rows, False, False)) == []
    assert [p[0] for p in status(Outlook(rows, True, False))] == [
        "FOUL AHEAD · NO FINISH AVOIDS IT"]
    assert [p[0] for p in status(Outlook(rows, True, True, True))] == ["FOULED · NO ROYALTIES"]
    full = Outlook(rows, False, True, False, (7, 2, 4), 14)
    assert [p[0] for p in status(full)] == ["ROYALTIES +13", "FANTASYLAND NEXT · 14 CARDS"]
    assert status(Outlook(rows, False, True)) == []
