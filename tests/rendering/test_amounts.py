"""A stack or chip amount too wide for its place is drawn in its language's short form
("1 trln", "1T"): never under the cards, where it would be cut and read as a smaller amount,
and never taking the whole line from the name."""

import pytest
from PIL import Image

from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.i18n import number, short_number
from rendering import canvas, samples, seat, showdown, strip, table, theme
from tests.rendering.rooms import record_rooms

HUGE = 10 ** 12


def rich_match(seats: int = 3) -> Match:
    """A match of seats holding a trillion chips each, at street 3."""
    rules = TableRules.from_mapping({"seats": seats})
    players = [PlayerSpec(i + 1, samples.NAMES[i], HUGE) for i in range(seats)]
    match = Match.new(rules, players, seed=1)
    match.start_hand(0.0)
    return samples.finish(match, samples.at_street(3, 1))


def inked(img: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether any pixel of `box` is near the text colour."""
    data = img.crop(box).convert("RGB").tobytes()
    return any(sum(abs(a - b) for a, b in zip(data[i:i + 3], theme.TEXT, strict=True)) < 120
               for i in range(0, len(data), 3))


def test_the_short_form_rounds_and_keeps_the_sign() -> None:
    assert short_number("en-US", HUGE) == "1T"
    assert short_number("en-US", 1_250_000, signed=True) == "+1.2M"
    assert short_number("ru", -HUGE) == "-1\u00a0трлн"
    assert number("en-US", HUGE) == "1,000,000,000,000"


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
def test_a_huge_stack_stays_out_of_the_showdowns_cards(locale: str) -> None:
    match = samples.finish(rich_match(), careless=frozenset({1}))
    img = showdown.showdown_image(match.public_view(), locale=locale)
    # The gap between a band's words and its board: nothing drawn there.
    left = canvas.MARGIN + seat.PAD + showdown.INFO_W
    assert not inked(img, (left, canvas.HEADER_H, left + seat.PAD, img.height))


def test_a_huge_stack_stays_out_of_a_strips_cards() -> None:
    match = rich_match()
    view = match.public_view()
    width = 600
    img = Image.new("RGB", (width, strip.height()), theme.FELT)
    strip.draw_strip("ru", img, 0, 0, width, view.seats[0], view.button, False, False)
    row_x = width - strip.PAD - 2 - strip.cards_width()
    assert not inked(img, (row_x - 8, 0, row_x, img.height))


def test_a_huge_stack_leaves_the_name_most_of_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    rooms = record_rooms(monkeypatch, seat)
    view = rich_match().public_view()
    table.table_image(view, locale="ru")
    card_width = table.layout(3)[1]
    line = seat.panel_size(card_width)[0] - 2 * seat.PAD
    assert rooms[samples.NAMES[1]] >= line // 2
