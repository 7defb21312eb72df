"""Whole flows through the real bot, as people play them: the end-to-end tests of
tests/e2e/match and the load run (tests/e2e/load_run.py) share these.

A table is opened with /ofc create and the lobby's Join and Start buttons; each member then
plays from what Discord shows them: the DM prompt (or, with DMs closed, the "My hand"
ephemeral message) says whose turn it is and carries one button per card and row. A member
acts only when their prompt says "Your turn", clicks a button per card, waits to see the
click drafted (the button turns green), and confirms. Nothing here reads the bot's state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bot.app import OFCBot
from bot.engine.cards import Card, parse_card
from bot.tables import Clock
from cogs.common.format import ROW_WORDS, SUIT_SYMBOLS, card_label
from tests.cogs.conftest import buttons, enabled, placement, placements, settings_for
from tests.e2e import breakdowns
from tests.e2e.discord_double import PATIENCE, Channel, DiscordDouble, Member, Message

SUCCESS = 3  # Discord's green button style: the row a card is drafted to
YOUR_TURN = "**Your turn.**"
MATCH_OVER = "Match over"
SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
FILL_ORDER = ("bottom", "middle", "top")  # R10's order for the cards a member keeps
STARTING = 1000  # OFC_STARTING_CHIPS default: a new wallet (R12)
BUY_IN = 200  # RULES.md R12 default
STANDING = re.compile(r"\d+\. (.+): (\d+) chips? \(([+-]\d+)\)")  # a match-over line
COMPUTER = re.compile(r"Computer \d+ \((?:easy|strong)\)")  # a computer seat's name
RESULT = "your result"  # the title of a showdown's result by DM (never a prompt)
# member id -> buttons clicked on prompts (placements, Confirm, Solve): a phone's
# taps, counted by act() and confirm()
TAPS: dict[int, int] = {}


def tap(member: Member) -> None:
    TAPS[member.id] = TAPS.get(member.id, 0) + 1

T = TypeVar("T")

# (member, prompt) -> card -> row ("top", "middle", "bottom", "discard"), or None to play
# as R10 places: the cards kept from the bottom up, the rest discarded.
Planner = Callable[[Member, Message], Mapping[Card, str] | None]


def card_of(label: str) -> Card:
    """The card of a button label's first part: 'A♥' -> Ah."""
    return parse_card(label[0] + SUIT_OF_SYMBOL[label[1]])


def display_name(member: Member) -> str:
    """The name the bot seats a member under (their display name)."""
    return member.user.global_name or member.name


async def start_bot(double: DiscordDouble, database: Path, clock: Clock | None = None) -> OFCBot:
    """bot/app.py's OFCBot with every extension, connected to the double (no pause before a
    computer acts or between hands, table edits not coalesced: tests/cogs' settings)."""
    bot = OFCBot(settings_for(double, database), clock=clock)
    await double.start_client(bot)
    return bot


def seed_decks(bot: OFCBot, seed: int) -> None:
    """Tables created from now on deal from `seed` (the service's test/simulation hook, R1):
    the deck of every hand and the button are fixed, so a Fantasyland can be planned."""
    service = bot.tables
    create = type(service).create_table

    async def seeded(*args: Any, **kwargs: Any) -> Any:
        return await create(service, *args, **{**kwargs, "seed": seed})

    service.create_table = seeded  # type: ignore[method-assign]


# ------------------------------------------------------------------ lobby
def is_lobby(message: Message) -> bool:
    return message.embed is not None and str(message.embed["title"]).startswith("OFC table")


async def open_table(double: DiscordDouble, host: Member, *guests: Member,
                     channel: Channel | None = None, computers: Sequence[str] = (),
                     seater: Member | None = None, timeout: float = PATIENCE,
                     **options: Any) -> Message:
    """`host` runs /ofc create with `options`, each guest presses Join, `seater` (a member
    with Manage Server: the house backs computers, R12) adds a computer of each level in
    `computers`, and the host presses Start: returns the table message."""
    channel = channel or double.channel
    await double.resolved(await host.slash("ofc create", channel=channel, **options),
                          timeout=timeout)
    lobby = await double.wait_for_message(is_lobby, channel=channel, timeout=timeout)
    for guest in guests:
        await guest.click(lobby, "Join")
        await double.wait_until(lambda g=guest: g.mention in str(lobby.embed),
                                timeout=timeout, what=f"{guest.name} seated")
    for number, level in enumerate(computers, start=1):
        assert seater is not None, "computers are seated by a member with Manage Server"
        await seater.click(lobby, f"Add computer ({level})")
        await double.wait_until(lambda n=number: len(COMPUTER.findall(str(lobby.embed))) == n,
                                timeout=timeout, what=f"a computer ({level}) seated")
    await double.wait_until(lambda: enabled(lobby, "Start"), timeout=timeout,
                            what="Start enabled")
    await host.click(lobby, "Start")
    return await double.wait_for_message(lambda m: "My hand" in m.labels(), channel=channel,
                                         timeout=timeout)


# ------------------------------------------------------------------ prompts
def description(message: Message) -> str:
    return str(message.embed.get("description", "")) if message.embed else ""


def title(message: Message) -> str:
    return str(message.embed.get("title", "")) if message.embed else ""


def action_of(prompt: Message | None) -> str | None:
    """The Confirm button's custom_id: which table, hand, street and seat the controls are
    for; None once there is nothing to confirm."""
    if prompt is None:
        return None
    confirm = buttons(prompt).get("Confirm")
    return None if confirm is None else str(confirm["custom_id"])


def ready(prompt: Message | None) -> bool:
    """The prompt says it is its reader's turn and offers the controls."""
    return prompt is not None and YOUR_TURN in description(prompt) and action_of(prompt) is not None


def dealt(prompt: Message) -> list[Card]:
    """The cards of a street prompt in the order dealt (the order of its buttons)."""
    return list(dict.fromkeys(card for card, _ in placements(prompt)))


def place_id(prompt: Message, card: Card, row: str) -> str:
    """The custom_id of the button putting `card` in `row`."""
    return str(placement(prompt, card, row)["custom_id"])


def chosen_row(prompt: Message, card: Card, loc: str = "en-US") -> str | None:
    """The row the prompt shows `card` drafted to (its green button), if any."""
    return next((row for row in ROW_WORDS
                 if placement(prompt, card, row).get("style") == SUCCESS), None)


async def draft(double: DiscordDouble, member: Member, prompt: Message, card: Card,
                row: str, *, timeout: float = PATIENCE) -> None:
    """Click one placement button and wait until the prompt shows it chosen."""
    tap(member)
    await member.click(prompt, custom_id=place_id(prompt, card, row))
    await double.wait_until(lambda: chosen_row(prompt, card) == row, timeout=timeout,
                            what=f"{card_label('en-US', card)} drafted to {row} for {member.name}")


async def confirm(double: DiscordDouble, member: Member, prompt: Message, *,
                  timeout: float = PATIENCE) -> None:
    """Click Confirm and wait until the prompt no longer offers that action."""
    action = action_of(prompt)
    await double.wait_until(lambda: enabled(prompt, "Confirm"), timeout=timeout,
                            what=f"{member.name}'s Confirm enabled")
    tap(member)
    await member.click(prompt, "Confirm")
    await double.wait_until(lambda: action_of(prompt) != action, timeout=timeout,
                            what=f"{member.name}'s action confirmed")
    if "Confirm anyway" in buttons(prompt):  # a board that fouls asks again
        tap(member)
        await member.click(prompt, "Confirm anyway")
        await double.wait_until(lambda: "Confirm anyway" not in buttons(prompt),
                                timeout=timeout, what=f"{member.name}'s foul confirmed")


def _first_free(prompt: Message, card: Card) -> str:
    """R10's row for a card kept: the first of bottom, middle, top with room (a full row's
    buttons are disabled)."""
    return next(row for row in FILL_ORDER
                if not placement(prompt, card, row).get("disabled", False))


async def act(double: DiscordDouble, member: Member, prompt: Message,
              plan: Mapping[Card, str] | None = None, *, timeout: float = PATIENCE) -> None:
    """Play the prompt's action by clicks and confirm it. A Fantasyland hand takes Solve (the
    best arrangement, R8); a street follows `plan`, or else keeps cards from the bottom up and
    discards the rest (as R10 would). `timeout`: how long each click's effect may take."""
    if "Solve" in prompt.labels():
        shown = len(prompt.history)
        tap(member)
        await member.click(prompt, "Solve")
        await double.wait_until(lambda: len(prompt.history) > shown, timeout=timeout,
                                what=f"{member.name}'s Fantasyland arrangement")
    else:
        cards = dealt(prompt)
        keep = len(cards) - (1 if "Discard" in " ".join(prompt.labels()) else 0)
        for number, card in enumerate(cards):
            if plan is not None:
                row = plan[card]
            else:
                row = _first_free(prompt, card) if number < keep else "discard"
            if chosen_row(prompt, card) == row:
                continue  # drafted already: the discard once two are placed
            await draft(double, member, prompt, card, row, timeout=timeout)
    await confirm(double, member, prompt, timeout=timeout)


# ------------------------------------------------------------------ whole matches
def match_over(double: DiscordDouble, channel: Channel | None = None) -> Message | None:
    return next((m for m in double.messages(channel) if title(m) == MATCH_OVER), None)


def waiting_for(table: Message) -> list[str]:
    """The names the table message says it is waiting for."""
    found = re.search(r"Waiting for \*\*(.+?)\*\*", description(table))
    return found[1].split(" and ") if found else []


@dataclass
class Seat:
    """How a member plays: by DM prompts, or through "My hand" when DMs are closed."""

    member: Member
    my_hand: bool = False
    asked_at: int = -1  # table message version when My hand was last pressed
    done: set[str] = field(default_factory=set)  # actions confirmed (a re-sent prompt's too)

    def prompt(self) -> Message | None:
        """The latest prompt offering an action this member has not confirmed yet."""
        if not self.my_hand:  # the latest DM prompt (refusals come as ephemerals there)
            prompts = [m for m in self.member.dms()
                       if not m.ephemeral and RESULT not in title(m)]
            latest = prompts[-1] if prompts else None
            return latest if action_of(latest) not in self.done else None
        shown = [m for m in self.member.ephemerals()
                 if action_of(m) is not None and action_of(m) not in self.done]
        return max(shown, key=lambda m: m.id) if shown else None


async def play_until(double: DiscordDouble, table: Message, seats: Sequence[Seat],
                     done: Callable[[], T | None], plan: Planner | None = None, *,
                     timeout: float = PATIENCE) -> T:
    """Each seat acts whenever its prompt says it is its turn, until `done()` returns
    something, which is returned. A My-hand seat presses My hand when the table message
    names it (again only after that message changed). `timeout`: how long a turn, and each
    click's effect, may take."""

    def next_step() -> tuple[T | None, Seat | None] | None:
        if (result := done()) is not None:
            return result, None
        for seat in seats:
            if ready(seat.prompt()):
                return None, seat
        for seat in seats:
            if seat.my_hand and display_name(seat.member) in waiting_for(table) \
                    and seat.asked_at != len(table.history):
                return None, seat
        return None

    while True:
        result, seat = await double.wait_until(next_step, timeout=timeout,
                                               what="a turn or the end")
        if seat is None:
            return result  # type: ignore[return-value]
        prompt = seat.prompt()
        if ready(prompt):
            assert prompt is not None
            seat.done.add(str(action_of(prompt)))
            await act(double, seat.member, prompt, plan(seat.member, prompt) if plan else None,
                      timeout=timeout)
        else:
            seat.asked_at = len(table.history)
            await double.resolved(await seat.member.click(table, "My hand"))


async def play_out(double: DiscordDouble, table: Message, seats: Sequence[Seat],
                   plan: Planner | None = None, *, timeout: float = PATIENCE) -> Message:
    """Play until the match is over; returns the match-over message."""
    channel = double.state.channels[table.channel_id]
    return await play_until(double, table, seats, lambda: match_over(double, channel), plan,
                            timeout=timeout)


def seats_of(members: Iterable[Member], *, my_hand: Iterable[Member] = ()) -> list[Seat]:
    by_hand = {m.id for m in my_hand}
    return [Seat(m, my_hand=m.id in by_hand) for m in members]


# ------------------------------------------------------------------ money
async def balance(double: DiscordDouble, member: Member) -> int:
    """What /ofc balance tells the member their wallet holds."""
    shown = await double.resolved(await member.slash("ofc balance"))
    return int(description(shown).split("**")[1].split()[0].replace(",", ""))


async def check_wallets(double: DiscordDouble, members: Sequence[Member], *,
                        channel: Channel | None = None, computers: Sequence[str] = (),
                        buy_in: int = BUY_IN) -> dict[str, int]:
    """The match's showdowns checked by the rules from the buy-ins (tests/e2e/breakdowns.py);
    the match-over standings and every member's /ofc balance agree with them (R6, R11, R12).
    `computers` are the names of computer seats (no wallet). Returns the final stacks."""
    names = {display_name(m): m for m in members}
    stacks = breakdowns.stacks_after(breakdowns.posted(double.messages(channel)),
                                     dict.fromkeys([*names, *computers], buy_in))
    assert sum(stacks.values()) == buy_in * len(stacks)  # R6: chips are conserved
    over = match_over(double, channel)
    assert over is not None
    for line in STANDING.finditer(description(over)):
        assert (int(line[2]), int(line[3])) == (stacks[line[1]], stacks[line[1]] - buy_in), line
    for name, member in names.items():
        assert await balance(double, member) == STARTING - buy_in + stacks[name], name
    return stacks
