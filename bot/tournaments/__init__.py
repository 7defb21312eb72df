"""Shootout tournaments (RULES.md R13): registration, levels of TableService tables, the
director's warnings and penalties, the prize pool. No discord import here."""

from bot.tournaments.director import (
    TableOpener,
    TournamentChanged,
    TournamentDirector,
    TournamentError,
)

__all__ = ["TableOpener", "TournamentChanged", "TournamentDirector", "TournamentError"]
