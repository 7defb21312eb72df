"""The real bot (bot.app.OFCBot with the table cogs, or the extensions a folder's `extensions`
fixture names) against the local Discord double (tests/e2e/discord_double): real discord.py
HTTP and gateway code, real command and component callbacks, the `database` of
tests/conftest.py (an SQLite file; both backends where a module imports tests/backends.py's),
a fake clock for the table service's timers. After each test every wallet is audited against
its ledger (tests/storage/audit.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import discord
import pytest

from bot.app import OFCBot
from bot.config import Settings
from bot.engine.cards import Card
from bot.tables import FakeClock
from cogs.tables.ids import parse_place
from tests.e2e.discord_double import DiscordDouble, Interaction, Member, Message
from tests.e2e.discord_double.components import walk
from tests.e2e.discord_double.model import MANAGE_GUILD
from tests.storage.audit import audit

EXTENSIONS = ("cogs.tables",)


def settings_for(double: DiscordDouble, database: str | Path, workers: int = 0) -> Settings:
    """No pauses; no worker processes unless asked (OFC_WORKERS=0: the CPU work runs on a
    thread of the bot's process, which is quicker to start for short tests)."""
    return Settings(token=double.token, database=str(database), dev_guild=double.guild.id,
                    ai_delay_seconds=0, next_hand_seconds=0, table_edit_seconds=0,
                    workers=workers)


@pytest.fixture
def extensions() -> tuple[str, ...]:
    """The extensions the bot loads: a folder or module testing others overrides this."""
    return EXTENSIONS


@pytest.fixture
async def bot(double: DiscordDouble, alice: Member, bob: Member, clock: FakeClock,
              database: str, extensions: tuple[str, ...]) -> AsyncIterator[OFCBot]:
    """The bot, connected, with alice and bob in the guild and commands synced to it."""
    client = OFCBot(settings_for(double, database), clock=clock, extensions=extensions)
    await double.start_client(client)
    yield client
    await double.stop_client(client)
    assert audit(database) == []


# Each version of a message's components, read once: a load run's hundred members re-check
# what their prompts show at every change in the double (tests/e2e/load_run.py), and reading
# every button's custom_id each time made the driver as busy as the bot it measures.
_READ: dict[tuple[str, int], tuple[list[dict[str, Any]], Any]] = {}
_READ_KEPT = 4096
T = TypeVar("T")


def _read_once(message: Message, what: str, read: Callable[[list[dict[str, Any]]], T]) -> T:
    """`read(message.components)`, kept while the message keeps those components (an edit
    replaces the list)."""
    components = message.components
    kept = _READ.get((what, id(components)))
    if kept is not None and kept[0] is components:
        return cast(T, kept[1])
    if len(_READ) >= _READ_KEPT:
        _READ.clear()
    value = read(components)
    _READ[(what, id(components))] = (components, value)
    return value


def buttons(message: Message) -> dict[str, dict[str, Any]]:
    """The message's buttons by label, as Discord stores them (read them, never change them)."""
    return _read_once(message, "buttons", lambda components: {
        str(c["label"]): dict(c) for c in walk(components) if c.get("type") == 2})


def placements(message: Message) -> dict[tuple[Card, str], dict[str, Any]]:
    """The message's placement buttons by (card, row), read from their custom_ids: labels
    name a card ("A♥") or a row ("Top") beside a greyed card, depending on the street.
    Read them, never change them."""
    def read(components: list[dict[str, Any]]) -> dict[tuple[Card, str], dict[str, Any]]:
        out = {}
        for c in walk(components):
            if str(c.get("custom_id", "")).startswith("ofc:place:"):
                key = parse_place(str(c["custom_id"]))
                out[(key.card, key.row)] = dict(c)
        return out
    return _read_once(message, "placements", read)


def placement(message: Message, card: Card, row: str) -> dict[str, Any]:
    """The button putting `card` in `row` ({} when the message has none)."""
    return placements(message).get((card, row), {})


def enabled(message: Message, label: str) -> bool:
    button = buttons(message).get(label)
    return button is not None and not button.get("disabled", False)


async def lobby_message(double: DiscordDouble) -> Message:
    return await double.wait_for_message(
        lambda m: m.embed is not None and m.embed["title"].startswith("OFC table"))


async def table_message(double: DiscordDouble) -> Message:
    return await double.wait_for_message(lambda m: "My hand" in m.labels())


async def started(double: DiscordDouble, host: Member, *guests: Member,
                  **options: object) -> Message:
    """A table created by `host` with `guests` joined and started: its table message."""
    options = {"seats": 1 + len(guests), **options}
    await double.resolved(await host.slash("ofc create", **options))
    for guest in guests:
        await double.resolved(await guest.slash("ofc join"))
    lobby = await lobby_message(double)
    await double.wait_until(lambda: enabled(lobby, "Start"), what="Start enabled")
    await host.click(lobby, "Start")
    return await table_message(double)



@pytest.fixture
def croupier(double: DiscordDouble) -> Member:
    """A member with Manage Server (added before the bot connects: list it before `bot`)."""
    return double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))


# What a player chose, without the language they last used the bot in: remembering that at
# every command and click is bookkeeping, not a change a refusal makes.
PREFERENCES = ("SELECT user_id, four_colour, controls FROM player_preferences "
               "WHERE four_colour != 0 OR controls != 'dm'")


def dump(path: str | Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read with plain sqlite3: equal dumps = nothing changed."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {n: conn.execute(PREFERENCES if n == "player_preferences"
                                else f"SELECT * FROM {n}").fetchall() for n in names}
    finally:
        conn.close()


def ledger(path: str | Path, member: Member, kind: str | None = None) -> list[tuple[str, int, int]]:
    """(kind, amount, balance_after) of a member's ledger rows (of one kind), oldest first."""
    conn = sqlite3.connect(path)
    try:
        return [row for row in conn.execute(
            "SELECT kind, amount, balance_after FROM ledger WHERE user_id = ? ORDER BY id",
            (member.id,)) if kind in (None, row[0])]
    finally:
        conn.close()


def text(message: Message) -> str:
    """Everything a reader sees in the message's embed (or its content), in one string."""
    embed = message.embed
    if embed is None:
        return message.content or ""
    parts = [str(embed.get("title", "")), str(embed.get("description", ""))]
    for found in embed.get("fields", []):
        parts += [str(found["name"]), str(found["value"])]
    parts.append(str(embed.get("footer", {}).get("text", "")))
    return "\n".join(parts)


def created(interaction: Interaction) -> float:
    """When Discord created the interaction (its snowflake): the moment of a command."""
    return discord.utils.snowflake_time(interaction.id).timestamp()
