"""Words and embeds: what the lobby, table, prompt, showdown and match-end messages say.

Built only from the service's views and events (never the match state), so a message cannot
show a card its reader may not see (docs/maintainers/architecture.md).
"""

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import discord

from bot.engine.board import Board, board_texts
from bot.engine.cards import Card
from bot.engine.outlook import Outlook, draft_outlook
from bot.engine.royalties import ROWS
from bot.engine.text import joined, listing
from bot.engine.views import ShowdownSeat, ShowdownView, TableView
from bot.i18n import Slash, Text, number, series, t
from bot.tables import LobbyView, SeatState, Standing, is_person
from cogs.common.format import (
    HINTS_ON,
    add_lines,
    chip_count,
    chips,
    isolated,
    row_label,
    row_word,
    rules_paragraph,
    shown,
    shown_seat,
    signed,
    signed_chips,
    signed_points,
    when,
)
from cogs.common.images import HAND_IMAGE, SHOWDOWN_IMAGE, TABLE_IMAGE
from rendering.labels import hand_counter

COLOUR = discord.Colour.dark_green()
CLOSED = Text("This table is closed.")
# A practice table's close, however it came: its play chips never reach a wallet.
PRACTICE_CLOSED = Text("The practice table is closed: these were play chips, no wallet "
                       "changed.")
AWAY = Text("You are marked away: your cards are placed for you. Press **I'm back** to play "
            "again.")
PRACTICE = Text("**Practice**: play chips against the computer, no wallet changes.")


def stake(loc: str, n: int, *, practice: bool, lent: bool) -> str:
    """Chips at a table: play chips at a practice, lent ones at a tournament's."""
    return (t(loc, "{n:,} play chip", "{n:,} play chips", n=n) if practice else
            t(loc, "{n:,} lent chip", "{n:,} lent chips", n=n) if lent else chips(loc, n))


def lobby_embed(loc: str, lobby: LobbyView) -> discord.Embed:
    title = ({"lobby": Text("Practice table: waiting for players"),
              "playing": Text("Practice table: playing"),
              "closed": Text("Practice table: closed")} if lobby.practice else
             {"lobby": Text("OFC table: waiting for players"),
              "playing": Text("OFC table: playing"), "closed": Text("OFC table: closed")})
    def at_table(n: int) -> str:
        return stake(loc, n, practice=lobby.practice, lent=lobby.lent)

    paragraph = rules_paragraph(loc, lobby.rules, at_table(lobby.rules.buy_in))
    embed = discord.Embed(title=t(loc, title[lobby.status]), colour=COLOUR,
                          description=f"{t(loc, PRACTICE)}\n{paragraph}" if lobby.practice
                          else paragraph)
    size = min(lobby.rules.seats, lobby.rules.max_seats)
    lines = []
    for index in range(size):
        if index < len(lobby.seats):
            seat = lobby.seats[index]
            who = shown_seat(loc, seat.name) if seat.ai_level else f"<@{seat.player_id}>"
            # a computer's name says it is one, and how strong
            stack = at_table(seat.stack)
            line = Text("{n}. {who} (host): {chips}", n=index + 1, who=who,
                        chips=stack) if seat.player_id == lobby.host_id \
                else Text("{n}. {who}: {chips}", n=index + 1, who=who, chips=stack)
            lines.append(t(loc, line))
        else:
            lines.append(t(loc, "{n}. *free*", n=index + 1))
    embed.add_field(name=t(loc, "Seats"), value="\n".join(lines), inline=False)
    # The bot seats and starts a practice, the tournament a table of its own: no one joins.
    if lobby.status == "lobby" and not (lobby.practice or lobby.lent):
        how = Text("**Join** to sit down (the buy-in leaves your wallet; **Leave** returns it). "
                   "The host starts with 2 or more players.")
        if lobby.expires_at:
            how = Text("{how} The lobby closes {when} if nobody acts.", how=how,
                       when=when(lobby.expires_at))
        embed.add_field(name=t(loc, "How to play"), value=t(loc, how), inline=False)
    return embed


def _names(loc: str, view: TableView) -> dict[int, str]:
    return {s.seat: shown_seat(loc, s.name, s.is_ai) for s in view.seats}


def turn_line(loc: str, view: TableView, closed: bool = False) -> str:
    """Whose turn and until when, for the table message (`closed`: none, ever again)."""
    if closed and view.phase != "over":  # closed mid-match (/ofc cancel): no hand comes
        return t(loc, CLOSED)
    playing = [s for s in view.seats if not s.out]
    if view.phase == "showdown" and (len(playing) < 2 or (
            view.rules.format == "cash" and all(s.is_ai for s in playing))):
        # A cash table someone left, or whose last person busted (computers play only for
        # people, R11): it deals again only once another player sits down.
        return t(loc, "Waiting for another player to sit down ({join}) before the next hand.",
                 join=Slash("ofc join"))
    if view.phase != "playing":
        return t(loc, {"waiting": Text("Waiting for the first deal."),
                       "showdown": Text("Showdown: the next hand is dealt shortly."),
                       "over": Text("The match is over.")}[view.phase])
    names = _names(loc, view)
    waiting = [names[s] for s in view.to_act]
    if not waiting:
        return t(loc, "Dealing...")
    # A computer's thinking has no countdown: only people's clocks are shown.
    deadlines = [s.deadline for s in view.seats
                 if s.seat in view.to_act and s.deadline and not s.is_ai]
    who = listing([f"**{name}**" for name in waiting])
    if deadlines:
        return t(loc, "Waiting for {who}, placed automatically {when}.", who=who,
                 when=when(min(deadlines)))
    return t(loc, "Waiting for {who}.", who=who)


def table_embed(loc: str, view: TableView, practice: bool = False,
                lent: bool = False, closed: bool = False) -> discord.Embed:
    """The table message: the hand and street, whose turn, stacks, the public image; says
    when it is a practice (play chips), when hints are on, and at a tournament's
    table (`lent`) that its stacks were lent for it. Once the table is `closed` it has no
    "My hand", so no word of it either."""
    counter = hand_counter(loc, view) if view.phase != "waiting" else ""
    if view.phase == "waiting":
        title = t(loc, "Practice table") if practice else t(loc, "OFC table")
    elif view.phase in ("showdown", "over"):
        title = t(loc, "{hand}: showdown", hand=counter)
    elif view.fantasy_hand:
        title = counter  # a Fantasyland hand is never named by street
    else:
        title = t(loc, "{hand}: street {street} of {streets}", hand=counter, street=view.street,
                  streets=view.streets)
    notes = [t(loc, PRACTICE)] if practice else []
    if view.rules.hints == "on":
        notes.append(t(loc, HINTS_ON))
    embed = discord.Embed(title=title, colour=COLOUR,
                          description="\n".join([turn_line(loc, view, closed), *notes]))
    names = _names(loc, view)
    stacks = t(loc, series([
        Text("{name} {stack} (away)", name=names[s.seat], stack=number(loc, s.stack))
        if s.away else f"{names[s.seat]} {number(loc, s.stack)}"
        for s in view.seats if not s.out]))
    embed.add_field(name=t(loc, "Stacks (lent for the tournament)") if lent
                    else t(loc, "Stacks"), value=stacks or "—", inline=False)
    embed.set_image(url=f"attachment://{TABLE_IMAGE}")
    if not closed:
        embed.set_footer(text=t(loc, "Your cards come by DM. DMs closed? Press My hand."))
    return embed


def board_lines(loc: str, board_rows: Mapping[str, tuple[Card, ...]]) -> str:
    """A board in words, each row's cards in the order of the hand they make."""
    return "\n".join(f"{row_word(loc, r)}: {row_label(loc, r, board_rows[r])}" for r in ROWS)


def _rows_of(board: Board) -> dict[str, tuple[Card, ...]]:
    return {"top": board.top, "middle": board.middle, "bottom": board.bottom}


@dataclass(frozen=True, slots=True)
class Where:
    """The table a DM is about: its server and channel by name, and a link to its message.
    None for a name the bot could not see (its reader's words are used)."""

    server: str | None
    channel: str | None
    url: str | None = None
    practice: bool = False  # a practice table: the DM records say so
    named: bool = False  # its player sits at another table too: the prompt's title names it


# The author line's room on one line of a phone (tests/phone.py), in columns: a wide (CJK)
# character takes two.
AUTHOR_COLUMNS = 38
# The most of a channel's name a prompt's title holds: with the action, two phone lines.
TITLE_CHANNEL = 20


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fit(text: str, room: int) -> str:
    """`text` cut with an ellipsis to `room` columns."""
    while columns(text) > room:
        text = text[:-2] + "…"
    return text


def author_line(loc: str, where: Where) -> str:
    """'Server · #channel' (at a practice table '#channel · practice') on one phone line: a
    long server name is cut first, then the channel; the practice marker never. The embed's
    author is plain text: the names are `isolated`, not escaped."""
    channel = where.channel or t(loc, "the table channel")
    if where.practice:
        room = AUTHOR_COLUMNS - columns(t(loc, "#{channel} · practice", channel=""))
        return t(loc, "#{channel} · practice", channel=isolated(fit(channel, room)))
    # Each name cut first, then isolated: a right-to-left one must not reorder the line.
    rest = fit(channel, AUTHOR_COLUMNS - 1)
    room = AUTHOR_COLUMNS - columns(rest) - 4
    if room < 8:
        return f"#{isolated(rest)}"
    return f"{isolated(fit(where.server or t(loc, 'your server'), room))} · #{isolated(rest)}"


def _where(loc: str, embed: discord.Embed, where: Where | None) -> None:
    if where is not None:
        embed.set_author(name=author_line(loc, where), url=where.url)


def action_title(loc: str, state: SeatState) -> str:
    """'Hand 2 of 3 · street 3 of 5'; 'Hand 4 of 4 · Fantasyland' for the seat in
    Fantasyland only (the others play a normal hand: their title does not mention it)."""
    view = state.view
    counter = hand_counter(loc, view.table, fantasy=False)
    if state.street == 0:  # the Fantasyland boards' (R8): the others have nothing dealt yet
        fantasy = any(s.in_fantasy for s in view.table.seats if s.seat == state.seat)
        return t(loc, "{hand} · Fantasyland", hand=counter) if fantasy else counter
    return t(loc, "{hand} · street {street} of {streets}", hand=counter, street=state.street,
             streets=view.table.streets)


FOULS = Text("⚠️ **This board fouls** whatever comes.")
# A Fantasyland hand is dealt at once (R8): no card comes, only the arrangement fouls.
FOULS_ARRANGED = Text("⚠️ **This board fouls** as arranged.")
ASKING = Text("⚠️ **This board fouls: confirm anyway?** No royalties, every line lost.")


def outlook_lines(loc: str, state: SeatState, outlook: Outlook, *,
                  warn: bool = True) -> list[str]:
    """What the board with the draft is making (the image shows the board without it): each
    row's hand, a warning once a foul cannot be avoided (unless `warn` is off: the prompt
    asks about it), and on the last action the royalties and Fantasyland the draft earns."""
    lines = [" · ".join(f"{row_word(loc, r)}: {t(loc, text)}"
                        for r, text in zip(ROWS, outlook.rows, strict=True) if text)]
    if outlook.fouled or outlook.foul_unavoidable:
        if warn:
            lines.append(t(loc, FOULS_ARRANGED if state.street == 0 else FOULS))
    elif outlook.complete:
        fantasy = Text("Fantasyland next hand ({n} cards)", n=outlook.fantasy) \
            if outlook.fantasy else Text("no Fantasyland")
        lines.append(t(loc, "Royalties **{n}** · {fantasy}", n=outlook.total_royalties,
                       fantasy=fantasy))
    return [line for line in lines if line]


def prompt_embed(loc: str, state: SeatState, note: Text | None = None, *,
                 where: Where | None = None, asking: bool = False) -> discord.Embed:
    """The private prompt, short enough for a phone (tests/phone.py): the action (its title
    links to the table; its record names the server and channel, and a practice table),
    whose turn and the clock, what the board with the draft is making. The image shows the
    board and the cards; the buttons show the draft. `note` says why it was redrawn (time
    ran out); `asking`: Confirm was pressed on a board that fouls."""
    view = state.view
    table = view.table
    # A street's task is in its buttons; a Fantasyland hand's, until its draft is complete
    # (none with nothing dealt: a board set, or a seat waiting for the Fantasyland boards).
    # (Turbo's 13 cards are all set: nothing to discard, R9.)
    task = (Text("Fantasyland: set 13 of {n}, discard {discards}", n=len(view.dealt),
                 discards=view.discard_count) if view.discard_count
            else Text("Fantasyland: set all 13 cards")) \
        if state.street == 0 and view.dealt and not state.complete else None
    if not view.dealt:
        status = Text("Nothing to place right now.")
    elif state.to_act:
        # Asked to confirm a board that fouls, the question takes the status's place.
        status = ASKING if asking else Text("**Your turn.** ⏱ {when}", when=when(
            state.deadline)) if state.deadline else Text("**Your turn.**")
    else:
        names = _names(loc, table)
        waiting = listing([names[s] for s in table.to_act]) or Text("the others")
        # A complete draft has nothing left to arrange: the line only says whom it waits for.
        status = Text("⏳ Waiting for {who}.", who=waiting) if state.complete \
            else Text("⏳ Waiting for {who}: arrange now.", who=waiting)
    if task is not None:
        status = joined([status, task], " ")
    lines = [t(loc, status)]
    if view.dealt:
        lines += outlook_lines(loc, state, draft_outlook(view, state.draft), warn=not asking)
    if state.away:
        lines.append(t(loc, AWAY))
    if note is not None:
        lines.insert(0, t(loc, note))
    # No author line (a phone's screen has no room for it): the title links to the table
    # message, and the prompt's record names the server and channel once the action is over.
    # A player at two tables reads the channel first: a second title line, worth it then.
    title = action_title(loc, state)
    if where is not None and where.named and where.channel:
        title = t(loc, "#{channel} · {action}", channel=shown(fit(where.channel, TITLE_CHANNEL)),
                  action=title)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR,
                          url=where.url if where else None)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


def placed_embed(loc: str, hand_no: int, street: int, state: SeatState,
                 note: Text | None = None, *, where: Where | None = None) -> discord.Embed:
    """What a DM prompt turns into once its action is over; `note` says how (time ran out)."""
    embed = discord.Embed(title=t(loc, placed_title(hand_no, street)), colour=COLOUR)
    lines = [t(loc, note)] if note is not None else []
    if state.away:
        lines.append(t(loc, AWAY))
    if state.hand_no == hand_no:
        lines.append(board_lines(loc, _rows_of(state.view.board)))
    embed.description = "\n".join(lines) or None
    _where(loc, embed, where)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


def placed_title(hand_no: int, street: int) -> Text:
    return Text("Hand {n}: your Fantasyland hand placed", n=hand_no) if street == 0 \
        else Text("Hand {n}: street {street} placed", n=hand_no, street=street)


def without_way_back(loc: str, shown: discord.Embed, hand_no: int, street: int,
                     note: Text | None = None, *, where: Where | None = None) -> discord.Embed:
    """A DM prompt as `shown`, once its "I'm back" is gone (a newer prompt carries it, or its
    player got up): the record of its action, every placed card in it (R10 placed what the
    player did not), without the away line and with `note`. A prompt still open then showed
    a turn and a draft that are over: only its title and image stay."""
    title = t(loc, placed_title(hand_no, street))
    lines = (shown.description or "").splitlines() if shown.title == title else []
    lines = [line for line in lines if line != t(loc, AWAY)]
    if note is not None:
        lines.append(t(loc, note))
    embed = discord.Embed(title=title, description="\n".join(lines) or None, colour=COLOUR)
    _where(loc, embed, where)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


def got_up_note(chips: int, *, away: bool, practice: bool, cash: bool) -> Text:
    """What the DM prompt on record says once its player got up (or sat out while away):
    where the stack went, and at a cash table how to sit down again."""
    if practice:
        play = Text("{n:,} play chip", "{n:,} play chips", n=chips)
        return (Text("You sat out (away): {chips}, no wallet changed.", chips=play) if away
                else Text("You got up: {chips}, no wallet changed.", chips=play))
    back = chip_count(chips)
    note = (Text("You sat out (away): {chips} went back to your wallet.", chips=back) if away
            else Text("You got up: {chips} went back to your wallet.", chips=back))
    if cash:
        return joined([note, Text("Use `{join}` in the table channel to sit down again.",
                                  join=Slash("ofc join"))], " ")
    return note


def _seat_rows(loc: str, seat: ShowdownSeat, lowball: bool) -> list[str]:
    """A showdown seat's rows in words, sorted, with their hands and royalties."""
    rows = []
    for row, cards, resolved, name, royalty in zip(ROWS, seat.board.rows, seat.resolved.rows,
                                                   board_texts(seat.resolved, lowball),
                                                   seat.royalties, strict=True):
        bonus = f" (+{royalty})" if royalty else ""
        rows.append(f"{row_word(loc, row)}: {row_label(loc, row, cards, resolved)}: "
                    f"{t(loc, name)}{bonus}")
    if seat.fouled:
        rows.append(t(loc, "**Fouled**: no royalties, every line lost"))
    if seat.fantasy_next:
        rows.append(t(loc, "Fantasyland next hand: {n} cards", n=seat.fantasy_next))
    return rows


def _name(loc: str, names: Mapping[int, str], seat: int) -> str:
    return names.get(seat) or t(loc, "Seat {n}", n=seat + 1)


def showdown_embed(loc: str, hand_no: int, showdown: ShowdownView, names: Mapping[int, str],
                   point_value: int, lowball: bool = False,
                   practice: bool = False) -> discord.Embed:
    """R3-R8 in words: rows, fouls, royalties, points per pair, chips (with the caps, R6); at
    a practice table, play chips. `names`: each seat's name as `loc` reads it."""
    embed = discord.Embed(title=t(loc, "Hand {n}: showdown", n=hand_no), colour=COLOUR)
    embed.set_image(url=f"attachment://{SHOWDOWN_IMAGE}")
    for seat in showdown.seats:
        rows = _seat_rows(loc, seat, lowball)
        embed.add_field(
            name=t(loc, "{name}: {points}, {chips} (stack {stack})",
                   name=_name(loc, names, seat.seat), points=signed_points(loc, seat.points),
                   chips=signed_chips(loc, seat.chips, "play" if practice else ""),
                   stack=number(loc, seat.stack_after)),
            value="\n".join(rows), inline=False)
    pair_lines = []
    for pair in showdown.pairs:
        lines = " ".join(signed(x) for x in pair.lines)
        pair_lines.append(t(
            loc, "{a} vs {b}: lines {lines}, bonus {bonus}, royalties {royalties} = "
                 "**{points}**", a=_name(loc, names, pair.a), b=_name(loc, names, pair.b),
            lines=lines, bonus=signed(pair.bonus), royalties=signed(pair.royalties),
            points=signed(pair.points)))
    # Six pairs of four long names whose markdown is escaped pass one field's 1,024 characters.
    add_lines(loc, embed, t(loc, "Points per pair"), pair_lines)
    moves = []
    for move in showdown.transfers:
        if not move.owed:
            continue
        payer, payee = _name(loc, names, move.payer), _name(loc, names, move.payee)
        moves.append(t(loc, "{payer} → {payee}: {paid} (owed {owed}, paid {paid}: table "
                            "stakes)", payer=payer, payee=payee, paid=number(loc, move.paid),
                       owed=number(loc, move.owed)) if move.capped
                     else f"{payer} → {payee}: {number(loc, move.paid)}")
    moved = (Text("Play chips moved ({chips} per point)", chips=chips(loc, point_value))
             if practice else Text("Chips moved ({chips} per point)",
                                   chips=chips(loc, point_value)))
    add_lines(loc, embed, t(loc, moved), moves or [t(loc, "None")])
    return embed


def result_embed(loc: str, hand_no: int, showdown: ShowdownView, seat: int,
                 names: Mapping[int, str], where: Where | None = None,
                 lowball: bool = False, practice: bool = False) -> discord.Embed | None:
    """One player's result of a showdown, for their DM: rows won and lost, royalties, points,
    chips (play chips at a practice table), Fantasyland earned; None when the seat was not
    in the hand."""
    mine = next((s for s in showdown.seats if s.seat == seat), None)
    if mine is None:
        return None
    won = lost = 0
    against = []
    for pair in showdown.pairs:
        if seat not in (pair.a, pair.b):
            continue
        sign = 1 if pair.a == seat else -1
        won += sum(1 for x in pair.lines if x * sign > 0)
        lost += sum(1 for x in pair.lines if x * sign < 0)
        other = pair.b if sign == 1 else pair.a
        against.append(t(loc, "{points} against {name}", points=signed(pair.points * sign),
                         name=_name(loc, names, other)))
    rows = Text("Rows won {won}, lost {lost} (points: {against})", won=won, lost=lost,
                against=series(against)) if against \
        else Text("Rows won {won}, lost {lost}", won=won, lost=lost)
    lines = [t(loc, rows),
             t(loc, "Royalties {royalties} · **{points}** · **{chips}** (stack {stack})",
               royalties=sum(mine.royalties), points=signed_points(loc, mine.points),
               chips=signed_chips(loc, mine.chips, "play" if practice else ""),
               stack=number(loc, mine.stack_after))]
    lines += _seat_rows(loc, mine, lowball)
    embed = discord.Embed(title=t(loc, "Hand {n}: your result", n=hand_no),
                          description="\n".join(lines), colour=COLOUR,
                          url=where.url if where else None)
    _where(loc, embed, where)
    return embed


def left_notice(who: object, chips: int, *, away: bool, practice: bool) -> Text:
    """The table channel's line when a player gets up (or is sat out while away): where
    their chips went (play chips at a practice table never leave it)."""
    if practice:
        play = Text("{n:,} play chip", "{n:,} play chips", n=chips)
        return (Text("{who} sat out (away): {chips}, no wallet changed.", who=who,
                     chips=play) if away else
                Text("{who} left the table: {chips}, no wallet changed.", who=who,
                     chips=play))
    back = chip_count(chips)
    return (Text("{who} sat out (away): {chips} went back to the wallet.", who=who,
                 chips=back) if away else
            Text("{who} left the table: {chips} went back to the wallet.", who=who, chips=back))


def waiting_notice(busted: Iterable[int], closes_at: float) -> Text:
    """The table channel's line when a cash table stops dealing for want of players (R11):
    who busted, that a buy-in deals again, and when the table closes otherwise."""
    waits = Text("This cash table waits for a player to buy in ({join}) before it deals "
                 "again, and closes {when} if nobody does.", join=Slash("ofc join"),
                 when=when(closes_at))
    who = [f"<@{player}>" for player in busted]
    return Text("{who}: out of chips. {waits}", who=listing(who), waits=waits) if who \
        else waits


def standings_embed(loc: str, standings: Iterable[Standing], practice: bool = False,
                    tournament: bool = False,
                    ratings: Mapping[int, tuple[int, int]] | None = None) -> discord.Embed:
    """Match over: the stacks, each person's rating (`ratings`: before and after, by player
    id), and what happens now (a rematch, a practice, a tournament)."""
    rated = ratings or {}
    lines = [t(loc, "{place}. {name}: {chips} ({net})", place=n,
               name=shown_seat(loc, s.name, not is_person(s.player_id)),
               chips=stake(loc, s.stack, practice=practice, lent=tournament), net=signed(s.net))
             + ("" if s.player_id not in rated else " · " + t(
                 loc, "rating {rating:,} ({change:+,})", rating=rated[s.player_id][1],
                 change=rated[s.player_id][1] - rated[s.player_id][0]))
             for n, s in enumerate(standings, start=1)]
    ending = (Text("Practice over: these were play chips, no wallet changed. {practice} deals "
                   "another; {review} goes over your hands with the strong computer.",
                   practice=Slash("ofc practice"), review=Slash("ofc review"))
              if practice else
              Text("Table over: its points count in the tournament's standings ({standings}); "
                   "the table's chips were only lent for it.",
                   standings=Slash("ofc tournament standings"))
              if tournament else
              Text("Every stack went back to its owner's wallet. **Rematch** opens a new "
                   "table here with the same options."))
    return discord.Embed(title=t(loc, "Match over"), colour=COLOUR,
                         description="\n".join(lines) + "\n\n" + t(loc, ending))
