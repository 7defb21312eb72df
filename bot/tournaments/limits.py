"""How much of the bot a member, and a server, may take with tournaments: cooldowns on
create, computer and start, caps on the tournaments live at once, on computers, and on the
tables of computers only (which nobody watches, yet cost the machine as much as any). The
cooldowns run on the service's clock (a fake one in tests and simulations) and are kept in
memory: a restart forgets them, which gives nobody more than one extra try.
"""

from dataclasses import dataclass

from bot.engine.tournament import MIN_HANDS

Scope = tuple[str, str, int]  # (action, "member" or "server", the member's or server's id)


@dataclass(frozen=True, slots=True)
class TournamentLimits:
    """The numbers (docs/players/tournaments.md lists them). Seconds for a cooldown, a count
    for a cap; `min_hands` is seed 001's minimum a table (simulations play shorter ones)."""

    create_member_seconds: float = 600.0
    create_server_seconds: float = 60.0
    computer_member_seconds: float = 3.0
    computer_server_seconds: float = 1.0
    start_member_seconds: float = 60.0
    start_server_seconds: float = 10.0
    live_per_member: int = 1  # tournaments a member directs at once
    live_per_server: int = 3
    computers_per_tournament: int = 8  # a free one's; with a buy-in they only fill tables
    computers_per_server: int = 24  # registered in the server's live tournaments
    computer_tables_per_member: int = 1  # tables of computers only, playing at once
    computer_tables_per_server: int = 2
    min_hands: int = MIN_HANDS


# For `ofc simulate --tournament`: computers only, as fast as the machine plays them.
UNLIMITED = TournamentLimits(
    create_member_seconds=0.0, create_server_seconds=0.0, computer_member_seconds=0.0,
    computer_server_seconds=0.0, start_member_seconds=0.0, start_server_seconds=0.0,
    live_per_member=10**9, live_per_server=10**9, computers_per_tournament=10**9,
    computers_per_server=10**9, computer_tables_per_member=10**9,
    computer_tables_per_server=10**9, min_hands=1)


class Cooldowns:
    """When each (action, scope) was last done, per member and per server."""

    def __init__(self) -> None:
        self._last: dict[Scope, float] = {}

    def wait(self, limits: TournamentLimits, action: str, member: int, server: int,
             now: float) -> int:
        """Whole seconds to wait before `action` again (0: go ahead): the longer of the
        member's and the server's cooldowns still running."""
        wait = 0.0
        for scope, who in (("member", member), ("server", server)):
            last = self._last.get((action, scope, who))
            seconds: float = getattr(limits, f"{action}_{scope}_seconds")
            if last is not None:
                wait = max(wait, last + seconds - now)
        return int(-(-wait // 1))

    def done(self, action: str, member: int, server: int, now: float) -> None:
        self._last[(action, "member", member)] = now
        self._last[(action, "server", server)] = now
