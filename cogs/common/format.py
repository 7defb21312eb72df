"""Words shared by every feature, in the reader's language (`loc`, bot.i18n): cards, rows,
Discord timestamps, signed numbers, chips, and a table's rules in short.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import discord
from discord.utils import TimestampStyle

from bot.engine.cards import SUITS, Card, card_str, is_joker
from bot.engine.deal import streets
from bot.engine.ordering import sort_row
from bot.engine.royalties import Row
from bot.engine.rules import OPTIONS, TableRules
from bot.engine.text import Typed
from bot.engine.tournament import TIME_REASON
from bot.i18n import Text, t
from bot.i18n.names import VARIANTS, one_line, seat_name

INFO = discord.Colour.blurple()  # the colour of answers that only inform
# What a public post may ping: the members it names, never @everyone, @here or a role, which
# text a member typed (a name, a director's reason) could otherwise carry.
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True)
JOKER_STAR = "★"  # a joker, as the showdown image marks one
SUIT_SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))
ROW_WORDS = {"top": Text("Top"), "middle": Text("Middle"), "bottom": Text("Bottom"),
             "discard": Text("Discard")}
FIELD_NAME, FIELD_VALUE = 256, 1024  # Discord's limits of one embed field, in characters
EMBED_TOTAL, EMBED_FIELDS = 6000, 25  # Discord's limits of one embed
ROOM_LEFT = 300  # kept free by `fits` for what is added after the fields (a footer, a note)
# The table options' values as a player reads them (their declarations' words).
ROYALTIES = OPTIONS["royalties"].words
FANTASIES = OPTIONS["fantasy"].words
ORDERS = OPTIONS["order"].words
FANTASY_DEALS = OPTIONS["fantasy_deal"].words
# The options `rules_paragraph` words in its own sentence; any other is added in its
# declaration's words when its value has some (hints on, a full house staying, ...).
PARAGRAPH_SAYS = frozenset({
    "variant", "seats", "format", "hands", "buy_in", "point_value", "scoring", "royalties",
    "fantasy", "fantasy_deal", "order", "clock", "turn_seconds", "fantasy_turn_seconds",
    "time_bank_seconds", "time_bank_refill_seconds"})


def clock_words(rules: TableRules) -> Text:
    """The turn clock in a few words: a street's seconds, or the whole hand's (one clock)."""
    if rules.clock == "per_hand":
        return Text("{n} s for the whole hand", n=rules.turn_seconds * len(streets(rules)))
    return Text("{n} s a street", n=rules.turn_seconds)


def bank_words(rules: TableRules) -> Text:
    """The time bank in a few words, with its refill when it has one."""
    if rules.time_bank_refill_seconds:
        return Text("time bank {bank} s, full again after {n} s", bank=rules.time_bank_seconds,
                    n=rules.time_bank_refill_seconds)
    return Text("time bank {bank} s", bank=rules.time_bank_seconds)


# Isolate controls: a name's own could close the isolate its right-to-left text is kept in.
_ISOLATES = re.compile("[\u2066-\u2069]")
# What Discord reads as a mention or other markup in a message: @everyone, @here, <@id>,
# <@&role>, <#channel>, </command:id>, <:emoji:id>, <t:time>.
_MARKUP = re.compile(r"(?<=@)(?=everyone|here)|(?<=<)(?=[@#/:]|a:|t:)")
# Characters that reorder the text around them: right-to-left letters, embeddings, overrides.
_RTL = frozenset({"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF"})
FSI, PDI = "\u2068", "\u2069"  # first strong isolate ... pop directional isolate
ZWSP = "\u200b"


def shown(text: str) -> str:
    """What a member typed (a name, a server's or channel's, a director's reason), as a message
    shows it: as typed, its markdown escaped, no mention or other markup (it pings no one), on
    one line, its right-to-left text isolated so that it does not reorder the bot's words
    around it."""
    line = _ISOLATES.sub("", one_line(text))
    return _isolate(line, _MARKUP.sub(ZWSP, discord.utils.escape_markdown(line)))


def isolated(text: str) -> str:
    """What a member typed, where Discord shows plain text (an embed's author line, a thread's
    name: no markdown, no mentions, so nothing to escape): on one line, its right-to-left text
    isolated as `shown` isolates it."""
    line = _ISOLATES.sub("", one_line(text))
    return _isolate(line, line)


def _isolate(line: str, shown_as: str) -> str:
    if any(unicodedata.bidirectional(c) in _RTL for c in line):
        return FSI + shown_as + PDI
    return shown_as


def as_shown(text: Text) -> Text:
    """`text` with what a member typed in it (its `Typed` fields, in the texts inside it too)
    as `shown`."""
    return Text(text.msgid, text.plural, **{
        key: shown(value) if isinstance(value, Typed) else
        as_shown(value) if isinstance(value, Text) else value
        for key, value in text.fields.items()})


def shown_seat(loc: str, name: str, is_ai: bool = True) -> str:
    """A seat's name as a message shows it: a computer's in `loc`, a member's as typed."""
    return shown(seat_name(loc, name, is_ai))


def clip(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with an ellipsis if longer."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def add_lines(loc: str, embed: discord.Embed, name: str, lines: Iterable[str]) -> None:
    """`lines` as one full-width field, or as several ("name (more)") when they exceed
    Discord's 1,024 characters a field; a line too long for a field alone is clipped."""
    chunk: list[str] = []
    size = 0
    first = name
    for line in (clip(text, FIELD_VALUE) for text in lines):
        if chunk and size + 1 + len(line) > FIELD_VALUE:
            embed.add_field(name=clip(name, FIELD_NAME), value="\n".join(chunk), inline=False)
            name, chunk, size = t(loc, "{name} (more)", name=first), [], 0
        size += len(line) + (1 if chunk else 0)
        chunk.append(line)
    if chunk:
        embed.add_field(name=clip(name, FIELD_NAME), value="\n".join(chunk), inline=False)


def fits(embed: discord.Embed, name: str, value: str, *, later: int = 0,
         later_fields: int = 0) -> bool:
    """Whether one more field stays within Discord's limits of one embed, leaving room for
    `later` characters in `later_fields` fields still to come and ROOM_LEFT more: a
    translation can be longer than the English."""
    return (len(embed.fields) + later_fields < EMBED_FIELDS - 1
            and len(embed) + len(name) + len(value) + later + ROOM_LEFT <= EMBED_TOTAL)


def row_word(loc: str, row: str) -> str:
    """'Top', 'Middle', 'Bottom', 'Discard' in the reader's language."""
    return t(loc, ROW_WORDS[row])


def card_label(loc: str, card: Card) -> str:
    """'A♥', 'T♠' (ranks and suits are symbols in every language); a joker by name (R9)."""
    if is_joker(card):
        return t(loc, "Joker")
    text = card_str(card)
    return text[0] + SUIT_SYMBOLS[text[1]]


def card_button(loc: str, card: Card) -> str:
    """A card on a placement button: as `card_label`, a joker as its star (R9), so that a
    line of 4 buttons fits a phone in every language."""
    return JOKER_STAR if is_joker(card) else card_label(loc, card)


def cards_label(loc: str, cards: Iterable[Card]) -> str:
    return " ".join(card_label(loc, c) for c in cards) or "—"


def row_label(loc: str, row: Row, cards: Sequence[Card],
              resolved: Sequence[Card] | None = None) -> str:
    """A row's cards in the order of the hand they make (bot.engine.ordering.sort_row):
    'Q♥ Q♦ 2♣', '7♥ 5♥ 4♥ 3♥ 2♥'. `resolved`: the row with its jokers as they stand (R9)."""
    return cards_label(loc, sort_row(row, cards, resolved))


def when(epoch: float, style: TimestampStyle = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return discord.utils.format_dt(datetime.fromtimestamp(epoch, tz=UTC), style)


def signed(n: int) -> str:
    return f"{n:+d}"


def signed_chips(loc: str, amount: int, kind: str = "") -> str:
    """'+72 chips', '-1 chip': the plural form chosen by the number without its sign (CLDR's
    rules, through babel: '+72 фишки', '+75 фишек'); `kind` "play" or "tournament" for the
    chips of a practice or a tournament's table."""
    n, sign = abs(amount), "-" if amount < 0 else "+"
    if kind == "play":
        return t(loc, "{sign}{n:,} play chip", "{sign}{n:,} play chips", n=n, sign=sign)
    if kind == "tournament":
        return t(loc, "{sign}{n:,} tournament chip", "{sign}{n:,} tournament chips", n=n,
                 sign=sign)
    return t(loc, "{sign}{n:,} chip", "{sign}{n:,} chips", n=n, sign=sign)


def signed_points(loc: str, amount: int) -> str:
    """'+3 points', '-1 point', the plural form as `signed_chips` chooses it."""
    return t(loc, "{sign}{n:,} point", "{sign}{n:,} points", n=abs(amount),
             sign="-" if amount < 0 else "+")


def chip_count(amount: int) -> Text:
    """'1 chip', '2,000 chips' as a field of a text: said in its reader's language."""
    return Text("{n:,} chip", "{n:,} chips", n=amount)


def chips(loc: str, amount: int) -> str:
    """'1 chip', '2,000 chips' (grouped and inflected as the language does)."""
    return t(loc, chip_count(amount))


HINTS_ON = OPTIONS["hints"].words["on"]


def sanction_reason(loc: str, reason: str) -> str:
    """A sanction's reason as given; the time penalty a table's clock called, translated."""
    return t(loc, Text("time ran out")) if reason == TIME_REASON else shown(reason)


def sanction_words(kind: str, points: int, excluded: bool) -> Text:
    """A tournament director's warning or penalty in a few words (RULES.md R13)."""
    if kind == "penalty":
        return Text("penalty, {n} point off", "penalty, {n} points off", n=points)
    if excluded:
        return Text("third warning: excluded, no refund")
    return (Text("second warning, {n} point off", "second warning, {n} points off", n=points)
            if points else Text("warning"))


def option_notes(rules: TableRules, says: frozenset[str]) -> list[tuple[str, Text]]:
    """(RULES.md section, words) of the options a text does not word itself (`says`), for
    the values that have words in their declarations, in the order the options are
    declared; an option that changes nothing at the table is not said."""
    values = rules.to_dict()
    return [(o.section, o.words[values[o.name]]) for o in OPTIONS.values()
            if o.name not in says and values[o.name] in o.words and rules.applies(o.name)]


def fantasy_words(rules: TableRules) -> Text:
    """The Fantasyland played: the mode's name, or the variant's own Fantasyland (R9)."""
    if rules.own_fantasy and rules.fantasy != "off":
        return Text("{variant} Fantasyland", variant=VARIANTS[rules.variant])
    return FANTASIES[rules.fantasy]


def rules_paragraph(loc: str, rules: TableRules, buy_in: str | None = None) -> str:
    """The table's options in one short paragraph, for the lobby message: the facts of
    `rules_line` and what a player about to sit down also wants to know, then a line for
    each other option its value has words for. `buy_in`: the buy-in in other words than
    wallet chips (a practice's play chips, a tournament table's lent chips)."""
    match_length = {
        "match": Text("one hand per player"),
        "hands": Text("{n:,} hand", "{n:,} hands", n=rules.hands),
        "cash": Text("cash table: join and leave between hands"),
    }[rules.format]
    fantasy = fantasy_words(rules) if rules.fantasy == "off" else Text(
        "{fantasy} ({deal})", fantasy=fantasy_words(rules),
        deal=FANTASY_DEALS[rules.fantasy_deal])
    # A table without Fantasyland has no Fantasyland clock to tell (R8, R10).
    time = Text("Time: {clock}, {bank}", clock=clock_words(rules), bank=bank_words(rules)) \
        if rules.fantasy == "off" else Text(
        "Time: {clock}, Fantasyland {fantasy_turn} s, {bank}", clock=clock_words(rules),
        fantasy_turn=rules.fantasy_turn_seconds, bank=bank_words(rules))
    return t(loc, "**{variant}**, {seats} seats, {length}\n"
                  "Buy-in {buy_in}, {per_point} per point, scoring {scoring}, {royalties}, "
                  "{fantasy}, {order}\n{time}",
             variant=VARIANTS[rules.variant], seats=min(rules.seats, rules.max_seats),
             length=match_length, buy_in=buy_in or chips(loc, rules.buy_in),
             per_point=chips(loc, rules.point_value), scoring=rules.scoring,
             royalties=ROYALTIES[rules.royalties], fantasy=fantasy, order=ORDERS[rules.order],
             time=time) + "".join(
        "\n" + t(loc, note) for _, note in option_notes(rules, PARAGRAPH_SAYS))


def rules_line(loc: str, rules: TableRules) -> str:
    """The table's rules in one line: variant, scoring, royalties, Fantasyland, stakes
    (`/ofc rules`, `/ofc-admin settings`, `/ofc history`)."""
    return t(loc, "{variant} · {scoring} · {royalties} · {fantasy} · {per_point} a point",
             variant=VARIANTS[rules.variant], scoring=rules.scoring,
             royalties=ROYALTIES[rules.royalties], fantasy=fantasy_words(rules),
             per_point=chips(loc, rules.point_value))
