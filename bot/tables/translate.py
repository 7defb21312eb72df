"""The engine's events, turned into the service's events and the chip movements they cause."""

from dataclasses import dataclass, field

from bot.engine import events as ev
from bot.engine.events import Event
from bot.engine.match import Match
from bot.engine.views import ShowdownView
from bot.storage import HandRecord, PlayerHandResult
from bot.tables import money
from bot.tables import table_events as out
from bot.tables.seating import is_person
from bot.tables.state import TableState, street_of


@dataclass(slots=True)
class Outcome:
    """What one action produced: events for the cog, chip movements for storage."""

    events: list[out.TableEvent] = field(default_factory=list)
    ops: list[money.Op] = field(default_factory=list)
    hand_over: bool = False  # a hand ended and the match goes on: deal the next one later
    match_over: bool = False


def translate(state: TableState, engine_events: list[Event],
              pending_before: tuple[int, ...]) -> Outcome:
    """Map one action's engine events; `pending_before` tells whether the turn changed."""
    match = state.match
    assert match is not None
    result = Outcome()
    base = {"table_id": state.table_id, "channel_id": state.home}
    dealt: list[int] = []
    for e in engine_events:
        if isinstance(e, ev.HandStarted):
            result.events.append(out.HandStarted(
                **base, hand_no=e.hand_no, button=e.button, seats=e.seats,
                fantasy=tuple(f.seat for f in e.fantasy)))
        elif isinstance(e, ev.Dealt) and e.seat is not None:
            dealt.append(e.seat)
        elif isinstance(e, ev.Placed) and e.seat is not None:
            result.events.append(out.Placed(
                **base, seat=e.seat, player_id=match.player(e.seat).player_id,
                hand_no=match.hand_no, street=e.street, auto=e.auto))
        elif isinstance(e, ev.Away) and e.seat is not None:
            result.events.append(out.PlayerAway(**base, seat=e.seat, player_id=e.player_id))
        elif isinstance(e, ev.Back) and e.seat is not None:
            result.events.append(out.PlayerBack(**base, seat=e.seat, player_id=e.player_id))
        elif isinstance(e, ev.Showdown):
            assert match.showdown is not None
            result.events.append(_showdown_event(base, match, match.showdown))
            result.ops.append(_settlement(state, match, match.showdown))
        elif isinstance(e, ev.SatOut | ev.Left) and e.seat is not None:
            pid = e.player_id
            result.events.append(out.PlayerLeft(
                **base, seat=e.seat, player_id=pid, returned=e.stack,
                reason="away" if isinstance(e, ev.SatOut) else "left"))
            result.ops.append(money.CashOut(pid, state.op_key("cash_out", pid)))
        elif isinstance(e, ev.HandOver):
            result.hand_over = True
        elif isinstance(e, ev.MatchOver):
            result.match_over = True
            _match_over(state, match, e, base, result)
    # One prompt per person dealt to who still holds cards (an away seat's were placed, R10;
    # computers need no message).
    result.events.extend(dealt_event(state, s) for s in dict.fromkeys(dealt)
                         if match.dealt_to(s) and is_person(match.player(s).player_id))
    pending = match.pending()
    if pending and (pending != pending_before or dealt):
        result.events.append(turn_event(state))
    return result


def turn_event(state: TableState) -> out.Turn:
    match = state.match
    assert match is not None
    pending = match.pending()
    normal = [s for s in pending if street_of(match, s)]
    return out.Turn(
        table_id=state.table_id, channel_id=state.home, seats=pending,
        player_ids=tuple(match.player(s).player_id for s in pending), hand_no=match.hand_no,
        street=street_of(match, normal[0]) if normal else 0, deadline=match.next_deadline())


def dealt_event(state: TableState, seat: int) -> out.Dealt:
    """The private prompt of a seat that holds cards to place."""
    match = state.match
    assert match is not None
    needs = match.legal_rows(seat)
    return out.Dealt(
        table_id=state.table_id, channel_id=state.home,
        private_to=match.player(seat).player_id, seat=seat, hand_no=match.hand_no,
        street=street_of(match, seat), cards=match.dealt_to(seat), discards=needs.discards)


def _showdown_event(base: dict[str, int], match: Match, view: ShowdownView) -> out.ShowdownDone:
    return out.ShowdownDone(
        **base, hand_no=match.hand_no, view=view,
        player_ids={r.seat: match.player(r.seat).player_id for r in view.seats},
        busted=tuple(r.seat for r in view.seats if r.stack_after == 0),
        fantasy_next={r.seat: r.fantasy_next for r in view.seats if r.fantasy_next})


def _settlement(state: TableState, match: Match, view: ShowdownView) -> money.Op:
    """R6 transfers between stacks, with the hand's history for /history and /stats."""
    pid = {r.seat: match.player(r.seat).player_id for r in view.seats}
    transfers = [(pid[t.payer], pid[t.payee], t.paid) for t in view.transfers if t.paid]
    hand = match.hand
    assert hand is not None and state.match_id is not None
    results = []
    for r in view.seats:
        in_fantasy = bool(hand.seats[r.seat].fantasy)
        scoops = sum(1 for p in view.pairs
                     if (p.a == r.seat and p.lines == (1, 1, 1))
                     or (p.b == r.seat and p.lines == (-1, -1, -1)))
        results.append(PlayerHandResult(
            user_id=pid[r.seat], points=r.points, chips=r.chips, fouled=r.fouled,
            royalties=sum(r.royalties), in_fantasy=in_fantasy,
            fantasy_entered=bool(r.fantasy_next) and not in_fantasy,
            fantasy_stayed=bool(r.fantasy_next) and in_fantasy, scoops=scoops))
    log = match.log
    assert log is not None  # the hand just shown down
    record = HandRecord(state.match_id, match.hand_no, log.text(), tuple(results))
    return money.Settle(match.hand_no, tuple(transfers), state.op_key("settle"), record)


def _match_over(state: TableState, match: Match, e: ev.MatchOver, base: dict[str, int],
                result: Outcome) -> None:
    """R11: every stack still on the table goes back to its wallet; the table closes,
    offering a rematch (saved with the snapshot that closes it), except a practice (play
    chips: /ofc practice deals again) and a tournament's table (its stacks were lent)."""
    state.rematch = not state.practice and not state.lent
    rows = sorted(e.standings, key=lambda s: (-s.stack, s.seat))
    standings = tuple(out.Standing(s.seat, s.player_id, s.name, s.stack, s.net) for s in rows)
    result.events.append(out.MatchOver(**base, standings=standings))
    for s in rows:
        if s.returned:
            result.ops.append(money.CashOut(s.player_id, state.op_key("cash_out", s.player_id)))
    best = max((s.net for s in standings), default=0)
    winners = [s.player_id for s in standings if best > 0 and s.net == best]
    if state.match_id is not None:
        # Every computer was seated in the lobby, whose seats stay listed for the match: one
        # that busted at a cash table has left the match's seats (R6, R11), not its level.
        computers = tuple((s.player_id, s.ai_level) for s in state.seats
                          if s.ai_level is not None)
        result.ops.append(money.MatchEnd(state.match_id, tuple(winners), computers=computers))
    result.ops.append(money.Close())
    result.events.append(out.TableClosed(**base, reason="over"))
