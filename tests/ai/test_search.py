"""The strong player's search: scores as the engine does, deals only unseen cards."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.fantasy_value import fantasy_worth
from bot.ai.policy import Policy
from bot.ai.search import FIRST_FANTASY, Scorer, Search, seat
from bot.engine.board import Board, evaluate_board
from bot.engine.cards import DECK, parse_cards
from bot.engine.deal import PINEAPPLE_STREETS
from bot.engine.fantasy import fantasy_cards
from bot.engine.rules import TableRules
from bot.engine.scoring import score_pair

RULES = st.builds(TableRules, variant=st.sampled_from(["pineapple", "turbo", "lowball"]),
                  scoring=st.sampled_from(["1-6", "2-4"]),
                  royalties=st.sampled_from(["american", "russian", "off"]),
                  fantasy=st.sampled_from(["standard", "progressive", "ultimate", "off"]))


def _board(cards: list[int]) -> Board:
    return Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))


def _keys(board: Board) -> tuple[int, int, int]:
    return (sum(board.top), sum(board.middle), sum(board.bottom))


@settings(max_examples=400, deadline=None)
@given(rules=RULES, seed=st.integers(0, 10**9))
def test_finished_boards_score_as_the_engine_scores_them(rules: TableRules, seed: int) -> None:
    """Fouls, royalties and Fantasyland (R3, R4, R8, R9) and the points of a pair (R5)."""
    deck = random.Random(seed).sample(DECK, 26)
    worth = fantasy_worth(rules, None)
    scorer = Scorer(rules, worth)
    mine, theirs = _board(deck[:13]), _board(deck[13:])
    ours = (scorer.final(_keys(mine)), scorer.final(_keys(theirs)))
    engine = (evaluate_board(mine, rules), evaluate_board(theirs, rules))
    for final, result in zip(ours, engine, strict=True):
        assert final.fouled == result.fouled
        assert final.royalties == sum(result.royalties)
        assert final.fantasy == worth.of(fantasy_cards(result, rules, in_fantasy=False))
    assert scorer.pair(*ours) == score_pair(*engine, rules.scoring).points


def _search(rules: TableRules, me: Board, dealt: list[int], discards: int, rival: Board,
            unseen: list[int], blind: int = 0) -> Search:
    worth = fantasy_worth(rules, None)
    placed = len(me.cards) + len(dealt) - discards
    mine = seat(me.rows, PINEAPPLE_STREETS[1 + (placed - 5) // 2:])
    theirs = [] if blind else [seat(rival.rows, PINEAPPLE_STREETS[1 + (len(rival.cards) - 5)
                                                                 // 2:])]
    return Search(Policy(rules, worth), Scorer(rules, worth), mine, dealt, discards, theirs,
                  blind, unseen, random.Random(1))


def test_playouts_deal_only_the_cards_given_as_unseen() -> None:
    """Every future dealt in a playout comes from the unseen cards, never a visible or own
    card (R7): the caller's view decides what is unseen (PrivateView.unseen)."""
    rules = TableRules()
    me = Board(tuple(parse_cards("2c")), tuple(parse_cards("3c 4c")), tuple(parse_cards("5c 6d")))
    rival = Board(tuple(parse_cards("Ah")), tuple(parse_cards("Kh Qh")),
                  tuple(parse_cards("Jh Th")))
    dealt = parse_cards("9s 8s 7s")
    seen = set(me.cards) | set(rival.cards) | set(dealt) | set(parse_cards("6c"))
    unseen = [c for c in DECK if c not in seen]
    search = _search(rules, me, dealt, 1, rival, unseen)
    drawn: list[list[int]] = []
    real = search.rng.sample

    def sample(population: list[int], k: int) -> list[int]:
        cards = real(population, k)
        drawn.append(cards)
        return cards

    search.rng.sample = sample  # type: ignore[method-assign]
    search.choose(60, None)
    assert drawn and all(set(cards) <= set(unseen) for cards in drawn)
    # this seat's three streets after this one, and the rival's four (9 + 12 cards)
    assert all(len(cards) == 21 for cards in drawn)


def test_a_hidden_fantasyland_board_is_not_played_out() -> None:
    """R8: a Fantasyland board is hidden; the search deals nothing to it and values it from
    the outcome table instead."""
    rules = TableRules()
    me = Board(tuple(parse_cards("2c")), tuple(parse_cards("3c 4c")), tuple(parse_cards("5c 6d")))
    dealt = parse_cards("9s 8s 7s")
    unseen = [c for c in DECK if c not in set(me.cards) | set(dealt)]
    search = _search(rules, me, dealt, 1, Board(), unseen, blind=1)
    assert search.need == 9 and search.outcome is not None
    assert search.choose(40, None) in [c for c, _ in search.candidates()]


def test_the_last_street_is_scored_exactly() -> None:
    """Nothing left to deal: every placement is scored as R5 scores it, and the best kept."""
    rules = TableRules()
    # Middle AA (full), top KK with one place, bottom four spades with one place; dealt Kc 5s
    # 9d, one to discard. Kc on top is KKK over AA, a foul (R3); Kc or 9d on the bottom leaves
    # it high-card under the aces, a foul. The only clean board: 9d top, 5s bottom (a flush).
    me = Board(tuple(parse_cards("Kh Kd")), tuple(parse_cards("As Ac 3h 4d 7c")),
               tuple(parse_cards("2s 3s 8s Js")))
    rival = _board(parse_cards("2h 2d 4h 5h 6h 7h 8h Th Jh Qh 9c Tc Jc"))
    dealt = parse_cards("Kc 5s 9d")
    unseen = [c for c in DECK if c not in set(me.cards) | set(rival.cards) | set(dealt)]
    search = _search(rules, me, dealt, 1, rival, unseen)
    assert search.need == 0
    top, middle, bottom, _, _ = search.choose(10, None)
    assert (top, middle, bottom) == (0b100, 0, 0b010)
    assert search.played == len(search.candidates())


def _queens_on_top(search: Search, choice: tuple[int, int, int, int, int]) -> bool:
    return set(parse_cards("Qs Qh")) <= {search.dealt[i] for i in range(5) if choice[0] >> i & 1}


def test_a_first_street_top_that_earns_fantasyland_is_credited(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R8: on the first street only, a placement whose top already earns Fantasyland gets
    FIRST_FANTASY added to its estimate, and the credit moves the choice."""
    rules = TableRules()
    dealt = parse_cards("Qs Qh 9c 5d 2h")
    rival = Board(tuple(parse_cards("Ah")), tuple(parse_cards("Kh 7h")),
                  tuple(parse_cards("Jd Td")))
    unseen = [c for c in DECK if c not in set(rival.cards) | set(dealt)]
    search = _search(rules, Board(), dealt, 0, rival, unseen)
    options = search.candidates()
    credits = search.credits(options)
    assert credits == [FIRST_FANTASY if _queens_on_top(search, c) else 0.0 for c, _ in options]
    assert 0 < credits.count(FIRST_FANTASY) < len(options)
    later = _search(rules, Board(tuple(parse_cards("Qs Qh")), tuple(parse_cards("9c 5d")),
                                 tuple(parse_cards("2h"))),
                    parse_cards("Kc 8d 3s"), 1, rival,
                    [c for c in unseen if c not in parse_cards("Kc 8d 3s")])
    assert set(later.credits(later.candidates())) == {0.0}
    chosen: dict[float, bool] = {}
    for credit in (0.0, 100.0):
        monkeypatch.setattr("bot.ai.search.FIRST_FANTASY", credit)
        fresh = _search(rules, Board(), dealt, 0, rival, unseen)
        chosen[credit] = _queens_on_top(fresh, fresh.choose(60, None))
    assert chosen == {0.0: False, 100.0: True}
