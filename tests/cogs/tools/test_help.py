"""/ofc help through the real bot (every extension) and the local Discord double: private,
paged, and listing every command the bot synced."""

from collections.abc import Iterator
from typing import Any

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.discord_double.components import walk


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
