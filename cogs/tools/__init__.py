"""The `cogs.tools` extension: `/ofc score`, `/ofc solve`, `/ofc rules`, `/ofc settings`."""

from cogs.tools.commands import setup, teardown

__all__ = ["setup", "teardown"]
