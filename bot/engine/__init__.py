"""The pure rules engine (RULES.md): no I/O, no asyncio, no clock of its own."""
