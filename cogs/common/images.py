"""The images of the messages, as discord.File attachments.

Rendering is CPU work of tens of milliseconds: it runs in the bot's worker processes
(bot/process/workers.py) ahead of computers' decisions, a player's own prompt ahead of the
images the channel watches, so the event loop keeps answering other clicks meanwhile. The bot
hands its pool over at start-up (`use`); until then (and with OFC_WORKERS=0) images are drawn
in this process on a thread. The table message's image waits behind people's prompts and is
drawn from the table's state when a process takes it up (`newest_table_file`): the states it
went through while the image waited are never drawn.
"""

import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

import rendering
from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, TableView
from bot.process.workers import CHANNEL, PERSON, Workers
from rendering.player_card import PlayerCard

TABLE_IMAGE = "table.png"
HAND_IMAGE = "hand.png"
SHOWDOWN_IMAGE = "showdown.png"
SOLUTION_IMAGE = "solution.png"
STATS_IMAGE = "stats.png"

_workers = Workers(0)  # the bot's pool once it is up (use)


def use(workers: Workers) -> None:
    """Draw images in `workers` from now on."""
    global _workers
    _workers = workers


def release(workers: Workers) -> None:
    """`workers` are closing (their bot's extension is unloaded): back to a thread."""
    global _workers
    if _workers is workers:
        _workers = Workers(0)


def workers() -> Workers:
    """The pool images (and the cogs' other CPU work, such as /ofc solve) run in."""
    return _workers


async def render(kind: str, *args: Any, priority: int = PERSON) -> bytes:
    """rendering's `<kind>_png(*args)`, drawn by a worker process (rendering.png)."""
    return await _workers.run(rendering.png, kind, *args, priority=priority)


async def render_newest(kind: str, read: Callable[[], tuple[Any, ...]], *,
                        priority: int = CHANNEL) -> bytes:
    """`render(kind, *read())`, with `read()` called when a worker process is free for it."""
    return await _workers.run_newest(rendering.png, lambda: (kind, *read()), priority=priority)


async def _file(kind: str, filename: str, *args: Any, priority: int = PERSON) -> discord.File:
    return discord.File(io.BytesIO(await render(kind, *args, priority=priority)),
                        filename=filename)


async def newest_table_file(loc: str, read: Callable[[], TableView]) -> discord.File:
    """The table image of `read()`'s view as it is when a worker process is free for it."""
    png = await render_newest("table", lambda: (read(), False, loc))
    return discord.File(io.BytesIO(png), filename=TABLE_IMAGE)


async def private_file(loc: str, view: PrivateView, draft: Mapping[Card, str],
                       four_colour: bool = False) -> discord.File:
    """A seat's private image with a draft placement (card -> row) drawn in."""
    return await _file("private", HAND_IMAGE, view, dict(draft), four_colour, loc)


async def showdown_file(loc: str, view: TableView) -> discord.File:
    return await _file("showdown", SHOWDOWN_IMAGE, view, False, loc, priority=CHANNEL)


async def solution_file(loc: str, board: Board, discards: Sequence[Card], rules: TableRules,
                        four_colour: bool = False) -> discord.File:
    """/ofc solve's arrangement alone: the board and its discards, no seat, no chips."""
    return await _file("solution", SOLUTION_IMAGE, board, tuple(discards), rules, four_colour,
                       loc)


async def score_file(loc: str, view: TableView, four_colour: bool = False) -> discord.File:
    """/ofc score's typed boards shown down, without stacks (a game elsewhere keeps its own)."""
    return await _file("score", SHOWDOWN_IMAGE, view, four_colour, loc)


async def player_card_file(loc: str, card: PlayerCard) -> discord.File:
    """/ofc stats's player card."""
    return await _file("player_card", STATS_IMAGE, card, loc)
