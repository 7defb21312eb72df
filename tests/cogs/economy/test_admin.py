"""For server admins and new players, through the real bot (every extension) and
the local Discord double: /ofc help, the bot's permissions in a channel."""

from collections.abc import Iterator
from typing import Any

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.components import walk
from tests.e2e.discord_double.model import ATTACH_FILES, VIEW_CHANNEL


def buttons(message: Any) -> dict[str, bool]:
    """Label -> enabled, of the message's buttons."""
    return {str(c["label"]): not c.get("disabled", False)
            for c in walk(message.components) if c.get("type") == 2}


def synced_commands(double: DiscordDouble) -> set[str]:
    """Every slash command the bot synced, by its full name ("ofc create", "ofc tournament
    warn"): subcommands (option type 1), inside subcommand groups (type 2) too."""
    def leaves(prefix: str, options: list[dict[str, Any]]) -> Iterator[str]:
        for option in options:
            name = f"{prefix} {option['name']}"
            if option["type"] == 2:
                yield from leaves(name, option.get("options", []))
            elif option["type"] == 1:
                yield name
    return {name for command in double.state.commands[double.guild.id]
            for name in leaves(command["name"], command.get("options", []))}


async def test_help_is_private_paged_and_lists_every_command(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    first = await double.resolved(await alice.slash("ofc help"))
    assert first.ephemeral
    assert first.embed["title"] == "OFC Pineapple: the game"
    text = first.embed["description"] + str(first.embed["fields"])
    assert "top" in text and "Fantasyland" in text and "/ofc create" in text
    assert first.embed["footer"]["text"] == "Page 1/3"
    assert buttons(first) == {"Previous": False, "Next": True}

    seen = [first.embed]
    page = first
    while buttons(page)["Next"]:
        page = (await alice.click(page, "Next")).message
        assert page.ephemeral and page.visible_to == alice.id
        seen.append(page.embed)
    assert [e["footer"]["text"] for e in seen] == ["Page 1/3", "Page 2/3", "Page 3/3"]
    assert buttons(page) == {"Previous": True, "Next": False}
    listed = "\n".join(f["value"] for e in seen for f in e.get("fields", []))
    for name in synced_commands(double):
        assert f"`/{name}`" in listed, name
    assert [f["name"] for f in seen[1]["fields"]] == ["Tables", "Chips and history", "Tools",
                                                      "Tournaments"]
    assert seen[2]["fields"][0]["name"] == "For server admins (Manage Server)"
    assert "Attach Files" in seen[2]["fields"][1]["value"]

    back = (await alice.click(page, "Previous")).message
    assert back.embed["footer"]["text"] == "Page 2/3"


async def test_create_names_a_missing_permission_and_takes_no_chips(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    await double.resolved(await alice.slash("ofc balance"))  # alice's wallet: 1,000 chips
    before = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)
    (managed,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    await double.set_permissions(double.channel, managed, deny=ATTACH_FILES)

    refused = await double.resolved(await alice.slash("ofc create", seats=2))
    assert refused.ephemeral
    text = refused.embed["description"]
    assert "**Attach Files**" in text and "Send Messages" not in text
    assert "Permissions" in text and "No chips were taken." in text
    assert bot.tables.table_for_channel(double.channel.id) is None
    after = await bot.storage.wallets.wallet(double.guild.id, alice.id, now=0)
    assert after.balance == before.balance == 1000
    assert not [m for m in double.messages() if m.embed and "OFC table" in m.embed["title"]]

    # Granted again, the same command opens the table.
    await double.set_permissions(double.channel, managed)
    opened = await double.resolved(await alice.slash("ofc create", seats=2))
    assert "Your table is open" in opened.content
    assert bot.tables.table_for_channel(double.channel.id) is not None


def the_bots_role(double: DiscordDouble) -> Any:
    (role,) = [r for r in double.guild.roles.values() if r.name == "OFC Test Bot"]
    return role


async def restart(double: DiscordDouble, bot: OFCBot) -> OFCBot:
    """A new bot on the same database (the old one stopped)."""
    restarted = OFCBot(bot.settings)
    await double.start_client(restarted)
    return restarted


async def closed_and_told(double: DiscordDouble, bot: OFCBot, player: Member) -> str:
    """The DM telling `player` their table closed after the restart; the table is gone."""
    told = await player.wait_for_dm(
        lambda m: "was closed after the bot restarted" in (m.content or ""))
    await double.wait_until(lambda: bot.tables.table_for_channel(double.channel.id) is None,
                            what="the table closed")
    return str(told.content)


async def test_a_lobby_restored_where_the_bot_can_no_longer_see_is_refunded_by_dm(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=2))  # buy-in 200
    table = bot.tables.table_for_channel(double.channel.id)
    assert table is not None
    await double.stop_client(bot)
    await double.set_permissions(double.channel, the_bots_role(double), deny=VIEW_CHANNEL)
    restarted = await restart(double, bot)
    try:
        told = await closed_and_told(double, restarted, alice)
        assert f"<#{double.channel.id}>" in told and "200 chips" in told
        wallet = await restarted.storage.wallets.wallet(double.guild.id, alice.id, now=0)
        assert wallet.balance == 1000  # the buy-in came back
    finally:
        await double.stop_client(restarted)


async def test_a_match_restored_where_the_bot_cannot_attach_images_is_settled_and_refunded(
        double: DiscordDouble, bot: OFCBot, alice: Member) -> None:
    await double.resolved(await alice.slash("ofc create", seats=2, fantasy="off"))
    table = bot.tables.table_for_channel(double.channel.id)
    assert table is not None
    lobby = await double.wait_for_message(
        lambda m: m.embed is not None and m.embed["title"].startswith("OFC table"))
    await alice.click(lobby, "Add computer (easy)")
    await double.wait_until(lambda: len(bot.tables.seats(table)) == 2, what="a computer seated")
    await double.resolved(await alice.slash("ofc start"))
    await alice.wait_for_dm(lambda m: bool(m.components))  # her first street's prompt
    await double.stop_client(bot)
    await double.set_permissions(double.channel, the_bots_role(double), deny=ATTACH_FILES)
    restarted = await restart(double, bot)
    try:
        told = await closed_and_told(double, restarted, alice)
        assert "hand in play was completed and settled" in told
        stacks = (await restarted.storage.tables.table(table)).stacks
        assert not any(stacks.values())  # every stack went back
    finally:
        await double.stop_client(restarted)
