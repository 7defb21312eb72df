"""A season named by default ("Season 2") reads in the member's language; a name an admin
chose is shown as written."""

from bot.storage.records import Season
from cogs.economy import embeds


def test_a_default_season_name_is_translated() -> None:
    season = Season(7, 1, 2, "Season 2", 0.0, None)
    board = embeds.rating_board("ru", season, [], None, "Клуб")
    started = embeds.season_started("ru", season, "<@1>")
    assert board.title is not None and started.title is not None
    assert "Season" not in board.title and "Сезон 2" in board.title
    assert "Season" not in started.title and "Сезон 2" in started.title


def test_a_chosen_season_name_is_shown_as_written() -> None:
    season = Season(7, 1, 3, "Winter cup", 0.0, None)
    board = embeds.rating_board("ru", season, [], None, "Клуб")
    assert board.title is not None and "Winter cup" in board.title
