"""The exact Fantasyland solver (R8, R9): the best 13 of 13-17 cards for the next showdown.

An arrangement's value is its royalties (R4, R9) plus `stay_value` when it keeps the player in
Fantasyland (R8, R9); among equal values the strongest bottom wins, then middle, then top.

Exact branch and bound: bottoms in descending order of an upper bound on what they can reach,
then for each the middles that fit under it best first, then the best top that fits, stopping
each level as soon as its bound cannot beat (or tie with stronger rows) the best found. Every row
is evaluated once per hand by its card-int sum (evaluation.py), and royalties and "keeps
Fantasyland" are per-value lists, so the inner loops only add and compare.

A row holding a joker (R9) may be any of its options; with the per-row royalties and staying
both monotone in row strength, the engine's resolution is "each row its strongest option that
does not foul", which is what the search picks for the same cards.
"""

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, compress, pairwise

from bot.engine.board import Board, BoardResult, evaluate_board
from bot.engine.cards import RANK_KEYS, RANK_SHIFT, Card, cards_str, is_joker, rank_of, suit_of
from bot.engine.errors import RuleError
from bot.engine.evaluation import FLUSH5, PLAIN5, TOP3, eval3, eval5, is_low
from bot.engine.fantasy import fantasy_cards
from bot.engine.royalties import ROYALTY, Row, middle_royalties
from bot.engine.rules import TableRules
from bot.engine.text import Text

# What keeping Fantasyland is worth, in points, against royalties now: the worth of one more
# Fantasyland hand over a normal one. Measured with `ofc simulate` heads-up (its
# `fantasy_hand_points`; a normal hand averages 0 between equal players): a Fantasyland hand
# scored 13.4 points on average in strong self-play (151 such hands), 13.3 for strong against
# easy (159) and 12.5 in easy self-play (78).
STAY_VALUE = 13.0
MIN_CARDS, MAX_CARDS = 13, 17
_EPS = 1e-9  # scores are ints plus the (float) stay value: ties compare with a tolerance
_NONE = -(10**9)  # below every line value (lowball middle lines are negative)
_NO_SCORE = float("-inf")
_LINE_SPAN = 1 << 14  # above twice the largest evaluation value: packs (gain rank, line)


@dataclass(frozen=True, slots=True)
class Solution:
    """The arrangement chosen, scored by the engine itself."""

    board: Board
    discard: tuple[Card, ...]
    result: BoardResult
    stays: bool  # keeps Fantasyland for the next hand (R8)
    value: float  # royalties plus the stay value when it stays

    @property
    def royalties(self) -> int:
        return sum(self.result.royalties)

    def assignment(self) -> dict[Card, str]:
        """The arrangement as Match.place takes it: each card -> its row or "discard"."""
        out = {c: "discard" for c in self.discard}
        for row, cards in zip(("top", "middle", "bottom"), self.board.rows, strict=True):
            out.update(dict.fromkeys(cards, row))
        return out

    def to_dict(self) -> dict[str, object]:
        """The `ofc solve --json` shape (docs/cli.md)."""
        text = self.board.text()
        return {
            "top": text["top"], "middle": text["middle"], "bottom": text["bottom"],
            "discard": cards_str(self.discard), "royalties": self.royalties,
            "stays": self.stays, "value": self.value, "fouled": self.result.fouled,
        }


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per row, indexed by evaluation value: royalty and whether it alone keeps FL (R8)."""

    royalty: dict[Row, list[int]]
    stays: dict[Row, list[bool]]
    lowball: bool


@lru_cache(maxsize=64)
def _tables(rules: TableRules) -> _Tables:
    """Royalties from the engine's lists; "stays" by asking `fantasy_cards` itself.

    R8/R9 keep Fantasyland when any one row qualifies (trips on top, quads+ on the bottom, a
    full house+ middle where the rules say so), so each row is probed with the other two at
    their weakest hand; the solver's tests check the whole against `fantasy_cards`."""
    lowball = rules.variant == "lowball"
    table = ROYALTY[rules.royalties]
    royalty = {
        "top": table["top"],
        "middle": middle_royalties(rules.royalties, lowball),
        "bottom": table["bottom"],
    }
    size = len(table["top"])
    weakest = (1, 1, 1)  # value 1 is the weakest class on the common scale
    stays: dict[Row, list[bool]] = {}
    for index, row in enumerate(("top", "middle", "bottom")):
        flags = []
        for value in range(size):
            hands = list(weakest)
            hands[index] = value or 1
            result = BoardResult(
                board=Board(), resolved=Board(), fouled=False,
                hands=(hands[0], hands[1], hands[2]), lines=(hands[0], hands[1], hands[2]),
                royalties=(0, 0, 0),
            )
            flags.append(fantasy_cards(result, rules, in_fantasy=True, entry_cards=14) > 0)
        stays[row] = flags
    return _Tables(royalty, stays, lowball)


def check_cards(cards: Sequence[Card], rules: TableRules) -> None:
    """RuleError unless `cards` can be a Fantasyland hand under `rules`."""
    if not MIN_CARDS <= len(cards) <= MAX_CARDS:
        raise RuleError(Text("a Fantasyland hand has {low} to {high} cards, not {n}.",
                             low=MIN_CARDS, high=MAX_CARDS, n=len(cards)))

    if len(set(cards)) != len(cards):
        raise RuleError(Text("a card appears twice."))
    if not rules.jokers and any(is_joker(c) for c in cards):
        raise RuleError(Text("jokers are only in the joker variant."))


def solve(cards: Sequence[Card], rules: TableRules | None = None,
          stay_value: float = STAY_VALUE) -> Solution:
    """The best arrangement of a Fantasyland hand (see the module docstring)."""
    rules = rules or TableRules()
    hand = tuple(cards)
    check_cards(hand, rules)
    search = _Search(hand, rules, stay_value)
    picked = search.run()
    if picked is None:
        # Only a lowball hand without a legal 2-7 middle gets here: every board fouls.
        ordered = sorted(hand, reverse=True)
        rows = (tuple(ordered[10:13]), tuple(ordered[5:10]), tuple(ordered[:5]))
    else:
        jokers = [c for c in hand if is_joker(c)]
        chosen = [{c for i, c in enumerate(search.plain) if mask >> i & 1}
                  | {jokers.pop() for _ in range(wild)} for mask, wild in picked]
        top, middle, bottom = (tuple(c for c in hand if c in row) for row in chosen)
        rows = (top, middle, bottom)
    board = Board(*rows)
    result = evaluate_board(board, rules)
    stays = fantasy_cards(result, rules, in_fantasy=True, entry_cards=len(hand)) > 0
    used = set(board.cards)
    return Solution(
        board=board,
        discard=tuple(c for c in hand if c not in used),
        result=result,
        stays=stays,
        value=sum(result.royalties) + (stay_value if stays else 0.0),
    )


def _subsets(plain: tuple[Card, ...], jokers: int, size: int
             ) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """Every `size`-card row of the hand: the bit mask of its cards that are not jokers, how
    many jokers it holds, and the ascending values it may take (one value; all of a joker row's
    options, R9). The jokers are interchangeable, so a row says how many it holds, not which:
    the two rows "X1 with these four cards" and "X2 with them" are one."""
    bits = [1 << i for i in range(len(plain))]
    evaluate: Callable[[Sequence[Card]], int] = eval3 if size == 3 else eval5
    masks = list(map(sum, combinations(bits, size)))
    wilds = [0] * len(masks)
    options: list[tuple[int, ...]] = [(v,) for v in map(evaluate, combinations(plain, size))]
    row: Row = "top" if size == 3 else "middle"
    for wild in range(1, min(jokers, size) + 1):
        for subset in combinations(range(len(plain)), size - wild):
            masks.append(sum(bits[i] for i in subset))
            wilds.append(wild)
            options.append(_joker_options(row, tuple(sorted(plain[i] for i in subset)), wild))
    return masks, wilds, options


@lru_cache(maxsize=4096)
def _joker_options(row: Row, fixed: tuple[Card, ...], wild: int) -> tuple[int, ...]:
    """The values of the engine's `row_options(row, fixed + jokers)`, ascending, by the
    evaluation's rank-sum lists: a joker's value depends on its rank, and on its suit only for
    a flush, so this is one lookup per multiset of the jokers' ranks (91 for two) and per set
    for a flush, not one evaluation per choice of cards (1,176 for two jokers)."""
    ranks = [rank_of(c) for c in fixed]
    room = [4 - ranks.count(r) for r in range(13)]  # cards of each rank a joker may still be
    base = sum(fixed) >> RANK_SHIFT
    table = TOP3 if row == "top" else PLAIN5
    values = {table[base + sum(RANK_KEYS[r] for r in extra)]
              for extra in combinations_with_replacement(range(13), wild)
              if all(extra.count(r) <= room[r] for r in extra)}
    if row != "top" and len({suit_of(c) for c in fixed}) == 1 and len(set(ranks)) == len(ranks):
        # Every joker of the fixed cards' suit, at ranks not among them: a flush.
        others = [r for r in range(13) if r not in ranks]
        values.update(FLUSH5[base + sum(RANK_KEYS[r] for r in extra)]
                      for extra in combinations(others, wild))
    return tuple(sorted(values))


def _at_most(options: tuple[int, ...], limit: int) -> int:
    """The strongest option not above `limit`, or 0 when none fits."""
    if options[-1] <= limit:
        return options[-1]
    i = bisect_right(options, limit)
    return options[i - 1] if i else 0


def _ceiling(values: Sequence[int], gains: Sequence[float], size: int,
             keep: Sequence[bool] | None = None) -> list[float]:
    """best[v]: the highest gain among the entries (those `keep` marks, or all) whose value is
    at most v.

    Gains are royalties plus maybe the stay value, so few distinct ones: a staircase of a few
    steps, each filled in with one slice."""
    if keep is not None:
        values, gains = list(compress(values, keep)), list(compress(gains, keep))
    lowest: dict[float, int] = {}
    for value, gain in zip(values, gains, strict=True):
        if value < lowest.get(gain, size):
            lowest[gain] = value
    best = [_NO_SCORE] * size
    running = _NO_SCORE
    for value, gain in sorted((v, g) for g, v in lowest.items()):
        if gain > running:
            running = gain
            best[value:] = [gain] * (size - value)
    return best


def _order(gains: Sequence[float], lines: Sequence[int]) -> list[int]:
    """Indices best first: by gain, then the stronger row. Sorting one int per entry (gain rank
    and line packed together) is several times faster than sorting tuples."""
    rank = {g: i for i, g in enumerate(sorted(set(gains)))}
    keys = [rank[g] * _LINE_SPAN + line for g, line in zip(gains, lines, strict=True)]
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=True)


@dataclass(slots=True)
class _Entries:
    """Candidates for one row, best first once ordered: a joker row is one entry per run of
    its options with equal gains (R9: the joker takes the strongest option that fits), so each
    entry's gain is exact once its weakest option fits."""

    index: list[int]  # the subset
    low: list[int]  # its weakest option in the run: the entry fits under any row this strong
    high: list[int]  # its strongest option in the run
    wild: list[int]  # the jokers it holds
    gains: list[list[float]]  # per column (what the gain assumes), the entries' gains


def _entries(options: Sequence[tuple[int, ...]], wilds: Sequence[int], width: int,
             gains: Callable[[int, int], tuple[float, ...]],
             keep: Callable[[int], bool] | None = None) -> _Entries:
    """The entries of the subsets' `options`; `gains(value, wild)` gives an entry's gain in
    each of the `width` columns."""
    if all(len(opts) == 1 for opts in options):  # no joker: one entry per subset, in bulk
        index = [i for i, opts in enumerate(options) if keep is None or keep(opts[0])]
        values = [options[i][0] for i in index]
        wild = [wilds[i] for i in index]
        rows = list(map(gains, values, wild))
        return _Entries(index, values, values, wild, _columns(rows, width))
    out = _Entries([], [], [], [], [])
    rows = []

    def add(i: int, low: int, high: int, gain: tuple[float, ...]) -> None:
        out.index.append(i)
        out.low.append(low)
        out.high.append(high)
        out.wild.append(wilds[i])
        rows.append(gain)

    for i, opts in enumerate(options):
        if keep is not None and not keep(opts[0]):
            continue
        start, current = opts[0], gains(opts[0], wilds[i])
        for before, value in pairwise(opts):
            now = gains(value, wilds[i])
            if now != current:
                add(i, start, before, current)
                start, current = value, now
        add(i, start, opts[-1], current)
    out.gains = _columns(rows, width)
    return out


def _columns(rows: list[tuple[float, ...]], width: int) -> list[list[float]]:
    return [[row[c] for row in rows] for c in range(width)]


class _Search:
    """One hand's search. Rows are subsets of the hand: a bit mask of its other cards and a
    count of its jokers; a joker row's gain is that of its strongest option (royalties and
    staying only grow with row strength).

    Each row's candidates and bounds are kept per joker budget, the jokers the rows still to
    choose may hold: a bottom holding both jokers leaves none for the middle and the top, so
    neither their bounds nor their candidate lists count a joker row there: a bound that counts
    a joker another row holds is loose, and a list that holds such rows makes the search step
    over every one of them."""

    def __init__(self, hand: tuple[Card, ...], rules: TableRules, stay_value: float) -> None:
        self.plain = tuple(c for c in hand if not is_joker(c))
        self.jokers = len(hand) - len(self.plain)
        self.t = _tables(rules)
        self.stay = stay_value

    def run(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None:
        """(mask, jokers) of the top, middle and bottom of the best legal arrangement, None
        when all foul."""
        t, s, lowball, jokers = self.t, self.stay, self.t.lowball, self.jokers
        rt, st = t.royalty["top"], t.stays["top"]
        rm, sm = t.royalty["middle"], t.stays["middle"]
        rb, sb = t.royalty["bottom"], t.stays["bottom"]
        size = len(rt)
        budgets = range(jokers + 1)
        t_masks, t_wilds, t_opts = _subsets(self.plain, jokers, 3)
        f_masks, f_wilds, f_opts = _subsets(self.plain, jokers, 5)

        # Tops: what each adds when the board stays already (plain) and when not (stay), and
        # per budget the best of them that fits under each value.
        tops = _entries(t_opts, t_wilds, 2,
                        lambda v, _: (float(rt[v]), rt[v] + (s if st[v] else 0.0)))
        t_plain, t_stay = tops.gains

        def fits(wilds: list[int], k: int) -> list[bool] | None:
            """Which candidates hold at most k jokers; None: all of them."""
            return None if k >= jokers else [w <= k for w in wilds]

        t_fits = [fits(tops.wild, k) for k in budgets]
        up_plain, up_stay = ([_ceiling(tops.low, gains, size, t_fits[k]) for k in budgets]
                             for gains in (t_plain, t_stay))

        # Middles, per budget k (the jokers the middle and the top may hold between them):
        # their own gain plus, outside lowball (which has no jokers), the best top that fits
        # under them with the jokers left. Columns: plain gains by k, then stay gains by k.
        if lowball:
            mids = _entries(f_opts, f_wilds, 2,
                            lambda v, _: (float(rm[v]), rm[v] + (s if sm[v] else 0.0)),
                            keep=is_low)
            m_lines = [-v for v in mids.low]
        else:
            @cache  # joker rows share most of their options
            def middle_gains(v: int, wild: int) -> tuple[float, ...]:
                plain = [rm[v] + up_plain[k - wild][v] if k >= wild else _NO_SCORE
                         for k in budgets]
                stay = [rm[v] + (s + up_plain[k - wild][v] if sm[v] else up_stay[k - wild][v])
                        if k >= wild else _NO_SCORE for k in budgets]
                return (*plain, *stay)

            fit_p, fit_s = up_plain[0], up_stay[0]

            def plain_middle_gains(v: int, _: int) -> tuple[float, ...]:
                """`middle_gains` of a hand without jokers (one budget, each value met once,
                nothing worth caching): most hands, so kept lean."""
                return rm[v] + fit_p[v], rm[v] + (s + fit_p[v] if sm[v] else fit_s[v])

            mids = _entries(f_opts, f_wilds, 2 * len(budgets),
                            middle_gains if jokers else plain_middle_gains)
            m_lines = mids.high
        m_fits = [fits(mids.wild, k) for k in budgets]

        def m_gains(k: int, staying: bool) -> list[float]:
            return mids.gains[(0 if staying else len(mids.gains) // 2) + k]

        # Bottoms: an upper bound on the whole board each can reach. A joker bottom is its
        # strongest option: that only loosens the rows above it.
        b_vals = [o[-1] for o in f_opts]
        if lowball:
            mp = max(m_gains(0, True), default=_NO_SCORE)
            ms = max(m_gains(0, False), default=_NO_SCORE)
            b_bounds = [rb[v] + (s + mp + up_plain[0][v] if sb[v] else ms + up_stay[0][v])
                        for v in b_vals]
        else:
            fit_plain, fit_stay = ([_ceiling(mids.low, m_gains(k, staying), size, m_fits[k])
                                    for k in budgets] for staying in (True, False))
            fits_left = [(fit_plain[jokers - w], fit_stay[jokers - w]) for w in budgets]
            b_bounds = [rb[v] + (s + fits_left[w][0][v] if sb[v] else fits_left[w][1][v])
                        for v, w in zip(b_vals, f_wilds, strict=True)]

        orders: dict[tuple[str, bool, int], list[int]] = {}

        def order(row: str, staying: bool, k: int) -> list[int]:
            """The candidates holding at most k jokers, best first, built on first use."""
            key = (row, staying, k)
            if key not in orders:
                if row == "top":
                    ranked, fit = _order(t_plain if staying else t_stay, tops.high), t_fits[k]
                else:
                    ranked, fit = _order(m_gains(k, staying), m_lines), m_fits[k]
                orders[key] = ranked if fit is None else [i for i in ranked if fit[i]]
            return orders[key]

        best_score, best_b, best_m, best_t = _NO_SCORE, _NONE, _NONE, _NONE
        picked: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None = None
        for bi in _order(b_bounds, b_vals):
            bound, vb = b_bounds[bi], b_vals[bi]
            if bound < best_score - _EPS or (bound <= best_score + _EPS and vb < best_b):
                break
            b_staying = sb[vb]
            b_score = rb[vb] + (s if b_staying else 0.0)
            bmask, b_left = f_masks[bi], jokers - f_wilds[bi]
            add = (up_plain[0][vb] if b_staying else up_stay[0][vb]) if lowball else 0.0
            m_gain = m_gains(b_left, b_staying)
            for k in order("middle", b_staying, b_left):
                upper = b_score + m_gain[k] + add
                if upper < best_score - _EPS or (
                        upper <= best_score + _EPS and (vb, m_lines[k]) < (best_b, best_m)):
                    break
                mi = mids.index[k]
                mmask = f_masks[mi]
                if mmask & bmask:
                    continue
                if lowball:
                    vm = mids.low[k]
                    limit, m_line = vb, -vm
                else:
                    if mids.low[k] > vb:
                        continue
                    vm = limit = m_line = _at_most(f_opts[mi], vb)
                staying = b_staying or sm[vm]
                m_score = rb[vb] + rm[vm] + (s if staying else 0.0)
                used = bmask | mmask
                t_gain = t_plain if staying else t_stay
                for k2 in order("top", staying, b_left - mids.wild[k]):
                    upper = m_score + t_gain[k2]
                    if upper < best_score - _EPS or (
                            upper <= best_score + _EPS
                            and (vb, m_line, tops.high[k2]) <= (best_b, best_m, best_t)):
                        break
                    ti = tops.index[k2]
                    if t_masks[ti] & used or tops.low[k2] > limit:
                        continue
                    vt = _at_most(t_opts[ti], limit)
                    score = m_score + rt[vt] + (s if st[vt] and not staying else 0.0)
                    if score > best_score + _EPS or (
                            score >= best_score - _EPS
                            and (vb, m_line, vt) > (best_b, best_m, best_t)):
                        best_score, best_b, best_m, best_t = score, vb, m_line, vt
                        picked = ((t_masks[ti], t_wilds[ti]), (mmask, f_wilds[mi]),
                                  (bmask, f_wilds[bi]))
        return picked
