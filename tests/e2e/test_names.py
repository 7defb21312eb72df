"""Members' names as hostile as Discord lets them be (markdown, mentions, right-to-left text),
through the real bot and the Discord double: every message shows a name as typed, with
its markdown and mentions as plain text, and no message pings anyone but the players it
means to."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.flows import open_table, play_out, seats_of, start_bot
from tests.storage.audit import audit

ZWSP, FSI, PDI = "\u200b", "\u2068", "\u2069"


def every_text(double: DiscordDouble) -> Iterator[str]:
    """Every string of every message the bot sent or edited (contents, embeds, labels)."""
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            for inner in value.values():
                yield from walk(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from walk(inner)
        elif isinstance(value, str):
            yield value

    for request in double.requests:
        if request.method in ("POST", "PATCH") and request.json is not None:
            yield from walk(request.json)


async def test_a_match_shows_hostile_names_as_typed_and_pings_no_one(
        double: DiscordDouble, tmp_path: Path) -> None:
    role = double.add_role("Moderators", 0)
    alice = double.add_member("alice")
    bob = double.add_member("bob")
    carol = double.add_member("carol")
    alice.user.global_name = "**Al** ||ice|| `x` [l](https://e.x)"
    bob.user.global_name = f"<@&{role.id}> @here __b__\n# x"
    carol.user.global_name = "שלום\u202eab"
    # Each as Discord shows it in a message, written by hand: markdown escaped, mentions
    # broken by a zero-width space, the line break a space, the right-to-left name isolated.
    shown = {alice: r"\*\*Al\*\* \|\|ice\|\| \`x\` \[l](https://e.x)",
             bob: f"<{ZWSP}@&{role.id}> @{ZWSP}here \\_\\_b\\_\\_ # x",
             carol: f"{FSI}שלום\u202eab{PDI}"}
    database = tmp_path / "ofc.sqlite3"
    bot = await start_bot(double, database)
    table = await open_table(double, alice, bob, carol, seats=3)
    await play_out(double, table, seats_of([alice, bob, carol]))
    await double.stop_client(bot)
    assert audit(database) == []

    texts = list(every_text(double))
    for member, escaped in shown.items():
        typed = member.user.global_name
        assert not any(typed in text.replace(escaped, "") for text in texts), typed
        assert any(escaped in text for text in texts), (escaped, json.dumps(texts)[:3000])
    # The table message's waiting line, the showdown and the standings name each player.
    for escaped in shown.values():
        assert f"**{escaped}**" in "".join(texts)  # the table message: whose turn
        assert any(text.startswith(f"1. {escaped}") or f"\n2. {escaped}" in text
                   or f"\n3. {escaped}" in text for text in texts)  # the standings
    players = {f"user:{m.id}" for m in shown}
    for channel in double.state.channels.values():
        for message in channel.messages:
            assert set(message.pinged) <= players, (message.content, message.pinged)


async def test_a_tournaments_standings_show_hostile_names_as_typed(
        double: DiscordDouble, tmp_path: Path) -> None:
    alice = double.add_member("alice")
    bob = double.add_member("bob")
    alice.user.global_name = "~~Al~~ > q"
    bob.user.global_name = "<#123456789012345678> `b"
    database = tmp_path / "ofc.sqlite3"
    bot = await start_bot(double, database)
    await alice.slash("ofc tournament create", buy_in=0)
    for member in (alice, bob):
        await member.slash("ofc tournament join")
    standings = await double.resolved(await bob.slash("ofc tournament standings"))
    await double.stop_client(bot)
    assert audit(database) == []
    players = next(f["value"] for f in standings.embed["fields"]
                   if f["name"] == "Players (2)")
    assert players.splitlines() == [r"\~\~Al\~\~ > q: in",
                                    f"<{ZWSP}#123456789012345678> \\`b: in"]
