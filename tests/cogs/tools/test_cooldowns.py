"""Per-member cooldowns on the costly commands (the tools' /ofc score and /ofc solve, and
/ofc table), through the real bot and the local Discord double. The cooldowns run on the
bot's clock (a fake one here, so nothing expires during the test)."""

from bot.app import OFCBot
from tests.e2e.discord_double import DiscordDouble, Member

FOURTEEN = "As Ks Qs Js Ts 5h 6d 7c 8h 9d 2h 2d 2c 3c"
X = "Qh Qd 2c / 5s 5d 9c 9h Kd / 2h 3h 4h 5h 7h"
Y = "Ah Kc 2s / Ts Td Jc 3s 3c / As Ad Ac 7d 7c"


def slowed(answer: object) -> bool:
    embed = getattr(answer, "embed", None)
    text = str(embed["description"]) if embed else ""
    return getattr(answer, "ephemeral", False) and text.startswith("Slow down: try again in ")


async def test_score_solve_and_table_have_a_per_member_cooldown(
        double: DiscordDouble, bot: OFCBot, alice: Member, bob: Member) -> None:
    for _ in range(3):  # three within 10 s, a typo corrected at once among them
        first = await double.resolved(await alice.slash("ofc score", player1=X, player2=Y))
        assert not first.ephemeral and first.embed is not None
    again = await double.resolved(await alice.slash("ofc score", player1=X, player2=Y))
    assert slowed(again), again.embed
    assert again.embed["description"].endswith(" s.")
    other = await double.resolved(await bob.slash("ofc score", player1=X, player2=Y))
    assert not slowed(other)  # per member

    for _ in range(2):
        assert not slowed(await double.resolved(await alice.slash("ofc solve", cards=FOURTEEN)))
    assert slowed(await double.resolved(await alice.slash("ofc solve", cards=FOURTEEN)))

    await double.resolved(await alice.slash("ofc create", seats=2))
    for _ in range(2):
        assert not slowed(await double.resolved(await alice.slash("ofc table")))
    assert slowed(await double.resolved(await alice.slash("ofc table")))
