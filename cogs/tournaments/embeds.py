"""What a tournament looks like in Discord: one standings embed, sanctions as one line."""

import discord

from bot.engine.tournament import Sanction, Tournament
from cogs.common.format import sanction_words

FIELD_LIMIT = 1024
SANCTIONS_SHOWN = 10
STATUS = {"registering": "registration open", "closed": "registration closed"}


def _cut(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[:FIELD_LIMIT - 1] + "…"


def sanction_line(s: Sanction, who: str) -> str:
    if s.kind == "penalty":
        return f"Penalty: {who} loses {s.points} points ({s.reason})."
    if s.excluded:
        return f"Third warning: {who} is excluded from the tournament, no refund ({s.reason})."
    cost = f", {s.points} points" if s.points else ""
    return f"Warning to {who}{cost} ({s.reason})."


def standings(t: Tournament, note: str = "") -> discord.Embed:
    """Players, the current level's tables with their points, warnings, penalties, payouts."""
    title = f"Tournament #{t.tournament_id}: {STATUS.get(t.status, t.status)}"
    if t.level:
        title += f", level {t.level}{' (final)' if t.is_final else ''}"
    embed = discord.Embed(title=title, description=note or None)
    embed.add_field(name="Format", value=(
        f"buy-in {t.buy_in}, prize pool {t.pool}, payouts "
        f"{'/'.join(str(p) for p in t.payouts)}, tables of at most {t.seats}, "
        f"{t.hands} hands a table"), inline=False)
    names = {e.player_id: e.name for e in t.entries}
    players = "\n".join(
        f"{e.name}: {e.status}" + (f", {t.warnings(e.player_id)} warning(s)"
                                   if t.warnings(e.player_id) else "")
        + (f", -{t.penalty_points(e.player_id)} points" if t.penalty_points(e.player_id)
           else "") for e in t.entries)
    embed.add_field(name=f"Players ({len(t.entries)})", value=_cut(players or "none yet"),
                    inline=False)
    for table in t.current_tables:
        rows = "\n".join(
            f"{names[p]}: {table.points.get(p, 0) - t.penalty_points(p, table.level):+d}"
            for p in table.players)
        won = f" -> {names[table.winner]}" if table.winner is not None else ""
        where = f" <#{table.thread_id}>" if table.thread_id else ""
        status = "closed early" if table.early else table.status
        embed.add_field(name=f"Table {table.index + 1} ({status}){won}",
                        value=_cut(f"{rows}{where}"), inline=True)
    if t.sanctions:
        lines = [f"L{s.level} {names.get(s.player_id, s.player_id)}: "
                 f"{sanction_words(s.kind, s.points, s.excluded)} ({s.reason})"
                 for s in t.sanctions[-SANCTIONS_SHOWN:]]
        embed.add_field(name="Warnings and penalties", value=_cut("\n".join(lines)),
                        inline=False)
    if t.placings:
        paid = "\n".join(f"{p.place}. {p.name}: {p.prize}" for p in t.placings if p.prize)
        embed.add_field(name="Payouts", value=_cut(paid or "none"), inline=False)
    return embed
