"""Words and embeds: what the lobby, table, prompt, showdown and match-end messages say.

Built only from the service's views and events (never the match state), so a message cannot
show a card its reader may not see (README.md "Architecture").
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import discord

from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.outlook import Outlook, draft_outlook
from bot.engine.royalties import ROWS
from bot.engine.views import ShowdownSeat, ShowdownView, TableView
from bot.tables import LobbyView, SeatState, Standing
from cogs.common.format import (
    HINTS_ON,
    ROW_LABELS,
    plural,
    row_label,
    rules_paragraph,
    signed,
    when,
)
from cogs.common.images import HAND_IMAGE, SHOWDOWN_IMAGE, TABLE_IMAGE
from rendering.labels import hand_counter

COLOUR = discord.Colour.dark_green()
PRACTICE = "**Practice**: play chips against the computer, no wallet changes."


def _table_name(practice: bool) -> str:
    return "Practice table" if practice else "OFC table"


def lobby_embed(lobby: LobbyView) -> discord.Embed:
    stage = {"lobby": "waiting for players", "playing": "playing", "closed": "closed"}
    title = f"{_table_name(lobby.practice)}: {stage[lobby.status]}"
    paragraph = rules_paragraph(lobby.rules)
    embed = discord.Embed(title=title, colour=COLOUR, description=f"{PRACTICE}\n{paragraph}"
                          if lobby.practice else paragraph)
    size = min(lobby.rules.seats, lobby.rules.max_seats)
    lines = []
    for number in range(size):
        if number < len(lobby.seats):
            seat = lobby.seats[number]
            who = seat.name if seat.ai_level else f"<@{seat.player_id}>"
            tags = []  # a computer's name says it is one, and how strong
            if seat.player_id == lobby.host_id:
                tags.append("host")
            suffix = f" ({', '.join(tags)})" if tags else ""
            lines.append(f"{number + 1}. {who}{suffix}: {seat.stack} "
                         f"{'play chips' if lobby.practice else 'chips'}")
        else:
            lines.append(f"{number + 1}. *free*")
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    if lobby.status == "lobby":
        expiry = f" The lobby closes {when(lobby.expires_at)} if nobody acts." \
            if lobby.expires_at else ""
        embed.add_field(
            name="How to play",
            value="**Join** to sit down (the buy-in leaves your wallet; **Leave** returns it). "
                  f"The host starts with 2 or more players.{expiry}",
            inline=False)
    return embed


def _names(view: TableView) -> dict[int, str]:
    return {s.seat: s.name for s in view.seats}


def turn_line(view: TableView) -> str:
    """Whose turn and until when, for the table message."""
    if view.phase != "playing":
        return {"waiting": "Waiting for the first deal.",
                "showdown": "Showdown: the next hand is dealt shortly.",
                "over": "The match is over."}[view.phase]
    names = _names(view)
    waiting = [names[s] for s in view.to_act]
    if not waiting:
        return "Dealing..."
    # A computer's thinking has no countdown: only people's clocks are shown.
    deadlines = [s.deadline for s in view.seats
                 if s.seat in view.to_act and s.deadline and not s.is_ai]
    clock = f", placed automatically {when(min(deadlines))}" if deadlines else ""
    return f"Waiting for **{' and '.join(waiting)}**{clock}."


def table_embed(view: TableView, practice: bool = False) -> discord.Embed:
    """The table message: the hand and street, whose turn, stacks, the public image; says
    when it is a practice (play chips) and when hints are on (issue 18)."""
    if view.phase == "waiting":
        title = _table_name(practice)
    elif view.phase in ("showdown", "over"):
        title = f"{hand_counter(view)}: showdown"
    elif view.fantasy_hand:
        title = hand_counter(view)  # a Fantasyland hand is never named by street
    else:
        title = f"{hand_counter(view)}: street {view.street} of {view.streets}"
    notes = [PRACTICE] if practice else []
    if view.rules.hints == "on":
        notes.append(HINTS_ON)
    embed = discord.Embed(title=title, description="\n".join([turn_line(view), *notes]),
                          colour=COLOUR)
    stacks = ", ".join(f"{s.name} {s.stack}" + (" (away)" if s.away else "")
                       for s in view.seats)
    embed.add_field(name="Stacks", value=stacks or "—", inline=False)
    embed.set_image(url=f"attachment://{TABLE_IMAGE}")
    embed.set_footer(text="Your cards come by DM. DMs closed? Press My hand.")
    return embed


def board_lines(board_rows: Mapping[str, tuple[Card, ...]]) -> str:
    """A board in words, each row's cards in the order of the hand they make."""
    return "\n".join(f"{ROW_LABELS[r]}: {row_label(r, board_rows[r])}" for r in ROWS)


def _rows_of(board: Board) -> dict[str, tuple[Card, ...]]:
    return {"top": board.top, "middle": board.middle, "bottom": board.bottom}


@dataclass(frozen=True, slots=True)
class Where:
    """The table a DM is about: its server and channel by name, and a link to its message."""

    server: str
    channel: str
    url: str | None = None
    practice: bool = False  # a practice table (issue 18): its DMs say so


def _where(embed: discord.Embed, where: Where | None) -> None:
    if where is not None:
        practice = " · practice, play chips" if where.practice else ""
        embed.set_author(name=f"{where.server} · #{where.channel}{practice}", url=where.url)


def action_title(state: SeatState) -> str:
    """'Hand 2 of 3 · street 3 of 5'; 'Hand 4 of 4 · Fantasyland, added: your 14 cards'."""
    view = state.view
    counter = hand_counter(view.table)
    if state.street == 0:
        return f"{counter}: your {len(view.dealt) or 13} cards"
    return f"{counter} · street {state.street} of {view.table.streets}"


FOULS = "⚠️ **This board fouls** whatever comes: no royalties, every line lost."
ASKING = "⚠️ **This board fouls: confirm anyway?** No royalties, every line lost."


def outlook_lines(state: SeatState, outlook: Outlook, *, warn: bool = True) -> list[str]:
    """What the board with the draft is making (the image shows the board without it): each
    row's hand, a warning once a foul cannot be avoided (unless `warn` is off: the prompt
    asks about it), and on the last action the royalties and Fantasyland the draft earns."""
    lines = [" · ".join(f"{ROW_LABELS[r]}: {text}" for r, text in zip(ROWS, outlook.rows,
                                                                       strict=True) if text)]
    if outlook.fouled or outlook.foul_unavoidable:
        if warn:
            lines.append(FOULS)
    elif outlook.complete:
        fantasy = f"Fantasyland next hand ({outlook.fantasy} cards)" if outlook.fantasy \
            else "no Fantasyland"
        lines.append(f"Royalties **{outlook.total_royalties}** · {fantasy}")
    return [line for line in lines if line]


def prompt_embed(state: SeatState, note: str = "", *, where: Where | None = None,
                 asking: bool = False) -> discord.Embed:
    """The private prompt, short enough for a phone: the action, whose turn and the clock,
    what the board with the draft is making. The image shows the board and the cards; the
    buttons show the draft. `note` says why it was redrawn (time ran out); `asking`: Confirm
    was pressed on a board that fouls."""
    view = state.view
    table = view.table
    if state.street == 0:
        task = (f"Choose 3 cards for the top, 5 for the middle and 5 for the bottom; "
                f"the other {plural(view.discard_count, 'card')} are discarded. ")
    elif state.street == 1:
        task = f"Place {plural(len(view.dealt), 'card')}. "
    else:
        task = ""  # the image and the grid of buttons say it: the prompt must fit a phone
    if not view.dealt:
        status = "Nothing to place right now."
    elif state.to_act:
        clock = f"Placed for you {when(state.deadline)}." if state.deadline else ""
        # Asked to confirm a board that fouls, the question takes the status's place.
        status = f"{ASKING if asking else '**Your turn.**'} {task}{clock}".rstrip()
    else:
        names = _names(table)
        waiting = " and ".join(names[s] for s in table.to_act) or "the others"
        status = f"{task}Waiting for {waiting}: arrange now, confirm on your turn."
    lines = [status]
    if view.dealt:
        lines += outlook_lines(state, draft_outlook(view, state.draft), warn=not asking)
    if state.away:
        lines.append(AWAY)
    if note:
        lines.insert(0, note)
    embed = discord.Embed(title=action_title(state), description="\n".join(lines),
                          colour=COLOUR)
    _where(embed, where)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


AWAY = ("You are marked away: your cards are placed for you. Press **I'm back** to play "
        "again.")


def placed_embed(hand_no: int, street: int, state: SeatState, note: str = "", *,
                 where: Where | None = None) -> discord.Embed:
    """What a DM prompt turns into once its action is over; `note` says how (time ran out)."""
    action = "your Fantasyland hand" if street == 0 else f"street {street}"
    embed = discord.Embed(title=f"Hand {hand_no}: {action} placed", colour=COLOUR)
    lines = [note] if note else []
    if state.away:
        lines.append(AWAY)
    if state.hand_no == hand_no:
        lines.append(board_lines(_rows_of(state.view.board)))
    embed.description = "\n".join(lines) or None
    _where(embed, where)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


def _seat_rows(seat: ShowdownSeat) -> list[str]:
    """A showdown seat's rows in words, sorted, with their hands and royalties."""
    rows = []
    for row, cards, resolved, name, royalty in zip(ROWS, seat.board.rows, seat.resolved.rows,
                                                   seat.names, seat.royalties, strict=True):
        bonus = f" (+{royalty})" if royalty else ""
        rows.append(f"{ROW_LABELS[row]}: {row_label(row, cards, resolved)}: {name}{bonus}")
    if seat.fouled:
        rows.append("**Fouled**: no royalties, every line lost")
    if seat.fantasy_next:
        rows.append(f"Fantasyland next hand: {seat.fantasy_next} cards")
    return rows


def showdown_embed(hand_no: int, showdown: ShowdownView, names: Mapping[int, str],
                   point_value: int, practice: bool = False) -> discord.Embed:
    """R3-R8 in words: rows, fouls, royalties, points per pair, chips (with the caps, R6);
    at a practice table, play chips."""
    embed = discord.Embed(title=f"Hand {hand_no}: showdown", colour=COLOUR)
    embed.set_image(url=f"attachment://{SHOWDOWN_IMAGE}")
    for seat in showdown.seats:
        rows = _seat_rows(seat)
        embed.add_field(
            name=f"{names.get(seat.seat, f'Seat {seat.seat + 1}')}: {signed(seat.points)} points,"
                 f" {signed(seat.chips)} chips (stack {seat.stack_after})",
            value="\n".join(rows), inline=False)
    pair_lines = []
    for pair in showdown.pairs:
        lines = " ".join(signed(x) for x in pair.lines)
        pair_lines.append(
            f"{names.get(pair.a, pair.a)} vs {names.get(pair.b, pair.b)}: lines {lines}, "
            f"bonus {signed(pair.bonus)}, royalties {signed(pair.royalties)} "
            f"= **{signed(pair.points)}**")
    if pair_lines:
        embed.add_field(name="Points per pair", value="\n".join(pair_lines), inline=False)
    moves = []
    for t in showdown.transfers:
        if not t.owed:
            continue
        line = f"{names.get(t.payer, t.payer)} → {names.get(t.payee, t.payee)}: {t.paid}"
        if t.capped:
            line += f" (owed {t.owed}, paid {t.paid}: table stakes)"
        moves.append(line)
    kind = "Play chips" if practice else "Chips"
    embed.add_field(name=f"{kind} moved ({plural(point_value, 'chip')} per point)",
                    value="\n".join(moves) or "None", inline=False)
    return embed


def result_embed(hand_no: int, showdown: ShowdownView, seat: int, names: Mapping[int, str],
                 where: Where | None = None) -> discord.Embed | None:
    """One player's result of a showdown, for their DM: rows won and lost, royalties, points,
    chips, Fantasyland earned; None when the seat was not in the hand."""
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
        against.append(f"{names.get(other, f'Seat {other + 1}')} {signed(pair.points * sign)}")
    lines = [f"Rows won {won}, lost {lost}" + (f" ({', '.join(against)} points)"
                                                 if against else ""),
             f"Royalties {sum(mine.royalties)} · **{signed(mine.points)} points** · "
             f"**{signed(mine.chips)} chips** (stack {mine.stack_after})"]
    lines += _seat_rows(mine)
    embed = discord.Embed(title=f"Hand {hand_no}: your result", description="\n".join(lines),
                          colour=COLOUR, url=where.url if where else None)
    _where(embed, where)
    return embed


def standings_embed(standings: Iterable[Standing], practice: bool = False) -> discord.Embed:
    lines = [f"{n}. {s.name}: {s.stack} chips ({signed(s.net)})"
             for n, s in enumerate(standings, start=1)]
    after = ("Practice over: these were play chips, no wallet changed. `/ofc practice` deals "
             "another; `/ofc review` goes over your hands with the strong computer."
             if practice else "Every stack went back to its owner's wallet. **Rematch** opens "
             "a new table here with the same options.")
    return discord.Embed(title="Match over", colour=COLOUR,
                         description="\n".join(lines) + "\n\n" + after)
