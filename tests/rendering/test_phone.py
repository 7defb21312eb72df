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


def test_each_row_is_labelled_with_its_hand(monkeypatch: pytest.MonkeyPatch,
                                            mid_hand: Match) -> None:
    seat = mid_hand.pending()[0]
    view = mid_hand.view_for(seat)
    labelled = private_image(view)
    real = private.draft_outlook

    def unlabelled(*args, **kwargs):  # type: ignore[no-untyped-def]
        return replace(real(*args, **kwargs), rows=("", "", ""))

    monkeypatch.setattr(private, "draft_outlook", unlabelled)
    assert private_image(view).tobytes() != labelled.tobytes()


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
