"""The showdown messages read as a person reads them, and checked by the rules of the
default table (RULES.md R2-R4 pineapple with american royalties, R5 with 1-6 scoring, R6):
each board's fouls and row royalties and each line from the cards shown, worked out here
without the engine; every pair scored once; scoop bonus, royalty difference, points per
player, who pays whom, stacks. What is left is each player's stack after every hand, from
which the final wallets follow (R11, R12)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from tests.e2e.discord_double import Message

SEAT = re.compile(r"(.+): ([+-]\d+) points?, ([+-]\d+) chips? \(stack (\d+)\)")
ROW = re.compile(r"(Top|Middle|Bottom): (.+?): (.+?)(?: \(\+(\d+)\))?")
PAIR = re.compile(r"(.+) vs (.+): lines ([+-]\d) ([+-]\d) ([+-]\d), bonus ([+-]\d+), "
                  r"royalties ([+-]\d+) = \*\*([+-]\d+)\*\*")
MOVE = re.compile(r"(.+) → (.+): (\d+)(?: \(owed (\d+), paid \d+: table stakes\))?")
PER_POINT = re.compile(r"Chips moved \((\d+) chips? per point\)")
TITLE = re.compile(r"Hand (\d+): showdown")  # the table message says "Hand 2 of 4: showdown"
SCOOP = 3  # R5, 1-6 scoring: winning all three lines earns 3 more
RANKS = "23456789TJQKA"  # R1; a rank's value is its index + 2 (J=11, Q=12, K=13, A=14)
# R2's categories, low to high; a royal flush is a straight flush to the ace.
HIGH, PAIR_, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
# R4, american: royalties by category for the bottom and the middle (a royal apart).
BOTTOM_ROYALTY = {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 10, STRAIGHT_FLUSH: 15}
MIDDLE_ROYALTY = {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL_HOUSE: 12, QUADS: 20, STRAIGHT_FLUSH: 30}

Strength = tuple[int, tuple[int, ...]]  # a category, then its ranks in the order they count


def strength(label: str) -> Strength:
    """A row's strength from its cards as shown ('Q♥ Q♦ 2♣'), by R2: the ranks ordered by
    how many of each (trips before the pair, pairs before kickers), then high to low."""
    cards = label.split()
    assert len(cards) in (3, 5) and all(len(c) == 2 and c[0] in RANKS for c in cards), label
    counts = Counter(RANKS.index(c[0]) + 2 for c in cards)
    ranks = tuple(r for r, _ in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]),
                                       reverse=True))
    shape = sorted(counts.values(), reverse=True)
    if len(cards) == 3:  # three cards make no straight or flush
        return (TRIPS if shape == [3] else PAIR_ if shape == [2, 1] else HIGH), ranks
    flush = len({c[1] for c in cards}) == 1
    straight = None
    if len(ranks) == 5 and ranks[0] - ranks[4] == 4:
        straight = ranks[0]
    elif set(ranks) == {14, 2, 3, 4, 5}:  # A2345, the lowest straight
        straight = 5
    if straight is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT), (straight,)
    category = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
                (2, 1, 1, 1): PAIR_}.get(tuple(shape), HIGH)
    return (FLUSH if flush and category < FLUSH else category), ranks


def compare(a: Strength, b: Strength) -> int:
    """1, 0 or -1. The category first, then the ranks in order; a top against a middle
    (R2) compares only the ranks the top has, so QQ4 equals QQ432 and QQ5 beats it."""
    if a[0] != b[0]:
        return 1 if a[0] > b[0] else -1
    for x, y in zip(a[1], b[1], strict=False):  # stops at the top's last rank
        if x != y:
            return 1 if x > y else -1
    return 0


def fouls(rows: tuple[Strength, Strength, Strength]) -> bool:
    """R3: a board fouls unless bottom >= middle >= top."""
    top, middle, bottom = rows
    return compare(bottom, middle) < 0 or compare(middle, top) < 0


def royalties(rows: tuple[Strength, Strength, Strength]) -> tuple[int, int, int]:
    """R4, american, of a board that does not foul."""
    (top, top_ranks), (middle, _), (bottom, _) = rows
    paid_top = (top_ranks[0] + 8 if top == TRIPS else  # 222 pays 10 ... AAA 22
                max(top_ranks[0] - 5, 0) if top == PAIR_ else 0)  # 66 pays 1 ... AA 9
    royal = (STRAIGHT_FLUSH, (14,))
    paid_middle = 50 if rows[1] == royal else MIDDLE_ROYALTY.get(middle, 0)
    paid_bottom = 25 if rows[2] == royal else BOTTOM_ROYALTY.get(bottom, 0)
    return paid_top, paid_middle, paid_bottom


@dataclass
class SeatResult:
    name: str
    points: int
    chips: int
    stack: int
    royalties: int  # the sum of the rows' royalties as shown (0 for a fouled board)
    fouled: bool
    fantasy_next: int  # cards of the Fantasyland hand earned, 0 for none
    rows: tuple[Strength, Strength, Strength] = ((HIGH, ()),) * 3  # top, middle, bottom
    row_royalties: tuple[int, int, int] = (0, 0, 0)  # as shown


@dataclass
class Showdown:
    hand_no: int
    seats: dict[str, SeatResult] = field(default_factory=dict)
    pairs: list[tuple[str, str, tuple[int, int, int], int, int, int]] = field(
        default_factory=list)  # a, b, lines, bonus, royalties, points
    moves: list[tuple[str, str, int, int]] = field(default_factory=list)  # payer payee paid owed
    point_value: int = 1


def read(message: Message) -> Showdown:
    """One "Hand N: showdown" message."""
    embed = message.embed
    assert embed is not None
    hand = TITLE.fullmatch(str(embed["title"]))
    assert hand is not None, embed["title"]
    shown = Showdown(int(hand[1]))
    for item in embed.get("fields", []):
        name, value = str(item["name"]), str(item["value"])
        if (seat := SEAT.fullmatch(name)) is not None:
            lines = value.splitlines()
            fouled = any(line.startswith("**Fouled**") for line in lines)
            rows = [m for line in lines if (m := ROW.fullmatch(line)) is not None]
            assert [m[1] for m in rows] == ["Top", "Middle", "Bottom"], value
            fantasy = re.search(r"Fantasyland next hand: (\d+) cards", value)
            bonuses = (int(rows[0][4] or 0), int(rows[1][4] or 0), int(rows[2][4] or 0))
            shown.seats[seat[1]] = SeatResult(
                seat[1], int(seat[2]), int(seat[3]), int(seat[4]),
                0 if fouled else sum(bonuses), fouled, int(fantasy[1]) if fantasy else 0,
                (strength(rows[0][2]), strength(rows[1][2]), strength(rows[2][2])), bonuses)
        elif name == "Points per pair":
            for line in value.splitlines():
                pair = PAIR.fullmatch(line)
                assert pair is not None, line
                lines = (int(pair[3]), int(pair[4]), int(pair[5]))
                shown.pairs.append((pair[1], pair[2], lines, int(pair[6]), int(pair[7]),
                                    int(pair[8])))
        elif (per := PER_POINT.fullmatch(name)) is not None:
            shown.point_value = int(per[1])
            for line in value.splitlines():
                if line == "None":
                    continue
                move = MOVE.fullmatch(line)
                assert move is not None, line
                paid = int(move[3])
                shown.moves.append((move[1], move[2], paid, int(move[4] or paid)))
    return shown


def check(shown: Showdown, stacks: dict[str, int]) -> dict[str, int]:
    """Check one showdown against R3/R5/R6 and the stacks before it; the stacks after."""
    seats = shown.seats
    assert set(seats) == set(stacks), (seats, stacks)
    for seat in seats.values():  # R3, R4 from the cards shown
        assert seat.fouled == fouls(seat.rows), seat
        assert seat.row_royalties == ((0, 0, 0) if seat.fouled else royalties(seat.rows)), seat
    # R5: every pair of players scored head to head, once.
    assert sorted(tuple(sorted(p[:2])) for p in shown.pairs) == sorted(
        tuple(sorted(pair)) for pair in combinations(seats, 2)), shown.pairs
    points = dict.fromkeys(seats, 0)
    owed = []
    for a, b, lines, bonus, difference, total in shown.pairs:
        if seats[a].fouled or seats[b].fouled:  # R3: a fouled board loses every line
            loser = 0 if seats[a].fouled == seats[b].fouled else (-1 if seats[a].fouled else 1)
            assert lines == (loser,) * 3, (a, b, lines)
        else:  # each row against the same row
            assert lines == tuple(compare(x, y) for x, y in zip(
                seats[a].rows, seats[b].rows, strict=True)), (a, b, lines)
        scooped = SCOOP if lines == (1, 1, 1) else -SCOOP if lines == (-1, -1, -1) else 0
        assert bonus == scooped, (a, b, lines, bonus)
        assert difference == seats[a].royalties - seats[b].royalties, (a, b, difference)
        assert total == sum(lines) + bonus + difference, (a, b, total)
        points[a] += total
        points[b] -= total
        if total:
            payer, payee = (b, a) if total > 0 else (a, b)
            owed.append((payer, payee, abs(total) * shown.point_value))
    assert {name: s.points for name, s in seats.items()} == points
    # R6: the pairs settle in order, each for what is owed unless a stack caps it.
    assert [(payer, payee, due) for payer, payee, _, due in shown.moves] == owed, shown.moves
    after = dict(stacks)
    for payer, payee, paid, due in shown.moves:
        assert paid == min(due, after[payer], after[payee]), (payer, payee, paid, due)
        after[payer] -= paid
        after[payee] += paid
    for name, seat in seats.items():
        assert seat.chips == after[name] - stacks[name] and seat.stack == after[name], seat
    return after


def posted(messages: list[Message]) -> list[Message]:
    """The showdown messages among `messages`."""
    return [m for m in messages if m.embed and TITLE.fullmatch(str(m.embed.get("title")))]


def stacks_after(showdowns: list[Message], buy_in: dict[str, int]) -> dict[str, int]:
    """Every showdown of a match checked in order, starting from the buy-ins."""
    stacks = dict(buy_in)
    numbers = []
    for message in showdowns:
        shown = read(message)
        numbers.append(shown.hand_no)
        playing = {name: stacks[name] for name in shown.seats}
        stacks.update(check(shown, playing))
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    return stacks
