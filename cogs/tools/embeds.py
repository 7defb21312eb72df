"""The embeds of /ofc score, /ofc solve, /ofc rules and /ofc-admin settings (no I/O here)."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.ai.solver import Solution
from bot.engine.board import Board
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.storage import GuildSettings, SettingsChange
from cogs.common.format import (
    INFO,
    add_lines,
    cards_label,
    chips,
    clip,
    row_label,
    rules_line,
    signed,
    when,
)
from cogs.common.images import SHOWDOWN_IMAGE, SOLUTION_IMAGE
from cogs.tools.rules_words import describe

FOUL = discord.Colour.dark_red()
OK = discord.Colour.green()
CHANGE_LINE = 200  # characters of one recent settings change
_LINE_WORDS = {1: "won", 0: "tied", -1: "lost"}


def _fantasy(cards: int) -> str:
    return f"Fantasyland next hand: **{cards} cards**" if cards else ""


def _player_field(player: Mapping[str, Any], board: Board, point_value: int) -> str:
    lines = []
    for row, cards in zip(ROWS, board.rows, strict=True):
        royalty = player["row_royalties"][row]
        bonus = f" **+{royalty}**" if royalty else ""
        lines.append(f"{row.capitalize()}: {row_label(row, cards)}: {player['rows'][row]}{bonus}")
    if player["fouled"]:
        lines.append("**Fouled**: no royalties, loses every row")
    else:
        lines.append(f"Royalties: {player['royalties']}")
    money = f" = {signed(player['points'] * point_value)} chips" if point_value != 1 else ""
    lines.append(f"**{signed(player['points'])} points**{money}")
    lines.append(_fantasy(player["fantasy_cards"]))
    return "\n".join(line for line in lines if line)


def _pair_line(pair: Mapping[str, Any], point_value: int) -> str:
    rows = ", ".join(f"{row} {_LINE_WORDS[line]}" for row, line in zip(ROWS, pair["lines"],
                                                                        strict=True))
    points = pair["points"]
    winner, loser = (pair["a"], pair["b"]) if points >= 0 else (pair["b"], pair["a"])
    result = (f"**{winner} +{abs(points)}**" if points else "**even**")
    if points and point_value != 1:
        result += f" ({loser} pays {chips(abs(points) * point_value)})"
    return (f"{pair['a']} v {pair['b']}: {rows} ({signed(pair['line_points'])}), "
            f"bonus {signed(pair['bonus'])}, royalties {signed(pair['royalties'])} → {result}")


def score(rules: TableRules, boards: Sequence[Board], sheet: Mapping[str, Any]) -> discord.Embed:
    """`boards` in the players' order; `sheet`: score_sheet's output for them."""
    fouled = any(p["fouled"] for p in sheet["players"])
    embed = discord.Embed(title="Hand scored", colour=FOUL if fouled else OK,
                          description=rules_line(rules))
    for player, board in zip(sheet["players"], boards, strict=True):
        title = f"{player['name']}{': FOULED' if player['fouled'] else ''}"
        embed.add_field(name=discord.utils.escape_markdown(title), inline=False,
                        value=_player_field(player, board, rules.point_value))
    # Six pairs of 32-character names at a large point value exceed one field (issue 21).
    add_lines(embed, "Head to head",
              (_pair_line(pair, rules.point_value) for pair in sheet["pairs"]))
    embed.set_image(url=f"attachment://{SHOWDOWN_IMAGE}")
    return embed


def solution(rules: TableRules, solved: Solution, dealt: int) -> discord.Embed:
    result = solved.result
    stays = ("**Stays in Fantasyland**" if solved.stays
             else "Does not stay in Fantasyland")
    embed = discord.Embed(
        title=f"Best Fantasyland arrangement of {dealt} cards",
        colour=FOUL if result.fouled else OK,
        description=(f"{rules_line(rules)}\nRoyalties **{solved.royalties}** · {stays}"
                     + ("\nEvery arrangement fouls: no 2-7 low is possible."
                        if result.fouled else "")),
    )
    for row, cards, name, royalty in zip(ROWS, solved.board.rows, result.names,
                                         result.royalties, strict=True):
        bonus = f" **+{royalty}**" if royalty else ""
        embed.add_field(name=row.capitalize(), inline=False,
                        value=f"{row_label(row, cards)}: {name}{bonus}")
    if solved.discard:
        embed.add_field(name="Discard", value=cards_label(solved.discard), inline=False)
    embed.set_image(url=f"attachment://{SOLUTION_IMAGE}")
    return embed


def rules(table_rules: TableRules, where: str) -> discord.Embed:
    embed = discord.Embed(title="Rules in force", colour=INFO,
                          description=f"{where}\n{rules_line(table_rules)}")
    for title, text in describe(table_rules):
        embed.add_field(name=title, value=text, inline=False)
    return embed


def _setting(value: int | None, default: int) -> str:
    return chips(default) + " (default)" if value is None else chips(value)


def settings(current: GuildSettings, defaults: tuple[int, int], rules: TableRules,
             changes: Sequence[SettingsChange], changed: Sequence[str]) -> discord.Embed:
    starting, daily_amount = defaults
    embed = discord.Embed(
        title="Server settings", colour=INFO,
        description=("Changed: " + ", ".join(changed) + "." if changed
                     else "Nothing changed. Give options to change these settings."),
    )
    embed.add_field(name="Starting chips (new wallets)",
                    value=_setting(current.starting_chips, starting))
    embed.add_field(name="Daily chips", value=_setting(current.daily_chips, daily_amount))
    custom = ", ".join(f"{k} = {v}" for k, v in sorted(current.table_options.items()))
    embed.add_field(name="Default table options", inline=False,
                    value=f"{rules_line(rules)}\n{custom or 'the usual defaults'}")
    if changes:
        add_lines(embed, "Recent changes", (clip(
            f"{when(c.changed_at, 'd')} <@{c.actor_id}>: {c.field} "
            f"{json.dumps(c.old)} -> {json.dumps(c.new)}", CHANGE_LINE) for c in changes))
    return embed
