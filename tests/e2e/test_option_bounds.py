"""Every slash option is checked by the bot itself, whatever the client sent: raw payloads past
every declared limit of every command and option (read from the bot's own command tree, so a
new option is covered without touching this file) reach the real bot through the Discord
double, and each is refused with a short, clear message while nothing in the database changes.
"""

import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.app import OFCBot
from bot.tables import FakeClock
from cogs.common import answers
from cogs.common.bounds import refusal
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD
from tests.e2e.flows import is_lobby, start_bot
from tests.storage.audit import audit

Command = app_commands.Command[Any, ..., Any]
VOLATILE = ("player_preferences", "shard_leases")  # a member's locale, the lease's heartbeat
SNOWFLAKES = (Kind.user, Kind.channel, Kind.role, Kind.mentionable)
LONG = 6000  # what a stock client may send in any string option without a declared length


def leaves(tree: app_commands.CommandTree[Any]) -> Iterator[tuple[str, Command]]:
    """Every slash command of the tree by its full name ("ofc tournament create")."""
    def walk(item: Command | app_commands.Group) -> Iterator[tuple[str, Command]]:
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                yield from walk(child)
        else:
            yield item.qualified_name, item
    for top in tree.get_commands():
        if isinstance(top, app_commands.Command | app_commands.Group):
            yield from walk(top)


def valid(parameter: app_commands.Parameter, member: Member) -> object:
    """A value within what the option publishes."""
    if parameter.choices:
        return parameter.choices[0].value
    kind, low = parameter.type, parameter.min_value
    if kind is Kind.string:
        return "a" * int(low or 1)
    if kind in (Kind.integer, Kind.number):
        return low if low is not None else 1
    if kind is Kind.boolean:
        return True
    return member


def past(parameter: app_commands.Parameter) -> list[tuple[str, object]]:
    """(what, raw value) for each way past the option's declaration; every string option
    must declare a length and every number a range (the test fails naming one that does
    not)."""
    name, kind = parameter.display_name, parameter.type
    low, high = parameter.min_value, parameter.max_value
    wrong_kind = 5 if kind is Kind.string else "5" if kind is not Kind.boolean else "yes"
    if kind in SNOWFLAKES:
        wrong_kind = "not a snowflake"
    found: list[tuple[str, object]] = [("a value of the wrong kind", wrong_kind)]
    if parameter.choices:
        values = [choice.value for choice in parameter.choices]
        outside = max(values) + 1000 if kind is Kind.integer else "zz" * 3000  # type: ignore
        return [*found, ("no choice", outside)]
    if kind is Kind.string:
        assert high is not None, f"string option {name!r} declares no max_length"
        found += [("one character too many", "x" * (int(high) + 1)), ("6,000 characters",
                                                                       "x" * LONG)]
        if low:
            found.append(("one character too few", "x" * (int(low) - 1)))
    elif kind in (Kind.integer, Kind.number):
        assert low is not None and high is not None, f"number option {name!r} has no range"
        found += [("one too many", high + 1), ("10^12 past the most", high + 10**12),
                  ("one too few", low - 1), ("10^9 below the least", low - 10**9)]
    return found


def every_limit(tree: app_commands.CommandTree[Any],
                member: Member) -> Iterator[tuple[str, str, dict[str, object]]]:
    """(command, what, raw options) for every way past every limit of every command."""
    for qualified, command in leaves(tree):
        parameters = command.parameters
        base = {p.display_name: valid(p, member) for p in parameters if p.required}
        for parameter in parameters:
            for what, value in past(parameter):
                yield qualified, f"{parameter.display_name}: {what}", \
                    {**base, parameter.display_name: value}
            if parameter.required:
                yield qualified, f"{parameter.display_name}: missing", \
                    {k: v for k, v in base.items() if k != parameter.display_name}
        yield qualified, "an option it does not have", {**base, "zz_unknown": "x"}


def snapshot(database: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bot's database (but a member's locale and the lease),
    sorted."""
    conn = sqlite3.connect(database)
    try:
        names = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: sorted(conn.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
                for name in names if name not in VOLATILE}
    finally:
        conn.close()


@pytest.fixture
def croupier(double: DiscordDouble) -> Member:
    """A member with Manage Server (added before the bot connects)."""
    return double.add_member("croupier", roles=(double.add_role("Croupier", MANAGE_GUILD),))


@pytest.fixture
async def bot(double: DiscordDouble, croupier: Member, alice: Member,
              tmp_path: Path) -> AsyncIterator[OFCBot]:
    database = tmp_path / "ofc.sqlite3"
    client = await start_bot(double, database, FakeClock())
    yield client
    await double.stop_client(client)
    assert audit(database) == []


async def test_every_option_past_its_declared_limits_is_refused_and_changes_nothing(
        double: DiscordDouble, bot: OFCBot, croupier: Member, alice: Member,
        tmp_path: Path) -> None:
    database = tmp_path / "ofc.sqlite3"
    # A world to keep unchanged: two wallets and a table waiting in its lobby.
    await double.resolved(await alice.slash("ofc balance"))
    await double.resolved(await croupier.slash("ofc create", seats=2))
    await double.wait_for_message(is_lobby)
    await bot.get_cog("TablePresenter").drain()  # type: ignore[union-attr]  # its message id saved
    before = snapshot(database)
    cases = list(every_limit(bot.tree, alice))
    names = {qualified for qualified, _, _ in cases}
    assert {"ofc solve", "ofc-admin grant", "ofc tournament create", "ofc tournament penalty",
            "ofc score", "ofc review"} <= names  # the tree was read, every group included
    for qualified, what, options in cases:
        asked = await croupier.raw_slash(qualified, options)
        answer = await double.resolved(asked)
        text = str(answer.embed["description"]) if answer.embed else answer.content
        where = f"/{qualified} {what}: {text!r}"
        assert answer.ephemeral and answer.embed is not None, where
        assert text.endswith("Nothing was changed."), where
        assert len(text) < 300 and "x" * 30 not in text and "zz" * 30 not in text, where
        option = what.split(":")[0]
        assert f"`{option}`" in text or option.startswith("an option"), where
    assert snapshot(database) == before


async def test_a_value_at_a_declared_limit_is_taken(
        double: DiscordDouble, bot: OFCBot, croupier: Member, alice: Member,
        tmp_path: Path) -> None:
    await double.resolved(await alice.slash("ofc balance"))  # 1,000 chips
    reason = "r" * 200  # /ofc-admin grant's most
    answer = await double.resolved(await croupier.raw_slash(
        "ofc-admin grant", {"member": alice, "amount": 5, "reason": reason}))
    assert answer.embed is not None and answer.embed["title"] == "Chips granted"
    assert wallet(tmp_path / "ofc.sqlite3", alice) == [(1005,)]


async def test_every_option_at_each_end_of_its_declaration_passes_the_check(
        bot: OFCBot) -> None:
    for qualified, command in leaves(bot.tree):
        for parameter in command.parameters:
            ends: list[object] = [c.value for c in parameter.choices]
            low, high = parameter.min_value, parameter.max_value
            if not ends and parameter.type is Kind.string:
                ends = ["x" * int(n) for n in (low or 0, high or 0) if n]
            elif not ends and parameter.type in (Kind.integer, Kind.number):
                ends = [n for n in (low, high) if n is not None]
            for end in ends:
                given = {p.display_name: "1" if p.type in SNOWFLAKES else end
                         if p is parameter else valid(p, None)  # type: ignore[arg-type]
                         for p in command.parameters if p.required or p is parameter}
                data = {"options": [{"name": k, "value": v} for k, v in given.items()]}
                assert refusal(command, data) is None, (qualified, parameter.display_name, end)


def wallet(database: Path, member: Member) -> list[tuple[int]]:
    conn = sqlite3.connect(database)
    try:
        return conn.execute("SELECT balance FROM wallets WHERE user_id = ?",
                            (member.id,)).fetchall()
    finally:
        conn.close()


async def test_an_answer_discord_refuses_is_logged_and_the_member_told_it_was_done(
        double: DiscordDouble, bot: OFCBot, croupier: Member, alice: Member, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    await double.resolved(await alice.slash("ofc balance"))  # 1,000 chips
    # An answer past Discord's 4,096 characters of an embed's description (a bug to come).
    # (by name: the module the running bot loaded; each load of an extension imports it anew)
    monkeypatch.setattr(sys.modules["cogs.economy.embeds"], "granted",
                        lambda *args: discord.Embed(description="y" * 5000))
    asked = await croupier.slash("ofc-admin grant", member=alice, amount=5, reason="prize")
    answer = await double.resolved(asked)
    # (public when the grant was slow enough to be deferred: a follow-up keeps the defer's)
    assert answer.content == "Done, but Discord refused to show the answer."
    assert wallet(tmp_path / "ofc.sqlite3", alice) == [(1005,)]  # granted once: not "try again"
    refused = [r for r in caplog.records if "Discord refused the answer" in r.getMessage()]
    assert len(refused) == 1 and "50035" in refused[0].getMessage()
    assert "embeds.0.description" in refused[0].getMessage()  # Discord's reason, by field
    assert "4096" in refused[0].getMessage()
    expected_refusal(double, "data.embeds.0.description")


async def test_a_refusal_discord_refuses_is_logged_and_still_answered(
        double: DiscordDouble, bot: OFCBot, alice: Member, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(answers, "reason", lambda loc, error: "z" * 5000)
    answer = await double.resolved(await alice.slash("ofc solve", cards="Ah Kh"))
    assert answer.ephemeral
    assert answer.content == "Refused, but Discord refused to show why. Nothing was changed."
    assert any("Discord refused the answer to command 'ofc solve'" in r.getMessage()
               for r in caplog.records)
    expected_refusal(double, "data.embeds.0.description")


def expected_refusal(double: DiscordDouble, field: str) -> None:
    """The one request these tests make Discord refuse, on purpose: the double recorded it
    (naming the field) and it is not a fault of the bot's to report at the end."""
    (violation,) = double.violations
    assert [problem.field for problem in violation.problems] == [field]
    double.violations.clear()
