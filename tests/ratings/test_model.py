"""The rating model (bot/ratings.py): places by points, openskill's Plackett-Luce update, the
fixed computer levels and the shown value."""

from openskill.models import PlackettLuce

from bot import ratings
from bot.ratings import DEFAULT, Rating


def test_places_rank_by_points_and_ties_share() -> None:
    # 5 and 5 tie for first; 0 is third (two players above); -3 is fourth
    assert ratings.places([5, -3, 5, 0]) == [1, 4, 1, 3]
    assert ratings.places([0, 0]) == [1, 1]


def test_a_newcomer_shows_1000() -> None:
    # mu 25 - 3 x 25/3 = 0, so 1,000 + 40 x 0
    assert Rating(25.0, 25 / 3) == DEFAULT
    assert DEFAULT.shown == 1000
    assert Rating(30.0, 2.0).shown == 1000 + 40 * 24


def test_a_three_player_result_moves_the_ratings_as_the_library_computes() -> None:
    start = [DEFAULT, Rating(27.0, 5.0), Rating(22.0, 7.0)]
    ranks = [2, 1, 3]
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in start],
                          ranks=ranks)
    after = ratings.rate(start, ranks)
    assert after == [Rating(team[0].mu, team[0].sigma) for team in expected]
    assert after[1].mu > start[1].mu and after[2].mu < start[2].mu  # first up, last down
    assert all(a.sigma < b.sigma for a, b in zip(after, start, strict=True))  # surer of each


def test_beating_a_strong_computer_counts_more_than_beating_an_easy_one() -> None:
    strong = ratings.rate([DEFAULT, ratings.computer("strong")], [1, 2])[0]
    easy = ratings.rate([DEFAULT, ratings.computer("easy")], [1, 2])[0]
    assert strong.mu - DEFAULT.mu > easy.mu - DEFAULT.mu > 0
    # and losing to an easy one costs more than losing to a strong one
    lost_easy = ratings.rate([DEFAULT, ratings.computer("easy")], [2, 1])[0]
    lost_strong = ratings.rate([DEFAULT, ratings.computer("strong")], [2, 1])[0]
    assert DEFAULT.mu - lost_easy.mu > DEFAULT.mu - lost_strong.mu > 0


def test_an_unknown_level_counts_as_easy() -> None:
    assert ratings.computer(None) == ratings.computer("nonsense") == ratings.COMPUTERS["easy"]


def test_every_computer_level_has_its_own_rating() -> None:
    # a level missing here would silently be rated as easy (see the test above)
    from bot.ai.players import LEVELS

    assert set(ratings.COMPUTERS) == set(LEVELS)


def test_a_heads_up_win_between_newcomers_by_hand() -> None:
    """Plackett-Luce (Weng and Lin 2011, as openskill implements it) worked by hand for two
    newcomers: beta = 25/6, tau = 25/300 added to sigma first (sigma'^2 = 625/9 + 1/144),
    c^2 = 2 (sigma'^2 + beta^2) = 173.625, each wins with probability 1/2; the winner's mu
    rises by sigma'^2 / c x 1/2 and the loser's falls as much; each sigma'^2 shrinks by the
    factor 1 - gamma x sigma'^2 / c^2 x 1/4 with gamma = sigma' / c."""
    variance = 625 / 9 + 1 / 144
    c = (2 * (variance + (25 / 6) ** 2)) ** 0.5
    step = variance / c / 2
    sigma = (variance * (1 - variance ** 0.5 / c * variance / c ** 2 / 4)) ** 0.5
    won, lost = ratings.rate([DEFAULT, DEFAULT], [1, 2])
    assert abs(won.mu - (25 + step)) < 1e-9 and abs(lost.mu - (25 - step)) < 1e-9
    assert abs(won.sigma - sigma) < 1e-9 and abs(lost.sigma - sigma) < 1e-9
    assert (round(step, 4), round(sigma, 4)) == (2.6354, 8.0659)
    # 1000 + 40 (27.6354 - 3 x 8.0659) = 1137.5; 1000 + 40 (22.3646 - 3 x 8.0659) = 926.7
    assert (won.shown, lost.shown) == (1138, 927)
