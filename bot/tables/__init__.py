"""The table service: live tables, their lobby and play, timers, computer turns, persistence,
and typed events out to the Discord layer. No discord import here
(docs/maintainers/architecture.md; service.py names the parts)."""

from bot.tables.clock import Clock, FakeClock, SystemClock
from bot.tables.errors import NoTable, NotAllowed, NotYourSeat, StaleAction, TableError
from bot.tables.seating import ComputerPlayers, is_person
from bot.tables.service import TableService
from bot.tables.status import (
    DmPrompt,
    LobbySeat,
    LobbyView,
    SeatState,
    TableMessages,
    card_from_index,
)
from bot.tables.table_events import (
    Dealt,
    HandStarted,
    LobbyChanged,
    MatchOver,
    Placed,
    PlayerAway,
    PlayerBack,
    PlayerLeft,
    ShowdownDone,
    Standing,
    TableClosed,
    TableEvent,
    TableRefunded,
    TableRestored,
    TableWaiting,
    Turn,
)
from bot.tables.tunables import ServiceSettings

__all__ = [
    "Clock",
    "ComputerPlayers",
    "Dealt",
    "DmPrompt",
    "FakeClock",
    "HandStarted",
    "LobbyChanged",
    "LobbySeat",
    "LobbyView",
    "MatchOver",
    "NoTable",
    "NotAllowed",
    "NotYourSeat",
    "Placed",
    "PlayerAway",
    "PlayerBack",
    "PlayerLeft",
    "SeatState",
    "ServiceSettings",
    "ShowdownDone",
    "StaleAction",
    "Standing",
    "SystemClock",
    "TableClosed",
    "TableError",
    "TableEvent",
    "TableMessages",
    "TableRefunded",
    "TableRestored",
    "TableService",
    "TableWaiting",
    "Turn",
    "card_from_index",
    "is_person",
]
