"""Skill ratings: openskill's Plackett-Luce model over a match's places, by match points.

A person starts at the model's default (mu 25, sigma 25/3). A computer takes part in every
update with a fixed rating for its level (it never moves), so a person who beats a strong
computer gains more than one who beats an easy one, and farming easy computers soon gains
almost nothing. The board ranks by a conservative value, mu - 3 sigma (what the player is
almost surely at least), shown on a friendlier scale: a newcomer shows 1,000.

Pure and deterministic: the same places in the same order give the same floats, so storage
records every update and a rating can be recomputed from those records.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the model's defaults


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The board's value: 1,000 plus 40 per point of mu - 3 sigma (newcomers show 1,000)."""
        return round(1000 + 40 * (self.mu - 3 * self.sigma))


DEFAULT = Rating(_MODEL.mu, _MODEL.sigma)
# A computer's fixed rating: the strength a person must show to gain from beating it. Strong
# beats easy by about 2.8 points a hand, and strong-v1 loses to strong by about 2.3: the gaps
# are of the order of a beginner's spread. strong-v2 plays as strong does up to 200 playouts
# and measured level with it at larger budgets; strong-learned (an experimental level) is
# rated as strong. Unknown levels count as easy.
COMPUTERS: Mapping[str, Rating] = {
    "easy": Rating(20.0, 1.0),
    "strong-v1": Rating(28.0, 1.0),
    "strong-v2": Rating(30.0, 1.0),
    "strong": Rating(30.0, 1.0),
    "strong-learned": Rating(30.0, 1.0),
}


def computer(level: str | None) -> Rating:
    return COMPUTERS.get(level or "easy", COMPUTERS["easy"])


def places(points: Sequence[int]) -> list[int]:
    """Each player's place by match points, most first, from 1; equal points share a place."""
    return [1 + sum(other > mine for other in points) for mine in points]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one ranked result (`ranks`: 1 is first, ties share a rank)."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError("a rated result needs two or more players, each with a place")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in after]
