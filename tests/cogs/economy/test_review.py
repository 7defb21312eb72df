"""`/ofc review` (the coach) through its command callback on real storage: the hand named or the
latest, refused for another's hand, another server's or an unreplayable history, and the
member's recent hands offered as they type."""

import json

import pytest

from bot.ai.players import Settings, decide
from bot.engine.match import Match, PlayerSpec
from bot.engine.rules import TableRules
from bot.storage import Storage
from cogs.common.answers import Refusal
from cogs.economy.review import BAD_HAND, NO_HANDS, UNAVAILABLE, parse_hand, recent_hands, review
from tests.cogs.economy.conftest import ALICE, BOB, CAROL, OTHER_GUILD, Invoke, run
from tests.cogs.economy.test_history_stats import line, record_match


def _history(seed: int) -> str:
    """A finished heads-up hand of Alice and Bob, both playing as the easy player."""
    match = Match.new(TableRules(seats=2), [PlayerSpec(ALICE.id, "Alice", 200),
                                            PlayerSpec(BOB.id, "Bob", 200)], seed=seed)
    match.start_hand(0.0)
    while match.phase == "playing":
        seat = match.pending()[0]
        match.place(seat, decide(match.view_for(seat), Settings(level="easy")), 0.0)
    return json.dumps(match.history())


@pytest.mark.parametrize("text, expected", [
    ("12-3", (12, 3)), ("12/3", (12, 3)), (" #12 hand 3 ", (12, 3)), ("12 3", (12, 3)),
    ("7:1", (7, 1)),
])
def test_a_hand_is_written_match_then_hand(text: str, expected: tuple[int, int]) -> None:
    assert parse_hand(text) == expected


@pytest.mark.parametrize("text", ["12", "abc", "12-", "-3", "12-3-4", "1e3-2"])
def test_anything_else_is_refused_with_the_way_to_write_it(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_hand(text)
    assert str(refused.value) == str(BAD_HAND)


async def test_the_latest_hand_by_default_and_another_named(storage: Storage,
                                                            invoke: Invoke) -> None:
    first = await record_match(storage, [[line(ALICE, 4, 4), line(BOB, -4, -4)]], [ALICE.id],
                               history_json=_history(1))
    second = await record_match(storage, [[line(ALICE, -2, -2), line(BOB, 2, 2)]], [BOB.id],
                                start=1_700_000_500.0, history_json=_history(2))
    latest = invoke(ALICE)
    await run(review, latest)
    assert latest.answer.ephemeral and latest.answer.embed is not None
    assert latest.answer.embed.title == f"Review: match #{second}, hand 1"
    assert "you scored **-2 points" in (latest.answer.embed.description or "")
    named = invoke(BOB)
    await run(review, named, hand=f"{first}-1")
    assert named.answer.embed is not None
    assert named.answer.embed.title == f"Review: match #{first}, hand 1"
    streets = [f.name for f in named.answer.embed.fields if f.name.startswith("Street")]
    assert [name.split(":")[0] for name in streets] == [f"Street {n}" for n in range(1, 6)]


@pytest.mark.parametrize("who, guild", [(CAROL, None), (ALICE, OTHER_GUILD)])
async def test_a_hand_not_played_here_is_refused(storage: Storage, invoke: Invoke,
                                                 who: object, guild: int | None) -> None:
    match = await record_match(storage, [[line(ALICE, 4, 4), line(BOB, -4, -4)]], [ALICE.id],
                               history_json=_history(1))
    asked = invoke(who, **({"guild": guild} if guild else {}))  # type: ignore[arg-type]
    await run(review, asked, hand=f"{match}-1")
    assert asked.answer.ephemeral and asked.answer.embed is not None
    assert asked.answer.embed.description == (
        f"You did not play hand 1 of match #{match} in this server.")


async def test_no_hand_yet_and_an_old_history_are_refused(storage: Storage,
                                                          invoke: Invoke) -> None:
    nothing = invoke(ALICE)
    await run(review, nothing)
    assert nothing.answer.embed is not None and nothing.answer.embed.description == str(NO_HANDS)
    await record_match(storage, [[line(ALICE, 4, 4), line(BOB, -4, -4)]], [ALICE.id],
                       history_json='{"version": 0}')
    old = invoke(ALICE)
    await run(review, old)
    assert old.answer.embed is not None and old.answer.embed.description == str(UNAVAILABLE)


async def test_recent_hands_are_offered_as_the_member_types(storage: Storage,
                                                            invoke: Invoke) -> None:
    match = await record_match(storage, [[line(ALICE, 4, 4), line(BOB, -4, -4)],
                                         [line(ALICE, -1, -1), line(BOB, 1, 1)]], [ALICE.id])
    offered = await recent_hands(invoke(ALICE), "")  # type: ignore[arg-type]
    assert [(c.name, c.value) for c in offered] == [
        (f"Match #{match}, hand 2: -1 points", f"{match}-2"),
        (f"Match #{match}, hand 1: +4 points", f"{match}-1")]
    assert [c.value for c in await recent_hands(invoke(ALICE), f"{match}-1")] == [  # type: ignore[arg-type]
        f"{match}-1"]
    assert await recent_hands(invoke(CAROL), "") == []  # type: ignore[arg-type]
