"""The plain values the storage API takes and returns (frozen, no behaviour beyond rates)."""

from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.ratings import Rating


@dataclass(frozen=True, slots=True)
class Wallet:
    guild_id: int
    user_id: int
    balance: int
    last_daily_at: float | None


@dataclass(frozen=True, slots=True)
class DailyClaim:
    amount: int
    balance: int
    next_claim_at: float


@dataclass(frozen=True, slots=True)
class WalletMove:
    """Result of a grant or correction; `applied` is False when its key was already used."""

    applied: bool
    balance: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    guild_id: int
    user_id: int
    amount: int
    balance_after: int | None  # None for 'house' rows (computer seats have no wallet)
    kind: str
    reason: str
    actor_id: int | None
    table_id: int | None
    hand_no: int | None
    op_key: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class StackMove:
    """Result of a buy-in or cash-out.

    `amount` is what this call moved (0 when `applied` is False: the key was already used);
    `stack` and `balance` are the player's stack and wallet now (`balance` None for computers).
    """

    applied: bool
    amount: int
    stack: int
    balance: int | None


class Transfer(NamedTuple):
    """`chips` move from one table stack to another (a hand's settlement, RULES.md R6)."""

    from_user: int
    to_user: int
    chips: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """`stacks` are every seat's stack after the call (whether or not it applied)."""

    applied: bool
    stacks: dict[int, int]


@dataclass(frozen=True, slots=True)
class Refund:
    """What `refund_table` returned to each seat (empty when the table was already closed)."""

    applied: bool
    refunds: dict[int, int]


@dataclass(frozen=True, slots=True)
class LiveTable:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    table_message_id: int | None
    state_json: str  # the last whole snapshot
    changes_json: str | None  # what changed since it, when saved as changes
    status: str  # 'open', 'closed' or 'refunded'
    close_reason: str | None
    stacks: dict[int, int]
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class PlayerHandResult:
    """One player's line of a finished hand (points and chips signed, net for the hand)."""

    user_id: int
    points: int
    chips: int
    fouled: bool = False
    royalties: int = 0
    in_fantasy: bool = False  # played this hand in Fantasyland
    fantasy_entered: bool = False  # earned Fantasyland from outside it (R8)
    fantasy_stayed: bool = False  # earned another Fantasyland hand from inside it (R8)
    scoops: int = 0


@dataclass(frozen=True, slots=True)
class HandRecord:
    match_id: int
    hand_no: int
    history_json: str
    results: tuple[PlayerHandResult, ...]


@dataclass(frozen=True, slots=True)
class HandHistory:
    match_id: int
    hand_no: int
    history_json: str
    played_at: float
    results: tuple[PlayerHandResult, ...]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand one player played, for /ofc review: its place in history and their result."""

    match_id: int
    hand_no: int
    played_at: float
    points: int
    practice: bool


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """A player's totals over the hands recorded so far."""

    user_id: int
    net_points: int
    net_chips: int
    hands: int
    won: bool


@dataclass(frozen=True, slots=True)
class MatchSummary:
    match_id: int
    table_id: int
    guild_id: int
    options_json: str
    started_at: float
    ended_at: float | None  # None while the match is still running
    hands: int
    players: tuple[MatchPlayer, ...]
    practice: bool = False  # /ofc practice: play chips, left out of /ofc stats
    cancelled: bool = False  # ended by /ofc cancel or a refund: not rated, not in /ofc stats
    tournament: bool = False  # a tournament's table: its chips were lent by the house
    channel_id: int = 0  # where its table played (its thread, if it had one)

    def player(self, user_id: int) -> MatchPlayer:
        return next(p for p in self.players if p.user_id == user_id)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    hands: int
    net_points: int
    net_chips: int  # a tournament's tables left out: their chips never reach a wallet
    matches: int  # finished matches
    matches_won: int
    fouls: int
    fantasy_chances: int  # hands played outside Fantasyland
    fantasy_entries: int
    fantasy_hands: int  # hands played in Fantasyland
    fantasy_stays: int
    scoops: int
    best_royalties: int
    royalties: int = 0  # over every hand

    @property
    def win_rate(self) -> float:
        return _rate(self.matches_won, self.matches)

    @property
    def foul_rate(self) -> float:
        return _rate(self.fouls, self.hands)

    @property
    def fantasy_entry_rate(self) -> float:
        return _rate(self.fantasy_entries, self.fantasy_chances)

    @property
    def fantasy_stay_rate(self) -> float:
        return _rate(self.fantasy_stays, self.fantasy_hands)

    @property
    def royalties_per_hand(self) -> float:
        return _rate(self.royalties, self.hands)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """`total` = wallet + chips in stacks at open tables (not those the house lent: a
    tournament's); equal totals share a rank."""

    rank: int
    user_id: int
    balance: int
    at_tables: int
    total: int


@dataclass(frozen=True, slots=True)
class Preferences:
    """One player's choices (`/ofc preferences`): the four-colour deck, and whether their
    controls come by DM ("dm") or only through "My hand" in the channel ("channel")."""

    four_colour: bool = False
    controls: str = "dm"
    locale: str | None = None  # Discord's code of the language they last used the bot in


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild overrides; None means the bot's default."""

    starting_chips: int | None
    daily_chips: int | None
    table_options: dict[str, Any]
    language: str | None = None  # public table messages; None: the server's preferred locale


@dataclass(frozen=True, slots=True)
class SettingsChange:
    actor_id: int
    field: str
    old: Any
    new: Any
    changed_at: float


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    state_json: str
    pool: int
    status: str  # 'open', 'finished' or 'cancelled'
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Where a person finished a tournament (RULES.md R13): written when it finishes."""

    user_id: int
    place: int
    entrants: int
    prize: int
    warnings: int
    excluded: bool
    tournament_id: int = 0  # filled in when read back
    finished_at: float = 0.0  # filled in when read back


@dataclass(frozen=True, slots=True)
class TournamentMove:
    applied: bool
    amount: int  # chips moved (an 'unstake' takes at most what the wallet holds)
    pool: int


@dataclass(frozen=True, slots=True)
class SanctionRecord:
    """A director's warning or penalty (RULES.md R13)."""

    user_id: int
    kind: str  # 'warning' or 'penalty'
    points: int
    reason: str
    level: int
    actor_id: int
    excluded: bool
    created_at: float = 0.0
    tournament_id: int = 0  # filled in when read back


@dataclass(frozen=True, slots=True)
class ShardLease:
    """Who runs a gateway shard, until when (epoch seconds), and where it takes forwarded
    interactions (None: nowhere). `token`: the claim's fencing token, greater than every
    earlier claim's (bot/storage/fencing.py)."""

    shard_id: int
    shard_count: int
    owner: str
    address: str | None
    acquired_at: float
    expires_at: float
    token: int = 0


@dataclass(frozen=True, slots=True)
class Season:
    """A server's rating season, numbered from 1; `ended_at` None while it runs."""

    id: int
    guild_id: int
    number: int
    name: str
    started_at: float
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A person's line on a season's board: `shown` ranks it (bot.ratings); equal values
    share a rank."""

    rank: int
    user_id: int
    shown: int
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's update by one finished match (a computer's `level`, a person's None)."""

    user_id: int
    level: str | None
    place: int
    before: Rating
    after: Rating
