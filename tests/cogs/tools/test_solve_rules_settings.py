"""/ofc solve, /ofc rules and /ofc-admin settings as members and admins run them, through the
real bot and the local Discord double."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.app import OFCBot
from bot.engine.rules import TableRules
from tests.cogs.conftest import dump, text
from tests.e2e.discord_double import Channel, DiscordDouble, Member
from tests.e2e.discord_double.model import MANAGE_GUILD

ANSWERED, DEFERRED = 4, 5  # the interaction callback types: an answer, "thinking..."
# Hand-checked (R4, R8): the spade royal on the bottom (25), the heart flush in the middle (8),
# the kings on top (8): 41, and a royal flush is "quads or better" on the bottom, so it stays.
# Of 3c and 4d, the stronger top keeps the 4d (row strength breaks ties).
FOURTEEN = "As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c 4d"


@pytest.fixture
def other_channel(double: DiscordDouble) -> Channel:
    """A second text channel of the server (list it before `bot`)."""
    return double.add_text_channel("back-room")


@pytest.fixture
def stranger(double: DiscordDouble) -> Member:
    """A member of another server the bot is in (list it before `bot`)."""
    guild = double.add_guild("elsewhere")
    double.add_text_channel("lounge", guild=guild)
    return double.add_member("stranger", guild=guild)


@pytest.fixture
def dealer(double: DiscordDouble) -> Member:
    """A second member with Manage Server (list it before `bot`)."""
    return double.add_member("dealer", roles=(double.add_role("Dealer", MANAGE_GUILD),))


async def lobby_elsewhere(bot: OFCBot, stranger: Member) -> int:
    """A table opened by `stranger` in their own server (the bot's commands are synced to
    the test server only, so straight through the table service)."""
    lounge = stranger.home_channel()
    lobby = await bot.tables.create_table(stranger.guild.id, lounge.id, stranger.id,
                                          "Stranger", {})
    return lobby.table_id


async def test_solve_answers_privately_with_the_best_arrangement(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    asked = await alice.slash("ofc solve", cards=FOURTEEN)
    answer = await double.resolved(asked)
    assert asked.callback_type == DEFERRED  # the solver may take a moment
    assert answer.ephemeral  # a Fantasyland hand is secret until showdown (R8)
    assert [a.filename for a in answer.attachments] == ["solution.png"]
    assert answer.attachment("solution.png").data[:8] == b"\x89PNG\r\n\x1a\n"
    assert answer.embed_image() == answer.attachment("solution.png").data  # the embed shows it
    assert answer.embed is not None
    assert answer.embed["title"] == "Best Fantasyland arrangement of 14 cards"
    assert "Royalties **41** · **Stays in Fantasyland**" in answer.embed["description"]
    fields = {f["name"]: f["value"] for f in answer.embed["fields"]}
    assert fields["Top"] == "K♦ K♣ 4♦: Pair of Kings **+8**"
    assert fields["Middle"] == "J♥ 9♥ 7♥ 5♥ 2♥: Flush, jack high **+8**"  # sorted
    assert fields["Bottom"] == "A♠ K♠ Q♠ J♠ T♠: Royal flush **+25**"
    assert fields["Discard"] == "3♣"


async def test_solve_under_tournament_rules_never_stays(double: DiscordDouble, bot: OFCBot,
                                                        alice: Member) -> None:
    answer = await double.resolved(await alice.slash("ofc solve", cards=FOURTEEN,
                                                     fantasy="tournament"))
    assert "Does not stay in Fantasyland" in text(answer)


@pytest.mark.parametrize(("cards", "options", "message"), [
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc", {}, "a Fantasyland hand has 13 to 17 cards, not 12."),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c 4x", {}, "'4x' is not a card."),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c As", {}, "As appears twice."),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c X", {}, "'X' is not a card."),
    (FOURTEEN, {"variant": "omaha"},
     "The option `variant` takes one of its choices (pineapple, turbo, lowball, joker)."),
])
async def test_bad_solve_input_is_refused_before_any_work(
        double: DiscordDouble, bot: OFCBot, alice: Member, db_path: Path, held_deferral: None,
        cards: str, options: dict[str, str], message: str) -> None:
    """Typed by a member, or (a variant the client does not offer) by a modified client."""
    before = dump(db_path)
    asked = await alice.raw_slash("ofc solve", {"cards": cards, **options})
    refused = await double.resolved(asked)
    assert asked.callback_type == ANSWERED
    assert refused.ephemeral
    assert message in text(refused)
    assert dump(db_path) == before


async def test_solve_with_jokers_in_the_joker_variant(double: DiscordDouble, bot: OFCBot,
                                                      alice: Member) -> None:
    answer = await double.resolved(await alice.slash(
        "ofc solve", cards="As Ks Qs Js X 2h 5h 7h 9h Jh Kd Kc 3c 4d", variant="joker"))
    # The joker completes the royal flush: the same 41 as with the Ts.
    assert "Royalties **41**" in text(answer)


async def test_rules_of_the_server_then_of_the_table_in_the_channel(
        double: DiscordDouble, other_channel: Channel, stranger: Member, bot: OFCBot,
        alice: Member, bob: Member) -> None:
    answer = await double.resolved(await bob.slash("ofc rules"))
    # No table here: the server's defaults in one line, for the asker only.
    assert answer.ephemeral and answer.embed is not None and not answer.embed.get("fields")
    assert text(answer).startswith("Rules in force\nNo table in this channel. This server's "
                                   "tables play "
                                   "Pineapple · 1-6 · american royalties")
    assert "Up to" not in text(answer) and len(text(answer)) < 300

    await double.resolved(await alice.slash("ofc create", scoring="2-4", royalties="russian",
                                            fantasy="progressive"))
    table = bot.tables.table_for_channel(double.channel.id)
    here = await double.resolved(await bob.slash("ofc rules"))
    assert not here.ephemeral  # everyone at the table reads it
    shown = text(here)
    assert f"Table #{table} in <#{double.channel.id}>." in shown
    assert "Pineapple · 2-4 · russian royalties · progressive Fantasyland" in shown
    assert "2-1 gives 2, 3-0 gives 4, two wins and a tie give 3" in shown  # R5 2-4
    assert "quads 8, straight flush 10, royal flush 15" in shown  # R4 russian bottom
    assert "QQ 14, KK 15, AA 16, trips 17 cards" in shown  # R8 progressive

    by_number = await double.resolved(await bob.slash("ofc rules", table=table,
                                                      channel=other_channel))
    assert f"Table #{table}" in text(by_number)

    theirs = await lobby_elsewhere(bot, stranger)
    elsewhere = await double.resolved(await bob.slash("ofc rules", table=theirs))
    assert elsewhere.ephemeral
    assert f"There is no table #{theirs} in this server." in text(elsewhere)
    await double.resolved(await alice.slash("ofc cancel"))
    await bot.tables.cancel(theirs, stranger.id)


async def test_rules_of_an_unknown_table(double: DiscordDouble, bot: OFCBot,
                                         bob: Member) -> None:
    answer = await double.resolved(await bob.slash("ofc rules", table=4242))
    assert answer.ephemeral and answer.embed is not None and "title" not in answer.embed


async def test_settings_need_manage_server(double: DiscordDouble, bot: OFCBot, bob: Member,
                                           db_path: Path) -> None:
    before = dump(db_path)
    refused = await double.resolved(await bob.forge_slash("ofc-admin settings",
                                                          starting_chips=5))
    assert refused.ephemeral
    assert "Only members with the Manage Server permission" in text(refused)
    assert dump(db_path) == before


async def test_settings_change_chips_and_table_defaults_with_an_audit(
        double: DiscordDouble, croupier: Member, bot: OFCBot, alice: Member) -> None:
    changed = await double.resolved(await croupier.slash(
        "ofc-admin settings", starting_chips=500, daily_chips=50, variant="turbo", seats=4,
        point_value=2))
    assert changed.ephemeral
    assert "Changed: starting chips, daily chips, table options." in text(changed)
    assert "Turbo · 1-6 · american royalties · Turbo Fantasyland · 2 chips a point" \
        in text(changed)
    guild, storage = double.guild.id, bot.storage
    audit = await storage.settings.settings_audit(guild)
    assert {(c.field, c.actor_id) for c in audit} == {
        ("starting_chips", croupier.id), ("daily_chips", croupier.id),
        ("table_options", croupier.id)}
    (options,) = [c.new for c in audit if c.field == "table_options"]
    assert options == {"variant": "turbo", "seats": 4, "point_value": 2}

    # New wallets start with 500, a daily claim gives 50, and tables here default to turbo.
    await double.resolved(await alice.slash("ofc balance"))
    claim = await double.resolved(await alice.slash("ofc daily"))
    assert "**+50 chips**" in text(claim) and "550 chips" in text(claim)
    shown = await double.resolved(await alice.slash("ofc rules"))
    assert "tables play Turbo · 1-6" in text(shown)

    # Reset the table options, then set one: the others go back to RULES.md's defaults.
    await double.resolved(await croupier.slash("ofc-admin settings", reset="table_options",
                                               scoring="2-4"))
    assert (await storage.settings.guild_settings(guild)).table_options == {"scoring": "2-4"}


@pytest.mark.parametrize(("options", "message"), [
    ({"seats": 4}, "pineapple seats at most 3 players.\nNothing was changed."),
    ({"starting_chips": -1},
     "The option `starting_chips` takes a number from 0 to 1,000,000,000,000."),
    ({"hands": 0}, "The option `hands` takes a number from 1 to 1,000. Nothing was changed."),
    ({"reset": "wallets"}, "The option `reset` takes one of its choices (starting_chips, "
                           "daily_chips, table_options, language, all)."),
    ({"variant": "omaha"},
     "The option `variant` takes one of its choices (pineapple, turbo, lowball, joker)."),
])
async def test_bad_settings_are_refused_and_change_nothing(
        double: DiscordDouble, croupier: Member, bot: OFCBot, db_path: Path,
        options: dict[str, object], message: str) -> None:
    """Sent by an admin, or (values the client does not send) by a modified client."""
    before = dump(db_path)
    refused = await double.resolved(await croupier.raw_slash("ofc-admin settings", options))
    assert refused.ephemeral
    assert message in text(refused)
    assert dump(db_path) == before


async def test_settings_without_options_show_the_current_ones(
        double: DiscordDouble, croupier: Member, bot: OFCBot, db_path: Path) -> None:
    before = dump(db_path)
    shown = text(await double.resolved(await croupier.slash("ofc-admin settings")))
    assert "Nothing changed." in shown
    assert "1,000 chips (default)" in shown and "200 chips (default)" in shown
    assert dump(db_path) == before


async def both_while_the_database_is_busy(double: DiscordDouble, db_path: Path,
                                          *asks: tuple[Member, dict[str, object]]) -> list[str]:
    """Each member's `/ofc-admin settings` sent while another process holds the database's
    write lock, the lock held until every one of them is waiting on it (deferred: it read the
    settings it started from), so that they meet; their answers."""
    other = sqlite3.connect(db_path, isolation_level=None, timeout=600, check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
    try:
        asked = [await member.slash("ofc-admin settings", options) for member, options in asks]
        await double.wait_until(lambda: all(a.callback_type == DEFERRED for a in asked),
                                what="every change waiting on the database")
    finally:
        other.execute("COMMIT")
        other.close()
    return [text(await double.resolved(a)) for a in asked]


async def test_two_admins_changing_table_options_at_once_keep_both_changes(
        double: DiscordDouble, croupier: Member, dealer: Member, bot: OFCBot,
        db_path: Path) -> None:
    """Each change is made to the options stored when it is written, not to those its admin
    read before waiting on the database: neither admin's change is lost, and the trail says
    what each one did."""
    await double.resolved(await croupier.slash("ofc-admin settings"))  # read: kept in memory
    answers = await both_while_the_database_is_busy(
        double, db_path, (croupier, {"turn_seconds": 30}), (dealer, {"point_value": 3}))
    assert all("Changed: table options." in answer for answer in answers)
    guild, storage = double.guild.id, bot.storage
    assert (await storage.settings.guild_settings(guild)).table_options == {
        "turn_seconds": 30, "point_value": 3}
    assert [(c.actor_id, c.old, c.new) for c in await storage.settings.settings_audit(guild)] \
        == [(dealer.id, {"turn_seconds": 30}, {"turn_seconds": 30, "point_value": 3}),
            (croupier.id, {}, {"turn_seconds": 30})]


async def test_two_changes_that_clash_leave_valid_options_and_refuse_the_second(
        double: DiscordDouble, croupier: Member, dealer: Member, bot: OFCBot,
        db_path: Path) -> None:
    """Turbo seats 4; pineapple at most 3 (R1). One admin asks for 4 seats while the other
    asks for pineapple: each alone is valid, both together are not. Whichever is written
    second is checked against the first and refused, so every table can still be opened."""
    await double.resolved(await croupier.slash("ofc-admin settings", variant="turbo"))
    answers = await both_while_the_database_is_busy(
        double, db_path, (croupier, {"seats": 4}), (dealer, {"variant": "pineapple"}))
    refused = [a for a in answers if "pineapple seats at most 3 players" in a]
    assert len(refused) == 1 and "Nothing was changed." in refused[0]
    stored = (await bot.storage.settings.guild_settings(double.guild.id)).table_options
    assert stored in ({"variant": "turbo", "seats": 4}, {"variant": "pineapple"})
    TableRules.from_mapping(stored)  # a table can be opened with them
