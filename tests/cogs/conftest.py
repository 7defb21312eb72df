"""The real bot (bot.app.OFCBot with the lobby and play cogs) against the local Discord double
(tests/e2e/discord_double): real discord.py HTTP and gateway code, real command and component
callbacks, a real SQLite file, a fake clock for the table service's timers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from bot.app import OFCBot
from bot.config import Settings
from bot.engine.cards import Card
from bot.tables import FakeClock
from cogs.tables.ids import parse_place
from tests.e2e.discord_double import DiscordDouble, Member, Message
from tests.e2e.discord_double.components import walk

EXTENSIONS = ("cogs.tables",)


def settings_for(double: DiscordDouble, database: Path, workers: int = 0) -> Settings:
    """No pauses; no worker processes unless asked (OFC_WORKERS=0: the CPU work runs on a
    thread of the bot's process, which is quicker to start for short tests)."""
    return Settings(token=double.token, database=str(database), dev_guild=double.guild.id,
                    ai_delay_seconds=0, next_hand_seconds=0, table_edit_seconds=0,
                    workers=workers)


@pytest.fixture
async def bot(double: DiscordDouble, alice: Member, bob: Member, clock: FakeClock,
              tmp_path: Path) -> AsyncIterator[OFCBot]:
    """The bot, connected, with alice and bob in the guild and commands synced to it."""
    settings = settings_for(double, tmp_path / "ofc.sqlite3")
    client = OFCBot(settings, clock=clock, extensions=EXTENSIONS)
    await double.start_client(client)
    yield client
    await double.stop_client(client)


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

