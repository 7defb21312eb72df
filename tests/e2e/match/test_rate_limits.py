"""Discord's rate limits through the real bot: 429 answers (with Retry-After, per route and
once global) on message sends, message edits and interaction edits are waited out by
discord.py and retried; every message still arrives and ends as the game does."""

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member
from tests.e2e.flows import (
    RESULT,
    check_wallets,
    description,
    open_table,
    play_out,
    seats_of,
    title,
)

SEND = ("POST", "/channels/{channel_id}/messages")  # channel posts and DMs
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")  # table message, DM turns
REDRAW = ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}")  # after clicks
STREETS = 5


async def test_rate_limited_sends_and_edits_are_retried_and_nothing_is_lost(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    double.rate_limit(*SEND, times=2)  # the lobby message, then the first DMs
    table = await open_table(double, alice, bob, seats=2, format="hands", hands=1,
                             fantasy="off")
    double.rate_limit(*EDIT, times=4)
    double.rate_limit(*REDRAW, times=4)
    double.rate_limit(*SEND, times=1, is_global=True)
    double.rate_limit(*SEND, times=2)
    await play_out(double, table, seats_of((alice, bob)))

    for method, route in (SEND, EDIT, REDRAW):
        answered = double.requests_to(method, route)
        limited = [i for i, r in enumerate(answered) if r.status == 429]
        assert len(limited) == {SEND: 5, EDIT: 4, REDRAW: 4}[(method, route)]
        for i in limited:  # each was sent again, the same, and went through
            first = answered[i]
            retried = next(r for r in answered[i + 1:] if r.status != 429
                           and (r.path, r.json, r.files) == (first.path, first.json, first.files))
            assert retried.status < 300 and first.json
    placed = [f"Hand 1: street {n} placed" for n in range(1, STREETS + 1)]
    for member in (alice, bob):  # one prompt per street, each ending as placed (the last
        # edit goes out beside the channel's posts, so it may come after the match's end)
        await double.wait_until(lambda m=member: [
            title(p) for p in m.dms() if not p.ephemeral and RESULT not in title(p)] == placed,
            what="every street's prompt shown as placed")
    await double.wait_until(lambda: description(table) == "The match is over.",
                            what="the table message's last edit")
    await check_wallets(double, (alice, bob))
