"""The tournament standings count in words: one hand, one warning; the plural forms of each
language past one (R13)."""

from bot.engine.tournament import Tournament
from cogs.tournaments.embeds import standings


def tournament(hands: int) -> Tournament:
    t = Tournament.new(7, 10, 99, buy_in=50, seats=2, hands=hands, payouts=(100,), seed=1,
                       closes_at=100.0)
    for player in (1, 2):
        t.join(player, f"P{player}", now=0.0)
    return t


def test_one_hand_and_one_warning_are_said_in_the_singular() -> None:
    t = tournament(1)
    t.warn(1, "slow", by=99, now=1.0)
    fields = {f.name: f.value for f in standings("en-US", t).fields}
    assert str(fields["Format"]).endswith("tables of at most 2, 1 hand a table")
    assert "P1: in, 1 warning\n" in str(fields["Players (2)"]) + "\n"


def test_more_take_each_languages_plural() -> None:
    t = tournament(5)
    t.warn(1, "slow", by=99, now=1.0)
    t.warn(1, "slower", by=99, now=2.0)
    fields = {f.name: str(f.value) for f in standings("ru", t).fields}
    assert fields["Формат"].endswith("5 раздач за стол")
    assert "2 предупреждения" in fields["Игроки (2)"]
