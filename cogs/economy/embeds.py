"""The embeds of the economy commands, built from storage records (no I/O here)."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.ai.review import HandReview, StreetReview
from bot.engine.cards import Card, parse_cards
from bot.engine.errors import RuleError
from bot.engine.ordering import order_cards
from bot.engine.royalties import Row
from bot.engine.rules import TableRules
from bot.storage import (
    DailyClaim,
    HandHistory,
    LeaderRow,
    MatchSummary,
    PlayedHand,
    PlayerStats,
    SanctionRecord,
    Wallet,
)
from bot.tables import is_person
from cogs.common.format import (
    INFO,
    add_lines,
    cards_label,
    chips,
    clip,
    plural,
    row_label,
    rules_line,
    sanction_words,
    signed,
    when,
)

MONEY = discord.Colour.gold()
MAX_HAND_FIELDS = 15  # keeps a match's embed under Discord's 6,000 characters
REASON_SHOWN = 100  # characters of a director's reason in /ofc history


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def balance(mention: str, wallet: Wallet, line: LeaderRow | None, next_daily: float | None,
            now: float) -> discord.Embed:
    at_tables = line.at_tables if line else 0
    embed = discord.Embed(title="Balance", colour=MONEY,
                          description=f"{mention} has **{chips(wallet.balance)}** in the wallet.")
    if at_tables:
        embed.add_field(name="At tables", value=chips(at_tables))
        embed.add_field(name="Total", value=chips(wallet.balance + at_tables))
    if line:
        embed.add_field(name="Rank", value=f"#{line.rank} in this server")
    if next_daily is not None:
        daily = "ready: use /ofc daily" if next_daily <= now else f"{when(next_daily, 'R')}"
        embed.add_field(name="Daily chips", value=daily)
    return embed


def daily(claim: DailyClaim) -> discord.Embed:
    return discord.Embed(
        title="Daily chips", colour=MONEY,
        description=(f"**+{chips(claim.amount)}**. Your wallet now holds {chips(claim.balance)}."
                     f"\nNext claim {when(claim.next_claim_at, 'R')}."),
    )


def leaderboard(rows: Sequence[LeaderRow], me: LeaderRow | None, guild_name: str) -> discord.Embed:
    lines = [
        f"**{row.rank}.** <@{row.user_id}> {chips(row.total)}"
        + (f" ({chips(row.at_tables)} at tables)" if row.at_tables else "")
        for row in rows
    ]
    embed = discord.Embed(title=f"Leaderboard of {guild_name}", colour=MONEY,
                          description="\n".join(lines) or "Nobody has chips here yet.")
    if me is None:
        embed.set_footer(text="You have no wallet here yet: /ofc daily or /ofc balance opens one.")
    else:
        embed.set_footer(text=f"Your rank: #{me.rank} with {chips(me.total)} "
                              "(wallet plus chips at tables).")
    return embed


def options_summary(options_json: str) -> str:
    """A match's table options in one line; the raw text if they no longer validate."""
    try:
        return rules_line(TableRules.from_mapping(json.loads(options_json)))
    except (ValueError, TypeError, RuleError, AttributeError):
        return options_json[:200]


def _place(match: MatchSummary, user_id: int) -> str:
    """1st of 3 (by points; players are listed most points first)."""
    order = [p.user_id for p in match.players]
    place = order.index(user_id) + 1
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix} of {len(order)}"


def history(mention: str, user_id: int, matches: Sequence[MatchSummary],
            sanctions: Sequence[SanctionRecord] = ()) -> discord.Embed:
    """The member's latest matches, then the tournament warnings and penalties it received
    (RULES.md R13)."""
    embed = discord.Embed(title="Recent matches", colour=INFO, description=(
        f"{mention}'s latest matches, newest first. Pick one below to see its hands."
        if matches else f"{mention} has not played a match in this server yet."))
    for match in matches:
        me = match.player(user_id)
        state = ("in play" if match.ended_at is None
                 else "won" if me.won else "lost")
        practice = " (practice)" if match.practice else ""
        embed.add_field(
            name=f"Match #{match.match_id}: {state}{practice}",
            value=(f"{when(match.started_at, 'd')} · {options_summary(match.options_json)}\n"
                   f"{_place(match, user_id)} · {signed(me.net_points)} points · "
                   f"{signed(me.net_chips)} {'play chips' if match.practice else 'chips'} · "
                   f"{match.hands} hands"),
            inline=False,
        )
    add_lines(embed, "Tournament warnings and penalties", (
        f"Tournament #{s.tournament_id}, level {s.level}: "
        f"{sanction_words(s.kind, s.points, s.excluded)} ({clip(s.reason, REASON_SHOWN)}) · "
        f"{when(s.created_at, 'd')}" for s in sanctions))
    return embed


def _showdown(hand: HandHistory) -> tuple[dict[int, dict[str, Any]], dict[int, str]]:
    """Each player's showdown line (player id -> seat data) and name, from the hand's history
    (bot.engine.history.HandLog JSON); empty when the history has none."""
    try:
        log = json.loads(hand.history_json)
        names = {s["player_id"]: s["name"] for s in log["before"]["seats"] if s}
        shown = next(e["data"] for e in log["events"] if e["kind"] == "showdown")
        return {s["player_id"]: s for s in shown["seats"]}, names
    except (ValueError, KeyError, TypeError, StopIteration):
        return {}, {}


def _history_row(row: Row, cards: Sequence[str]) -> str:
    """A stored row ('Ah', 'Kd', ...) sorted as the hand it makes; as stored if unreadable."""
    try:
        return row_label(row, parse_cards(" ".join(cards), allow_jokers=True))
    except (ValueError, RuleError):
        return f"`{' '.join(cards)}`"


def _board_lines(seat: dict[str, Any]) -> str:
    rows = seat["rows"]
    return "\n".join(
        f"{row.capitalize()}: {_history_row(row, rows[row])}: {name}"
        + (f" (+{royalty})" if royalty else "")
        for row, name, royalty in zip(("top", "middle", "bottom"), seat["names"],
                                      seat["royalties"], strict=True)
    )


def _result_line(points: int, chips_won: int, fouled: bool, royalties: int,
                 fantasy: str) -> str:
    parts = [f"{signed(points)} points", f"{signed(chips_won)} chips"]
    if fouled:
        parts.append("**fouled**")
    elif royalties:
        parts.append(f"royalties {royalties}")
    if fantasy:
        parts.append(fantasy)
    return " · ".join(parts)


def _fantasy(in_fantasy: bool, entered: bool, stayed: bool) -> str:
    if entered:
        return "enters Fantasyland"
    if stayed:
        return "stays in Fantasyland"
    return "played in Fantasyland" if in_fantasy else ""


def match_hands(match: MatchSummary, hands: Sequence[HandHistory]) -> discord.Embed:
    practice = "**Practice**: play chips, not in /ofc stats.\n" if match.practice else ""
    embed = discord.Embed(
        title=f"Match #{match.match_id}", colour=INFO,
        description=(f"{practice}{when(match.started_at, 'f')} · "
                     f"{options_summary(match.options_json)}\n"
                     "Pick a hand below to see the boards; `/ofc review` goes over yours."),
    )
    shown = hands[-MAX_HAND_FIELDS:]
    if len(shown) < len(hands):
        embed.set_footer(text=f"The last {len(shown)} of {len(hands)} hands.")
    for hand in shown:
        embed.add_field(name=f"Hand {hand.hand_no}", inline=False, value="\n".join(
            f"<@{r.user_id}>: " + _result_line(
                r.points, r.chips, r.fouled, r.royalties,
                _fantasy(r.in_fantasy, r.fantasy_entered, r.fantasy_stayed))
            for r in hand.results) or "No results recorded.")
    return embed


def hand_detail(match_id: int, hand: HandHistory) -> discord.Embed:
    shown, names = _showdown(hand)
    embed = discord.Embed(title=f"Match #{match_id}, hand {hand.hand_no}", colour=INFO,
                          description=when(hand.played_at, "f"))
    for r in hand.results:
        seat = shown.get(r.user_id)
        fantasy = _fantasy(r.in_fantasy, r.fantasy_entered, r.fantasy_stayed)
        text = _result_line(r.points, r.chips, r.fouled, r.royalties, fantasy)
        if seat is not None:
            text = f"{_board_lines(seat)}\n{text}"
        name = names.get(r.user_id) or (
            f"Player {r.user_id}" if is_person(r.user_id) else "Computer")
        embed.add_field(name=discord.utils.escape_markdown(name)[:256], value=text, inline=False)
    return embed


def stats(mention: str, s: PlayerStats) -> discord.Embed:
    embed = discord.Embed(title="Statistics", colour=INFO, description=(
        f"{mention} in this server." if s.hands else f"{mention} has not played a hand here yet."))
    if not s.hands:
        return embed
    per_hand = s.net_points / s.hands
    fields = [
        ("Hands played", f"{s.hands:,}"),
        ("Net points", f"{signed(s.net_points)} ({per_hand:+.2f} a hand)"),
        ("Net chips", signed(s.net_chips)),
        ("Matches won", f"{s.matches_won} of {s.matches} ({_percent(s.win_rate)})"),
        ("Fouls", f"{s.fouls} ({_percent(s.foul_rate)} of hands)"),
        ("Fantasyland entries",
         f"{s.fantasy_entries} ({_percent(s.fantasy_entry_rate)} of normal hands)"),
        ("Fantasyland stays",
         f"{s.fantasy_stays} of {s.fantasy_hands} ({_percent(s.fantasy_stay_rate)})"),
        ("Scoops", f"{s.scoops:,}"),
        ("Best royalties", f"{s.best_royalties} in one hand"),
    ]
    for name, value in fields:
        embed.add_field(name=name, value=value)
    return embed


def granted(mention: str, amount: int, balance_after: int, reason: str,
            actor_mention: str) -> discord.Embed:
    return discord.Embed(
        title="Chips granted", colour=MONEY,
        description=(f"{actor_mention} gave {mention} **{chips(amount)}**.\n"
                     f"Reason: {discord.utils.escape_markdown(reason)}\n"
                     f"{mention}'s wallet now holds {chips(balance_after)}."),
    )


_SHORT_ROWS = {"top": "Top", "middle": "Mid", "bottom": "Bot", "discard": "out"}


def placement_line(placed: Mapping[Card, str]) -> str:
    """A street's placement grouped by row: 'Top A♥ · Mid 7♣ 7♦ · out 3♠'."""
    parts = []
    for row, label in _SHORT_ROWS.items():
        cards = [c for c, r in placed.items() if r == row]
        if cards:
            parts.append(f"{label} {cards_label(order_cards(cards))}")
    return " · ".join(parts)


def _gain_line(street: StreetReview) -> str:
    if street.same:
        return "✓ The strong computer's choice too."
    points = f"**{street.gain:+.1f} points**"
    spread = f" (±{street.error:.1f})" if street.error else ""
    if street.gain > 0:
        return f"Its choice: {points}{spread} over yours."
    if street.gain < 0:
        return f"Its choice: {points}{spread}: yours looks better."
    return f"Its choice: {points}: as good as yours."


def review(played: PlayedHand, hand: HandReview) -> discord.Embed:
    """/ofc review: the player's placement and the strong computer's, street by street, from
    the same view, with what its choice was worth over the player's (issue 18). Short lines
    for a phone."""
    practice = " (practice)" if played.practice else ""
    result = f"{signed(played.points)} points" + (", fouled" if hand.fouled else "")
    embed = discord.Embed(
        title=f"Review: match #{played.match_id}, hand {played.hand_no}{practice}", colour=INFO,
        description=(f"{when(played.played_at, 'f')} · you scored **{result}**.\n"
                     "You, then the strong computer from the same cards; its choice scored "
                     "against yours on the same dealt futures (± one standard error)."))
    for street in hand.streets:
        name = (f"Fantasyland: {len(street.dealt)} cards" if street.street == 0
                else f"Street {street.street}: {cards_label(street.dealt)}")
        you = "You (placed by the clock)" if street.auto else "You"
        lines = [f"{you}: {placement_line(street.played)}"]
        if not street.same:
            lines.append(f"Strong: {placement_line(street.best)}")
        lines.append(_gain_line(street))
        embed.add_field(name=name, value="\n".join(lines), inline=False)
    embed.add_field(name="Your board", inline=False, value="\n".join(
        f"{row.capitalize()}: {row_label(row, cards)}"
        for row, cards in zip(("top", "middle", "bottom"), hand.board.rows, strict=True)))
    differing = [s for s in hand.streets if not s.same]
    summary = (f"In all, the strong computer's choices: {hand.gain:+.1f} points over yours "
               f"({len(differing)} of {len(hand.streets)} differ)." if differing
               else "You played every street as the strong computer would.")
    if hand.skipped:
        summary += (f" Left out: {plural(hand.skipped, 'street')} placed for you while you "
                    "were away.")
    embed.set_footer(text=summary)
    return embed
