"""The images of /ofc solve and /ofc score show the hands alone, and no image shows a rule
section code (R1-R12 are for the code and the rules file, not for players)."""

import re
from collections.abc import Iterator

import pytest

from bot.ai.solver import solve
from bot.engine.cards import parse_cards
from bot.engine.match import Match
from bot.engine.rules import TableRules
from rendering import canvas, samples, score_png, showdown_png, solution_png, theme
from rendering.solution import solution_image
from tests.rendering.conftest import png
from tests.rendering.test_images import has


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn on an image while the test runs."""
    texts: list[str] = []
    real = canvas._ink

    def record(img, xy, s, f, fill, anchor):  # type: ignore[no-untyped-def]
        texts.append(s)
        real(img, xy, s, f, fill, anchor)

    monkeypatch.setattr(canvas, "_ink", record)
    yield texts


HAND = "As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"


def test_the_solved_hand_alone(drawn: list[str]) -> None:
    solved = solve(parse_cards(HAND), TableRules())
    image = png(solution_png(solved.board, solved.discard, TableRules()))
    assert image.width <= 700
    # each row's hand and royalty, the total, Fantasyland kept (trips on top, R8), no seat
    for label in ("Royal flush", "+25", "+10", "+4", "ROYALTIES +39",
                  "FANTASYLAND NEXT · 14 CARDS", "Discard"):
        assert label in drawn
    assert not {"YOUR TURN", "D", "0", "TO ACT"} & set(drawn)


def test_the_solved_hand_with_jokers_shows_what_they_stand_for() -> None:
    rules = TableRules(variant="joker")
    solved = solve(parse_cards("As X Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"), rules)
    assert has(solution_image(solved.board, solved.discard, rules), theme.JOKER_TINT)


def test_the_score_image_has_no_stacks(drawn: list[str], eventful_showdown: Match) -> None:
    view = eventful_showdown.public_view()
    showdown_png(view)
    assert "stack" in drawn
    drawn.clear()
    png(score_png(view))
    assert "stack" not in drawn and "chips" in drawn


def test_no_rule_codes_on_any_image(drawn: list[str]) -> None:
    samples.samples()
    solved = solve(parse_cards(HAND), TableRules())
    solution_png(solved.board, solved.discard, TableRules())
    lowball = TableRules(variant="lowball")
    solved = solve(parse_cards(HAND), lowball)
    solution_png(solved.board, solved.discard, lowball)
    assert drawn
    assert not [s for s in drawn if re.search(r"\bR\d+\b", s)]


def test_every_entry_point_takes_the_four_colour_deck(mid_hand: Match,
                                                      eventful_showdown: Match) -> None:
    from rendering.private import private_image
    from rendering.showdown import showdown_image
    from rendering.table import table_image

    blue, green = theme.FOUR_COLOUR[2], theme.FOUR_COLOUR[3]
    seat = mid_hand.pending()[0]
    solved = solve(parse_cards(HAND), TableRules())
    draws = [
        lambda four: table_image(mid_hand.public_view(), four),
        lambda four: private_image(mid_hand.view_for(seat), None, four),
        lambda four: showdown_image(eventful_showdown.public_view(), four),
        lambda four: showdown_image(eventful_showdown.public_view(), four, stacks=False),
        lambda four: solution_image(solved.board, solved.discard, TableRules(), four),
    ]
    for draw in draws:
        assert not has(draw(False), blue) and not has(draw(False), green)
        four = draw(True)
        assert has(four, blue) and has(four, green)


def test_the_tool_images_have_no_game_chrome(drawn: list[str],
                                             eventful_showdown: Match) -> None:
    # A hand typed into /ofc score or /ofc solve was played at no table: no hand title, no
    # rules header ("1-6 · 1 chip/pt"), no dealer button.
    def chrome() -> list[str]:
        return [s for s in drawn if s.startswith("Hand ") or "chip/pt" in s or s == "D"]

    view = eventful_showdown.public_view()
    png(showdown_png(view))
    assert chrome()  # the table's own showdown keeps them
    drawn.clear()
    png(score_png(view))
    assert drawn and not chrome()
    drawn.clear()
    solved = solve(parse_cards(HAND), TableRules())
    png(solution_png(solved.board, solved.discard, TableRules()))
    assert drawn and not chrome()
