"""Shootout tournaments (RULES.md R13): registration, levels of TableService tables, the
director's warnings and penalties, the prize pool. No discord import here."""

from bot.tournaments.service import (
    TableOpener,
    TournamentChanged,
    TournamentError,
    TournamentService,
)

__all__ = ["TableOpener", "TournamentChanged", "TournamentError", "TournamentService"]
