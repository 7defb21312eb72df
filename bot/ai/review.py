"""The coach (/ofc review): one player's finished hand, street by street, against the strong
player's choices from the same views.

The hand is replayed from its history (bot.engine.replay): before the action that placed the
player's cards of a street (its own Confirm, or the clock's, R10) the player's view is exactly
what it could see then (R7: its board, its dealt cards and discards, the boards face up).
From that view the strong player chooses (the solver in Fantasyland, R8), and both choices are
scored on the same dealt futures (players.estimate): the difference is what the strong choice
is worth over the player's, in points, with its standard error. Engine and bot.ai only: it
runs in a worker process.
"""

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.ai.players import Settings, decide, estimate
from bot.engine.board import Board
from bot.engine.cards import JOKERS, Card, is_joker
from bot.engine.deal import streets
from bot.engine.errors import RuleError
from bot.engine.match import Match
from bot.engine.placement import DISCARD
from bot.engine.replay import steps
from bot.engine.royalties import ROWS
from bot.engine.text import Text
from bot.engine.views import PrivateView

PLAYOUTS = 500  # the strong player's playouts for each street's choice
FUTURES = 150  # dealt futures both choices are scored on


@dataclass(frozen=True, slots=True)
class StreetReview:
    """One action of the player: a street (1..), or a Fantasyland hand (0)."""

    street: int
    board: Board  # the player's board before it
    dealt: tuple[Card, ...]
    played: Mapping[Card, str]  # card -> row or "discard", as placed
    auto: bool  # placed by the system (R10), not by the player
    best: Mapping[Card, str]  # the strong player's choice (the solver's in Fantasyland)
    gain: float  # points the strong choice is worth over the played one (0: the same choice)
    error: float  # the standard error of `gain` over the futures (0: exact or the same)

    @property
    def same(self) -> bool:
        return alike(self.played, self.best)


@dataclass(frozen=True, slots=True)
class HandReview:
    hand_no: int
    seat: int
    name: str
    streets: tuple[StreetReview, ...]
    board: Board  # as shown down
    points: int  # the hand's points for the player (R5)
    fouled: bool
    skipped: int = 0  # streets placed at once while the player was away (R10): never seen

    @property
    def gain(self) -> float:
        """The streets' gains added up: about what the strong choices were worth in all."""
        return sum(s.gain for s in self.streets)


def review_hand(history: dict[str, Any], player_id: int, *, seed: int = 0,
                playouts: int = PLAYOUTS, futures: int = FUTURES) -> HandReview:
    """The review of `player_id`'s actions in the hand `history` (HandLog JSON). RuleError
    when the player did not play that hand or the hand did not reach its showdown."""
    match: Match | None = None
    seat: int | None = None
    view: PrivateView | None = None  # the player's view while its cards wait to be placed
    actor = False  # the action about to apply is the player's own placement
    reviewed: list[StreetReview] = []
    for match, action in steps(history):
        if seat is None:
            seat = _seat(match, player_id)
        if view is not None and match.dealt_to(seat) != view.dealt:
            reviewed.append(_street(view, match.view_for(seat), not actor, seed, playouts,
                                    futures))
            view = None
        if action is not None and match.phase == "playing" and match.dealt_to(seat):
            view = match.view_for(seat)
            actor = action.get("do") == "place" and action.get("seat") == seat
    assert match is not None and seat is not None
    shown = match.showdown
    mine = next((s for s in shown.seats if s.seat == seat), None) if shown else None
    if mine is None or match.hand is None:
        raise RuleError(Text("That hand has no showdown for you to review."))
    actions = 1 if match.hand.seats[seat].fantasy else len(streets(match.rules))
    return HandReview(match.hand_no, seat, match.player(seat).name, tuple(reviewed), mine.board,
                      mine.points, mine.fouled, actions - len(reviewed))


def alike(one: Mapping[Card, str], other: Mapping[Card, str]) -> bool:
    """The same placement, the two jokers being alike (R9): which one sits where is no
    choice."""
    def rows(placement: Mapping[Card, str]) -> list[tuple[str, Card]]:
        return sorted((row, JOKERS[0] if is_joker(card) else card)
                      for card, row in placement.items())
    return rows(one) == rows(other)


def _seat(match: Match, player_id: int) -> int:
    for seat, player in enumerate(match.seats):
        if player is not None and player.player_id == player_id:
            return seat
    raise RuleError(Text("You did not play that hand."))


def _street(view: PrivateView, after: PrivateView, auto: bool, seed: int, playouts: int,
            futures: int) -> StreetReview:
    """What the player placed from `view` (its board and discards `after`), the strong
    player's choice from the same view, and the points between them. `after` may hold later
    streets too: the clock that places a street for a player it marks away places the ones
    dealt after it in the same action (R10), so only `view.dealt` is this street's."""
    placed = {card: row for row, before, now in zip(ROWS, view.board.rows, after.board.rows,
                                                     strict=True) for card in now[len(before):]}
    played = {card: placed.get(card, DISCARD) for card in view.dealt}
    own = next(s for s in view.table.seats if s.seat == view.seat)
    street = 0 if own.in_fantasy else view.table.street
    settings = Settings(level="strong", seed=seed, seconds=None, playouts=playouts)
    best = decide(view, settings)
    gain = error = 0.0
    if not alike(best, played):
        mine, strong = estimate(view, [played, best], futures, settings)
        differences = [b - a for a, b in zip(mine, strong, strict=True)]
        gain = statistics.fmean(differences)
        if len(differences) > 1:
            error = statistics.stdev(differences) / math.sqrt(len(differences))
    return StreetReview(street, view.board, view.dealt, played, auto, best, gain, error)
