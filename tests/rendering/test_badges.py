"""Status badges stay inside their line: a little smaller first, then the least urgent left
out, never the most urgent, and never drawn past the room they were given."""

from PIL import Image

from rendering import theme
from rendering.canvas import pill_width
from rendering.seat import fit_badges

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
