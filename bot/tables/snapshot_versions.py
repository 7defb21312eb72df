"""The shapes a table's snapshot has had, and how each is brought to the next.

A snapshot says which shape it has in `service_version`. Each change of shape adds one step
to `STEPS`: a pure function that takes a snapshot of version N (a JSON dict) and returns it in
the shape of version N + 1, filling what that change added with the value that keeps the
table playing as it did. `upgrade` runs the steps a snapshot lacks, in order, before
`TableState.loads` reads it; a snapshot from a newer bot is refused (`BadSnapshot`).

Every snapshot written before versions were counted says version 1, whatever it holds: every
step therefore fills a field only where it is missing, so a snapshot written after some of
those changes passes through them unchanged.

A step copies only what it changes (the rest is shared with its argument, never modified): an
old snapshot is upgraded once, at its next load, and saved in the current shape after that.
"""

from collections.abc import Callable
from typing import Any

Snapshot = dict[str, Any]
Step = Callable[[Snapshot], Snapshot]


class BadSnapshot(ValueError):
    """A snapshot this version cannot read (corrupt, or written by a newer version)."""


def _fill(record: Snapshot, **added: Any) -> Snapshot:
    """`record` with each of `added` after its own fields, where it lacks it."""
    missing = {name: value for name, value in added.items() if name not in record}
    return {**record, **missing} if missing else record


def _with_rules(data: Snapshot, **added: Any) -> Snapshot:
    """The table's and its match's rules with `added` where they lack it. A hand's history
    keeps the match state it recorded (`before`): replay reads it as it was written."""
    match = data["match"]
    return {**data, "rules": _fill(data["rules"], **added),
            "match": None if match is None else {**match, "rules": _fill(match["rules"],
                                                                         **added)}}


def _with_pending(data: Snapshot, kind: str, **added: Any) -> Snapshot:
    """Each pending money operation of `kind` with `added` where it lacks it."""
    return {**data, "pending": [_fill(op, **added) if op["op"] == kind else op
                                for op in data["pending"]]}


def _match_end_says_cancelled(data: Snapshot) -> Snapshot:
    """2: a match's end says whether /ofc cancel ended it (/stats leaves those out). A stored
    one is recorded as the bot that wrote it would have: as finished (cancel did not say)."""
    return _with_pending(data, "match_end", cancelled=False)


def _dm_prompt_names_its_action(data: Snapshot) -> Snapshot:
    """3: a DM prompt records the hand and street it was sent for. A stored one gets hand 0,
    street 0, which match no action: that message is closed and the action's prompt sent
    anew."""
    return {**data, "dm": {player: ids if len(ids) == 4 else [*ids, 0, 0]
                           for player, ids in data["dm"].items()}}


def _table_offers_rematch(data: Snapshot) -> Snapshot:
    """4: a closed table says whether it offers a rematch; a stored one offers none."""
    return _fill(data, rematch=False)


def _hints_and_practice(data: Snapshot) -> Snapshot:
    """5: the rules say whether hints are on (R10: off, as every table played before), and
    the table whether it is a practice of play chips (no)."""
    return _fill(_with_rules(data, hints="off"), practice=False)


def _sit_out_when_away(data: Snapshot) -> Snapshot:
    """6: the rules say whether an away player sits out (R10): yes, as every table did."""
    return _with_rules(data, sit_out_when_away=True)


def _showdown_names_its_dealer(data: Snapshot) -> Snapshot:
    """7: a match's last showdown names its hand's dealer; a stored one does not (null: the
    match's button is shown, as before)."""
    match = data["match"]
    showdown = None if match is None else match["showdown"]
    if showdown is None:
        return data
    return {**data, "match": {**match, "showdown": _fill(showdown, button=None)}}


def _table_says_lent(data: Snapshot) -> Snapshot:
    """8: the table says whether the house lent its stacks (a tournament's table); a stored
    one is read as not lent, as every table was before."""
    return _fill(data, lent=False)


def _dealing_and_clock(data: Snapshot) -> Snapshot:
    """9: the rules say when Fantasyland is dealt, how the clock runs and whether the time
    bank fills again (R8, R10), as every table played before them: Fantasyland first, a
    clock a street, a bank that never fills again. A seated player says when its bank was
    last full (null: set at the next deal) and a hand's seat the seconds it has spent acting
    (0: the hand's clock starts afresh)."""
    upgraded = _with_rules(data, fantasy_deal="first", clock="per_street",
                           time_bank_refill_seconds=0)
    match = upgraded["match"]
    if match is None:
        return upgraded
    seats = [None if player is None else _fill(player, bank_filled=None)
             for player in match["seats"]]
    hand = match["hand"]
    if hand is not None:
        hand = {**hand, "seats": [_fill(seat, used=0.0) for seat in hand["seats"]]}
    return {**upgraded, "match": {**match, "seats": seats, "hand": hand}}


def _match_end_names_computers(data: Snapshot) -> Snapshot:
    """10: a match's end names its computers' levels, for the ratings; a stored one names
    none (they are rated as easy)."""
    return _with_pending(data, "match_end", computers=[])


def _players_count_absences(data: Snapshot) -> Snapshot:
    """11: a match's player counts the times R10 marked it away, so that a tournament calls
    each absence's clock once, even across a restart. A stored one counts from 0: its earlier
    absences were called by the bot that saw them."""
    match = data["match"]
    if match is None:
        return data
    seats = [None if player is None else _fill(player, absences=0) for player in match["seats"]]
    return {**data, "match": {**match, "seats": seats}}


def _match_keeps_banks(data: Snapshot) -> Snapshot:
    """12: a cash match keeps the time bank of each player whose seat was freed, while its
    refill period matters (R10: getting up and back fills no bank). A stored one keeps none:
    the bot that wrote it had forgotten them, so those players sit down with a full bank as
    they did then."""
    match = data["match"]
    if match is None:
        return data
    return {**data, "match": _fill(match, kept_banks={})}


# STEPS[n - 1] takes a snapshot of version n to version n + 1, in the order the shapes
# changed on the main line.
STEPS: tuple[Step, ...] = (
    _match_end_says_cancelled,
    _dm_prompt_names_its_action,
    _table_offers_rematch,
    _hints_and_practice,
    _sit_out_when_away,
    _showdown_names_its_dealer,
    _table_says_lent,
    _dealing_and_clock,
    _match_end_names_computers,
    _players_count_absences,
    _match_keeps_banks,
)
CURRENT = len(STEPS) + 1  # the version this code writes


def upgrade(data: Snapshot) -> Snapshot:
    """`data` (a snapshot's JSON) in the current shape; BadSnapshot when its version is not
    one this code knows (newer, or not a version at all)."""
    version = data.get("service_version")
    if type(version) is not int or version < 1:
        raise BadSnapshot(f"snapshot version {version!r} is not a version")
    if version > CURRENT:
        raise BadSnapshot(f"snapshot version {version} was written by a newer bot: this one "
                          f"reads versions 1 to {CURRENT}")
    for step in STEPS[version - 1:]:
        data = step(data)
    return data if version == CURRENT else {**data, "service_version": CURRENT}
