"""The images of the messages, as discord.File attachments.

Rendering is CPU work of tens of milliseconds: it runs in a worker thread so the event loop
keeps answering other clicks meanwhile.
"""

import asyncio
import io
from collections.abc import Callable, Mapping, Sequence

import discord

import rendering
from bot.engine.board import Board
from bot.engine.cards import Card
from bot.engine.rules import TableRules
from bot.engine.views import PrivateView, TableView
from bot.tables import SeatState

TABLE_IMAGE = "table.png"
HAND_IMAGE = "hand.png"
SHOWDOWN_IMAGE = "showdown.png"
SOLUTION_IMAGE = "solution.png"


async def _file(render: Callable[[], bytes], filename: str) -> discord.File:
    data = await asyncio.to_thread(render)
    return discord.File(io.BytesIO(data), filename=filename)


async def table_file(view: TableView) -> discord.File:
    return await _file(lambda: rendering.table_png(view), TABLE_IMAGE)


async def private_file(view: PrivateView, draft: Mapping[Card, str],
                       four_colour: bool = False) -> discord.File:
    """A seat's private image with a draft placement (card -> row) drawn in."""
    return await _file(lambda: rendering.private_png(view, draft, four_colour), HAND_IMAGE)


async def hand_file(state: SeatState) -> discord.File:
    return await private_file(state.view, state.draft)


async def showdown_file(view: TableView) -> discord.File:
    return await _file(lambda: rendering.showdown_png(view), SHOWDOWN_IMAGE)


async def solution_file(board: Board, discards: Sequence[Card], rules: TableRules,
                        four_colour: bool = False) -> discord.File:
    """/ofc solve's arrangement alone: the board and its discards, no seat, no chips."""
    return await _file(lambda: rendering.solution_png(board, discards, rules, four_colour),
                       SOLUTION_IMAGE)


async def score_file(view: TableView, four_colour: bool = False) -> discord.File:
    """/ofc score's typed boards shown down, without stacks (a game elsewhere keeps its own)."""
    return await _file(lambda: rendering.score_png(view, four_colour), SHOWDOWN_IMAGE)
