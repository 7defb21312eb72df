"""Players' words: every slash option has a real description, and nothing a player
reads cites a rule section ("(R8)", "R9: ...") or a file they cannot open."""

import re
from collections.abc import Iterator

from discord import app_commands

from bot.engine.rules import TableRules
from cogs.common.format import rules_paragraph
from cogs.common.group import ofc
from cogs.common.options import TABLE_OPTIONS
from cogs.economy import COMMANDS as ECONOMY
from cogs.tables import COMMANDS as TABLES
from cogs.tools import COMMANDS as TOOLS
from cogs.tools.embeds import rules as rules_embed

RULE_CODE = re.compile(r"\bR\d+\b|RULES\.md")


def commands() -> Iterator[app_commands.Command]:  # type: ignore[type-arg]
    for command in (*TABLES, *TOOLS, *ECONOMY):
        if isinstance(command, app_commands.Command):
            yield command


def test_every_option_has_a_description_in_players_words() -> None:
    assert ofc.description and not RULE_CODE.search(ofc.description)
    for command in commands():
        assert command.description and not RULE_CODE.search(command.description), command.name
        for parameter in command.parameters:
            text = parameter.description
            assert text and text != "…" and not RULE_CODE.search(text), \
                (command.name, parameter.name)
    assert all(not RULE_CODE.search(str(text)) for _, text in TABLE_OPTIONS.values())


def test_the_rules_and_the_lobby_cite_no_section_and_no_file() -> None:
    for rules in (TableRules(), TableRules(variant="lowball"), TableRules(format="cash")):
        assert not RULE_CODE.search(rules_paragraph("en-US", rules))
        embed = rules_embed("en-US", rules, "Table #1.")
        assert not RULE_CODE.search(str(embed.to_dict())), embed.to_dict()
