"""Status badges stay inside their line: a little smaller first, then the least urgent left
out, never the most urgent, and never drawn past the room they were given."""

import pytest
from PIL import Image

from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.engine.views import TableView
from bot.i18n import t
from rendering import samples, theme
from rendering.canvas import pill_width
from rendering.seat import fit_badges, seat_badges

TURN, FANTASY, BOT = ("TO ACT", theme.GOLD), ("FANTASYLAND 17", theme.FANTASY), ("BOT", theme.MUTED)


def natural(labels: list[tuple[str, theme.RGB]], size: int, gap: int) -> int:
    return sum(pill_width(label, size) + gap for label, _ in labels) - gap


def test_badges_that_fit_are_drawn_as_they_are() -> None:
    room = natural([TURN, FANTASY, BOT], 17, 6)
    fitted = fit_badges([TURN, FANTASY, BOT], room, 17, 6)
    assert (fitted.size, fitted.shown) == (17, (TURN, FANTASY, BOT))


def test_badges_shrink_before_any_is_left_out() -> None:
    room = natural([TURN, FANTASY, BOT], 15, 6)  # fits two sizes smaller
    fitted = fit_badges([TURN, FANTASY, BOT], room, 17, 6)
    assert (fitted.size, fitted.shown) == (15, (TURN, FANTASY, BOT))


def test_the_least_urgent_go_first_and_the_drawing_stays_in_its_room() -> None:
    room = natural([TURN, FANTASY], 13, 6) + 2  # even the smallest size leaves no room for BOT
    fitted = fit_badges([TURN, FANTASY, BOT], room, 17, 6)
    assert (fitted.size, fitted.shown) == (13, (TURN, FANTASY))
    canvas = Image.new("RGB", (400, 40), (0, 0, 0))
    drawn = fitted.draw(canvas, 10, 20)
    assert drawn - 6 <= room
    box = canvas.getbbox()
    assert box is not None and box[0] == 10 and box[2] <= 10 + room
    assert fit_badges([TURN, FANTASY, BOT], 5, 17, 6).shown == ()


def busted_at_showdown() -> TableView:
    """A cash table's showdown where the seat that came with 1 chip lost it (R6)."""
    def make(seed: int) -> Match:
        rules = TableRules.from_mapping({"seats": 3, "format": "cash"})
        match = Match.new(rules, [PlayerSpec(1, "Alice", 1), PlayerSpec(2, "Bo", 200),
                                  PlayerSpec(3, "Chen", 200)], seed=seed)
        match.start_hand(0.0)
        return samples.finish(match, careless=frozenset({0}))
    return samples.search(make, lambda m: m.public_view().seats[0].stack == 0).public_view()


@pytest.mark.parametrize("locale", ["en-US", "ru", "sv-SE", "zh-CN"])
def test_a_busted_seat_is_marked_out_not_sitting_out(locale: str) -> None:
    # It played the hand and is dealt no more (R6): "sitting out" would say it is back later.
    view = busted_at_showdown()
    busted = view.seats[0]
    assert busted.out and busted.sitting_out
    labels = [label for label, _ in seat_badges(locale, busted, False)]
    assert labels == [t(locale, "OUT")]
    assert t(locale, "OUT") != t(locale, "SITTING OUT")
    still = [label for label, _ in seat_badges(locale, view.seats[1], False)]
    assert t(locale, "OUT") not in still
