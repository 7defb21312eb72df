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


async def test_right_to_left_names_in_plain_text_keep_the_words_around_them(
        double: DiscordDouble, tmp_path: Path) -> None:
    """An embed's author line and a thread's name are plain text (no markdown to escape), but
    a right-to-left name there would still reorder what follows it: "\u202e" (right-to-left
    override) reverses the rest of the line, " · #channel" or " vs computer (easy)". Each
    name is isolated (FSI ... PDI ends the override with the name) and nothing escaped."""
    double.guild.name = "שרת\u202e_1_"
    double.channel.name = "כללי"
    alice = double.add_member("alice")
    bob = double.add_member("bob")
    carol = double.add_member("carol")
    carol.user.global_name = "שלום\u202e*c*"
    bot = await start_bot(double, tmp_path / "ofc.sqlite3")
    table = await open_table(double, alice, bob)
    await play_out(double, table, seats_of([alice, bob]))
    # A DM prompt's record (its action over) names the server and channel in its author line.
    authors = {str(m.embed["author"]["name"]) for m in alice.dms()
               if m.embed is not None and "author" in m.embed}
    assert authors == {f"{FSI}שרת\u202e_1_{PDI} · #{FSI}כללי{PDI}"}
    answer = await double.resolved(await carol.slash("ofc practice", level="easy", hands=1))
    assert answer.ephemeral
    threads = [c for c in double.state.channels.values() if c.parent_id == double.channel.id]
    assert [c.name for c in threads] == [f"Practice: {FSI}שלום\u202e*c*{PDI} vs computer (easy)"]
    await double.stop_client(bot)
