"""Words and embeds: what the lobby, table, prompt, showdown and match-end messages say.

Built only from the service's views and events (never the match state), so a message cannot
show a card its reader may not see (README.md "Architecture").
"""

from collections.abc import Iterable, Mapping

import discord

from bot.engine.cards import Card
from bot.engine.royalties import ROWS
from bot.engine.views import ShowdownView, TableView
from bot.tables import LobbyView, SeatState, Standing
from cogs.common.format import (
    ROW_LABELS,
    card_label,
    cards_label,
    plural,
    rules_paragraph,
    signed,
    when,
)
from cogs.common.images import HAND_IMAGE, SHOWDOWN_IMAGE, TABLE_IMAGE

COLOUR = discord.Colour.dark_green()


def lobby_embed(lobby: LobbyView) -> discord.Embed:
    title = {"lobby": "OFC table: waiting for players", "playing": "OFC table: playing",
             "closed": "OFC table: closed"}[lobby.status]
    embed = discord.Embed(title=title, description=rules_paragraph(lobby.rules), colour=COLOUR)
    size = min(lobby.rules.seats, lobby.rules.max_seats)
    lines = []
    for number in range(size):
        if number < len(lobby.seats):
            seat = lobby.seats[number]
            who = seat.name if seat.ai_level else f"<@{seat.player_id}>"
            tags = [f"computer, {seat.ai_level}"] if seat.ai_level else []
            if seat.player_id == lobby.host_id:
                tags.append("host")
            suffix = f" ({', '.join(tags)})" if tags else ""
            lines.append(f"{number + 1}. {who}{suffix}: {seat.stack} chips")
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
    deadlines = [s.deadline for s in view.seats if s.seat in view.to_act and s.deadline]
    clock = f", placed automatically {when(min(deadlines))}" if deadlines else ""
    return f"Waiting for **{' and '.join(waiting)}**{clock}."


def table_embed(view: TableView) -> discord.Embed:
    if view.phase == "waiting":
        title = "OFC table"
    else:
        of = f" of {view.hands_total}" if view.hands_total else ""
        if view.phase in ("showdown", "over"):
            stage = "showdown"
        elif view.fantasy_hand and not view.street:
            stage = "Fantasyland"
        else:
            stage = f"street {view.street} of {view.streets}"
        title = f"Hand {view.hand_no}{of}: {stage}"
    embed = discord.Embed(title=title, description=turn_line(view), colour=COLOUR)
    stacks = ", ".join(f"{s.name} {s.stack}" + (" (away)" if s.away else "")
                       for s in view.seats)
    embed.add_field(name="Stacks", value=stacks or "—", inline=False)
    embed.set_image(url=f"attachment://{TABLE_IMAGE}")
    embed.set_footer(text="Your cards come by DM. DMs closed? Press My hand.")
    return embed


def board_lines(board_rows: Mapping[str, tuple[Card, ...]]) -> str:
    return "\n".join(f"{ROW_LABELS[r]}: {cards_label(board_rows[r])}" for r in ROWS)


def prompt_embed(state: SeatState, note: str = "") -> discord.Embed:
    """The private prompt: what to place, the draft so far, the clock; `note` says why it was
    redrawn (time ran out)."""
    view = state.view
    table = view.table
    if state.street == 0:
        title = f"Hand {state.hand_no}: your Fantasyland hand ({len(view.dealt)} cards)"
        task = (f"Choose 3 cards for the top, 5 for the middle and 5 for the bottom; "
                f"the other {plural(view.discard_count, 'card')} are discarded.")
    else:
        title = f"Hand {state.hand_no}: street {state.street} of {table.streets}"
        keep = len(view.dealt) - view.discard_count
        task = f"Place {plural(keep, 'card')}" + \
            (f" and discard {view.discard_count}." if view.discard_count else ".")
    if not view.dealt:
        status = "Nothing to place right now."
    elif state.to_act:
        clock = f" Placed for you {when(state.deadline)} if you do not confirm." \
            if state.deadline else ""
        status = f"**Your turn.** {task}{clock}"
    else:
        names = _names(table)
        waiting = " and ".join(names[s] for s in table.to_act) or "the others"
        status = f"{task} Waiting for {waiting}: arrange now, confirm on your turn."
    if state.away:
        status += f"\n{AWAY}"
    if note:
        status = f"{note}\n{status}"
    embed = discord.Embed(title=title, description=status, colour=COLOUR)
    board = view.board
    embed.add_field(name="Your board", value=board_lines(
        {"top": board.top, "middle": board.middle, "bottom": board.bottom}), inline=True)
    if view.dealt:
        chosen = [f"{card_label(c)} → {ROW_LABELS[state.draft[c]]}" if c in state.draft
                  else f"{card_label(c)} → ?" for c in view.dealt]
        embed.add_field(name="This action", value="\n".join(chosen), inline=True)
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


AWAY = ("You are marked away (R10): your cards are placed for you. Press **I'm back** to "
        "play again.")


def placed_embed(hand_no: int, street: int, state: SeatState, note: str = "") -> discord.Embed:
    """What a DM prompt turns into once its action is over; `note` says how (time ran out)."""
    action = "Fantasyland hand" if street == 0 else f"street {street}"
    embed = discord.Embed(title=f"Hand {hand_no}: {action} placed", colour=COLOUR)
    lines = [note] if note else []
    if state.away:
        lines.append(AWAY)
    if state.hand_no == hand_no:
        board = state.view.board
        lines.append(board_lines({"top": board.top, "middle": board.middle,
                                  "bottom": board.bottom}))
    embed.description = "\n".join(lines) or None
    embed.set_image(url=f"attachment://{HAND_IMAGE}")
    return embed


def showdown_embed(hand_no: int, showdown: ShowdownView, names: Mapping[int, str],
                   point_value: int) -> discord.Embed:
    """R3-R8 in words: rows, fouls, royalties, points per pair, chips (with the caps, R6)."""
    embed = discord.Embed(title=f"Hand {hand_no}: showdown", colour=COLOUR)
    embed.set_image(url=f"attachment://{SHOWDOWN_IMAGE}")
    for seat in showdown.seats:
        rows = []
        for row, cards, name, royalty in zip(ROWS, seat.board.rows, seat.names, seat.royalties,
                                             strict=True):
            bonus = f" (+{royalty})" if royalty else ""
            rows.append(f"{ROW_LABELS[row]}: {cards_label(cards)}: {name}{bonus}")
        if seat.fouled:
            rows.append("**Fouled**: no royalties, every line lost (R3)")
        if seat.fantasy_next:
            rows.append(f"Fantasyland next hand: {seat.fantasy_next} cards (R8)")
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
        embed.add_field(name="Points per pair (R5)", value="\n".join(pair_lines), inline=False)
    moves = []
    for t in showdown.transfers:
        if not t.owed:
            continue
        line = f"{names.get(t.payer, t.payer)} → {names.get(t.payee, t.payee)}: {t.paid}"
        if t.capped:
            line += f" (owed {t.owed}, paid {t.paid}: table stakes, R6)"
        moves.append(line)
    embed.add_field(name=f"Chips moved ({plural(point_value, 'chip')} per point)",
                    value="\n".join(moves) or "None", inline=False)
    return embed


def standings_embed(standings: Iterable[Standing]) -> discord.Embed:
    lines = [f"{n}. {s.name}: {s.stack} chips ({signed(s.net)})"
             for n, s in enumerate(standings, start=1)]
    return discord.Embed(
        title="Match over", colour=COLOUR,
        description="\n".join(lines) + "\n\nEvery stack went back to its owner's wallet.")
