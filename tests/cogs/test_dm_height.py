"""Every DM prompt (its text, its image and its controls) fits one phone screen without
scrolling: street 1, streets 2-5, Fantasyland, turbo, hints, 2-4 seats, every language, the
waiting prompt and the foul question, at one table and with the title line a player at two
tables gets. Heights come from what each prompt holds (tests/phone.py's model of Discord's
app on a 390 x 844 pt phone), never from timing."""

from collections.abc import Mapping
from dataclasses import replace

import pytest

from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.views import PrivateView
from bot.i18n import LOCALES
from bot.tables import SeatState
from cogs.tables.controls import Content, prompt
from cogs.tables.embeds import Where
from rendering import samples
from rendering.samples import Draft
from tests import phone_prompts
from tests.phone import (
    BUTTON_HEIGHT,
    GAP,
    MENU_HEIGHT,
    TITLE_LINE,
    USABLE,
    Height,
    Prompt,
    height,
)
from tests.phone_prompts import image_of

# The longest names a server and a channel have in practice; the clock is always shown.
WHERE = Where("The Friday Night Open-Face Club", "ofc-pineapple-high-stakes",
              "https://discord.com/channels/1/2/3")
NOW = 1_800_000_000.0


def state_of(view: PrivateView, draft: Mapping[Card, str] | None = None, *,
             to_act: bool = True) -> SeatState:
    draft = dict(draft or {})
    return SeatState(table_id=7, player_id=11, seat=view.seat, view=view,
                     hand_no=view.table.hand_no, street=view.table.street, draft=draft,
                     to_act=to_act, deadline=NOW + 59,
                     free={"top": 3, "middle": 5, "bottom": 5, "discard": 1}, away=False,
                     complete=len(draft) == len(view.dealt))


def measured(content: Content) -> Height:
    """The prompt's height on the phone, with the image it uploads."""
    assert content.file is not None
    return phone_prompts.measured(content, image_of(content))


def later_streets(seats: int, variant: str = "pineapple") -> list[tuple[PrivateView, Draft]]:
    """The first seat to act on each street from 2 on: its view, and the easy computer's
    placement as a whole draft."""
    match = samples.new_match(seats, seed=3, variant=variant)
    found = []
    for m in samples.play(match):
        street = m.public_view().street
        if street >= 2 and m.pending() and street > len(found) + 1:
            seat = m.pending()[0]
            found.append((m.view_for(seat), samples.choice(m, seat)))
    return found


def own_seat(match: Match) -> PrivateView:
    return match.view_for(match.pending()[0])


@pytest.mark.parametrize("seats", [2, 3])
async def test_every_later_street_fits_a_phone(seats: int) -> None:
    streets = later_streets(seats)
    assert [v.table.street for v, _ in streets] == [2, 3, 4, 5]
    for view, draft in streets:
        for state in (state_of(view), state_of(view, to_act=False), state_of(view, draft)):
            got = measured(await prompt("en-US", state, where=WHERE))
            assert got.total <= USABLE, f"street {view.table.street}: {got}"


async def test_the_last_street_with_royalties_and_fantasyland_fits() -> None:
    view, draft = samples.private_last_street()
    got = measured(await prompt("en-US", state_of(view, draft), where=WHERE))
    assert got.total <= USABLE, str(got)


async def test_a_board_that_fouls_asking_confirm_anyway_fits() -> None:
    view, draft = samples.private_foul()
    content = await prompt("en-US", state_of(view, draft), where=WHERE, asking=True)
    assert "This board fouls" in str(content.embed.description)
    got = measured(content)
    assert got.total <= USABLE, str(got)


async def test_street_1_and_fantasyland_fit_with_the_image_they_upload() -> None:
    match = samples.new_match(3, seed=3)
    got = measured(await prompt("en-US", state_of(own_seat(match)), where=WHERE))
    assert got.total <= USABLE, str(got)
    fantasy = samples.fantasy_hand()
    view = fantasy.view_for(samples.fantasy_seat(fantasy))
    content = await prompt("en-US", replace(state_of(view), street=0), where=WHERE)
    got = measured(content)
    assert got.total <= USABLE and got.buttons > 3 * MENU_HEIGHT, str(got)


def test_the_model_counts_a_tall_image_and_menus() -> None:
    # A model that any prompt passed would prove nothing: street 1 as it was (the own board
    # large, 640 x 981 px; buttons "6♦ → Middle", 3 to a line, wrapping) is taller than the
    # screen, and three menus count.
    old = height(Prompt(None, "Hand 1 of 3 · street 1 of 5", "**Your turn.**", (640, 981),
                        [[f"6♦ → {row}" for row in ("Top", "Middle", "Bottom")]] * 5))
    assert old.total > USABLE and old.buttons > 5 * BUTTON_HEIGHT + 5 * GAP
    assert height(Prompt(None, "t", "d", None, [["Confirm"]], menus=3)).buttons == \
        GAP + 3 * MENU_HEIGHT + BUTTON_HEIGHT + 3 * GAP


def test_every_prompt_version_fits_a_phone() -> None:
    """The whole matrix (tests/phone_prompts.py): every language, seat count, variant, street,
    Fantasyland size and hints setting, each version of the prompt, at one table and at two."""
    measured_all = list(phone_prompts.heights())
    over = [f"{case}: {got}" for case, got in measured_all if got.total > USABLE]
    assert not over, f"{len(over)} prompts taller than the screen:\n" + "\n".join(over[:20])
    # The channel's title line is measured: a line more than at one table (the name is cut
    # to fit one).
    # (tests/phone_prompts.py measures each version at one table, then at two.)
    pairs = zip(measured_all[::2], measured_all[1::2], strict=True)
    assert all(two == replace(one, two_tables=True) and at_two.text == at_one.text + TITLE_LINE
               for (one, at_one), (two, at_two) in pairs)
    cases = [case for case, _ in measured_all]
    assert {c.two_tables for c in cases} == {False, True}
    assert {c.loc for c in cases} == set(LOCALES)
    assert {(c.variant, c.seats) for c in cases} >= {("pineapple", 3), ("turbo", 4)}
    assert {c.street for c in cases} == {0, 1, 2, 3, 4, 5}
    assert {c.fantasy for c in cases if c.street == 0} == {13, 14, 15, 16, 17}
    assert {c.version for c in cases} >= {"to act", "waiting", "foul asked", "away"}
    assert {c.hints for c in cases} == {"off", "on"}
