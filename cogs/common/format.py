"""Words shared by every feature: cards, rows, Discord timestamps, signed numbers, plurals,
and a table's rules in short.
"""

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import discord
from discord.utils import TimestampStyle

from bot.engine.cards import SUITS, Card, card_str, is_joker
from bot.engine.ordering import sort_row
from bot.engine.royalties import Row
from bot.engine.rules import TableRules

INFO = discord.Colour.blurple()  # the colour of answers that only inform
SUIT_SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))
ROW_LABELS = {"top": "Top", "middle": "Middle", "bottom": "Bottom", "discard": "Discard"}
FIELD_NAME, FIELD_VALUE = 256, 1024  # Discord's limits of one embed field, in characters


def clip(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with an ellipsis if longer."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def add_lines(embed: discord.Embed, name: str, lines: Iterable[str]) -> None:
    """`lines` as one full-width field, or as several ("name (more)") when they exceed
    Discord's 1,024 characters a field; a line too long for a field alone is clipped."""
    chunk: list[str] = []
    size = 0
    for line in (clip(text, FIELD_VALUE) for text in lines):
        if chunk and size + 1 + len(line) > FIELD_VALUE:
            embed.add_field(name=clip(name, FIELD_NAME), value="\n".join(chunk), inline=False)
            name, chunk, size = f"{name} (more)", [], 0
        size += len(line) + (1 if chunk else 0)
        chunk.append(line)
    if chunk:
        embed.add_field(name=clip(name, FIELD_NAME), value="\n".join(chunk), inline=False)


def card_label(card: Card) -> str:
    """'A♥', 'T♠'; 'Joker' for a joker (R9)."""
    if is_joker(card):
        return "Joker"
    text = card_str(card)
    return text[0] + SUIT_SYMBOLS[text[1]]


def cards_label(cards: Iterable[Card]) -> str:
    return " ".join(card_label(c) for c in cards) or "—"


def row_label(row: Row, cards: Sequence[Card], resolved: Sequence[Card] | None = None) -> str:
    """A row's cards in the order of the hand they make (bot.engine.ordering.sort_row):
    'Q♥ Q♦ 2♣', '7♥ 5♥ 4♥ 3♥ 2♥'. `resolved`: the row with its jokers as they stand (R9)."""
    return cards_label(sort_row(row, cards, resolved))


def when(epoch: float, style: TimestampStyle = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone, counting down."""
    return discord.utils.format_dt(datetime.fromtimestamp(epoch, tz=UTC), style)


def signed(n: int) -> str:
    return f"{n:+d}"


def sanction_words(kind: str, points: int, excluded: bool) -> str:
    """A tournament director's warning or penalty in a few words (RULES.md R13)."""
    if kind == "penalty":
        return f"penalty, {points} points off"
    if excluded:
        return "third warning: excluded, no refund"
    return f"second warning, {points} points off" if points else "warning"


def plural(n: int, word: str) -> str:
    """'1 chip', '2,000 chips'."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def chips(amount: int) -> str:
    return plural(amount, "chip")


HINTS_ON = "**Hints on**: **Suggest** fills your cards with the strong computer's choice."


def _royalties(rules: TableRules) -> str:
    return "no royalties" if rules.royalties == "off" else f"{rules.royalties} royalties"


def _fantasy(rules: TableRules) -> str:
    return "no Fantasyland" if rules.fantasy == "off" else f"{rules.fantasy} Fantasyland"


def rules_paragraph(rules: TableRules) -> str:
    """The table's options in one short paragraph (RULES.md names), for the lobby message:
    the facts of `rules_line` and what a player about to sit down also wants to know."""
    match_length = {"match": "one hand per player",
                    "hands": f"{rules.hands} hands",
                    "cash": "cash table: join and leave between hands"}[rules.format]
    return (
        f"**{rules.variant.capitalize()}**, {min(rules.seats, rules.max_seats)} seats, "
        f"{match_length}\n"
        f"Buy-in {plural(rules.buy_in, 'chip')}, {plural(rules.point_value, 'chip')} per point, "
        f"scoring {rules.scoring}, {_royalties(rules)}, {_fantasy(rules)}, "
        f"{rules.order} turns of {rules.turn_seconds} s "
        f"(Fantasyland {rules.fantasy_turn_seconds} s, time bank {rules.time_bank_seconds} s)"
        + (f"\n{HINTS_ON}" if rules.hints == "on" else "")
    )


def rules_line(rules: TableRules) -> str:
    """The table's rules in one line: variant, scoring, royalties, Fantasyland, stakes
    (`/ofc rules`, `/ofc-admin settings`, `/ofc history`)."""
    return (f"{rules.variant.capitalize()} · {rules.scoring} · {_royalties(rules)} · "
            f"{_fantasy(rules)} · {plural(rules.point_value, 'chip')} a point")
