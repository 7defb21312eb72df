"""The showdown messages read as a person reads them, and their arithmetic checked by the
rules (RULES.md R3, R5 with the default 1-6 scoring, R6): lines, scoop bonus, royalty
difference, points per player, who pays whom, stacks. What is left is each player's stack
after every hand, from which the final wallets follow (R11, R12)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.e2e.discord_double import Message

SEAT = re.compile(r"(.+): ([+-]\d+) points?, ([+-]\d+) chips? \(stack (\d+)\)")
ROW = re.compile(r"(Top|Middle|Bottom): .+?: .+?(?: \(\+(\d+)\))?")
PAIR = re.compile(r"(.+) vs (.+): lines ([+-]\d) ([+-]\d) ([+-]\d), bonus ([+-]\d+), "
                  r"royalties ([+-]\d+) = \*\*([+-]\d+)\*\*")
MOVE = re.compile(r"(.+) → (.+): (\d+)(?: \(owed (\d+), paid \d+: table stakes\))?")
PER_POINT = re.compile(r"Chips moved \((\d+) chips? per point\)")
TITLE = re.compile(r"Hand (\d+): showdown")  # the table message says "Hand 2 of 4: showdown"
SCOOP = 3  # R5, 1-6 scoring: winning all three lines earns 3 more


@dataclass
class SeatResult:
    name: str
    points: int
    chips: int
    stack: int
    royalties: int  # the sum of the rows' royalties as shown (0 for a fouled board)
    fouled: bool
    fantasy_next: int  # cards of the Fantasyland hand earned, 0 for none


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
            assert len(rows) == 3, value
            fantasy = re.search(r"Fantasyland next hand: (\d+) cards", value)
            shown.seats[seat[1]] = SeatResult(
                seat[1], int(seat[2]), int(seat[3]), int(seat[4]),
                0 if fouled else sum(int(m[2] or 0) for m in rows), fouled,
                int(fantasy[1]) if fantasy else 0)
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
    points = dict.fromkeys(seats, 0)
    owed = []
    for a, b, lines, bonus, royalties, total in shown.pairs:
        if seats[a].fouled or seats[b].fouled:  # R3: a fouled board loses every line
            loser = 0 if seats[a].fouled == seats[b].fouled else (-1 if seats[a].fouled else 1)
            assert lines == (loser,) * 3, (a, b, lines)
        scooped = SCOOP if lines == (1, 1, 1) else -SCOOP if lines == (-1, -1, -1) else 0
        assert bonus == scooped, (a, b, lines, bonus)
        assert royalties == seats[a].royalties - seats[b].royalties, (a, b, royalties)
        assert total == sum(lines) + bonus + royalties, (a, b, total)
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
