"""/ofc balance, /ofc daily, /ofc leaderboard and /ofc-admin grant driven through their real
callbacks on a real SQLite file. Chips move only through storage's ledger (R12): the storage
fixture audits every wallet against its ledger after each test, and the tests read the ledger
rows themselves."""

import asyncio
from pathlib import Path

import discord
import pytest

from bot.storage import Storage
from cogs import economy
from cogs.common.group import admin
from cogs.economy.wallets import balance, daily, grant, leaderboard
from tests.cogs.economy.conftest import (
    ADMIN,
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    HOUR,
    ROBOT,
    T0,
    Invoke,
    User,
    dump,
    ledger,
    run,
)


async def test_balance_opens_a_wallet_with_the_starting_chips_through_the_ledger(
        invoke: Invoke, db_path: Path) -> None:
    interaction = invoke(ALICE)
    await run(balance, interaction)
    answer = interaction.answer
    assert answer.ephemeral
    assert f"{ALICE.mention} has **1,000 chips**" in answer.text
    assert "ready: use /ofc daily" in answer.text
    assert ledger(db_path, ALICE) == [("start", 1000, 1000)]


async def test_balance_of_another_member_and_the_next_daily_of_ones_own(
        invoke: Invoke, storage: Storage) -> None:
    await storage.wallets.claim_daily(GUILD, ALICE.id, now=T0)
    interaction = invoke(ALICE, at_time=T0 + HOUR)
    await run(balance, interaction)
    # The next claim is 20 hours after the last one, as a Discord timestamp.
    assert f"<t:{int(T0 + 20 * HOUR)}:R>" in interaction.answer.text
    assert "**1,200 chips**" in interaction.answer.text

    other = invoke(ALICE, at_time=T0 + HOUR)
    await run(balance, other, member=BOB)
    assert f"{BOB.mention} has **1,000 chips**" in other.answer.text
    assert "Daily" not in other.answer.text  # someone else's claims are theirs


async def test_balance_refuses_a_bot_and_outside_a_server(invoke: Invoke, db_path: Path) -> None:
    before = dump(db_path)
    interaction = invoke(ALICE)
    await run(balance, interaction, member=ROBOT)
    assert interaction.answer.ephemeral
    assert "bots have no wallet" in interaction.answer.text
    in_dm = invoke(ALICE, guild=None)
    await run(balance, in_dm)
    assert "works in a server" in in_dm.answer.text
    assert dump(db_path) == before


async def test_daily_once_per_20_hours_with_the_time_left(invoke: Invoke, db_path: Path) -> None:
    first = invoke(ALICE, at_time=T0)
    await run(daily, first)
    assert first.answer.ephemeral
    assert "**+200 chips**" in first.answer.text and "1,200 chips" in first.answer.text

    before = dump(db_path)
    early = invoke(ALICE, at_time=T0 + 20 * HOUR - 90)
    await run(daily, early)
    assert early.answer.ephemeral
    assert early.answer.embed.colour == discord.Colour.red()
    # 90 seconds left, rounded up to whole minutes; and the moment, in the reader's time zone.
    assert "You can claim again in 2 min." in early.answer.text
    assert f"<t:{int(T0 + 20 * HOUR)}:t>" in early.answer.text
    assert dump(db_path) == before

    again = invoke(ALICE, at_time=T0 + 20 * HOUR)
    await run(daily, again)
    assert "1,400 chips" in again.answer.text
    assert ledger(db_path, ALICE) == [("start", 1000, 1000), ("daily", 200, 1200),
                                      ("daily", 200, 1400)]


async def test_concurrent_daily_claims_pay_once(invoke: Invoke, db_path: Path) -> None:
    claims = [invoke(ALICE, at_time=T0 + k) for k in range(20)]
    await asyncio.gather(*(run(daily, c) for c in claims))
    paid = [c for c in claims if c.answer.embed.title == "Daily chips"]
    refused = [c for c in claims if "You can claim again" in c.answer.text]
    assert len(paid) == 1 and len(refused) == 19
    assert ledger(db_path, ALICE) == [("start", 1000, 1000), ("daily", 200, 1200)]


async def test_grant_needs_manage_server(invoke: Invoke, db_path: Path) -> None:
    # Discord hides /ofc-admin (and so its grant) from members without Manage Server...
    assert grant in economy.ADMIN
    assert admin.default_permissions == discord.Permissions(manage_guild=True)
    # ...and the command refuses them anyway (a server may change who sees it).
    await run(balance, invoke(BOB))
    before = dump(db_path)
    interaction = invoke(BOB)
    await run(grant, interaction, member=BOB, amount=500, reason="I deserve it")
    assert interaction.answer.ephemeral
    assert "Only members with the Manage Server permission" in interaction.answer.text
    assert dump(db_path) == before


async def test_grant_is_public_and_written_in_the_ledger(invoke: Invoke, db_path: Path,
                                                         storage: Storage) -> None:
    interaction = invoke(ADMIN, manage_guild=True)
    await run(grant, interaction, member=ALICE, amount=2500, reason="tournament prize")
    answer = interaction.answer
    assert not answer.ephemeral
    assert f"{ADMIN.mention} gave {ALICE.mention} **2,500 chips**" in answer.text
    assert "tournament prize" in answer.text and "3,500 chips" in answer.text
    assert ledger(db_path, ALICE) == [("start", 1000, 1000), ("grant", 2500, 3500)]
    (row,) = [e for e in await storage.wallets.ledger(GUILD, ALICE.id) if e.kind == "grant"]
    assert (row.actor_id, row.reason) == (ADMIN.id, "tournament prize")


async def test_a_redelivered_grant_pays_once(invoke: Invoke, db_path: Path) -> None:
    first = invoke(ADMIN, manage_guild=True, id=77)
    await run(grant, first, member=ALICE, amount=100, reason="bonus")
    repeat = invoke(ADMIN, manage_guild=True, id=77)
    await run(grant, repeat, member=ALICE, amount=100, reason="bonus")
    assert repeat.answer.ephemeral and "already made" in repeat.answer.text
    assert ledger(db_path, ALICE) == [("start", 1000, 1000), ("grant", 100, 1100)]


@pytest.mark.parametrize(("member", "amount", "reason", "message"), [
    (ALICE, -50, "oops", "An amount of chips must be a whole number from 1"),
    (ALICE, 0, "nothing", "An amount of chips must be a whole number from 1"),
    (ALICE, 10**13, "too much", "An amount of chips must be a whole number from 1"),
    (ALICE, 100, "   ", "A reason is required."),
    (ROBOT, 100, "for the bot", "bots have no wallet"),
])
async def test_bad_grants_are_refused_and_change_nothing(
        invoke: Invoke, db_path: Path, member: User, amount: int, reason: str,
        message: str) -> None:
    await run(balance, invoke(ALICE))
    before = dump(db_path)
    interaction = invoke(ADMIN, manage_guild=True)
    await run(grant, interaction, member=member, amount=amount, reason=reason)
    assert interaction.answer.ephemeral
    assert message in interaction.answer.text
    assert dump(db_path) == before


async def test_leaderboard_top_ten_and_the_callers_rank(invoke: Invoke, storage: Storage) -> None:
    players = [User(400_000_000_000_000_000 + k, f"P{k}") for k in range(12)]
    for k, player in enumerate(players):
        await storage.wallets.grant(GUILD, player.id, 100 * (k + 1), reason="seed",
                                    actor_id=ADMIN.id, now=T0)
    # Chips at an open table still count: P0 (1,100) buys in for 1,000 and keeps its rank.
    table = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=T0)
    await storage.tables.buy_in(table, players[0].id, 1000, key="t:p0", now=T0)
    interaction = invoke(players[0])
    await run(leaderboard, interaction, by="chips")
    answer = interaction.answer
    assert not answer.ephemeral
    lines = answer.embed.description.splitlines()
    assert len(lines) == 10
    # P11 has 1,000 + 1,200; P2 has 1,000 + 300 = 1,300 and is the tenth.
    assert lines[0] == f"**1.** <@{players[11].id}> 2,200 chips"
    assert lines[9] == f"**10.** <@{players[2].id}> 1,300 chips"
    assert "Your rank: #12 with 1,100 chips" in answer.text
    cash_out = await storage.tables.cash_out(table, players[0].id, key="t:p0:out", now=T0)
    assert cash_out.balance == 1100
    await storage.tables.close_table(table, now=T0)
