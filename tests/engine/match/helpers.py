"""Shared test helpers: matches, stacked decks that deal chosen boards, and the invariants that
every state must keep, written from RULES.md rather than from the engine's code."""

import json
from collections.abc import Iterable

from bot.engine.board import Board
from bot.engine.cards import DECK, JOKERS, Card, full_deck, parse_cards
from bot.engine.events import Event
from bot.engine.match import Match, PlayerSpec
from bot.engine.replay import replay
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, TableView

NAMES = ("Ann", "Bob", "Cy", "Dee")
STREETS = {"turbo": (5, 4, 4)}  # R7; the rest of the family: 5, 3, 3, 3, 3
PINEAPPLE = (5, 3, 3, 3, 3)


def new_match(players: int = 3, stack: int = 200, button: int = 0, seed: int | None = 1,
              seats: int | None = None, **options: object) -> Match:
    rules = TableRules.from_mapping({"seats": seats or players, **options})
    specs = [PlayerSpec(i + 1, NAMES[i], stack) for i in range(players)]
    return Match.new(rules, specs, button=button, seed=seed)


def street_sizes(rules: TableRules) -> tuple[int, ...]:
    return STREETS.get(rules.variant, PINEAPPLE)


def acting_order(match: Match) -> list[int]:
    """R7: left of the button first, then clockwise; only seated players still in."""
    seats = [s for s, p in enumerate(match.seats) if p is not None and p.status != "out"]
    n = len(match.seats)
    return sorted(seats, key=lambda s: (s - match.button - 1) % n)


def board(top: str, middle: str, bottom: str) -> Board:
    return Board.parse(top, middle, bottom, jokers=True)


def stacked_deal(match: Match, boards: dict[int, Board], now: float = 0.0,
                 late: Iterable[int] = ()) -> list[Event]:
    """Start the next hand with a deck that deals each seat exactly the cards of its target
    board (plus filler discards), then play it out so every seat ends with its board.

    Fantasyland seats (owed FL) get their 13 board cards, then fillers to discard, first or
    after the streets as the table deals them (R8).
    `late` seats never act: their time runs out (R10), the system places for them (not their
    target board) and they are away."""
    late = set(late)
    rules = match.rules
    order = acting_order(match)
    used = {c for b in boards.values() for c in b.cards}
    pool = [c for c in DECK + (JOKERS if rules.jokers else ()) if c not in used]
    fantasy = {s: match.seats[s].fantasy for s in order}  # type: ignore[union-attr]
    sizes = street_sizes(rules)
    plan: dict[int, list[list[Card]]] = {}  # seat -> cards per deal, in deal order
    for s in order:
        cards = list(boards[s].top + boards[s].middle + boards[s].bottom)
        if fantasy[s]:
            plan[s] = [cards + [pool.pop() for _ in range(fantasy[s] - 13)]]
            continue
        deals, i = [], 0
        for k, size in enumerate(sizes):
            keep = size if k == 0 or rules.variant == "turbo" else size - 1
            deals.append(cards[i:i + keep] + [pool.pop() for _ in range(size - keep)])
            i += keep
        plan[s] = deals
    normal = [s for s in order if not fantasy[s]]
    streets = [c for k in range(len(sizes)) for s in normal for c in plan[s][k]]
    dealt_fantasy = [c for s in order if fantasy[s] for c in plan[s][0]]
    # R8: Fantasyland is dealt first, or (seed 003's order) once the others' streets are done.
    if rules.fantasy_deal == "first":
        deck = dealt_fantasy + streets + pool
    else:
        deck = streets + dealt_fantasy + pool
    events = match._start_hand(now, deck)
    rows = {s: {c: r for r in ("top", "middle", "bottom") for c in boards[s].row(r)}
            for s in order}
    while match.phase == "playing":
        pending = match.pending()
        assert pending, "a hand in play always awaits someone"
        seat = pending[0]
        if seat in late:
            deadline = match.deadline(seat)
            assert deadline is not None
            now = max(now, deadline)
            events += match.timeout(now)
            continue
        assignment = {c: rows[seat].get(c, "discard") for c in match.dealt_to(seat)}
        events += match.place(seat, assignment, now)
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Iterable[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def round_trip(match: Match) -> Match:
    """Through JSON text and back; the restored state must serialize identically."""
    data = match.to_json()
    restored = Match.from_json(json.loads(json.dumps(data)))
    assert restored.to_json() == data
    return restored


def check_replay(match: Match) -> None:
    history = match.history()
    if history is not None:
        assert replay(json.loads(json.dumps(history))).to_json() == match.to_json()


# ---------------------------------------------------------------- invariants from RULES.md
ROW_LIMITS = (3, 5, 5)  # R2


def check_cards(match: Match) -> None:
    """No card twice (R1); rows within their sizes (R2); dealt cards come off the deck front."""
    hand = match.hand
    if hand is None:
        return
    seen: list[Card] = []
    for sh in hand.seats.values():
        for row, limit in zip(sh.board.rows, ROW_LIMITS, strict=True):
            assert len(row) <= limit
        seen += list(sh.board.cards) + list(sh.dealt) + list(sh.discards)
    assert len(seen) == len(set(seen)), "a card was dealt twice"
    assert sorted(seen) == sorted(hand.deck[:hand.next_card])
    assert sorted(hand.deck) == sorted(DECK + (JOKERS if match.rules.jokers else ()))


def check_showdown(match: Match) -> None:
    """R7, R8: 13 cards on every board; pineapple discards 4, turbo none, FL the extras."""
    hand = match.hand
    assert hand is not None and match.showdown is not None
    for s, sh in hand.seats.items():
        assert len(sh.board.cards) == 13
        assert not sh.dealt
        normal = 0 if match.rules.variant == "turbo" else 4
        expected = sh.fantasy - 13 if sh.fantasy else normal
        assert len(sh.discards) == expected, s
    assert {r.seat for r in match.showdown.seats} == set(hand.seats)


def visible_boards(match: Match) -> dict[int, set[Card]]:
    """What everyone may see of each seat's board (R7, R8)."""
    hand = match.hand
    out: dict[int, set[Card]] = {}
    if hand is None:
        return out
    normal = [s for s, sh in hand.seats.items() if not sh.fantasy]
    for s, sh in hand.seats.items():
        if match.phase != "playing":
            out[s] = set(sh.board.cards)  # showdown: everything but discards
        elif sh.fantasy:
            out[s] = set()  # R8: nobody sees a FL board before showdown
        elif normal == [s] and len(hand.seats) > 1:
            out[s] = set()  # R8: all but one in FL: that one lays out face down
        else:
            out[s] = set(sh.board.cards) - set(sh.hidden)  # R7 simultaneous: street unshown
    return out


def table_cards(view: TableView) -> set[Card]:
    cards: set[Card] = set()
    for sv in view.seats:
        cards |= set(sv.board.cards) | set(sv.new_cards)
    if view.showdown is not None:
        for ss in view.showdown.seats:
            cards |= set(ss.board.cards)
    return cards


def check_views(match: Match) -> None:
    """No view holds a card its viewer may not see; public boards are exactly the visible ones."""
    visible = visible_boards(match)
    public = match.public_view()
    allowed = set().union(*visible.values()) if visible else set()
    assert table_cards(public) <= allowed
    for sv in public.seats:
        assert set(sv.board.cards) == visible.get(sv.seat, set())
    if match.hand is None:
        return
    for s in match.hand.seats:
        private: PrivateView = match.view_for(s)
        sh = match.hand.seats[s]
        mine = set(sh.board.cards) | set(sh.dealt) | set(sh.discards)
        cards = table_cards(private.table) | set(private.board.cards) | set(private.dealt) \
            | set(private.discards)
        assert cards <= allowed | mine
        assert private.table == public
        # The computers deal the rest of the hand from these (R7): exactly the cards the seat
        # has not seen, none known to be elsewhere, so no draw peeks at a hidden card.
        assert set(private.unseen()) == set(full_deck(match.rules.jokers)) - mine - allowed
        for other in match.hand.seats:
            if other != s:
                osh = match.hand.seats[other]
                assert not (set(osh.dealt) | set(osh.discards)) & cards


def cards_of(text: str) -> list[Card]:
    return parse_cards(text)


def start_with(match: Match, front: str, now: float = 0.0) -> list[Event]:
    """Start the next hand with these cards dealt first (R7/R8 deal order: Fantasyland seats,
    then each street's cards seat by seat in acting order), the rest of the deck after them."""
    cards = cards_of(front)
    rest = [c for c in DECK + (JOKERS if match.rules.jokers else ()) if c not in cards]
    return match._start_hand(now, cards + rest)
