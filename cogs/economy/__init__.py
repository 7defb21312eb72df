"""The `cogs.economy` extension: wallets, the leaderboard, history and statistics (R12)."""

from cogs.economy.commands import setup, teardown

__all__ = ["setup", "teardown"]
