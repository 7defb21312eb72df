"""Discord side: forged clicks through the real bot and the local Discord double.

A component click acts only on a table of the server and channel it came from; a Fantasyland-only
control is refused outside a Fantasyland hand; a forged Reset on the public table message never
draws the clicker's cards there."""


import pytest

from bot.app import OFCBot
from bot.engine.cards import INDEX
from cogs.tables.ids import FantasyRowId, LobbyId, PlaceId, StepId, TableButtonId, Turn
from tests.cogs.conftest import lobby_message, table_message
from tests.cogs.test_play import opening, seat_state, table_id
from tests.e2e.discord_double import DiscordDouble, Member, Message

MANAGE_GUILD = 1 << 5
ELSEWHERE = "That control belongs to a table in another channel."
PUBLIC = "Your controls work in your DM or in your own \"My hand\" message, not here."


@pytest.fixture
def mallory(double: DiscordDouble) -> Member:
    """A member with Manage Server in a server of her own (created before the bot connects)."""
    guild = double.add_guild("elsewhere")
    double.add_text_channel("casino", guild=guild)
    role = double.add_role("Boss", MANAGE_GUILD, guild=guild)
    return double.add_member("mallory", roles=(role,), guild=guild)


@pytest.fixture
def bot(mallory: Member, bot: OFCBot) -> OFCBot:
    """tests/cogs' bot, started once mallory's server exists (its GUILD_CREATE carries it)."""
    return bot


async def her_message(double: DiscordDouble, mallory: Member) -> Message:
    """A message of the bot in mallory's own server: any will do for a modified client."""
    guild = double.state.guilds[mallory.guild.id]
    channel = next(iter(guild.channels.values()))
    return await double.state.create_message(channel, {"content": "hello"}, [])


async def refused_with(member: Member, message: Message, custom_id: str, text: str) -> None:
    before = member.last_ephemeral()
    await member.forge(message, custom_id)
    answer = await member.wait_for_ephemeral(after=before)
    assert answer.embed is not None and answer.embed["description"] == text


async def test_a_lobby_click_from_another_server_changes_nothing(
        double: DiscordDouble, bot: OFCBot, alice: Member, mallory: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=3))
    lobby = await lobby_message(double)
    table = table_id(bot, double)
    before = bot.tables.lobby(table)
    there = await her_message(double, mallory)
    for action in ("join", "strong", "easy", "start", "cancel", "leave"):
        await refused_with(mallory, there, str(LobbyId(table, action)), ELSEWHERE)
    after = bot.tables.lobby(table)
    assert after.seats == before.seats and after.status == "lobby"
    assert mallory.mention not in str(lobby.embed)
    assert await bot.storage.wallets.ledger(double.guild.id, mallory.id) == []  # no wallet here


async def test_a_table_click_from_another_channel_of_the_same_server_is_refused(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table, first, _second, prompt, _dealt = await opening(double, bot, alice, bob)
    other = double.add_text_channel("lounge")
    message = await double.state.create_message(other, {"content": "hello"}, [])
    await refused_with(first, message, str(TableButtonId("hand", table)), ELSEWHERE)
    await refused_with(first, message, str(LobbyId(table, "cancel")), ELSEWHERE)
    host = alice
    dm = prompt if first is host else await host.wait_for_dm()
    await refused_with(host, dm, str(LobbyId(table, "cancel")),
                       "That control works in the table's channel, not in direct messages.")
    assert bot.tables.lobby(table).status == "playing"


def seat_of(bot: OFCBot, table: int, member: Member) -> int:
    return next(s for s, p in bot.tables.seats(table).items() if p == member.id)


async def test_fantasyland_controls_are_refused_on_a_normal_street(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table, first, _second, prompt, dealt = await opening(double, bot, alice, bob)
    turn = Turn(table, 1, 1, seat_of(bot, table, first))
    await refused_with(first, prompt, str(StepId(turn, "best")),
                       "Solve is only for a Fantasyland hand.")
    assert seat_state(bot, table, first).draft == {}  # no hint drafted
    before = first.last_ephemeral()
    await first.forge(prompt, str(FantasyRowId(turn, "bottom")), component_type=3,
                      values=[str(INDEX[c]) for c in dealt[:3]])
    answer = await first.wait_for_ephemeral(after=before)
    assert answer.embed is not None and answer.embed["description"] == "That control is not valid."
    assert seat_state(bot, table, first).draft == {}


async def test_a_forged_reset_on_the_public_table_message_draws_no_cards_there(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    table, first, _second, _prompt, _dealt = await opening(double, bot, alice, bob)
    public = await table_message(double)
    shown = public.payload()
    turn = Turn(table, 1, 1, seat_of(bot, table, first))
    for action in ("reset", "confirm", "best"):
        await refused_with(first, public, str(StepId(turn, action)), PUBLIC)
    state = seat_state(bot, table, first)
    await refused_with(first, public, str(PlaceId(turn, state.view.dealt[0], "top")), PUBLIC)
    await refused_with(first, public, str(TableButtonId("back", table)), PUBLIC)
    assert public.payload()["embeds"] == shown["embeds"]
    assert public.payload()["attachments"] == shown["attachments"]
    assert seat_state(bot, table, first).draft == {}
