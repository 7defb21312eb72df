"""`ofc-bot --export-commands FILE` (for review): the command tree as it would be synced to
Discord, written without connecting, every name and description in the bot's four
languages."""

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.app import EXTENSIONS, OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import settings_for
from tests.e2e.discord_double import DiscordDouble

SUBCOMMAND, GROUP = 1, 2
LOCALES = {"en-US", "ru", "sv-SE", "zh-CN"}
# Discord's rule for command and option names: 1-32 letters, digits, - or _, lower case
# (https://discord.com/developers/docs/interactions/application-commands).
NAME = re.compile(r"^[-_\w]{1,32}$")


def export(tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / "commands.json"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}  # no token needed
    done = subprocess.run([sys.executable, "-m", "bot", "--export-commands", str(out)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def walk(nodes: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option, by its path ("ofc create seats")."""
    for node in nodes:
        name = f"{path} {node['name']}".strip()
        yield name, node
        yield from walk(node.get("options", []), name)


def without_empty_localizations(node: Any) -> Any:
    if isinstance(node, list):
        return [without_empty_localizations(n) for n in node]
    if isinstance(node, dict):
        return {k: without_empty_localizations(v) for k, v in node.items()
                if not (k.endswith("_localizations") and v == {})}
    return node


async def test_the_export_is_the_synced_tree_with_every_description(
        double: DiscordDouble, tmp_path: Path) -> None:
    exported = export(tmp_path)
    names = dict(walk(exported))
    for command in ("ofc create", "ofc help", "ofc balance", "ofc daily", "ofc leaderboard",
                    "ofc history", "ofc stats", "ofc score", "ofc solve", "ofc rules",
                    "ofc-admin grant", "ofc-admin settings", "ofc create buy_in",
                    "ofc-admin grant member"):
        assert command in names, command
    for name, node in names.items():
        assert node["description"].strip(), f"{name} has no description"
        # Every command, group and option in all four languages, within Discord's limits.
        assert set(node["description_localizations"]) == LOCALES, name
        assert set(node["name_localizations"]) == LOCALES, name
        assert node["description_localizations"]["en-US"] == node["description"]
        for locale, text in node["description_localizations"].items():
            assert 1 <= len(text) <= 100 and text.strip() == text, (name, locale, text)
        for locale, text in node["name_localizations"].items():
            assert NAME.match(text) and text == text.lower(), (name, locale, text)
        for choice in node.get("choices", []):
            assert set(choice["name_localizations"]) == LOCALES, (name, choice["name"])
            assert all(1 <= len(c) <= 100 for c in choice["name_localizations"].values())
        # Two options (or subcommands) of one command never share a name in one language.
        for locale in LOCALES:
            inner = [o["name_localizations"][locale] for o in node.get("options", [])]
            assert len(inner) == len(set(inner)), (name, locale, inner)
    assert {n["name"] for n in exported} == {"ofc", "ofc-admin"}
    # Spot checks against the catalogues: the command, its option and a choice translated.
    create = names["ofc create"]
    assert create["name_localizations"] == {"en-US": "create", "ru": "создать",
                                            "sv-SE": "skapa", "zh-CN": "创建"}
    assert names["ofc create variant"]["name_localizations"]["zh-CN"] == "玩法"
    pineapple = next(c for c in names["ofc create variant"]["choices"]
                     if c["value"] == "pineapple")
    assert pineapple["name_localizations"]["ru"] == "ананас"
    # The group names are the bot's own, the same in every language.
    assert set(names["ofc"]["name_localizations"].values()) == {"ofc"}

    # Exactly what the bot publishes with --sync (the same payload, less the empty keys).
    settings = replace(settings_for(double, tmp_path / "ofc.sqlite3"), dev_guild=None)
    bot = OFCBot(settings, sync_global=True, clock=FakeClock(), extensions=EXTENSIONS)
    await double.start_client(bot)
    try:
        (put,) = double.requests_to("PUT", "/applications/{application_id}/commands")
        assert without_empty_localizations(exported) == put.json
    finally:
        await double.stop_client(bot)


def test_a_file_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "no such folder" / "commands.json"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot", "--export-commands", str(out)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"ofc-bot: cannot write {out}: No such file or directory."]
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written
