"""What a tournament looks like in Discord: one standings embed, sanctions as one line."""

from collections.abc import Mapping
from typing import Any

import discord

from bot.engine.tournament import Sanction, Tournament, TournamentTable
from bot.i18n import Text, series, t
from bot.i18n.names import seat_name
from bot.tournaments import TournamentChanged
from cogs.common.format import fits, sanction_reason, sanction_words, shown_seat

FIELD_LIMIT = 1024
SANCTIONS_SHOWN = 10
STATUSES = {"registering": Text("registration open"), "closed": Text("registration closed"),
            "running": Text("running"), "finished": Text("finished"),
            "cancelled": Text("cancelled")}
ENTRY_STATUSES = {"in": Text("in"), "out": Text("out"), "excluded": Text("excluded")}
TABLE_STATUSES = {"waiting": Text("waiting"), "playing": Text("playing"), "done": Text("done")}


def _cut(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[:FIELD_LIMIT - 1] + "…"


def _word(loc: str, words: dict[str, Text], key: str) -> str:
    return t(loc, words[key]) if key in words else key


def sanction_line(loc: str, s: Sanction, who: str) -> str:
    reason = sanction_reason(loc, s.reason)
    if s.kind == "penalty":
        return t(loc, "Penalty: {who} loses {n} point ({reason}).",
                 "Penalty: {who} loses {n} points ({reason}).", who=who, n=s.points,
                 reason=reason)
    if s.excluded:
        return t(loc, "Third warning: {who} is excluded from the tournament, no refund, no "
                      "prize ({reason}).", who=who, reason=reason)
    if s.points:
        return t(loc, "Warning to {who}, {n} points ({reason}).", who=who, n=s.points,
                 reason=reason)
    return t(loc, "Warning to {who} ({reason}).", who=who, reason=reason)


def announcement(loc: str, changed: TournamentChanged,
                 note: Text | None) -> dict[str, Any] | None:
    """The channel's post of a change (`note`: what its standings say first), or None when
    the channel need not hear of it."""
    tm = changed.tournament
    if changed.sanctions:
        return {"content": "\n".join(sanction_line(loc, s, f"<@{s.player_id}>")
                                     for s in changed.sanctions)}
    if changed.reason == "computer":
        return {"content": t(loc, "{who} joined ({n} registered).",
                             who=seat_name(loc, tm.entries[-1].name), n=len(tm.entries))}
    note = changed.detail if changed.reason == "blocked" else note
    return None if note is None else {"embed": standings(loc, tm, note)}


def payouts_words(payouts: tuple[int, ...]) -> str:
    """'65% / 35%': shares of the pool, read as percentages."""
    return " / ".join(f"{share}%" for share in payouts)


def _table_status(loc: str, table: TournamentTable, at: tuple[int, int] | None) -> str:
    """How a table stands: decided (by lot, or closed early), or its status; a table in
    play at the hand it is at (`at`: hand, hands so far) when known."""
    if table.by_lot:
        return t(loc, "decided by lot")
    if table.early:
        return t(loc, "closed early")
    if table.status == "playing" and at is not None:
        return t(loc, "playing: hand {hand} of {total}", hand=at[0], total=at[1])
    return _word(loc, TABLE_STATUSES, table.status)


def standings(loc: str, tournament: Tournament, note: Text | None = None,
              in_play: Mapping[int, tuple[int, int]] | None = None) -> discord.Embed:
    """Players, the current level's tables with their points, warnings, penalties, payouts.
    A table's points are known once it is done: until then it shows its players, and the
    hand it is at when `in_play` has it (table id -> (hand, hands of its match so far))."""
    tm = tournament
    title = t(loc, "Tournament #{n}: {status}", n=tm.tournament_id,
              status=_word(loc, STATUSES, tm.status))
    if tm.level:
        title = t(loc, "{title}, level {level} (final)", title=title, level=tm.level) \
            if tm.is_final else t(loc, "{title}, level {level}", title=title, level=tm.level)
    embed = discord.Embed(title=title, description=t(loc, note) if note else None)
    hands = t(loc, "{n} hand a table", "{n} hands a table", n=tm.hands)
    # RULES.md R13: with 2 seats an odd number of players puts three at one table.
    seating = (t(loc, "tables of 2 (one of 3 when the number is odd)") if tm.seats == 2
               else t(loc, "tables of at most {seats}", seats=tm.seats))
    embed.add_field(name=t(loc, "Format"), value=t(
        loc, "buy-in {buy_in}, prize pool {pool} (people's buy-ins), paid to places: "
             "{payouts}, {tables}, {hands}", buy_in=tm.buy_in, pool=tm.pool,
        payouts=payouts_words(tm.payouts), tables=seating, hands=hands),
        inline=False)
    names = {e.player_id: shown_seat(loc, e.name, e.ai_level is not None) for e in tm.entries}
    lines = []
    for e in tm.entries:
        parts = [f"{names[e.player_id]}: {_word(loc, ENTRY_STATUSES, e.status)}"]
        if tm.warnings(e.player_id):
            parts.append(t(loc, "{n} warning", "{n} warnings", n=tm.warnings(e.player_id)))
        if tm.penalty_points(e.player_id):
            parts.append(t(loc, "-{n} point", "-{n} points", n=tm.penalty_points(e.player_id)))
        lines.append(t(loc, series(parts)))
    embed.add_field(name=t(loc, "Players ({n})", n=len(tm.entries)),
                    value=_cut("\n".join(lines) or t(loc, "none yet")), inline=False)
    tail: list[tuple[str, str]] = []  # after the tables, whatever their number
    if tm.sanctions:
        sanctions = [f"L{s.level} {names.get(s.player_id, s.player_id)}: "
                     f"{t(loc, sanction_words(s.kind, s.points, s.excluded))} "
                     f"({sanction_reason(loc, s.reason)})"
                     for s in tm.sanctions[-SANCTIONS_SHOWN:]]
        tail.append((t(loc, "Warnings and penalties"), _cut("\n".join(sanctions))))
    if tm.placings:
        tail.append((t(loc, "Final standings and payouts"), _cut("\n".join(
            t(loc, "excluded: {who}", who=names[p.player_id]) if p.excluded else
            t(loc, "{place}. {who}: {prize}", place=p.place, who=names[p.player_id],
              prize=p.prize) if p.prize else f"{p.place}. {names[p.player_id]}"
            for p in tm.placings))))
    later = sum(len(name) + len(value) for name, value in tail)
    tables = tm.current_tables
    for shown, table in enumerate(tables):
        rows = "\n".join(
            f"{names[p]}: {table.points.get(p, 0) - tm.penalty_points(p, table.level):+d}"
            if table.status == "done" else names[p] for p in table.players)
        where = f" <#{table.thread_id}>" if table.thread_id else ""
        status = _table_status(loc, table, (in_play or {}).get(table.table_id or 0))
        name = t(loc, "Table {n} ({status}) -> {winner}", n=table.index + 1, status=status,
                 winner=names[table.winner]) if table.winner is not None \
            else t(loc, "Table {n} ({status})", n=table.index + 1, status=status)
        value = _cut(f"{rows}{where}")
        if not fits(embed, name, value, later=later, later_fields=len(tail)):
            # a large level: its first tables, and how many more
            embed.add_field(name=t(loc, "More tables"),
                            value=t(loc, "{n} more tables at this level.",
                                    n=len(tables) - shown), inline=False)
            break
        embed.add_field(name=name, value=value, inline=True)
    for name, value in tail:
        embed.add_field(name=name, value=value, inline=False)
    return embed
