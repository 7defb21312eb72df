"""A live table's whole state, as kept in memory and saved as the storage snapshot.

The snapshot (`state_json` in storage) is this service's envelope around the engine's match
JSON: the lobby, the drafts of the action in progress, DM message ids, and the money
operations decided but not yet applied (`pending`, see money.py). Where the table lives in
Discord (thread, lobby and table messages) is kept in storage's own columns.
"""

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.engine.cards import Card
from bot.engine.deal import decode, encode
from bot.engine.match import Match
from bot.engine.rules import TableRules
from bot.tables import money
from bot.tables.views import LobbySeat, Status

SERVICE_VERSION = 1


@dataclass(frozen=True, slots=True)
class Draft:
    """A seat's choices so far for one action (hand, street), before it confirms (R7)."""

    hand_no: int
    street: int
    rows: dict[Card, str]  # dealt card -> "top" | "middle" | "bottom" | "discard"


@lru_cache(maxsize=256)
def _rules_json(rules: TableRules) -> dict[str, Any]:
    """The options as JSON, once per rule set (every snapshot carries them)."""
    return rules.to_dict()


def street_of(match: Match, seat: int) -> int:
    """The seat's current action: 1.. a street, 0 a Fantasyland hand (R8)."""
    hand = match.hand
    if hand is None or seat not in hand.seats:
        return 0
    return 0 if hand.seats[seat].fantasy else hand.street


class BadSnapshot(ValueError):
    """A snapshot this version cannot read (corrupt, or written by another version)."""


@dataclass(slots=True)
class TableState:
    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: TableRules
    created_at: float
    last_activity: float
    status: Status = "lobby"
    seed: int | None = None  # tests and simulations only (R1)
    seats: list[LobbySeat] = field(default_factory=list)  # the lobby, in joining order
    match: Match | None = None
    match_id: int | None = None  # storage history's match
    drafts: dict[int, Draft] = field(default_factory=dict)  # seat -> its draft
    dm: dict[int, tuple[int, int]] = field(default_factory=dict)  # player -> (channel, msg)
    step: int = 0  # actions applied so far: part of every idempotency key
    pending: list[money.Op] = field(default_factory=list)  # money ops to apply
    next_hand_at: float | None = None  # when the next hand is dealt (after a showdown)
    thread_id: int | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None

    @property
    def home(self) -> int:
        """The channel events go to: the table's thread, else its channel."""
        return self.thread_id or self.channel_id

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
        return {
            "service_version": SERVICE_VERSION,
            "host_id": self.host_id, "rules": _rules_json(self.rules),
            "created_at": self.created_at, "last_activity": self.last_activity,
            "status": self.status, "seed": self.seed,
            "seats": [[s.player_id, s.name, s.ai_level, s.stack] for s in self.seats],
            "match": self.match.to_json() if self.match is not None else None,
            "match_id": self.match_id,
            "drafts": {str(seat): [d.hand_no, d.street,
                                   dict(zip(encode(d.rows), d.rows.values(), strict=True))]
                       for seat, d in self.drafts.items()},
            "dm": {str(p): list(ids) for p, ids in self.dm.items()},
            "step": self.step, "pending": [money.to_json(op) for op in self.pending],
            "next_hand_at": self.next_hand_at,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @staticmethod
    def loads(text: str, *, table_id: int, guild_id: int, channel_id: int,
              thread_id: int | None = None, lobby_message_id: int | None = None,
              table_message_id: int | None = None) -> "TableState":
        """Rebuild a table from its snapshot; BadSnapshot when it cannot be read."""
        try:
            d = json.loads(text)
            if d.get("service_version") != SERVICE_VERSION:
                raise BadSnapshot(f"snapshot version {d.get('service_version')!r}")
            return TableState(
                table_id=table_id, guild_id=guild_id, channel_id=channel_id,
                host_id=int(d["host_id"]), rules=TableRules.from_mapping(d["rules"]),
                created_at=float(d["created_at"]), last_activity=float(d["last_activity"]),
                status=d["status"], seed=d["seed"],
                seats=[LobbySeat(int(p), str(n), a, int(s)) for p, n, a, s in d["seats"]],
                match=Match.from_json(d["match"]) if d["match"] is not None else None,
                match_id=d["match_id"],
                drafts={int(seat): Draft(int(h), int(st), dict(zip(decode(rows), rows.values(),
                                                                       strict=True)))
                        for seat, (h, st, rows) in d["drafts"].items()},
                dm={int(p): (int(ids[0]), int(ids[1])) for p, ids in d["dm"].items()},
                step=int(d["step"]), pending=[money.from_json(op) for op in d["pending"]],
                next_hand_at=d["next_hand_at"],
                thread_id=thread_id, lobby_message_id=lobby_message_id,
                table_message_id=table_message_id,
            )
        except BadSnapshot:
            raise
        except Exception as error:  # any malformed snapshot: the caller refunds the table
            raise BadSnapshot(f"{type(error).__name__}: {error}") from error
