"""Sample images from real matches played by seeded computer players: the docs' pictures
and the cases the tests render. `python -m rendering.samples docs/images` writes them."""

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.ai.players import Settings, decide
from bot.engine.cards import Card, is_joker
from bot.engine.match import Match, PlayerSpec
from bot.engine.outlook import draft_outlook
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, TableView

NAMES = ("Alice", "Bartholomew the Great", "Chen", "Dana")
STACK = 200
EASY = Settings(level="easy", seed=0)
SEARCH = 60  # seeds tried for a hand with a given feature before giving up
SOLVE_HAND = "As X Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c 4c 4d"  # /ofc solve, joker variant

Draft = dict[Card, str]


def new_match(seats: int = 3, seed: int = 1, **options: object) -> Match:
    """A match with its first hand dealt; four seats play turbo (R7)."""
    if seats == 4:
        options.setdefault("variant", "turbo")
    rules = TableRules.from_mapping({"seats": seats, **options})
    players = [PlayerSpec(i + 1, NAMES[i], STACK, "easy" if i == 3 else None)
               for i in range(seats)]
    match = Match.new(rules, players, seed=seed)
    match.start_hand(0.0)
    return match


def choice(match: Match, seat: int) -> Draft:
    """What the easy computer player would place now (a draft, or the action itself)."""
    return decide(match.view_for(seat), EASY)


def play(match: Match, until: Callable[[Match], bool] = lambda m: False,
         careless: frozenset[int] = frozenset(), seed: int = 0) -> Iterator[Match]:
    """Play the hand in progress action by action, yielding after each, until `until` holds or
    the hand ends; `careless` seats place at random (they foul often, R3)."""
    rng = random.Random(seed)
    now = 1.0
    while match.phase == "playing" and not until(match):
        seat = match.pending()[0]
        careful = seat not in careless
        match.place(seat, choice(match, seat) if careful else match.random_assignment(seat, rng),
                    now)
        now += 1.0
        yield match


def finish(match: Match, until: Callable[[Match], bool] = lambda m: False,
           careless: frozenset[int] = frozenset()) -> Match:
    for _ in play(match, until, careless):
        pass
    return match


def at_street(street: int, seat: int) -> Callable[[Match], bool]:
    """Stop when `seat` is to act on `street`."""
    return lambda m: m.public_view().street == street and m.pending()[:1] == (seat,)


def mid_hand(seats: int = 3, seed: int = 1) -> Match:
    """Street 3: the seat left of the button has placed it, the next seat is to act."""
    return finish(new_match(seats, seed), at_street(3, 2 % seats))


def search(make: Callable[[int], Match], wanted: Callable[[Match], bool]) -> Match:
    """The first seeded match with a wanted feature (seeds make it the same every run)."""
    for seed in range(SEARCH):
        match = make(seed)
        if wanted(match):
            return match
    raise LookupError("no seed gives the wanted hand")


def _showdown(match: Match) -> TableView:
    view = match.public_view()
    assert view.showdown is not None
    return view


def eventful_showdown() -> Match:
    """A showdown with a fouled board and a Fantasyland earned (R3, R8)."""
    def wanted(m: Match) -> bool:
        seats = _showdown(m).showdown.seats  # type: ignore[union-attr]
        return any(s.fouled for s in seats) and any(s.fantasy_next for s in seats)
    return search(lambda seed: finish(new_match(3, seed), careless=frozenset({1})), wanted)


def joker_showdown() -> Match:
    """A joker-variant showdown with a joker on a board (R9)."""
    def wanted(m: Match) -> bool:
        return any(is_joker(c) for s in _showdown(m).showdown.seats  # type: ignore[union-attr]
                   for c in s.board.cards)
    return search(lambda seed: finish(new_match(3, seed, variant="joker")), wanted)


def fantasy_hand() -> Match:
    """The start of a Fantasyland hand (R8): one seat holds all its cards, the others wait
    for it (a `hands` table deals Fantasyland first, seed 001)."""
    def make(seed: int) -> Match:
        match = finish(new_match(3, seed, format="hands", hands=5))
        if match.phase != "over":
            match.start_hand(100.0)
        return match
    return search(make, lambda m: any(s.in_fantasy for s in m.public_view().seats))


def fantasy_seat(match: Match) -> int:
    return next(s.seat for s in match.public_view().seats if s.in_fantasy)


def away_hand() -> Match:
    """A seat timed out on street 2 (R10): placed for it and marked away."""
    match = finish(new_match(3, 3), at_street(2, 2))
    deadline = match.deadline(2)
    assert deadline is not None
    match.timeout(deadline + 1.0)
    return finish(match, at_street(3, 1))


def joining_hand() -> Match:
    """A cash table where a player sat down mid-hand: shown sitting out until the next deal."""
    rules = TableRules.from_mapping({"seats": 3, "format": "cash"})
    match = Match.new(rules, [PlayerSpec(1, NAMES[0], STACK), PlayerSpec(2, NAMES[1], STACK)],
                      seed=5)
    match.start_hand(0.0)
    match.join(PlayerSpec(3, NAMES[2], STACK))
    return finish(match, at_street(2, 1))


def private_foul() -> tuple[PrivateView, Draft]:
    """A careless seat's private view mid-hand whose draft leaves no finish without a foul
    (R3): the image warns it."""
    for seed in range(SEARCH):
        rng = random.Random(seed)
        match = new_match(3, seed)
        for m in play(match, careless=frozenset({1}), seed=seed):
            if m.pending()[:1] != (1,):
                continue
            view = m.view_for(1)
            draft = m.random_assignment(1, rng)
            got = draft_outlook(view, draft)
            if got.foul_unavoidable and not got.complete:
                return view, draft
    raise LookupError("no seed gives the wanted hand")


def private_last_street() -> tuple[PrivateView, Draft]:
    """The last street with a draft that fills the board for royalties (R4)."""
    def wanted(m: Match) -> bool:
        seat = m.pending()[:1]
        if m.phase != "playing" or not seat:
            return False
        got = draft_outlook(m.view_for(seat[0]), choice(m, seat[0]))
        return got.complete and not got.fouled and got.total_royalties > 0
    match = search(lambda seed: finish(new_match(3, seed), lambda m: m.public_view().street
                                       == 5), wanted)
    seat = match.pending()[0]
    return match.view_for(seat), choice(match, seat)


def private_mid_hand(seats: int = 3) -> tuple[PrivateView, Draft]:
    match = mid_hand(seats)
    seat = match.pending()[0]
    return match.view_for(seat), choice(match, seat)


def samples() -> dict[str, bytes]:
    """Every sample image by file name."""
    from bot.ai.solver import solve
    from bot.engine.cards import parse_cards
    from rendering import private_png, score_png, showdown_png, solution_png, table_png

    out = {
        "table.png": table_png(mid_hand(3).public_view()),
        "table-2-seats.png": table_png(mid_hand(2).public_view()),
        "table-4-seats.png": table_png(mid_hand(4).public_view()),
        "table-away.png": table_png(away_hand().public_view()),
        "table-joining.png": table_png(joining_hand().public_view()),
    }
    view, draft = private_mid_hand()
    out["private.png"] = private_png(view, draft)
    out["private-four-colour.png"] = private_png(view, draft, four_colour=True)
    first = new_match(3)
    seat = first.pending()[0]
    out["private-street-1.png"] = private_png(first.view_for(seat), choice(first, seat))
    out["private-foul.png"] = private_png(*private_foul())
    out["private-last-street.png"] = private_png(*private_last_street())
    fantasy = fantasy_hand()
    seat = fantasy_seat(fantasy)
    out["private-fantasyland.png"] = private_png(fantasy.view_for(seat), choice(fantasy, seat))
    fantasy.place(seat, choice(fantasy, seat), 101.0)
    out["table-fantasyland.png"] = table_png(fantasy.public_view())
    out["showdown.png"] = showdown_png(_showdown(eventful_showdown()))
    out["showdown-jokers.png"] = showdown_png(_showdown(joker_showdown()))
    out["score.png"] = score_png(_showdown(eventful_showdown()))
    rules = TableRules(variant="joker")
    solved = solve(parse_cards(SOLVE_HAND), rules)
    out["solve.png"] = solution_png(solved.board, solved.discard, rules)
    # The same pictures in the other languages, for translators to check.
    out["table-zh-CN.png"] = table_png(mid_hand(3).public_view(), locale="zh-CN")
    out["private-ru.png"] = private_png(view, draft, locale="ru")
    out["showdown-sv-SE.png"] = showdown_png(_showdown(eventful_showdown()), locale="sv-SE")
    out["showdown-zh-CN.png"] = showdown_png(_showdown(eventful_showdown()), locale="zh-CN")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m rendering.samples DIRECTORY", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in samples().items():
        (folder / name).write_bytes(data)
        print(folder / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
