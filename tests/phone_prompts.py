"""Every version of the DM prompt, from seeded hands, measured by the phone model
(tests/phone.py): each language, seat count, variant, street, Fantasyland size and hints
setting; to act (nothing drafted, one card drafted, all drafted, asked to confirm a board that
fouls), waiting for another seat (nothing drafted, all drafted), away, and away once its time
ran out (the prompt says so); each as a player at one table sees it, and as a player seated
at two tables at once, whose title names the table's channel on a line more.

`tallest()` is the tallest at one table: `ofc bench`'s ui_dm_height_pt (tests/e2e/ui_run.py).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, replace

import discord
from PIL import Image

from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.i18n import LOCALES
from bot.tables import SeatState
from bot.tables.drafting import is_complete
from bot.tables.state import street_of
from cogs.tables.controls import Content, controls_view, fouls
from cogs.tables.embeds import Where, prompt_embed
from cogs.tables.prompts import TIME_RAN_OUT
from rendering import samples
from rendering.private import private_image
from tests.phone import Height, Prompt, height

# The longest server and channel names in practice, at a practice table: the longest author
# line a prompt has.
WHERE = Where("The Friday Night Open-Face Club", "ofc-pineapple-high-stakes",
              "https://discord.com/channels/1/2/3", practice=True)
# The same table, its player seated at another one too: the channel leads the title.
TWO_TABLES = replace(WHERE, named=True)
NOW = 1_800_000_000.0
SEARCH = 400  # placements tried for one that fouls (the question asked before confirming it)
SEED = 3
NAMES = ("Alice", "Bartholomew the Great", "Chen", "Dana")
# Seat counts by variant (R7: the pineapple family seats 2-3, turbo 2-4) and the sizes of the
# Fantasyland hands each variant deals (R8, R9).
TABLES = {"pineapple": (2, 3), "lowball": (2, 3), "joker": (2, 3), "turbo": (2, 3, 4)}
FANTASY = {"pineapple": (13, 14, 15, 16, 17), "lowball": (14, 15), "joker": (14, 15, 16, 17),
           "turbo": (13,)}


@dataclass(frozen=True)
class Case:
    """Which prompt a measured height is of."""

    loc: str
    variant: str
    seats: int
    hints: str
    fantasy: int  # cards of the Fantasyland hand at the table (0: a normal hand)
    street: int  # the prompt's action: 0 a Fantasyland hand
    version: str
    two_tables: bool = False  # its player sits at another table too (the channel's title line)

    def __str__(self) -> str:
        fantasy = f", Fantasyland {self.fantasy}" if self.fantasy else ""
        two = ", two tables" if self.two_tables else ""
        return (f"{self.loc} {self.variant} {self.seats} seats, hints {self.hints}{fantasy}, "
                f"street {self.street}, {self.version}{two}")


def measured(content: Content, image: tuple[int, int] | None) -> Height:
    """A prompt's height on the phone: its embed, its image (pixel size) and its components
    (buttons by action row, each menu a row of its own)."""
    rows: dict[int, list[str]] = {}
    menus = 0
    for child in content.view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Select):
            menus += 1
            continue
        assert isinstance(item, discord.ui.Button)
        rows.setdefault(item.row or 0, []).append(str(item.label))
    embed = content.embed
    return height(Prompt(embed.author.name, str(embed.title or ""),
                         str(embed.description or ""), image,
                         [rows[r] for r in sorted(rows)], menus))


def seat_state(match: Match, seat: int, draft: dict | None = None, *,
               away: bool = False) -> SeatState:
    """The seat's controls as the table service builds them (bot/tables/play.py)."""
    rows = dict(draft or {})
    needs = match.legal_rows(seat)
    free = {row: needs.free(row) - sum(1 for r in rows.values() if r == row)
            for row in ("top", "middle", "bottom")}
    free["discard"] = needs.discards - sum(1 for r in rows.values() if r == "discard")
    return SeatState(table_id=7, player_id=seat + 1, seat=seat, view=match.view_for(seat, NOW),
                     hand_no=match.hand_no, street=street_of(match, seat), draft=rows,
                     to_act=seat in match.pending(), deadline=NOW + 59, free=free, away=away,
                     complete=is_complete(rows, needs))


def new_match(variant: str, seats: int, hints: str, fantasy: int,
              fantasy_deal: str | None = None) -> Match:
    """A match's first hand dealt; with `fantasy`, its last seat holds a Fantasyland hand of
    that many cards (R8), dealt as `fantasy_deal` says (the table's default when None)."""
    options = {"variant": variant, "seats": seats, "hints": hints,
               "fantasy": "ultimate" if fantasy else "standard"}
    rules = TableRules.from_mapping(
        options if fantasy_deal is None else {**options, "fantasy_deal": fantasy_deal})
    players = [PlayerSpec(i + 1, NAMES[i], 200) for i in range(seats)]
    match = Match.new(rules, players, seed=SEED)
    if fantasy:
        match.player(seats - 1).fantasy = fantasy
    match.start_hand(0.0)
    return match


def states(match: Match) -> Iterator[tuple[str, SeatState]]:
    """Every version of the prompts of the hand, action by action as the easy computer plays
    it: the seat to act (and a Fantasyland seat) and a seat waiting for it."""
    seen: set[tuple[int, int]] = set()
    for m in itertools.chain([match], samples.play(match)):  # the match as it goes
        if m.phase != "playing":
            break
        for seat in range(len(m.seats)):
            view = m.view_for(seat)
            key = (seat, street_of(m, seat))
            if not view.dealt or key in seen:
                continue
            seen.add(key)
            choice = samples.choice(m, seat)
            one = dict(list(choice.items())[:1])
            if seat in m.pending():
                yield "to act", seat_state(m, seat)
                yield "one drafted", seat_state(m, seat, one)
                yield "all drafted", seat_state(m, seat, choice)
                fouling = next((s for s in itertools.islice(
                    (seat_state(m, seat, a) for a in m.legal_assignments(seat)), SEARCH)
                    if fouls(s)), None)
                if fouling is not None:
                    yield "foul asked", fouling
                yield "away", seat_state(m, seat, away=True)
                yield "timed out", seat_state(m, seat, away=True)
            else:
                yield "waiting", seat_state(m, seat)
                yield "waiting, all drafted", seat_state(m, seat, choice)


def tables() -> Iterator[tuple[str, int, str, int]]:
    for variant, counts in TABLES.items():
        for seats in counts:
            for hints in ("off", "on"):
                for fantasy in (0, *FANTASY[variant]):
                    yield variant, seats, hints, fantasy


def heights() -> Iterator[tuple[Case, Height]]:
    """Every prompt version of the matrix with its height on the phone, as a player at one
    table sees it and as a player at two."""
    sizes: dict[tuple[object, ...], tuple[int, int]] = {}
    for variant, seats, hints, fantasy in tables():
        for version, state in states(new_match(variant, seats, hints, fantasy)):
            for loc in LOCALES:
                # The image a DM uploads (drawn without the draft: the buttons show it).
                key = (loc, variant, seats, fantasy, state.seat, state.street,
                       state.view.table.street)
                if key not in sizes:
                    sizes[key] = private_image(state.view, {}, False, loc).size
                asking = version == "foul asked"
                note = TIME_RAN_OUT if version == "timed out" else None
                for two_tables, where in ((False, WHERE), (True, TWO_TABLES)):
                    content = Content(prompt_embed(loc, state, note, where=where,
                                                   asking=asking),
                                      controls_view(loc, state, asking=asking))
                    yield (Case(loc, variant, seats, hints, fantasy, state.street, version,
                                two_tables), measured(content, sizes[key]))


def tallest() -> tuple[Case, Height]:
    return max(((case, got) for case, got in heights() if not case.two_tables),
               key=lambda pair: pair[1].total)


def image_of(content: Content) -> tuple[int, int] | None:
    """The pixel size of the image a prompt uploads."""
    if content.file is None:
        return None
    data = content.file.fp.read()
    content.file.fp.seek(0)
    return Image.open(io.BytesIO(data)).size
