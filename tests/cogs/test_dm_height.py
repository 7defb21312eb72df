"""Issue 14: on streets 2-5 the whole DM prompt (its text, its image and its buttons) fits one
phone screen without scrolling. Heights come from what each prompt holds (tests/phone.py's
model of Discord's app on a 390 x 844 pt phone), never from timing."""

import io
from collections.abc import Mapping

import discord
import pytest
from PIL import Image

from bot.engine.cards import Card
from bot.engine.match import Match
from bot.engine.views import PrivateView
from bot.tables import SeatState
from cogs.tables.controls import Content, prompt
from cogs.tables.embeds import Where
from rendering import samples
from rendering.samples import Draft
from tests.phone import USABLE, Height, Prompt, height

# The longest names a server and a channel have in practice push the author line to two
# lines; the clock is always shown.
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
    """The prompt's height on the phone, from its embed, its image and its buttons."""
    assert content.file is not None
    image = Image.open(io.BytesIO(content.file.fp.read()))
    rows: dict[int, list[str]] = {}
    for child in content.view.children:
        item = getattr(child, "item", child)
        assert isinstance(item, discord.ui.Button)
        rows.setdefault(item.row or 0, []).append(str(item.label))
    embed = content.embed
    return height(Prompt(embed.author.name, str(embed.title), str(embed.description or ""),
                         image.size, [rows[r] for r in sorted(rows)]))


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
            got = measured(await prompt(state, where=WHERE))
            assert got.total <= USABLE, f"street {view.table.street}: {got}"


async def test_the_last_street_with_royalties_and_fantasyland_fits() -> None:
    view, draft = samples.private_last_street()
    got = measured(await prompt(state_of(view, draft), where=WHERE))
    assert got.total <= USABLE, str(got)


async def test_a_board_that_fouls_asking_confirm_anyway_fits() -> None:
    view, draft = samples.private_foul()
    content = await prompt(state_of(view, draft), where=WHERE, asking=True)
    assert "This board fouls" in str(content.embed.description)
    got = measured(content)
    assert got.total <= USABLE, str(got)


async def test_the_model_counts_what_street_1_adds() -> None:
    # Street 1 is not held to one screen (5 cards, 5 rows of buttons), and its large image
    # makes the model say so: a model that any prompt passed would prove nothing.
    match = samples.new_match(3, seed=3)
    got = measured(await prompt(state_of(own_seat(match)), where=WHERE))
    assert got.total > USABLE and got.image > got.buttons
