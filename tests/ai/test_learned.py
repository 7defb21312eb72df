"""The learned evaluation (bot/ai/learned.py), its training scripts (bot/ai/training/) and the
experimental `strong-learned` level that takes its search's prior from it."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.fantasy_value import fantasy_worth
from bot.ai.learned import FEATURES, SHIPPED, LearnedValue, applies, features, load
from bot.ai.players import Settings, decide
from bot.ai.policy import Keys, Policy, shape3, shape5
from bot.ai.search import LEARNED_FOUL_CAP, WIDTH, Scorer, Search, seat
from bot.ai.training import fit, selfplay
from bot.ai.turn import future_streets
from bot.engine.cards import DECK, parse_cards
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from tests.ai.test_players import play

RULES = TableRules()
POLICY = Policy(RULES, fantasy_worth(RULES, None))


def keys(top: str, middle: str, bottom: str) -> Keys:
    return (sum(parse_cards(top)), sum(parse_cards(middle)), sum(parse_cards(bottom)))


def named(board: Keys, left: int) -> dict[str, float]:
    return dict(zip(FEATURES, features(POLICY, board, left), strict=True))


def test_features_of_a_board_with_queens_on_top_and_two_streets_to_come() -> None:
    """Top Qs Qd (a pair that earns Fantasyland, R8; one place free), middle 9c 9d 4s 4h (two
    pair, one free), bottom Ah Kh (high card, three free)."""
    f = named(keys("Qs Qd", "9c 9d 4s 4h", "Ah Kh"), 2)
    assert f["bias"] == 1.0
    assert f["top pair"] == 1.0 and f["top trips"] == 0.0
    assert f["top earns Fantasyland"] == 1.0
    assert f["top queen or better, unpaired, with room"] == 0.0
    assert f["middle category"] == 2 / 8  # two pair
    assert f["bottom category"] == 0.0  # high card
    assert (f["top free"], f["middle free"], f["bottom free"]) == (1 / 3, 1 / 5, 3 / 5)
    # the policy's own reading of the same rows
    tops, middles, bottoms = POLICY.rows(2)
    board = keys("Qs Qd", "9c 9d 4s 4h", "Ah Kh")
    assert (f["top worth"], f["middle worth"], f["bottom worth"]) == (
        tops[shape3(board[0])][1], middles[shape5(board[1])][1], bottoms[shape5(board[2])][1])
    assert f["foul chance"] > 0.0  # two pair in the middle above a bottom of two cards
    assert f["foul chance x worth"] == pytest.approx(f["foul chance"] * (
        f["top worth"] + f["middle worth"] + f["bottom worth"]))
    assert f["top earns Fantasyland x no foul"] == pytest.approx(1.0 - f["foul chance"])


def test_features_of_complete_boards_fouled_and_in_order() -> None:
    """Complete boards: nothing free, and the foul is certain or impossible (R3)."""
    fouled = named(keys("As Ad Kc", "2c 3d 7h 8s Jc", "4c 4d 9h Ts Qd"), 0)
    assert fouled["foul chance"] == 1.0  # aces on top above a jack-high middle
    assert fouled["top pair"] == 1.0 and fouled["top earns Fantasyland"] == 1.0
    assert fouled["top earns Fantasyland x no foul"] == 0.0
    assert (fouled["top free"], fouled["middle free"], fouled["bottom free"]) == (0, 0, 0)
    fine = named(keys("Ks Kd Kc", "2h 5h 7h 9h Jh", "3c 3d 3h 3s Qd"), 0)
    assert fine["foul chance"] == 0.0
    assert fine["top trips"] == 1.0 and fine["top pair"] == 0.0
    assert fine["middle category"] == 5 / 8  # a flush
    assert fine["bottom category"] == 7 / 8  # four of a kind


def test_a_lone_queen_or_better_on_top_with_room_is_a_fantasyland_draw() -> None:
    assert named(keys("Kd", "", ""), 4)["top queen or better, unpaired, with room"] == 1.0
    assert named(keys("Jd", "", ""), 4)["top queen or better, unpaired, with room"] == 0.0
    assert named(keys("", "", ""), 4)["top queen or better, unpaired, with room"] == 0.0
    assert named(keys("Kd 9c 2s", "", ""), 4)["top queen or better, unpaired, with room"] == 0.0


def _tiny(tmp_path: Path) -> Path:
    """Two streets' weights: bias 1 and "top pair" 2 with no street left; with one street or
    more, bias -1, "middle free" 5 and "top trips" 3."""
    index = {name: i for i, name in enumerate(FEATURES)}
    none_left = [0.0] * len(FEATURES)
    none_left[index["bias"]], none_left[index["top pair"]] = 1.0, 2.0
    more = [0.0] * len(FEATURES)
    more[index["bias"]], more[index["middle free"]], more[index["top trips"]] = -1.0, 5.0, 3.0
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"features": list(FEATURES), "weights": [none_left, more]}))
    return path


def test_a_tiny_weight_file_gives_hand_computed_values(tmp_path: Path) -> None:
    model = load(_tiny(tmp_path))
    complete = keys("As Ad Kc", "2c 3d 7h 8s Jc", "4c 4d 9h Ts Qd")
    assert model.value(POLICY, complete, 0) == pytest.approx(1 + 2 * 1)
    # two middle places free (2 / 5 of five), trips on top; streets beyond the file's last use
    # its last vector
    partial = keys("7s 7d 7c", "2c 3d 8h", "4c 4d")
    assert model.value(POLICY, partial, 1) == pytest.approx(-1 + 5 * 2 / 5 + 3)
    assert model.value(POLICY, partial, 3) == pytest.approx(-1 + 5 * 2 / 5 + 3)


def test_a_weight_file_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        LearnedValue.from_json({"features": ["bias"], "weights": [[1.0]]})
    with pytest.raises(ValueError, match="one weight per feature"):
        LearnedValue.from_json({"features": list(FEATURES), "weights": [[1.0]]})


def test_the_shipped_weights_load_for_every_street() -> None:
    model = load(SHIPPED)
    assert len(model.weights) == fit.STREETS
    assert json.loads(SHIPPED.read_text())["command"]


def _first_street(model: LearnedValue | None, opponents: int) -> Search:
    dealt = parse_cards("7s 7d 7c 2c 3d")
    me = seat(((), (), ()), future_streets(RULES, 5))
    rival = seat(((), (), ()), future_streets(RULES, 0))
    unseen = [c for c in DECK if c not in dealt]
    return Search(POLICY, Scorer(RULES, fantasy_worth(RULES, None)), me, dealt, 0,
                  [rival] * opponents, 0, unseen, random.Random(1), learned=model)


def test_the_search_prior_is_the_learned_value_times_the_opponents(tmp_path: Path) -> None:
    """Two opponents: each candidate's prior is twice its learned value; without a learned
    value it is the policy's score."""
    search = _first_street(load(_tiny(tmp_path)), 2)
    kept = [((0, 0, 0, 5, 5), keys("7s 7d 7c", "2c 3d", "")),
            ((0, 0, 0, 5, 5), keys("", "7s 7d 7c 2c 3d", ""))]
    # top trips, three middle places free; then no trips on top, nothing free in the middle
    assert search.priors(kept, 4) == pytest.approx([2 * (-1 + 5 * 3 / 5 + 3), 2 * -1.0])
    plain = _first_street(None, 2)
    assert plain.priors(kept, 4) == [POLICY.score(k, 4) for _, k in kept]


def test_strong_learned_keeps_the_candidates_its_learned_value_ranks_first(
        tmp_path: Path) -> None:
    """A weight file that prizes a full top above all: on a budget of one playout each (the
    prior outweighs it) the search fills the top, which none of the policy's best sixteen
    placements of these cards does."""
    index = {name: i for i, name in enumerate(FEATURES)}
    weights = [[0.0] * len(FEATURES) for _ in range(fit.STREETS)]
    weights[4][index["top free"]] = -1000.0
    path = tmp_path / "full_top.json"
    path.write_text(json.dumps({"features": list(FEATURES), "weights": weights}))
    assert _first_street(load(path), 1).choose(WIDTH, None)[0].bit_count() == 3
    assert _first_street(None, 1).choose(WIDTH, None)[0].bit_count() < 3


def _prizing(tmp_path: Path, feature: str) -> LearnedValue:
    """A weight file that values a board by one feature alone, 1,000 points per unit."""
    index = {name: i for i, name in enumerate(FEATURES)}
    weights = [[0.0] * len(FEATURES) for _ in range(fit.STREETS)]
    for w in weights:
        w[index[feature]] = 1000.0
    path = tmp_path / f"{feature}.json"
    path.write_text(json.dumps({"features": list(FEATURES), "weights": weights}))
    return load(path)


def test_strong_learned_keeps_no_board_the_policy_counts_likely_to_foul(tmp_path: Path) -> None:
    """A weight file that prizes the foul chance itself: the search still keeps only boards
    whose foul chance (as the policy counts it) is at most the cap, and so chooses one, where
    without the cap it would choose the placement most likely to foul (trips on top above an
    empty middle: a foul unless the middle makes trips or better)."""
    search = _first_street(_prizing(tmp_path, "foul chance"), 1)
    options = search.candidates()
    fouls = [POLICY.foul_chance(k, 4) for _, k in options]
    assert max(fouls) > LEARNED_FOUL_CAP >= min(fouls)
    kept = search.admitted(options, 4)
    assert kept and all(fouls[i] <= LEARNED_FOUL_CAP for i in kept)
    assert len(kept) < len(options)
    chosen = search.choose(WIDTH, None)
    board = next(k for c, k in options if c == chosen)
    assert POLICY.foul_chance(board, 4) <= LEARNED_FOUL_CAP
    # the policy's own search keeps every candidate
    assert _first_street(None, 1).admitted(options, 4) == list(range(len(options)))


def test_when_every_board_is_likely_to_foul_the_least_likely_are_kept(tmp_path: Path) -> None:
    """Queens on top above a middle of three low cards, on the fourth street: every placement
    risks the foul (the middle must still pair queens or better), so the cap keeps those the
    policy counts least likely to."""
    me = seat((parse_cards("Qs Qd"), parse_cards("2c 3d 4h"), parse_cards("Kc Kd Jh Js")),
              future_streets(RULES, 11))
    dealt = parse_cards("7c 8d 9h")
    rival = seat(((), (), ()), future_streets(RULES, 0))
    unseen = [c for c in DECK if c not in dealt and c not in parse_cards(
        "Qs Qd 2c 3d 4h Kc Kd Jh Js")]
    search = Search(POLICY, Scorer(RULES, fantasy_worth(RULES, None)), me, dealt, 1, [rival],
                    0, unseen, random.Random(1), learned=_prizing(tmp_path, "bias"))
    options = search.candidates()
    left = len(me.streets)
    fouls = [POLICY.foul_chance(k, left) for _, k in options]
    least = min(fouls)
    assert least > LEARNED_FOUL_CAP
    assert search.admitted(options, left) == [i for i, f in enumerate(fouls) if f == least]


def test_least_squares_recovers_a_known_line_and_solves_by_hand() -> None:
    assert fit.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    rows = [[1.0, x] for x in (0.0, 1.0, 2.0, 3.0)]
    weights = fit.least_squares(rows, [2 + 3 * x for _, x in rows], ridge=0.0)
    assert weights == pytest.approx([2.0, 3.0])


def test_self_play_and_the_fit_are_reproducible(tmp_path: Path) -> None:
    """A tiny run twice: the same records, and the same weight file, byte for byte."""
    first = list(selfplay.records(3, seed=5, playouts=8))
    assert first == list(selfplay.records(3, seed=5, playouts=8))
    assert len(first) == 3 * 2 * 5  # three deals, two seats, five streets (R7)
    assert {r["left"] for r in first} == {0, 1, 2, 3, 4}
    own = list(selfplay.records(2, seed=5, playouts=8, level="strong-learned"))
    assert own == list(selfplay.records(2, seed=5, playouts=8, level="strong-learned"))
    assert own != first[:20]  # its own play, not strong's
    data = tmp_path / "selfplay.jsonl"
    assert selfplay.main(["--deals", "3", "--seed", "5", "--playouts", "8",
                          "--out", str(data)]) == 0
    assert [json.loads(line) for line in data.read_text().splitlines()] == first
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        assert fit.main([str(data), "--seed", "2", "--command", "test", "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    model = json.loads(outs[0])
    assert model["deals"] == 3 and model["records"] == 30 and model["seed"] == 2
    assert model["held_out_deal_numbers"] == 1  # a fifth of three, rounded
    LearnedValue.from_json(model)


def test_bad_arguments_are_refused_with_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay.main(["--deals", "0", "--out", str(tmp_path / "x")]) == 2
    assert fit.main([str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "y")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


def test_the_learned_value_applies_to_the_default_rules_only() -> None:
    assert applies(TableRules())
    assert not applies(TableRules(variant="lowball"))
    assert not applies(TableRules(scoring="2-4"))
    assert not applies(TableRules(fantasy="progressive"))


def test_elsewhere_strong_learned_plays_as_strong() -> None:
    """Under rules it was not fitted for, the level decides exactly as `strong`."""
    rules = TableRules(variant="turbo", format="hands", hands=1, seats=2)
    match = Match.new(rules, [PlayerSpec(-1, "a", 100, "strong"),
                              PlayerSpec(-2, "b", 100, "strong")], seed=4)
    match.start_hand(0.0)
    view = match.view_for(match.pending()[0])
    budget = {"seed": 4, "seconds": None, "playouts": 60}
    assert decide(view, Settings(level="strong-learned", **budget)) == decide(
        view, Settings(level="strong", **budget))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 3),
       order=st.sampled_from(["sequential", "simultaneous"]))
def test_strong_learned_only_makes_legal_moves(seed: int, seats: int, order: str) -> None:
    rules = TableRules(order=order, format="hands", hands=2, seats=seats)
    levels = ["strong-learned", "strong", "strong-learned"][:seats]
    players = [PlayerSpec(-(i + 1), f"cpu{i}", 10_000, levels[i]) for i in range(seats)]
    assert play(Match.new(rules, players, seed=seed), levels, seed) >= 2 * seats * 5
