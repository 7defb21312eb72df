"""/ofc solve, /ofc rules and /ofc-admin settings through their real callbacks."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.storage import Storage
from bot.tables import TableService
from cogs.economy.wallets import balance, daily
from cogs.tools.rules import rules
from cogs.tools.server_settings import settings
from cogs.tools.solve import solve
from tests.cogs.economy.conftest import (
    ADMIN,
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    Invoke,
    dump,
    run,
)

# Hand-checked (R4, R8): the spade royal on the bottom (25), the heart flush in the middle (8),
# the kings on top (8): 41, and a royal flush is "quads or better" on the bottom, so it stays.
# Of 3c and 4d, the stronger top keeps the 4d (row strength breaks ties).
FOURTEEN = "As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c 4d"


async def test_solve_answers_privately_with_the_best_arrangement(invoke: Invoke) -> None:
    interaction = invoke(ALICE)
    await run(solve, interaction, cards=FOURTEEN)
    assert interaction.response.deferred is True  # the solver may take a moment
    answer = interaction.answer
    assert answer.ephemeral  # a Fantasyland hand is secret until showdown (R8)
    assert answer.file is not None and answer.file.filename == "solution.png"
    assert answer.file.fp.read(8) == b"\x89PNG\r\n\x1a\n"
    assert answer.embed.image.url == "attachment://solution.png"
    assert answer.embed.title == "Best Fantasyland arrangement of 14 cards"
    assert "Royalties **41** · **Stays in Fantasyland**" in answer.embed.description
    fields = {f.name: f.value for f in answer.embed.fields}
    assert fields["Top"] == "K♦ K♣ 4♦: Pair of Kings **+8**"
    assert fields["Middle"] == "J♥ 9♥ 7♥ 5♥ 2♥: Flush, jack high **+8**"  # sorted
    assert fields["Bottom"] == "A♠ K♠ Q♠ J♠ T♠: Royal flush **+25**"
    assert fields["Discard"] == "3♣"


async def test_solve_under_tournament_rules_never_stays(invoke: Invoke) -> None:
    interaction = invoke(ALICE)
    await run(solve, interaction, cards=FOURTEEN, fantasy="tournament")
    assert "Does not stay in Fantasyland" in interaction.answer.embed.description


@pytest.mark.parametrize(("cards", "options", "message"), [
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc", {}, "a Fantasyland hand has 13 to 17 cards, not 12"),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c 4x", {}, "'4x' is not a card"),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c As", {}, "As appears twice"),
    ("As Ks Qs Js Ts 2h 5h 7h 9h Jh Kd Kc 3c X", {}, "'X' is not a card"),
    (FOURTEEN, {"variant": "omaha"}, "'omaha' is not a valid variant"),
])
async def test_bad_solve_input_is_refused_before_any_work(
        invoke: Invoke, db_path: Path, cards: str, options: dict[str, str],
        message: str) -> None:
    before = dump(db_path)
    interaction = invoke(ALICE)
    await run(solve, interaction, cards=cards, **options)
    assert interaction.response.deferred is None
    assert interaction.answer.ephemeral
    assert message in interaction.answer.embed.description
    assert dump(db_path) == before


async def test_solve_with_jokers_in_the_joker_variant(invoke: Invoke) -> None:
    interaction = invoke(ALICE)
    await run(solve, interaction, cards="As Ks Qs Js X 2h 5h 7h 9h Jh Kd Kc 3c 4d",
                         variant="joker")
    # The joker completes the royal flush: the same 41 as with the Ts.
    assert "Royalties **41**" in interaction.answer.embed.description


@pytest.fixture
def with_tables(client: SimpleNamespace, tables: TableService) -> TableService:
    client.tables = tables
    return tables


async def test_rules_of_the_server_then_of_the_table_in_the_channel(
        invoke: Invoke, with_tables: TableService) -> None:
    interaction = invoke(BOB)
    await run(rules, interaction)
    answer = interaction.answer
    # No table here: the server's defaults in one line, for the asker only.
    assert answer.ephemeral and not answer.embed.fields
    assert answer.text.startswith("Rules in force\nNo table in this channel. This server's "
                                  "tables play "
                                  "Pineapple · 1-6 · american royalties")
    assert "Up to" not in answer.text and len(answer.text) < 300

    lobby = await with_tables.create_table(GUILD, CHANNEL, ALICE.id, "Alice",
                                           {"scoring": "2-4", "royalties": "russian",
                                            "fantasy": "progressive"})
    here = invoke(BOB)
    await run(rules, here)
    assert not here.answer.ephemeral  # everyone at the table reads it
    text = here.answer.text
    assert f"Table #{lobby.table_id} in <#{CHANNEL}>." in text
    assert "Pineapple · 2-4 · russian royalties · progressive Fantasyland" in text
    assert "2-1 gives 2, 3-0 gives 4, two wins and a tie give 3" in text  # R5 2-4
    assert "quads 8, straight flush 10, royal flush 15" in text  # R4 russian bottom
    assert "QQ 14, KK 15, AA 16, trips 17 cards" in text  # R8 progressive

    by_number = invoke(BOB, channel=OTHER_CHANNEL)
    await run(rules, by_number, table=lobby.table_id)
    assert f"Table #{lobby.table_id}" in by_number.answer.text

    elsewhere = invoke(BOB, guild=OTHER_GUILD)
    await run(rules, elsewhere, table=lobby.table_id)
    assert elsewhere.answer.ephemeral
    assert f"There is no table #{lobby.table_id} in this server." in elsewhere.answer.text
    await with_tables.cancel(lobby.table_id, ALICE.id)


async def test_rules_of_an_unknown_table(invoke: Invoke, with_tables: TableService) -> None:
    interaction = invoke(BOB)
    await run(rules, interaction, table=4242)
    assert interaction.answer.ephemeral and interaction.answer.embed.title is None


async def test_settings_need_manage_server(invoke: Invoke, db_path: Path) -> None:
    before = dump(db_path)
    interaction = invoke(BOB)
    await run(settings, interaction, starting_chips=5)
    assert interaction.answer.ephemeral
    assert "Only members with the Manage Server permission" in interaction.answer.text
    assert dump(db_path) == before


async def test_settings_change_chips_and_table_defaults_with_an_audit(
        invoke: Invoke, storage: Storage, with_tables: TableService) -> None:
    interaction = invoke(ADMIN, manage_guild=True)
    await run(settings, interaction, starting_chips=500, daily_chips=50, variant="turbo",
                            seats=4, point_value=2)
    answer = interaction.answer
    assert answer.ephemeral
    assert "Changed: starting chips, daily chips, table options." in answer.text
    assert "Turbo · 1-6 · american royalties · standard Fantasyland · 2 chips a point" \
        in answer.text
    audit = await storage.settings.settings_audit(GUILD)
    assert {(c.field, c.actor_id) for c in audit} == {
        ("starting_chips", ADMIN.id), ("daily_chips", ADMIN.id), ("table_options", ADMIN.id)}
    (options,) = [c.new for c in audit if c.field == "table_options"]
    assert options == {"variant": "turbo", "seats": 4, "point_value": 2}

    # New wallets start with 500, a daily claim gives 50, and tables here default to turbo.
    await run(balance, invoke(ALICE))
    claim = invoke(ALICE)
    await run(daily, claim)
    assert "**+50 chips**" in claim.answer.text and "550 chips" in claim.answer.text
    shown = invoke(ALICE)
    await run(rules, shown)
    assert "tables play Turbo · 1-6" in shown.answer.text

    # Reset the table options, then set one: the others go back to RULES.md's defaults.
    again = invoke(ADMIN, manage_guild=True)
    await run(settings, again, reset="table_options", scoring="2-4")
    assert (await storage.settings.guild_settings(GUILD)).table_options == {"scoring": "2-4"}


@pytest.mark.parametrize(("options", "message"), [
    ({"seats": 4}, "pineapple seats at most 3 players\nNothing was changed."),
    ({"starting_chips": -1}, "An amount of chips must be a whole number from 0"),
    ({"hands": 0}, "hands must be from 1 to 1000\nNothing was changed."),
    ({"reset": "wallets"}, "'wallets' is not a setting that can be reset."),
    ({"variant": "omaha"}, "'omaha' is not a valid variant"),
])
async def test_bad_settings_are_refused_and_change_nothing(
        invoke: Invoke, db_path: Path, options: dict[str, object], message: str) -> None:
    before = dump(db_path)
    interaction = invoke(ADMIN, manage_guild=True)
    await run(settings, interaction, **options)
    assert interaction.answer.ephemeral
    assert message in interaction.answer.embed.description
    assert dump(db_path) == before


async def test_settings_without_options_show_the_current_ones(invoke: Invoke,
                                                               db_path: Path) -> None:
    before = dump(db_path)
    interaction = invoke(ADMIN, manage_guild=True)
    await run(settings, interaction)
    text = interaction.answer.text
    assert "Nothing changed." in text
    assert "1,000 chips (default)" in text and "200 chips (default)" in text
    assert dump(db_path) == before
