"""What the state machines report: every state change comes out as a list of events.

The table service turns events into messages, prompts and storage writes; chip movements it must
mirror (showdown transfers, stacks going back to wallets) are carried in their data.
"""

from typing import Any, NamedTuple

# Event kinds, in the order they usually occur.
HAND_STARTED = "hand_started"  # public: hand_no, button, seats dealt in, fantasy sizes
DEALT = "dealt"  # private: street (0 for a Fantasyland deal), cards, discards to make
TURN = "turn"  # public: an action of `seat` is awaited: street, fantasy, deadline
PLACED = "placed"  # private (it names the discards): street, rows, discards, auto
STREET = "street"  # public: a new street begins (in simultaneous order: the last one revealed)
TIMEOUT = "timeout"  # public: the seat's time ran out (R10) and the system placed for it
AWAY = "away"  # public: the seat is marked away (R10)
BACK = "back"  # public: the seat is back (acted again)
SHOWDOWN = "showdown"  # public: results, pairs, transfers, stacks after (R5, R6, R8)
BUSTED = "busted"  # public: the seat's stack reached 0: out of the match (R6)
SAT_OUT = "sat_out"  # public: an away player sits out; `stack` goes back to its wallet (R10)
HAND_OVER = "hand_over"  # public: hand_no, Fantasyland owed next hand, next button
JOINED = "joined"  # public (cash): a player sat down with `stack` from its wallet
LEAVING = "leaving"  # public (cash): the player leaves after the hand / its Fantasyland hand
LEFT = "left"  # public (cash): the player got up; `stack` goes back to its wallet
MATCH_OVER = "match_over"  # public: standings; `returned` chips go back to wallets (R11)


class Event(NamedTuple):
    """One thing that happened. A NamedTuple: a hand makes dozens, simulations millions."""

    kind: str
    seat: int | None  # the seat concerned, if any
    private: bool  # True: only that seat's player may see it
    data: dict[str, Any]  # JSON-able (cards as text)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "private": self.private, "data": self.data}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Event":
        return Event(data["kind"], data["seat"], data["private"], data["data"])
