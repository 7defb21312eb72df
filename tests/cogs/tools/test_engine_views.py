"""The views the /ofc score and /ofc solve images are drawn from agree with the numbers."""

import pytest

from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.engine.scoresheet import score_sheet
from cogs.tools.engine_views import score_view
from cogs.tools.score_input import score_input
from tests.cogs.tools.test_score import CASES


@pytest.mark.parametrize("case", CASES)
def test_score_view_shows_the_sheets_numbers(case: str) -> None:
    boards, options, points, fantasy, fouled = CASES[case]
    rules = TableRules().with_options({k: v for k, v in options.items() if k != "in_fantasy"})
    request = score_input([f"{n}: {b}" for n, b in boards.items()], rules,
                          options.get("in_fantasy", ""))
    sheet = score_sheet(request)
    view = score_view(rules, request, sheet)
    assert view.showdown is not None
    shown = {view.seats[s.seat].name: s for s in view.showdown.seats}
    assert {n: s.points for n, s in shown.items()} == points
    # No table-stakes cap: every point moves point_value chips (a live game pays itself).
    value = rules.point_value
    assert {n: s.chips for n, s in shown.items()} == {n: p * value for n, p in points.items()}
    assert {n: s.fantasy_next for n, s in shown.items() if s.fantasy_next} == fantasy
    assert {n for n, s in shown.items() if s.fouled} == fouled
    # The typed rows are already in canonical card text.
    assert [s.board.text() for s in view.seats] == [
        {r: p[r] for r in ROWS} for p in request["players"]]
