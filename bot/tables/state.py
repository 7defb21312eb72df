"""A live table's whole state, as kept in memory and saved as the storage snapshot.

The snapshot (`state_json` in storage) is this service's envelope around the engine's match
JSON: the lobby, the drafts of the action in progress, DM message ids, and the money
operations decided but not yet applied (`pending`, see money.py). Where the table lives in
Discord (thread, lobby and table messages) is kept in storage's own columns.

Within a street of a hand, a save may write only what changed since the last whole snapshot
(`changes`, kept in storage's `changes_json`): the hand's actions taken since, which the
engine takes again on the snapshot's match (`replay.carry_on`), and the rest of the table
whole, which is small.
"""

import json
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any, NamedTuple

from bot.engine import codec
from bot.engine.cards import Card
from bot.engine.deal import CARD_KEYS
from bot.engine.history import HandLog
from bot.engine.match import Match, Player
from bot.engine.replay import carry_on
from bot.engine.rules import RULES, TableRules
from bot.storage import LiveTable
from bot.tables import money
from bot.tables.snapshot_versions import CURRENT, upgrade
from bot.tables.snapshot_versions import BadSnapshot as BadSnapshot  # raised by loads
from bot.tables.status import DmPrompt, LobbySeat, Status


@dataclass(frozen=True, slots=True)
class Draft:
    """A seat's choices so far for one action (hand, street), before it confirms (R7)."""

    hand_no: int
    street: int
    rows: Annotated[dict[Card, str], CARD_KEYS]  # dealt card -> "top" | "middle" | ...


# How the snapshot writes what it holds (bot/engine/codec.py): lobby seats, drafts and DM
# prompts ([channel, message, hand, street]) as compact arrays, the match as its own JSON,
# money operations as {"op": kind, ...}.
_SEAT = codec.as_array(LobbySeat)
_DRAFT = codec.as_array(Draft)
_DM = codec.as_array(DmPrompt)
_MATCH = codec.Custom(Match.to_json, Match.from_json, Match.text)
_MONEY = codec.Custom(money.to_json, money.from_json)
_ELSEWHERE = codec.SKIP  # kept in storage's own columns, not in the snapshot


class Point(NamedTuple):
    """Where a match stands in its hand: its history (the object), street and actions."""

    log: HandLog
    street: int
    actions: int

    def holds(self, later: "Point | None") -> bool:
        """Whether a save at `later` may be written as changes since a whole one here: the
        same hand (its very history) on the same street."""
        return later is not None and later.log is self.log and later.street == self.street


def street_of(match: Match, seat: int) -> int:
    """The seat's current action: 1.. a street, 0 a Fantasyland hand (R8)."""
    hand = match.hand
    if hand is None or seat not in hand.seats:
        return 0
    return 0 if hand.seats[seat].fantasy else hand.street


def in_match(match: Match) -> list[Player]:
    """The match's players still in it (not busted, not got up)."""
    return [p for p in match.seats if p is not None and p.status != "out"]


@dataclass(slots=True)
class TableState:
    table_id: int = field(metadata=_ELSEWHERE)
    guild_id: int = field(metadata=_ELSEWHERE)
    channel_id: int = field(metadata=_ELSEWHERE)
    host_id: int
    rules: Annotated[TableRules, RULES]
    created_at: float
    last_activity: float
    status: Status = "lobby"
    seed: int | None = None  # tests and simulations only (R1)
    seats: list[Annotated[LobbySeat, _SEAT]] = field(default_factory=list)  # joining order
    match: Annotated[Match, _MATCH] | None = None
    match_id: int | None = None  # storage history's match
    drafts: dict[int, Annotated[Draft, _DRAFT]] = field(default_factory=dict)  # seat -> draft
    dm: dict[int, Annotated[DmPrompt, _DM]] = field(default_factory=dict)  # player -> prompt
    step: int = 0  # actions applied so far: part of every idempotency key
    pending: list[Annotated[money.Op, _MONEY]] = field(default_factory=list)  # money to apply
    next_hand_at: float | None = None  # when the next hand is dealt (after a showdown)
    # The match ended with its standings: "Rematch" is offered (one click). Saved with the
    # closing snapshot, so the offer outlives a restart.
    rematch: bool = False
    practice: bool = False  # /ofc practice: play chips, no wallet moves (money.play_chips)
    lent: bool = False  # a tournament's table: the house lent the stacks (R13), no rematch
    thread_id: int | None = field(default=None, metadata=_ELSEWHERE)
    lobby_message_id: int | None = field(default=None, metadata=_ELSEWHERE)
    table_message_id: int | None = field(default=None, metadata=_ELSEWHERE)

    @property
    def home(self) -> int:
        """The channel events go to: the table's thread, else its channel."""
        return self.thread_id or self.channel_id

    def seated(self) -> frozenset[int]:
        """Who sits at the table: its lobby's seats, or its match's players still in it;
        nobody once it is closed."""
        if self.status == "closed":
            return frozenset()
        seats = self.seats if self.match is None else in_match(self.match)
        return frozenset(s.player_id for s in seats)

    def located(self) -> dict[str, Any]:
        """Where the table lives (storage's own columns, not the snapshot): `loads`'s
        arguments besides the text."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.metadata == _ELSEWHERE}

    def op_key(self, kind: str, user: int | None = None) -> str:
        """The idempotency key of a chip movement the current action makes (money.py)."""
        hand_no = self.match.hand_no if self.match is not None else 0
        return money.key(self.table_id, hand_no, self.step, kind, user)

    def draft(self, seat: int) -> dict[Card, str]:
        """The seat's draft for its current action (an older one is void)."""
        draft = self.drafts.get(seat)
        match = self.match
        if draft is None or match is None or (draft.hand_no, draft.street) != (
                match.hand_no, street_of(match, seat)):
            return {}
        return draft.rows

    def to_json(self) -> dict[str, Any]:
        return {"service_version": CURRENT, **codec.dump(self)}

    def dumps(self) -> str:
        """`to_json()` as compact JSON text (the same text), at the cost of what changed."""
        return f'{{"service_version":{CURRENT},{codec.dumps(self)[1:]}'

    def point(self) -> Point | None:
        """Where the match stands in a hand being played; None between hands and outside a
        match, where every save is whole."""
        match = self.match
        if match is None or match.phase != "playing" or match.hand is None or match.log is None:
            return None
        return Point(match.log, match.hand.street, len(match.log.actions))

    def changes(self, since: int) -> str:
        """What changed since the whole snapshot taken when the hand's history held `since`
        actions, at the same point of the hand (`Point.holds`): the actions after those, and
        the table but its match."""
        match = self.match
        assert match is not None and match.log is not None
        actions = ",".join(map(codec.compact, match.log.actions[since:]))
        return (f'{{"service_version":{CURRENT},"from":{since},"actions":[{actions}],'
                f'"table":{codec.dumps(replace(self, match=None))}}}')

    @staticmethod
    def stored(row: LiveTable) -> "TableState":
        """The table as storage holds it (`loads` of its snapshot and changes)."""
        return TableState.loads(
            row.state_json, changes=row.changes_json, table_id=row.id, guild_id=row.guild_id,
            channel_id=row.channel_id, thread_id=row.thread_id,
            lobby_message_id=row.lobby_message_id, table_message_id=row.table_message_id)

    @staticmethod
    def loads(text: str, *, changes: str | None = None, table_id: int, guild_id: int,
              channel_id: int, thread_id: int | None = None,
              lobby_message_id: int | None = None,
              table_message_id: int | None = None) -> "TableState":
        """Rebuild a table from its snapshot, of any version up to this code's (upgraded
        first, snapshot_versions.py), and the changes saved since it; BadSnapshot when they
        cannot be read."""
        try:
            d = json.loads(text)
            actions: list[dict[str, Any]] = []
            if changes is not None:
                d, actions = _changed(d, json.loads(changes))
            state = codec.load(
                TableState, upgrade(d), table_id=table_id, guild_id=guild_id,
                channel_id=channel_id, thread_id=thread_id, lobby_message_id=lobby_message_id,
                table_message_id=table_message_id)
            if actions:
                assert state.match is not None  # _changed checked the snapshot's match
                carry_on(state.match, actions)
            return state
        except BadSnapshot:
            raise
        except Exception as error:  # any malformed snapshot: the caller refunds the table
            raise BadSnapshot(f"{type(error).__name__}: {error}") from error


def _changed(whole: dict[str, Any],
             changes: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A snapshot with the table of the changes saved since it, and the hand's actions taken
    since, to take again on its match."""
    if changes.get("service_version") != whole.get("service_version"):
        raise BadSnapshot("changes written by another version than their snapshot")
    history = (whole.get("match") or {}).get("history") or {}
    if len(history.get("actions", ())) != changes["from"]:
        raise BadSnapshot("changes that do not follow their snapshot")
    table = {key: value for key, value in changes["table"].items() if key != "match"}
    return {**whole, **table}, changes["actions"]
