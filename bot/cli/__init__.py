"""The command line: `ofc` (ofc.py) with its subcommands `simulate` (simulate.py), `bench`
(bench/) and `audit` (dbtools.py, which also holds `ofc-bot migrate-db`)."""

from bot.cli.ofc import main

__all__ = ["main"]
