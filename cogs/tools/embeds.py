"""The embeds of /ofc score, /ofc solve, /ofc rules and /ofc-admin settings (no I/O here)."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.ai.solver import Solution
from bot.engine.board import Board, evaluate_board
from bot.engine.royalties import ROWS
from bot.engine.rules import TableRules
from bot.i18n import LANGUAGE_NAMES, Slash, Text, series, t
from bot.storage import GuildSettings, SettingsChange
from cogs.common.format import (
    INFO,
    add_lines,
    cards_label,
    chips,
    clip,
    row_label,
    row_word,
    rules_line,
    shown,
    signed,
    signed_chips,
    signed_points,
    when,
)
from cogs.common.images import SHOWDOWN_IMAGE, SOLUTION_IMAGE
from cogs.tools.rules_words import describe

FOUL = discord.Colour.dark_red()
OK = discord.Colour.green()
CHANGE_LINE = 200  # characters of one recent settings change
_LINE_WORDS = {1: Text("won"), 0: Text("tied"), -1: Text("lost")}
# The server settings by name, as `/ofc-admin settings` says them.
SETTINGS = {"starting_chips": Text("starting chips"), "daily_chips": Text("daily chips"),
            "table_options": Text("table options"), "language": Text("language")}
_ROW_RESULTS = {"top": Text("top {result}"), "middle": Text("middle {result}"),
                "bottom": Text("bottom {result}")}


def _fantasy(loc: str, cards: int) -> str:
    return t(loc, "Fantasyland next hand: **{n} cards**", n=cards) if cards else ""


def _player_field(loc: str, player: Mapping[str, Any], board: Board, rules: TableRules) -> str:
    lines = []
    names = evaluate_board(board, rules).texts
    for row, cards, name in zip(ROWS, board.rows, names, strict=True):
        royalty = player["row_royalties"][row]
        bonus = f" **+{royalty}**" if royalty else ""
        lines.append(f"{row_word(loc, row)}: {row_label(loc, row, cards)}: {t(loc, name)}{bonus}")
    if player["fouled"]:
        lines.append(t(loc, "**Fouled**: no royalties, loses every row"))
    else:
        lines.append(t(loc, "Royalties: {n}", n=player["royalties"]))
    points = f"**{signed_points(loc, player['points'])}**"
    lines.append(f"{points} = {signed_chips(loc, player['points'] * rules.point_value)}"
                 if rules.point_value != 1 else points)
    lines.append(_fantasy(loc, player["fantasy_cards"]))
    return "\n".join(line for line in lines if line)


def _pair_line(loc: str, pair: Mapping[str, Any], point_value: int) -> str:
    rows = t(loc, series([t(loc, _ROW_RESULTS[row], result=_LINE_WORDS[line])
                          for row, line in zip(ROWS, pair["lines"], strict=True)]))
    points = pair["points"]
    a, b = shown(pair["a"]), shown(pair["b"])
    winner, loser = (a, b) if points >= 0 else (b, a)
    if not points:
        result = t(loc, "**even**")
    elif point_value != 1:
        result = t(loc, "**{winner} +{points}** ({loser} pays {chips})", winner=winner,
                   points=abs(points), loser=loser, chips=chips(loc, abs(points) * point_value))
    else:
        result = f"**{winner} +{abs(points)}**"
    return t(loc, "{a} v {b}: {rows} ({lines}), bonus {bonus}, royalties {royalties} → {result}",
             a=a, b=b, rows=rows, lines=signed(pair["line_points"]),
             bonus=signed(pair["bonus"]), royalties=signed(pair["royalties"]), result=result)


def score(loc: str, rules: TableRules, boards: Sequence[Board],
          sheet: Mapping[str, Any]) -> discord.Embed:
    """`boards` in the players' order; `sheet`: score_sheet's output for them."""
    fouled = any(p["fouled"] for p in sheet["players"])
    embed = discord.Embed(title=t(loc, "Hand scored"), colour=FOUL if fouled else OK,
                          description=rules_line(loc, rules))
    for player, board in zip(sheet["players"], boards, strict=True):
        name = shown(player["name"])
        title = t(loc, "{name}: FOULED", name=name) if player["fouled"] else name
        embed.add_field(name=title, inline=False,
                        value=_player_field(loc, player, board, rules))
    # Six pairs of 32-character names at a large point value exceed one field (1,024 chars).
    add_lines(loc, embed, t(loc, "Head to head"),
              (_pair_line(loc, pair, rules.point_value) for pair in sheet["pairs"]))
    embed.set_image(url=f"attachment://{SHOWDOWN_IMAGE}")
    return embed


def solution(loc: str, rules: TableRules, solved: Solution, dealt: int) -> discord.Embed:
    result = solved.result
    stays = t(loc, "**Stays in Fantasyland**") if solved.stays \
        else t(loc, "Does not stay in Fantasyland")
    lines = [rules_line(loc, rules), t(loc, "Royalties **{n}** · {stays}", n=solved.royalties,
                                       stays=stays)]
    if result.fouled:
        lines.append(t(loc, "Every arrangement fouls: no 2-7 low is possible."))
    embed = discord.Embed(
        title=t(loc, "Best Fantasyland arrangement of {n} cards", n=dealt),
        colour=FOUL if result.fouled else OK, description="\n".join(lines))
    for row, cards, name, royalty in zip(ROWS, solved.board.rows, result.texts,
                                         result.royalties, strict=True):
        bonus = f" **+{royalty}**" if royalty else ""
        embed.add_field(name=row_word(loc, row), inline=False,
                        value=f"{row_label(loc, row, cards)}: {t(loc, name)}{bonus}")
    if solved.discard:
        embed.add_field(name=row_word(loc, "discard"), value=cards_label(loc, solved.discard),
                        inline=False)
    embed.set_image(url=f"attachment://{SOLUTION_IMAGE}")
    return embed


def rules(loc: str, table_rules: TableRules, where: Text) -> discord.Embed:
    embed = discord.Embed(title=t(loc, "Rules in force"), colour=INFO,
                          description=f"{t(loc, where)}\n{rules_line(loc, table_rules)}")
    for title, text in describe(loc, table_rules):
        embed.add_field(name=title, value=text, inline=False)
    return embed


def server_rules(loc: str, table_rules: TableRules) -> discord.Embed:
    """No table in the channel: the server's defaults in one line, and where the full rules
    are told."""
    return discord.Embed(title=t(loc, "Rules in force"), colour=INFO, description=t(
        loc, "No table in this channel. This server's tables play {rules} unless opened with "
             "other options. In a table's channel, {cmd} explains its rules in full.",
        rules=rules_line(loc, table_rules), cmd=Slash("ofc rules")))


def _setting(loc: str, value: int | None, default: int) -> str:
    return t(loc, "{chips} (default)", chips=chips(loc, default)) if value is None \
        else chips(loc, value)


def language_name(loc: str, language: str | None, server_default: str) -> str:
    """The server's language setting in words."""
    if language is None:
        return t(loc, "the server's language ({name})", name=LANGUAGE_NAMES[server_default])
    return LANGUAGE_NAMES.get(language, language)


def settings(loc: str, current: GuildSettings, defaults: tuple[int, int], rules: TableRules,
             changes: Sequence[SettingsChange], changed: Sequence[Text],
             server_default: str) -> discord.Embed:
    starting, daily_amount = defaults
    embed = discord.Embed(
        title=t(loc, "Server settings"), colour=INFO,
        description=t(loc, "Changed: {names}.", names=series(changed))
        if changed else t(loc, "Nothing changed. Give options to change these settings."),
    )
    embed.add_field(name=t(loc, "Starting chips (new wallets)"),
                    value=_setting(loc, current.starting_chips, starting))
    embed.add_field(name=t(loc, "Daily chips"),
                    value=_setting(loc, current.daily_chips, daily_amount))
    embed.add_field(name=t(loc, "Language of the table messages"),
                    value=language_name(loc, current.language, server_default))
    custom = t(loc, series([f"{k} = {v}" for k, v in sorted(current.table_options.items())]))
    embed.add_field(name=t(loc, "Default table options"), inline=False,
                    value=f"{rules_line(loc, rules)}\n{custom or t(loc, 'the usual defaults')}")
    if changes:
        add_lines(loc, embed, t(loc, "Recent changes"), (clip(
            f"{when(c.changed_at, 'd')} <@{c.actor_id}>: "
            f"{t(loc, SETTINGS[c.field]) if c.field in SETTINGS else c.field} "
            f"{json.dumps(c.old, ensure_ascii=False)} -> {json.dumps(c.new, ensure_ascii=False)}",
            CHANGE_LINE) for c in changes))
    return embed
