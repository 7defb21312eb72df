"""The tournament standings count in words: one hand, one warning; the plural forms of each
language past one (R13)."""

from bot.engine.tournament import Tournament
from cogs.tournaments.embeds import standings


def tournament(hands: int, payouts: tuple[int, ...] = (100,)) -> Tournament:
    t = Tournament.new(7, 10, 99, buy_in=50, seats=2, hands=hands, payouts=payouts, seed=1,
                       closes_at=100.0, min_hands=1)
    for player in (1, 2):
        t.join(player, f"P{player}", now=0.0)
    return t


def test_one_hand_and_one_warning_are_said_in_the_singular() -> None:
    t = tournament(1)
    t.warn(1, "slow", by=99, now=1.0)
    fields = {f.name: f.value for f in standings("en-US", t).fields}
    # R13: two seats and an odd number of players put three at one table
    assert str(fields["Format"]).endswith(
        "tables of 2 (one of 3 when the number is odd), 1 hand a table")
    assert "P1: in, 1 warning\n" in str(fields["Players (2)"]) + "\n"


def test_more_take_each_languages_plural() -> None:
    t = tournament(5)
    t.warn(1, "slow", by=99, now=1.0)
    t.warn(1, "slower", by=99, now=2.0)
    fields = {f.name: str(f.value) for f in standings("ru", t).fields}
    assert fields["Формат"].endswith("5 раздач за стол")
    assert "2 предупреждения" in fields["Игроки (2)"]


def test_three_seat_tables_say_at_most_three() -> None:
    t = Tournament.new(7, 10, 99, buy_in=50, seats=3, hands=20, payouts=(100,), seed=1,
                       closes_at=100.0, min_hands=1)
    fields = {f.name: str(f.value) for f in standings("sv-SE", t).fields}
    assert fields["Format"].endswith("bord med högst 3, 20 händer per bord"), fields["Format"]


def test_payout_shares_read_as_percentages() -> None:
    fields = {f.name: str(f.value) for f in standings("en-US", tournament(20, (65, 35))).fields}
    assert "paid to places: 65% / 35%," in fields["Format"]


def test_final_standings_show_computers_prizes_and_the_excluded() -> None:
    t = tournament(20, (65, 35))
    t.join(3, "P3", now=0.0)
    t.join(-1, "Computer 1 (easy)", now=0.0, ai_level="easy")
    for reason in ("slow", "slower", "slowest"):
        t.warn(3, reason, by=99, now=1.0)
    t.start()
    for table in list(t.current_tables):
        t.table_done(table.level, table.index, {p: -p for p in table.players})
    for table in list(t.current_tables):
        t.table_done(table.level, table.index, {p: -p for p in table.players})
    assert t.status == "finished"
    fields = {f.name: str(f.value) for f in standings("en-US", t).fields}
    lines = fields["Final standings and payouts"].splitlines()
    assert lines[-1] == "excluded: P3"
    paid = {p.player_id: p.prize for p in t.placings}
    assert paid == {-1: 0, 1: 98, 2: 52, 3: 0} or paid == {-1: 0, 1: 52, 2: 98, 3: 0}
    computer = next(p for p in t.placings if p.computer)
    assert lines[computer.place - 1].startswith(f"{computer.place}. ")
    assert ":" not in lines[computer.place - 1]  # placed, paid nothing


def test_a_table_in_play_shows_its_hand_in_each_language_and_no_points_yet() -> None:
    """A table's points are known once it is done: while it plays, its players and the
    hand it is at (given by the table service), not '+0' for each."""
    t = tournament(20)
    t.penalty(2, 10, "slow", by=99, now=1.0)
    (table,) = t.start()
    table.table_id, table.status = 55, "playing"
    for loc, name in (("en-US", "Table 1 (playing: hand 3 of 21)"),
                      ("ru", "Стол 1 (идёт игра: раздача 3 из 21)"),
                      ("sv-SE", "Bord 1 (spelar: hand 3 av 21)"),
                      ("zh-CN", "牌桌 1（进行中：第 3 手，共 21 手）")):
        fields = {f.name: str(f.value) for f in standings(loc, t, in_play={55: (3, 21)}).fields}
        assert sorted(fields[name].splitlines()) == ["P1", "P2"], loc
    unknown = {f.name: str(f.value) for f in standings("en-US", t).fields}
    assert sorted(unknown["Table 1 (playing)"].splitlines()) == ["P1", "P2"]
