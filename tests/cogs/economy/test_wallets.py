"""/ofc balance, /ofc daily, /ofc leaderboard and /ofc-admin grant as members run them, through
the real bot and the local Discord double, on a real SQLite file. Chips move only through
storage's ledger (R12): the bot fixture audits every wallet against its ledger after each test,
and the tests read the ledger rows themselves. A command's moment is its interaction's
(`created`); `double.advance_to` lets Discord's hours pass."""

import asyncio
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.app import EXTENSIONS, OFCBot
from bot.tables import FakeClock
from tests.cogs.conftest import created, dump, ledger, settings_for, text
from tests.e2e.discord_double import ComponentError, DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD

HOUR = 3600.0
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
EPHEMERAL = 1 << 6
DEFERRED = 5  # the interaction callback type of "thinking..."


@pytest.fixture
def robot(double: DiscordDouble) -> Member:
    """Another bot's account in the server (list it before `bot`)."""
    return double.add_member("some-bot", bot=True)


async def test_balance_opens_a_wallet_with_the_starting_chips_through_the_ledger(
        double: DiscordDouble, bot: OFCBot, alice: Member, db_path: Path) -> None:
    shown = await double.resolved(await alice.slash("ofc balance"))
    assert shown.ephemeral
    assert f"{alice.mention} has **1,000 chips**" in text(shown)
    assert "ready: use /ofc daily" in text(shown)
    assert ledger(db_path, alice) == [("start", 1000, 1000)]


async def test_balance_of_another_member_and_the_next_daily_of_ones_own(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    claim = await alice.slash("ofc daily")
    await double.resolved(claim)
    double.advance_to(created(claim) + HOUR)
    shown = await double.resolved(await alice.slash("ofc balance"))
    # The next claim is 20 hours after the last one, as a Discord timestamp.
    assert f"<t:{int(created(claim) + 20 * HOUR)}:R>" in text(shown)
    assert "**1,200 chips**" in text(shown)

    other = await double.resolved(await alice.slash("ofc balance", member=bob))
    assert f"{bob.mention} has **1,000 chips**" in text(other)
    assert "Daily" not in text(other)  # someone else's claims are theirs


async def test_balance_of_someone_with_no_wallet_shows_a_new_ones_chips_and_writes_nothing(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member, db_path: Path) -> None:
    """Looking never writes: a member who never touched chips here, or a user who is not in
    the server at all, is shown what a new wallet would hold (the server's starting chips),
    and no wallet is opened for them."""
    stranger = double.state.add_user("stranger")  # on Discord, not in this server
    await bot.storage.settings.update_guild_settings(double.guild.id, actor_id=alice.id, now=0,
                                                     starting_chips=300)
    await double.resolved(await alice.slash("ofc balance"))  # alice's own: her wallet opens
    before = dump(db_path)
    for target in (bob, stranger):
        shown = await double.resolved(await alice.slash("ofc balance", member=target))
        assert shown.ephemeral
        assert f"<@{target.id}> has **300 chips**" in text(shown)
        assert "Rank" not in text(shown) and "Daily" not in text(shown)
    assert dump(db_path) == before


async def test_balance_refuses_a_bot(double: DiscordDouble, robot: Member, bot: OFCBot,
                                     alice: Member, db_path: Path) -> None:
    before = dump(db_path)
    refused = await double.resolved(await alice.slash("ofc balance", member=robot))
    assert refused.ephemeral
    assert "bots have no wallet" in text(refused)
    assert dump(db_path) == before


async def test_balance_outside_a_server_is_refused(double: DiscordDouble, alice: Member,
                                                   clock: FakeClock, db_path: Path) -> None:
    """Synced for every server (as `ofc-bot --sync` does), /ofc is offered in servers only;
    a modified client that sends it from the bot's DMs is refused and nothing is written."""
    settings = replace(settings_for(double, db_path), dev_guild=None)
    client = OFCBot(settings, sync_global=True, clock=clock, extensions=EXTENSIONS)
    await double.start_client(client)
    try:
        before = dump(db_path)
        with pytest.raises(ComponentError, match="not offered"):
            await alice.slash("ofc balance", channel=alice.open_dm())
        in_dm = await double.resolved(
            await alice.forge_slash("ofc balance", channel=alice.open_dm()))
        assert in_dm.ephemeral and "works in a server" in text(in_dm)
        assert dump(db_path) == before
    finally:
        await double.stop_client(client)


async def test_daily_once_per_20_hours_with_the_time_left(
        double: DiscordDouble, bot: OFCBot, alice: Member, db_path: Path) -> None:
    first = await alice.slash("ofc daily")
    claimed = await double.resolved(first)
    assert claimed.ephemeral
    assert "**+200 chips**" in text(claimed) and "1,200 chips" in text(claimed)
    due = created(first) + 20 * HOUR

    before = dump(db_path)
    double.advance_to(due - 90)
    early = await double.resolved(await alice.slash("ofc daily"))
    assert early.ephemeral
    assert early.embed is not None and early.embed["color"] == 0xE74C3C  # discord's red
    # 90 seconds left, rounded up to whole minutes; and the moment, in the reader's time zone.
    assert "You can claim again in 2 min." in text(early)
    assert f"<t:{int(due)}:t>" in text(early)
    assert dump(db_path) == before

    double.advance_to(due)
    again = await double.resolved(await alice.slash("ofc daily"))
    assert "1,400 chips" in text(again)
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("daily", 200, 1200),
                                      ("daily", 200, 1400)]


async def test_where_the_server_gives_no_daily_chips_balance_and_daily_say_so(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    """Daily chips set to 0 (/ofc-admin settings): the balance does not send the member to
    claim, and a claim gives nothing and starts no cooldown."""
    await double.resolved(await croupier.slash("ofc-admin settings", daily_chips=0))
    shown = await double.resolved(await alice.slash("ofc balance"))
    assert "ready: use /ofc daily" not in text(shown)
    assert "This server gives no daily chips." in text(shown)
    before = dump(db_path)
    refused = await double.resolved(await alice.slash("ofc daily"))
    assert refused.ephemeral and "This server gives no daily chips." in text(refused)
    assert dump(db_path) == before
    # Given again, the daily chips are claimable at once.
    await double.resolved(await croupier.slash("ofc-admin settings", daily_chips=25))
    assert "ready: use /ofc daily" in text(await double.resolved(await alice.slash("ofc balance")))
    assert "**+25 chips**" in text(await double.resolved(await alice.slash("ofc daily")))


async def test_where_the_bot_gives_no_daily_chips_balance_says_so(
        double: DiscordDouble, bot: OFCBot, alice: Member,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """OFC_DAILY_CHIPS=0 and no server override: the balance does not send the member to
    claim either."""
    core = bot.storage._core  # the storage's defaults, as OFC_DAILY_CHIPS=0 sets them
    monkeypatch.setattr(core, "defaults", replace(core.defaults, daily_chips=0))
    shown = await double.resolved(await alice.slash("ofc balance"))
    assert "ready: use /ofc daily" not in text(shown)
    assert "This server gives no daily chips." in text(shown)


async def test_concurrent_daily_claims_pay_once(double: DiscordDouble, bot: OFCBot,
                                                alice: Member, db_path: Path) -> None:
    asked = await asyncio.gather(*(alice.slash("ofc daily") for _ in range(20)))
    answers = [await double.resolved(a) for a in asked]
    paid = [a for a in answers if a.embed and a.embed.get("title") == "Daily chips"]
    refused = [a for a in answers if "You can claim again" in text(a)]
    assert len(paid) == 1 and len(refused) == 19
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("daily", 200, 1200)]


async def test_grant_needs_manage_server(double: DiscordDouble, bot: OFCBot, bob: Member,
                                         db_path: Path) -> None:
    # Discord hides /ofc-admin (and so its grant) from members without Manage Server...
    (group,) = [c for c in double.state.commands[double.guild.id] if c["name"] == "ofc-admin"]
    assert "grant" in {o["name"] for o in group["options"]}
    assert int(group["default_member_permissions"]) == MANAGE_GUILD
    await double.resolved(await bob.slash("ofc balance"))
    before = dump(db_path)
    with pytest.raises(ComponentError, match="hidden"):
        await bob.slash("ofc-admin grant", member=bob, amount=500, reason="I deserve it")
    # ...and the command refuses them anyway (a server may change who sees it).
    refused = await double.resolved(await bob.forge_slash(
        "ofc-admin grant", member=bob, amount=500, reason="I deserve it"))
    assert refused.ephemeral
    assert "Only members with the Manage Server permission" in text(refused)
    assert dump(db_path) == before


async def test_grant_is_public_and_written_in_the_ledger(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    granted = await double.resolved(await croupier.slash(
        "ofc-admin grant", member=alice, amount=2500, reason="tournament prize"))
    assert not granted.ephemeral
    assert f"{croupier.mention} gave {alice.mention} **2,500 chips**" in text(granted)
    assert "tournament prize" in text(granted) and "3,500 chips" in text(granted)
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("grant", 2500, 3500)]
    storage = bot.storage
    entries = await storage.wallets.ledger(double.guild.id, alice.id)
    (row,) = [e for e in entries if e.kind == "grant"]
    assert (row.actor_id, row.reason) == (croupier.id, "tournament prize")


async def redelivered(double: DiscordDouble, member: Member, asked: object) -> dict[str, object]:
    """Discord delivers `asked` again (a resumed gateway): the bot's answer to the copy.
    Discord refuses a second answer to one interaction (the member keeps seeing the first), so
    the answer is read from the bot's request (after its defer, when its work took 1.5 s)."""
    answered = len(double.requests_to("POST", CALLBACK))
    await member.redeliver(asked)  # type: ignore[arg-type]

    def answer() -> Any:
        return next((sent for sent in double.requests_to("POST", CALLBACK)[answered:]
                     if int(sent.json["type"]) != DEFERRED), None)

    repeat = await double.wait_until(answer, what="the bot's answer to the redelivery")
    assert all(sent.status == 400  # 40060: already acknowledged
               for sent in double.requests_to("POST", CALLBACK)[answered:])
    return dict(repeat.json["data"])


async def test_a_redelivered_grant_waiting_on_a_busy_database_is_made_once(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    """A redelivered grant (a resumed gateway) whose write waits for the database: the bot's
    defer after 1.5 s is refused as already acknowledged (Discord's 40060), and the bot goes
    on as when the write is quick: granted once, its refusal sent, no failure logged (the
    double's check after the test)."""
    asked = await croupier.slash("ofc-admin grant", member=alice, amount=100, reason="bonus")
    await double.resolved(asked)
    answered = len(double.requests_to("POST", CALLBACK))
    # Another process's writer. Its lock is taken off the event loop: the bot may still be
    # finishing a write of its own, which needs the loop to commit.
    other = sqlite3.connect(db_path, isolation_level=None, timeout=30,
                            check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    try:
        await croupier.redeliver(asked)  # type: ignore[arg-type]
        await double.wait_until(lambda: double.requests_to("POST", CALLBACK)[answered:],
                                what="the bot's defer while the write waits")
    finally:
        other.execute("COMMIT")
        other.close()
    deferred, repeat = await double.wait_until(
        lambda: (lambda sent: sent if len(sent) == 2 else None)(
            double.requests_to("POST", CALLBACK)[answered:]),
        what="the bot's answer to the redelivery")
    assert deferred.status == repeat.status == 400  # 40060: already acknowledged
    assert int(deferred.json["type"]) == DEFERRED
    assert "already made" in repeat.json["data"]["embeds"][0]["description"]
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("grant", 100, 1100)]


async def test_a_redelivered_grant_pays_once(double: DiscordDouble, croupier: Member,
                                             bot: OFCBot, alice: Member, db_path: Path) -> None:
    asked = await croupier.slash("ofc-admin grant", member=alice, amount=100, reason="bonus")
    await double.resolved(asked)
    repeat = await redelivered(double, croupier, asked)
    assert int(repeat["flags"]) & EPHEMERAL  # type: ignore[call-overload]
    assert "already made" in repeat["embeds"][0]["description"]  # type: ignore[index]
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("grant", 100, 1100)]


AMOUNT = "The option `amount` takes a number from 1 to 1,000,000,000,000."


@pytest.mark.parametrize(("who", "amount", "reason", "message"), [
    ("alice", -50, "oops", AMOUNT),
    ("alice", 0, "nothing", AMOUNT),
    ("alice", 10**13, "too much", AMOUNT),
    ("alice", 100, "   ", "A reason is required."),
    ("robot", 100, "for the bot", "bots have no wallet"),
])
async def test_bad_grants_are_refused_and_change_nothing(
        double: DiscordDouble, croupier: Member, robot: Member, bot: OFCBot, alice: Member,
        db_path: Path, who: str, amount: int, reason: str, message: str) -> None:
    """Sent as a modified client would, past the client's own checks of the options."""
    await double.resolved(await alice.slash("ofc balance"))
    before = dump(db_path)
    member = {"alice": alice, "robot": robot}[who]
    refused = await double.resolved(await croupier.raw_slash(
        "ofc-admin grant", {"member": member, "amount": amount, "reason": reason}))
    assert refused.ephemeral
    assert message in text(refused)
    assert dump(db_path) == before


async def test_a_grant_to_someone_not_in_the_server_is_refused(
        double: DiscordDouble, croupier: Member, bot: OFCBot, db_path: Path) -> None:
    """Discord lets a user option name any user (a pasted id, someone who left): chips are
    the server's (R12), so a grant goes to its members only, and no wallet is opened here for
    anyone else."""
    stranger = double.state.add_user("stranger")  # on Discord, not in this server
    await double.resolved(await croupier.slash("ofc balance"))
    before = dump(db_path)
    refused = await double.resolved(await croupier.slash(
        "ofc-admin grant", member=stranger, amount=500, reason="welcome"))
    assert refused.ephemeral
    assert f"<@{stranger.id}> is not a member of this server" in text(refused)
    assert dump(db_path) == before


async def test_leaderboard_top_ten_and_the_callers_rank(double: DiscordDouble, bot: OFCBot,
                                                        croupier: Member) -> None:
    first = double.add_member("p0")  # in the server: the bot reads the interaction's member
    ids = [first.id] + [400_000_000_000_000_000 + k for k in range(1, 12)]
    guild, now = double.guild.id, time.time()
    storage = bot.storage
    for k, player in enumerate(ids):
        await storage.wallets.grant(guild, player, 100 * (k + 1), reason="seed",
                                    actor_id=croupier.id, now=now)
    # Chips at an open table still count: P0 (1,100) buys in for 1,000 and keeps its rank.
    table = await storage.tables.create_table(guild, double.channel.id + 1, "{}", now=now)
    await storage.tables.buy_in(table, first.id, 1000, key="t:p0", now=now)
    board = await double.resolved(await first.slash("ofc leaderboard", by="chips"))
    assert not board.ephemeral and board.embed is not None
    lines = str(board.embed["description"]).splitlines()
    assert len(lines) == 10
    # P11 has 1,000 + 1,200; P2 has 1,000 + 300 = 1,300 and is the tenth.
    assert lines[0] == f"**1.** <@{ids[11]}> 2,200 chips"
    assert lines[9] == f"**10.** <@{ids[2]}> 1,300 chips"
    assert "Your rank: #12 with 1,100 chips" in text(board)
    cash_out = await storage.tables.cash_out(table, first.id, key="t:p0:out", now=now)
    assert cash_out.balance == 1100
    await storage.tables.close_table(table, now=now)


def grants(path: Path, member: Member) -> list[tuple[int, int]]:
    return [(amount, after) for _, amount, after in ledger(path, member, "grant")]


async def test_a_grant_waiting_on_a_busy_database_is_answered_and_a_redelivery_grants_once(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    await double.resolved(await alice.slash("ofc balance"))  # alice's wallet: 1,000 chips
    # Another process's writer. Its lock is taken off the event loop: the bot may still be
    # finishing a write of its own, which needs the loop to commit.
    other = sqlite3.connect(db_path, isolation_level=None, timeout=30,
                            check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    try:
        # Discord's 3 s: the bot must answer (defer) while the write waits for the database,
        # which is released only then (not after a while: a stalled machine could outlast it).
        asked = await croupier.slash("ofc-admin grant", member=alice, amount=250, reason="prize")
        await double.wait_until(lambda: asked.callback_type is not None,
                                what="the bot's answer while the write waits")
    finally:
        other.execute("COMMIT")
        other.close()
    answer = await double.resolved(asked)
    assert asked.callback_type == 5 and not answer.ephemeral  # deferred, then followed up
    assert answer.embed is not None and answer.embed["title"] == "Chips granted"
    assert grants(db_path, alice) == [(250, 1250)]

    # Discord delivers the same interaction again (a resumed gateway): it grants once.
    await redelivered(double, croupier, asked)
    assert grants(db_path, alice) == [(250, 1250)]


async def test_a_correction_takes_back_a_wrong_grant_publicly_and_in_the_ledger(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    """R12's admin corrections: a grant of 5,000 meant as 500 is put right by taking 4,500,
    recorded with its reason and who made it; a correction also adds."""
    await double.resolved(await croupier.slash(
        "ofc-admin grant", member=alice, amount=5000, reason="prize"))
    taken = await double.resolved(await croupier.slash(
        "ofc-admin correct", member=alice, amount=-4500, reason="the prize was 500"))
    assert not taken.ephemeral and taken.embed is not None
    assert taken.embed["title"] == "Chips corrected"
    assert f"{croupier.mention} took **4,500 chips** from {alice.mention}'s wallet." \
        in text(taken)
    assert "the prize was 500" in text(taken) and "It now holds 1,500 chips." in text(taken)
    added = await double.resolved(await croupier.slash(
        "ofc-admin correct", member=alice, amount=1, reason="rounding"))
    assert f"{croupier.mention} added **1 chip** to {alice.mention}'s wallet." in text(added)
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("grant", 5000, 6000),
                                      ("correction", -4500, 1500), ("correction", 1, 1501)]
    entries = await bot.storage.wallets.ledger(double.guild.id, alice.id)
    assert [(e.actor_id, e.reason) for e in entries if e.kind == "correction"] == [
        (croupier.id, "rounding"), (croupier.id, "the prize was 500")]


async def test_a_redelivered_correction_is_made_once(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member,
        db_path: Path) -> None:
    asked = await croupier.slash("ofc-admin correct", member=alice, amount=-100, reason="fix")
    await double.resolved(asked)
    repeat = await redelivered(double, croupier, asked)
    assert "already made" in repeat["embeds"][0]["description"]  # type: ignore[index]
    assert ledger(db_path, alice) == [("start", 1000, 1000), ("correction", -100, 900)]


CORRECTION = "The option `amount` takes a number from -1,000,000,000,000 to 1,000,000,000,000."


@pytest.mark.parametrize(("who", "amount", "message"), [
    ("alice", -1001, "<@ALICE>'s wallet holds 1,000 chips: a correction takes at most that "
                     "(chips at tables are not in the wallet). Nothing was changed."),
    ("alice", 0, "A correction adds or takes at least 1 chip. Nothing was changed."),
    ("alice", -10**13, CORRECTION),
    ("alice", 10**13, CORRECTION),
    ("robot", 5, "bots have no wallet"),
    ("stranger", 5, "is not a member of this server."),
    ("bob", 5, "Only members with the Manage Server permission"),
])
async def test_bad_corrections_are_refused_and_change_nothing(
        double: DiscordDouble, croupier: Member, robot: Member, bot: OFCBot, alice: Member,
        bob: Member, db_path: Path, held_deferral: None, who: str, amount: int,
        message: str) -> None:
    """Below zero, zero, past the bounds, a bot, a user not in the server, or sent by a member
    without Manage Server (a modified client): refused privately, nothing written."""
    await double.resolved(await alice.slash("ofc balance"))
    before = dump(db_path)
    stranger = double.state.add_user("stranger")
    target = {"alice": alice, "robot": robot, "stranger": stranger, "bob": alice}[who]
    sender = bob if who == "bob" else croupier
    refused = await double.resolved(await sender.raw_slash(
        "ofc-admin correct", {"member": target, "amount": amount, "reason": "fix"}))
    assert refused.ephemeral
    assert message.replace("<@ALICE>", alice.mention) in text(refused)
    assert dump(db_path) == before


@pytest.mark.parametrize(("command", "options", "said"), [
    ("ofc-admin grant", {"amount": 5}, "Нужна причина. Ничего не изменено."),
    ("ofc-admin correct", {"amount": -5}, "Нужна причина. Ничего не изменено."),
    ("ofc-admin season start", {"name": "   "},
     "В названии сезона нужен хотя бы один символ, кроме пробела. Ничего не изменено."),
])
async def test_a_blank_reason_or_season_name_is_refused_in_the_admins_language(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member, db_path: Path,
        command: str, options: dict[str, object], said: str) -> None:
    """Spaces pass Discord's length check (a modified client sends them too): the bot
    refuses them itself, in the admin's language like every refusal."""
    await double.resolved(await alice.slash("ofc balance"))
    before = dump(db_path)
    croupier.locale = "ru"
    if command != "ofc-admin season start":
        options = {**options, "member": alice, "reason": "   "}
    refused = await double.resolved(await croupier.slash(command, **options))
    assert refused.ephemeral and said in text(refused)
    assert dump(db_path) == before
