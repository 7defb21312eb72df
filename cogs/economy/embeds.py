"""The embeds of the economy commands, built from storage records (no I/O here)."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.ai.review import HandReview, StreetReview
from bot.engine.cards import Card, parse_cards
from bot.engine.errors import RuleError
from bot.engine.ordering import order_cards
from bot.engine.outlook import row_text
from bot.engine.royalties import Row
from bot.engine.rules import TableRules
from bot.i18n import Slash, Text, decimal, number, t
from bot.ratings import places
from bot.storage import (
    DailyClaim,
    HandHistory,
    LeaderRow,
    MatchSummary,
    PlayedHand,
    PlayerStats,
    RatingRow,
    SanctionRecord,
    Season,
    TournamentResult,
    Wallet,
)
from bot.tables import is_person
from cogs.common.format import (
    EMBED_TOTAL,
    FIELD_NAME,
    INFO,
    add_lines,
    cards_label,
    chips,
    clip,
    fits,
    row_label,
    row_word,
    rules_line,
    sanction_reason,
    sanction_words,
    shown,
    shown_seat,
    signed_chips,
    signed_points,
    when,
)

MONEY = discord.Colour.gold()
MAX_HAND_FIELDS = 15  # the latest hands listed, as many as fit in one embed (fits)
REASON_SHOWN = 100  # characters of a director's reason in /ofc history


def hands_count(n: int) -> Text:
    """'1 hand', '12 hands'."""
    return Text("{n:,} hand", "{n:,} hands", n=n)


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def balance(loc: str, mention: str, wallet: Wallet, line: LeaderRow | None,
            next_daily: float | Text | None, now: float) -> discord.Embed:
    """`next_daily`: when the member's next daily claim is ready, or why there is none (None:
    another member's wallet, no daily line)."""
    at_tables = line.at_tables if line else 0
    embed = discord.Embed(title=t(loc, "Balance"), colour=MONEY, description=t(
        loc, "{member} has **{chips}** in the wallet.", member=mention,
        chips=chips(loc, wallet.balance)))
    if at_tables:
        embed.add_field(name=t(loc, "At tables"), value=chips(loc, at_tables))
        embed.add_field(name=t(loc, "Total"), value=chips(loc, wallet.balance + at_tables))
    if line:
        embed.add_field(name=t(loc, "Rank"), value=t(loc, "#{rank} in this server",
                                                      rank=line.rank))
    if next_daily is not None:
        daily = t(loc, next_daily) if isinstance(next_daily, Text) else \
            t(loc, "ready: use {cmd}", cmd=Slash("ofc daily")) if next_daily <= now \
            else when(next_daily, "R")
        embed.add_field(name=t(loc, "Daily chips"), value=daily)
    return embed


def daily(loc: str, claim: DailyClaim) -> discord.Embed:
    return discord.Embed(
        title=t(loc, "Daily chips"), colour=MONEY,
        description=t(loc, "**+{amount}**. Your wallet now holds {balance}.\nNext claim {when}.",
                      amount=chips(loc, claim.amount), balance=chips(loc, claim.balance),
                      when=when(claim.next_claim_at, "R")),
    )


def leaderboard(loc: str, rows: Sequence[LeaderRow], me: LeaderRow | None,
                guild_name: str | None) -> discord.Embed:
    lines = [
        t(loc, "**{rank}.** {member} {chips} ({at_tables} at tables)", rank=row.rank,
          member=f"<@{row.user_id}>", chips=chips(loc, row.total),
          at_tables=chips(loc, row.at_tables)) if row.at_tables
        else f"**{row.rank}.** <@{row.user_id}> {chips(loc, row.total)}"
        for row in rows
    ]
    embed = discord.Embed(
        title=clip(t(loc, "Leaderboard of {server}",
                     server=shown(guild_name) if guild_name else t(loc, "this server")), 256),
        colour=MONEY, description="\n".join(lines) or t(loc, "Nobody has chips here yet."))
    if me is None:
        embed.set_footer(text=t(loc, "You have no wallet here yet: {daily} or {balance} opens "
                                     "one.", daily=Slash("ofc daily"),
                                balance=Slash("ofc balance")))
    else:
        embed.set_footer(text=t(loc, "Your rank: #{rank} with {chips} (wallet plus chips at "
                                     "tables).", rank=me.rank, chips=chips(loc, me.total)))
    return embed


def season_name(loc: str, season: Season) -> str:
    """The season's name; the one storage gives when the admin named none ("Season 2") in the
    member's language."""
    if season.name == f"Season {season.number}":
        return t(loc, "Season {number}", number=season.number)
    return shown(season.name)


def rating_board(loc: str, season: Season | None, rows: Sequence[RatingRow],
                 me: RatingRow | None, guild_name: str | None) -> discord.Embed:
    """A season's skill ratings, best first (bot/ratings.py: mu - 3 sigma, newcomers 1,000)."""
    server = shown(guild_name) if guild_name else t(loc, "this server")
    lines = [t(loc, "**{rank}.** {member} {rating:,} ({n} match)",
               "**{rank}.** {member} {rating:,} ({n} matches)", rank=row.rank,
               member=f"<@{row.user_id}>", rating=row.shown, n=row.matches) for row in rows]
    title = t(loc, "Ratings of {server}", server=server) if season is None else t(
        loc, "Ratings of {server}: {season}", server=server, season=season_name(loc, season))
    embed = discord.Embed(title=clip(title, 256), colour=MONEY, description="\n".join(lines) or t(
        loc, "No finished match has been rated here yet."))
    if season is not None and season.ended_at is not None:
        embed.add_field(name=t(loc, "Season over"), value=t(
            loc, "This season ended {when}: its board is final.", when=when(season.ended_at, "D")))
    if me is None and season is not None and season.ended_at is not None:
        embed.set_footer(text=t(loc, "You had no rating in this season."))
    elif me is None:
        embed.set_footer(text=t(loc, "You have no rating in this season yet: finish a match to "
                                     "get one. A rating counts how well you place, not chips."))
    else:
        embed.set_footer(text=t(loc, "Your rank: #{rank} with a rating of {rating:,}.",
                                rank=me.rank, rating=me.shown))
    return embed


def season_started(loc: str, season: Season, by: str) -> discord.Embed:
    title = t(loc, "{season} begins", season=season_name(loc, season))
    return discord.Embed(title=title[:256], colour=MONEY,
                         description=t(loc, "{admin} started a new rating season. Everyone "
                                            "starts again at 1,000; the last season's board "
                                            "stays readable in {leaderboard}.", admin=by,
                                       leaderboard=Slash("ofc leaderboard")))


def options_summary(loc: str, options_json: str) -> str:
    """A match's table options in one line; the raw text if they no longer validate."""
    try:
        return rules_line(loc, TableRules.from_mapping(json.loads(options_json)))
    except (ValueError, TypeError, RuleError, AttributeError):
        return options_json[:200]


def _place(loc: str, match: MatchSummary, user_id: int) -> str:
    """'place 1 of 3' by points, equal points sharing a place as in the rating."""
    points = [p.net_points for p in match.players]
    place = places(points)[[p.user_id for p in match.players].index(user_id)]
    return t(loc, "place {place} of {n}", place=place, n=len(points))


def history(loc: str, mention: str, user_id: int, matches: Sequence[MatchSummary],
            sanctions: Sequence[SanctionRecord] = (),
            tournaments: Sequence[TournamentResult] = ()) -> discord.Embed:
    """The member's latest matches, then the tournaments they played (place, prize,
    warnings) and the tournament warnings and penalties they received (RULES.md R13)."""
    embed = discord.Embed(title=t(loc, "Recent matches"), colour=INFO, description=t(
        loc, "{member}'s latest matches, newest first. Pick one below to see its hands.",
        member=mention) if matches else t(
        loc, "{member} has not played a match in this server yet.", member=mention))
    for match in matches:
        me = match.player(user_id)
        # Winning needs chips above zero: a member who ended level neither won nor lost.
        state = (Text("in play") if match.ended_at is None
                 else Text("cancelled") if match.cancelled
                 else Text("won") if me.won
                 else Text("tied") if me.net_chips == 0 else Text("lost"))
        fields = {"date": when(match.started_at, "d"),
                  "options": options_summary(loc, match.options_json),
                  "place": _place(loc, match, user_id),
                  "points": signed_points(loc, me.net_points),
                  # a tournament's table: chips the house lent, not the member's (not in
                  # /ofc stats)
                  "chips": signed_chips(loc, me.net_chips, "play" if match.practice else
                                        "tournament" if match.tournament else ""),
                  "hands": hands_count(match.hands)}
        name = (Text("Match #{n}: {state} (practice)", n=match.match_id, state=state)
                if match.practice else
                Text("Match #{n}: {state} (tournament)", n=match.match_id, state=state)
                if match.tournament else
                Text("Match #{n}: {state}", n=match.match_id, state=state))
        embed.add_field(
            name=t(loc, name),
            value=t(loc, "{date} · {options}\n{place} · {points} · {chips} · {hands}", **fields),
            inline=False,
        )
    add_lines(loc, embed, t(loc, "Tournaments"), (tournament_line(loc, r) for r in tournaments))
    add_lines(loc, embed, t(loc, "Tournament warnings and penalties"), (
        t(loc, "Tournament #{n}, level {level}: {sanction} ({reason}) · {date}",
          n=s.tournament_id, level=s.level, sanction=sanction_words(s.kind, s.points, s.excluded),
          reason=clip(sanction_reason(loc, s.reason), REASON_SHOWN),
          date=when(s.created_at, "d"))
        for s in sanctions))
    # every list at its longest passes Discord's total: the oldest matches give way (the
    # menu below still offers them)
    shown = len(matches)
    while len(embed) > EMBED_TOTAL and shown > 1:
        shown -= 1
        embed.remove_field(shown)
    return embed


def tournament_line(loc: str, r: TournamentResult) -> str:
    """'Tournament #3: place 2 of 6 · prize 120 chips · 1 warning · <date>'."""
    place = (Text("excluded") if r.excluded
             else Text("place {place} of {n}", place=r.place, n=r.entrants))
    return t(loc, "Tournament #{n}: {place} · prize {prize} · {warnings} · {date}",
             n=r.tournament_id, place=place, prize=chips(loc, r.prize),
             warnings=Text("{n} warning", "{n} warnings", n=r.warnings),
             date=when(r.finished_at, "d"))


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


def _history_row(loc: str, row: Row, cards: Sequence[str], stored: str,
                 lowball: bool) -> str:
    """A stored row ('Ah', 'Kd', ...) sorted as the hand it makes, with that hand in words
    (named again from the cards: the history keeps the English name); as stored if
    unreadable."""
    try:
        parsed = parse_cards(" ".join(cards), allow_jokers=True)
        name = row_text(row, parsed, lowball)
    except (ValueError, RuleError):
        return f"`{' '.join(cards)}`: {stored}"
    return f"{row_label(loc, row, parsed)}: {t(loc, name) if name else stored}"


def _board_lines(loc: str, seat: dict[str, Any], lowball: bool) -> str:
    rows = seat["rows"]
    return "\n".join(
        f"{row_word(loc, row)}: {_history_row(loc, row, rows[row], stored, lowball)}"
        + (f" (+{royalty})" if royalty else "")
        for row, stored, royalty in zip(("top", "middle", "bottom"), seat["names"],
                                        seat["royalties"], strict=True))


def _result_line(loc: str, points: int, chips_won: int, fouled: bool, royalties: int,
                 fantasy: Text | None) -> str:
    parts = [signed_points(loc, points), signed_chips(loc, chips_won)]
    if fouled:
        parts.append(t(loc, "**fouled**"))
    elif royalties:
        parts.append(t(loc, "royalties {n}", n=royalties))
    if fantasy is not None:
        parts.append(t(loc, fantasy))
    return " · ".join(parts)


def _fantasy(in_fantasy: bool, entered: bool, stayed: bool) -> Text | None:
    if entered:
        return Text("enters Fantasyland")
    if stayed:
        return Text("stays in Fantasyland")
    return Text("played in Fantasyland") if in_fantasy else None


def match_hands(loc: str, match: MatchSummary, hands: Sequence[HandHistory]) -> discord.Embed:
    embed = discord.Embed(
        title=t(loc, "Match #{n}", n=match.match_id), colour=INFO,
        description=(t(loc, "**Practice**: play chips, not in {stats}.", stats=Slash("ofc stats"))
                     + "\n" if match.practice else "")
        + t(loc, "{date} · {options}\nPick a hand below to see the boards; {review} goes over "
                 "yours.", date=when(match.started_at, "f"),
            options=options_summary(loc, match.options_json), review=Slash("ofc review")),
    )
    fields: list[tuple[str, str]] = []
    for hand in reversed(hands[-MAX_HAND_FIELDS:]):  # the latest first, while they fit
        name = t(loc, "Hand {n}", n=hand.hand_no)
        value = "\n".join(
            f"<@{r.user_id}>: " + _result_line(
                loc, r.points, r.chips, r.fouled, r.royalties,
                _fantasy(r.in_fantasy, r.fantasy_entered, r.fantasy_stayed))
            for r in hand.results) or t(loc, "No results recorded.")
        if not fits(embed, name, value):
            break
        embed.add_field(name=name, value=value, inline=False)
        fields.append((name, value))
    embed.clear_fields()
    for name, value in reversed(fields):  # listed oldest first
        embed.add_field(name=name, value=value, inline=False)
    if len(fields) < len(hands):
        embed.set_footer(text=t(loc, "The last {n} of {total} hands.", n=len(fields),
                                total=len(hands)))
    return embed


def _lowball(options_json: str) -> bool:
    try:
        return bool(json.loads(options_json).get("variant") == "lowball")
    except (ValueError, AttributeError):
        return False


def hand_detail(loc: str, match: MatchSummary, hand: HandHistory) -> discord.Embed:
    shown, names = _showdown(hand)
    lowball = _lowball(match.options_json)
    embed = discord.Embed(title=t(loc, "Match #{n}, hand {hand}", n=match.match_id,
                                  hand=hand.hand_no),
                          colour=INFO, description=when(hand.played_at, "f"))
    for r in hand.results:
        seat = shown.get(r.user_id)
        fantasy = _fantasy(r.in_fantasy, r.fantasy_entered, r.fantasy_stayed)
        text = _result_line(loc, r.points, r.chips, r.fouled, r.royalties, fantasy)
        if seat is not None:
            text = f"{_board_lines(loc, seat, lowball)}\n{text}"
        name = names.get(r.user_id)
        shown_name = shown_seat(loc, name, not is_person(r.user_id)) if name else (
            t(loc, "Player {id}", id=r.user_id) if is_person(r.user_id)
            else t(loc, "Computer"))
        embed.add_field(name=clip(shown_name, FIELD_NAME), value=text,
                        inline=False)
    return embed


def stats(loc: str, mention: str, s: PlayerStats, *, server: PlayerStats | None = None,
          nets: Sequence[int] = (), rating: RatingRow | None = None,
          rated: int = 0) -> discord.Embed:
    """The member's figures as text (the player card under it draws them): their rating,
    their form over `nets`, and the `server`'s averages beside theirs."""
    embed = discord.Embed(title=t(loc, "Statistics"), colour=INFO, description=t(
        loc, "{member} in this server.", member=mention) if s.hands else t(
        loc, "{member} has not played a hand here yet.", member=mention))
    if not s.hands:
        return embed
    per_hand = s.net_points / s.hands
    fields: list[tuple[Text, Text | str]] = [
        (Text("Rating"), Text("{rating:,} (#{rank} of {n})", rating=rating.shown,
                              rank=rating.rank, n=rated) if rating else
         Text("Not rated yet this season")),
    ]
    if nets:
        fields.append((Text("Net points, last {n} match", "Net points, last {n} matches",
                            n=len(nets)), number(loc, sum(nets), signed=True)))
    fields += [
        (Text("Hands played"), Text("{n:,}", n=s.hands)),
        (Text("Net points"), Text("{points} ({per_hand} a hand)",
                                  points=number(loc, s.net_points, signed=True),
                                  per_hand=decimal(loc, per_hand, 2, signed=True))),
        (Text("Net chips"), number(loc, s.net_chips, signed=True)),
        (Text("Matches won"), Text("{won} of {n} ({rate})", won=number(loc, s.matches_won),
                                   n=number(loc, s.matches),
                                   rate=_percent(s.win_rate))),
        (Text("Fouls"), Text("{n} ({rate} of hands)", n=number(loc, s.fouls),
                              rate=_percent(s.foul_rate))),
        (Text("Fantasyland entries"),
         Text("{n} ({rate} of normal hands)", n=number(loc, s.fantasy_entries),
              rate=_percent(s.fantasy_entry_rate))),
        (Text("Fantasyland stays"),
         Text("{n} of {total} ({rate})", n=number(loc, s.fantasy_stays),
              total=number(loc, s.fantasy_hands),
              rate=_percent(s.fantasy_stay_rate))),
        (Text("Scoops"), Text("{n:,}", n=s.scoops)),
        (Text("Best royalties"), Text("{n} in one hand", n=s.best_royalties)),
    ]
    if server is not None and server.hands:
        fields.append((Text("Server average"), Text(
            "Fouls {fouls}, Fantasyland entries {entries}, royalties {royalties} a hand",
            fouls=_percent(server.foul_rate), entries=_percent(server.fantasy_entry_rate),
            royalties=decimal(loc, server.royalties_per_hand))))
    for name, value in fields:
        embed.add_field(name=t(loc, name), value=value if isinstance(value, str)
                        else t(loc, value))
    return embed


def granted(loc: str, mention: str, amount: int, balance_after: int, reason: str,
            actor_mention: str) -> discord.Embed:
    return discord.Embed(
        title=t(loc, "Chips granted"), colour=MONEY,
        description=t(loc, "{actor} gave {member} **{chips}**.\nReason: {reason}\n{member}'s "
                           "wallet now holds {balance}.", actor=actor_mention, member=mention,
                      chips=chips(loc, amount), reason=discord.utils.escape_markdown(reason),
                      balance=chips(loc, balance_after)),
    )


def corrected(loc: str, mention: str, amount: int, balance_after: int, reason: str,
              actor_mention: str) -> discord.Embed:
    fields = {"actor": actor_mention, "member": mention, "chips": chips(loc, abs(amount)),
              "reason": discord.utils.escape_markdown(reason),
              "balance": chips(loc, balance_after)}
    return discord.Embed(title=t(loc, "Chips corrected"), colour=MONEY, description=t(
        loc, "{actor} added **{chips}** to {member}'s wallet.\nReason: {reason}\nIt now holds "
             "{balance}.", **fields) if amount > 0 else t(
        loc, "{actor} took **{chips}** from {member}'s wallet.\nReason: {reason}\nIt now holds "
             "{balance}.", **fields))


_SHORT_ROWS = {"top": Text("Top"), "middle": Text("Mid"), "bottom": Text("Bot"),
               "discard": Text("Discard")}


def placement_line(loc: str, placed: Mapping[Card, str]) -> str:
    """A street's placement grouped by row: 'Top A♥ · Mid 7♣ 7♦ · Discard 3♠'."""
    parts = []
    for row, label in _SHORT_ROWS.items():
        cards = [c for c, r in placed.items() if r == row]
        if cards:
            parts.append(f"{t(loc, label)} {cards_label(loc, order_cards(cards))}")
    return " · ".join(parts)


def _gain_line(loc: str, street: StreetReview) -> str:
    if street.same:
        return t(loc, "✓ The strong computer's choice too.")
    gain, error = street.gain, street.error
    if not gain:
        line = Text("Its choice: **{gain:+.1f} points**: as good as yours.", gain=gain)
    elif abs(gain) < 2 * error:  # within two standard errors: the sampled deals cannot tell
        line = Text("Its choice: **{gain:+.1f} points** (±{error:.1f}): too close to call.",
                    gain=gain, error=error)
    elif error:
        line = (Text("Its choice: **{gain:+.1f} points** (±{error:.1f}) over yours.",
                     gain=gain, error=error) if gain > 0 else
                Text("Its choice: **{gain:+.1f} points** (±{error:.1f}): yours looks better.",
                     gain=gain, error=error))
    else:
        line = (Text("Its choice: **{gain:+.1f} points** over yours.", gain=gain) if gain > 0
                else Text("Its choice: **{gain:+.1f} points**: yours looks better.", gain=gain))
    return t(loc, line)


def review(loc: str, played: PlayedHand, hand: HandReview) -> discord.Embed:
    """/ofc review: the player's placement and the strong computer's, street by street, from
    the same view, with what its choice was worth over the player's. Short lines
    for a phone."""
    points = signed_points(loc, played.points)
    result = Text("{points}, fouled", points=points) if hand.fouled else points
    embed = discord.Embed(
        title=t(loc, Text("Review: match #{n}, hand {hand} (practice)", n=played.match_id,
                          hand=played.hand_no) if played.practice else
                Text("Review: match #{n}, hand {hand}", n=played.match_id, hand=played.hand_no)),
        colour=INFO,
        description=t(loc, "{date} · you scored **{result}**.\nYou, then the strong computer "
                           "from the same cards; its choice scored against yours on the same "
                           "dealt futures (± one standard error).",
                      date=when(played.played_at, "f"), result=result))
    for street in hand.streets:
        name = (t(loc, "Fantasyland: {n} card", "Fantasyland: {n} cards", n=len(street.dealt))
                if street.street == 0 else
                t(loc, "Street {street}: {cards}", street=street.street,
                  cards=cards_label(loc, street.dealt)))
        you = t(loc, "You (placed by the clock)") if street.auto else t(loc, "You")
        lines = [f"{you}: {placement_line(loc, street.played)}"]
        if not street.same:
            lines.append(t(loc, "Strong: {placement}",
                           placement=placement_line(loc, street.best)))
        lines.append(_gain_line(loc, street))
        embed.add_field(name=name, value="\n".join(lines), inline=False)
    embed.add_field(name=t(loc, "Your board"), inline=False, value="\n".join(
        f"{row_word(loc, row)}: {row_label(loc, row, cards)}"
        for row, cards in zip(("top", "middle", "bottom"), hand.board.rows, strict=True)))
    embed.set_footer(text=_review_summary(loc, hand))
    return embed


def _review_summary(loc: str, hand: HandReview) -> str:
    if not hand.streets:  # away all hand (R10): nothing of theirs to judge, or to praise
        return t(loc, "Every street was placed for you while you were away: nothing to "
                      "review.")
    differing = sum(not s.same for s in hand.streets)
    summary = (t(loc, "In all, the strong computer's choices: {gain:+.1f} points over yours "
                      "({differ} of {n} differ).", gain=hand.gain, differ=differing,
                 n=len(hand.streets)) if differing
               else t(loc, "You played every street as the strong computer would."))
    if hand.skipped:
        summary += " " + t(loc, "Left out: {n} street placed for you while you were away.",
                           "Left out: {n} streets placed for you while you were away.",
                           n=hand.skipped)
    return summary
