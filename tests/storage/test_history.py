"""Matches and hands: what /history and /stats read (R8 Fantasyland, R5 scoops, R11 matches)."""

import pytest

from bot.storage import (
    HandRecord,
    InvalidInput,
    MatchPlayer,
    PlayerHandResult,
    PlayerStats,
    Storage,
    TableClosed,
    UnknownHand,
    UnknownMatch,
)
from tests.storage.conftest import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD

R = PlayerHandResult
OPTIONS = '{"format": "match", "variant": "pineapple"}'


def _hands(match: int) -> list[HandRecord]:
    """Three hands; the totals below are added up by hand from these lines."""
    return [
        HandRecord(match, 1, '{"hand": 1}', (
            R(ALICE, 9, 9, royalties=4, fantasy_entered=True, scoops=1),
            R(BOB, -6, -6, fouled=True),
            R(BOT, -3, -3, royalties=2),
        )),
        HandRecord(match, 2, '{"hand": 2}', (
            R(ALICE, 2, 2, royalties=7, in_fantasy=True),
            R(BOB, 1, 1, royalties=10),
            R(BOT, -3, -3, fouled=True),
        )),
        HandRecord(match, 3, '{"hand": 3}', (
            R(ALICE, -4, -4, royalties=15, in_fantasy=True, fantasy_stayed=True),
            R(BOB, 5, 5, royalties=0, fantasy_entered=True, scoops=1),
            R(BOT, -1, -1),
        )),
    ]


async def _played_match(storage: Storage, table: int) -> int:
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB, BOT], now=10.0)
    for number, hand in enumerate(_hands(match)):
        assert await storage.history.record_hand(hand, now=11.0 + number) is True
    assert await storage.history.record_match_end(match, [ALICE], now=20.0) is True
    return match


async def test_stats_add_up_the_hands_and_matches(storage: Storage, table: int) -> None:
    await _played_match(storage, table)
    alice = await storage.history.stats(GUILD, ALICE)
    assert alice == PlayerStats(
        hands=3, net_points=7, net_chips=7, matches=1, matches_won=1, fouls=0,
        fantasy_chances=1, fantasy_entries=1, fantasy_hands=2, fantasy_stays=1, scoops=1,
        best_royalties=15, royalties=4 + 7 + 15,
    )
    assert (alice.win_rate, alice.foul_rate) == (1.0, 0.0)
    assert (alice.fantasy_entry_rate, alice.fantasy_stay_rate) == (1.0, 0.5)
    bob = await storage.history.stats(GUILD, BOB)
    assert (bob.hands, bob.net_points, bob.matches, bob.matches_won, bob.fouls) == (3, 0, 1, 0, 1)
    assert (bob.foul_rate, bob.fantasy_entry_rate, bob.fantasy_stay_rate) == (1 / 3, 1 / 3, 0.0)
    assert (bob.scoops, bob.best_royalties, bob.win_rate) == (1, 10, 0.0)
    nobody = await storage.history.stats(GUILD, CAROL)
    assert (nobody.hands, nobody.win_rate, nobody.foul_rate) == (0, 0.0, 0.0)
    assert (await storage.history.stats(GUILD + 1, ALICE)).hands == 0


async def test_recent_matches_show_standings_and_the_hands(storage: Storage, table: int) -> None:
    match = await _played_match(storage, table)
    [summary] = await storage.history.recent_matches(GUILD, BOB)
    assert (summary.match_id, summary.table_id, summary.options_json, summary.started_at,
            summary.ended_at, summary.hands) == (match, table, OPTIONS, 10.0, 20.0, 3)
    assert summary.channel_id == CHANNEL  # where /ofc history asks who may see it
    assert summary.players == (
        MatchPlayer(ALICE, 7, 7, 3, True),
        MatchPlayer(BOB, 0, 0, 3, False),
        MatchPlayer(BOT, -7, -7, 3, False),
    )
    assert summary.player(BOB).net_chips == 0
    hands = await storage.history.match_hands(match)
    assert [(h.hand_no, h.history_json, h.played_at) for h in hands] == [
        (1, '{"hand": 1}', 11.0), (2, '{"hand": 2}', 12.0), (3, '{"hand": 3}', 13.0)]
    expected = _hands(match)
    for got, want in zip(hands, expected, strict=True):
        assert sorted(got.results, key=lambda r: r.user_id) == sorted(
            want.results, key=lambda r: r.user_id)
    assert await storage.history.recent_matches(GUILD, CAROL) == []
    assert await storage.history.recent_matches(GUILD + 1, BOB) == []


async def test_newest_match_first_and_limit(storage: Storage, table: int) -> None:
    first = await _played_match(storage, table)
    second = await _played_match(storage, table)
    assert first != second
    history = storage.history
    assert [m.match_id for m in await history.recent_matches(GUILD, ALICE)] == [second, first]
    assert [m.match_id for m in await history.recent_matches(GUILD, ALICE, 1)] == [second]
    assert (await storage.history.stats(GUILD, ALICE)).matches == 2


async def test_starting_twice_returns_the_running_match(storage: Storage, table: int) -> None:
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=1.0)
    # Made again before its first hand (a bot stopped before the deal was saved), the start
    # takes the seats of now: only who is dealt in plays the match.
    assert await storage.history.record_match_start(table, "{}", [ALICE, CAROL], now=2.0) == match
    assert await storage.history.recent_matches(GUILD, BOB) == []
    assert await storage.history.record_hand(
        HandRecord(match, 1, "{}", (R(ALICE, 1, 1), R(CAROL, -1, -1))), now=3.0)
    assert await storage.history.record_match_start(table, "{}", [BOB], now=4.0) == match
    assert await storage.history.recent_matches(GUILD, BOB) == []  # once dealt, it stays
    assert await storage.history.current_match(table) == match
    await storage.history.record_match_end(match, [], now=3.0)
    assert await storage.history.current_match(table) is None
    assert await storage.history.record_match_end(match, [ALICE], now=4.0) is False
    assert (await storage.history.stats(GUILD, ALICE)).matches_won == 0


async def test_a_hand_is_recorded_once_and_only_in_a_running_match(
    storage: Storage, table: int
) -> None:
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=1.0)
    hand = HandRecord(match, 1, "{}", (R(ALICE, 1, 1), R(BOB, -1, -1)))
    assert await storage.history.record_hand(hand, now=2.0) is True
    assert await storage.history.record_hand(hand, now=3.0) is False
    # a cash-game joiner becomes a participant with their first hand
    await storage.history.record_hand(HandRecord(match, 2, "{}", (R(CAROL, 2, 2), R(BOB, -2, -2))),
                                      now=4.0)
    assert [m.match_id for m in await storage.history.recent_matches(GUILD, CAROL)] == [match]
    await storage.history.record_match_end(match, [CAROL], now=5.0)
    with pytest.raises(InvalidInput, match="is over"):
        await storage.history.record_hand(HandRecord(match, 3, "{}", (R(ALICE, 0, 0),)), now=6.0)
    assert (await storage.history.stats(GUILD, ALICE)).hands == 1


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ((R(ALICE, 1, 1), R(ALICE, -1, -1)), "twice"),
        ((R(ALICE, 1, 1, in_fantasy=True, fantasy_entered=True),), "Fantasyland"),
        ((R(ALICE, 1, 1, fantasy_stayed=True),), "Fantasyland"),
        ((R(ALICE, 1, 1, royalties=-2),), "royalties"),
        ((R(ALICE, 1, 1, fouled=1),), "fouled"),  # type: ignore[arg-type]
        ((R(0, 1, 1),), "player id"),
    ],
)
async def test_bad_hand_records_are_refused(storage: Storage, table: int, results, message) -> None:
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE], now=1.0)
    with pytest.raises(InvalidInput, match=message):
        await storage.history.record_hand(HandRecord(match, 1, "{}", results), now=2.0)
    assert await storage.history.match_hands(match) == []


async def test_end_refuses_winners_who_did_not_play(storage: Storage, table: int) -> None:
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE], now=1.0)
    with pytest.raises(InvalidInput, match="did not play"):
        await storage.history.record_match_end(match, [BOB], now=2.0)
    assert await storage.history.current_match(table) == match
    with pytest.raises(UnknownMatch):
        await storage.history.record_match_end(match + 1, [], now=2.0)
    with pytest.raises(UnknownMatch):
        await storage.history.match_hands(match + 1)


async def test_settlement_records_its_hand_in_the_same_transaction(
    storage: Storage, table: int
) -> None:
    for user in (ALICE, BOB):
        await storage.tables.buy_in(table, user, 100, key=f"in{user}", now=0.0)
    match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=0.0)
    other_table = await storage.tables.create_table(GUILD, CHANNEL + 1, "{}", now=0.0)
    other = await storage.history.record_match_start(other_table, OPTIONS, [ALICE], now=0.0)
    wrong = HandRecord(other, 1, "{}", (R(ALICE, 5, 5), R(BOB, -5, -5)))
    with pytest.raises(InvalidInput, match="not played at table"):
        await storage.tables.settle_hand(table, 1, [(BOB, ALICE, 5)], key="s1", now=1.0, hand=wrong)
    assert (await storage.tables.table(table)).stacks == {ALICE: 100, BOB: 100}
    assert await storage.history.match_hands(other) == []
    with pytest.raises(InvalidInput, match="hand 2"):
        await storage.tables.settle_hand(table, 1, [(BOB, ALICE, 5)], key="s1", now=1.0,
                                         hand=HandRecord(match, 2, "{}", ()))
    right = HandRecord(match, 1, '{"h": 1}', (R(ALICE, 5, 5), R(BOB, -5, -5)))
    done = await storage.tables.settle_hand(table, 1, [(BOB, ALICE, 5)], key="s1", now=1.0,
                                            hand=right)
    assert done.stacks == {ALICE: 105, BOB: 95}
    assert [h.history_json for h in await storage.history.match_hands(match)] == ['{"h": 1}']


async def test_a_closed_table_starts_no_match(storage: Storage, table: int) -> None:
    await storage.tables.close_table(table, now=1.0)
    with pytest.raises(TableClosed):
        await storage.history.record_match_start(table, OPTIONS, [ALICE], now=2.0)


async def test_the_servers_averages_count_people_only(storage: Storage, table: int) -> None:
    """Alice's and Bob's hands together (the computer's foul and royalties left out)."""
    await _played_match(storage, table)
    server = await storage.history.server_stats(GUILD)
    assert (server.hands, server.fouls, server.royalties) == (6, 1, 4 + 7 + 15 + 10)
    assert (server.fantasy_chances, server.fantasy_entries) == (1 + 3, 2)
    assert (server.matches, server.matches_won, server.best_royalties) == (2, 1, 15)
    assert server.royalties_per_hand == 36 / 6


async def test_recent_nets_are_each_finished_matchs_points_oldest_first(
        storage: Storage, table: int) -> None:
    first = await _played_match(storage, table)
    second = await storage.tables.create_table(GUILD, CHANNEL + 1, '{"hand": 0}', now=30.0)
    match = await storage.history.record_match_start(second, OPTIONS, [ALICE, BOB], now=31.0)
    await storage.history.record_hand(HandRecord(match, 1, '{"hand": 1}', (
        R(ALICE, -5, -5), R(BOB, 5, 5))), now=32.0)
    assert await storage.history.recent_nets(GUILD, ALICE) == [9 + 2 - 4]  # the second still runs
    await storage.history.record_match_end(match, [BOB], now=33.0)
    assert await storage.history.recent_nets(GUILD, ALICE) == [7, -5]
    assert await storage.history.recent_nets(GUILD, BOB, limit=1) == [5]
    assert first < match


async def test_stats_count_only_finished_matches(storage: Storage, table: int) -> None:
    """/stats: the hands of a match still running, or cancelled, do not count."""
    running = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB, BOT], now=10.0)
    for number, hand in enumerate(_hands(running)):
        assert await storage.history.record_hand(hand, now=11.0 + number) is True
    empty = PlayerStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert await storage.history.stats(GUILD, ALICE) == empty  # unfinished
    assert await storage.history.record_match_end(running, [], now=20.0, cancelled=True) is True
    assert await storage.history.stats(GUILD, ALICE) == empty  # cancelled
    assert await storage.history.current_match(table) is None
    await _played_match(storage, table)
    alice = await storage.history.stats(GUILD, ALICE)
    assert (alice.hands, alice.net_points, alice.matches, alice.matches_won) == (3, 7, 1, 1)
    with pytest.raises(InvalidInput):
        await storage.history.record_match_end(
            await storage.history.record_match_start(table, OPTIONS, [ALICE], now=30.0), [ALICE],
            now=31.0, cancelled=True)


async def test_a_practice_match_is_in_the_history_not_in_the_stats(storage: Storage,
                                                                     table: int) -> None:
    """Practice (play chips) is listed, marked, and left out of /ofc stats."""
    real = await _played_match(storage, table)
    practice = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOT], now=30.0,
                                                        practice=True)
    await storage.history.record_hand(HandRecord(practice, 1, '{"hand": 1}', (
        R(ALICE, 12, 12, royalties=20), R(BOT, -12, -12))), now=31.0)
    await storage.history.record_match_end(practice, [ALICE], now=32.0)
    listed = await storage.history.recent_matches(GUILD, ALICE)
    assert [(m.match_id, m.practice) for m in listed] == [(practice, True), (real, False)]
    alice = await storage.history.stats(GUILD, ALICE)  # the real match's figures only
    assert (alice.hands, alice.net_points, alice.matches, alice.best_royalties) == (3, 7, 1, 15)


async def test_played_hands_are_the_players_own_newest_first(storage: Storage,
                                                              table: int) -> None:
    match = await _played_match(storage, table)
    hands = await storage.history.played_hands(GUILD, ALICE)
    assert [(h.match_id, h.hand_no, h.points, h.practice) for h in hands] == [
        (match, 3, -4, False), (match, 2, 2, False), (match, 1, 9, False)]
    assert [h.hand_no for h in await storage.history.played_hands(GUILD, ALICE, limit=1)] == [3]
    assert await storage.history.played_hands(GUILD, CAROL) == []
    assert await storage.history.played_hands(GUILD + 1, ALICE) == []
    hand, history = await storage.history.played_hand(GUILD, BOB, match, 2)
    assert (hand.match_id, hand.hand_no, hand.points, history) == (match, 2, 1, '{"hand": 2}')


@pytest.mark.parametrize("who, guild, hand_no", [
    (CAROL, GUILD, 1),  # another's hand: Carol did not play
    (ALICE, GUILD + 1, 1),  # her hand, asked from another server
    (ALICE, GUILD, 4),  # no such hand
])
async def test_a_hand_not_played_there_is_refused_alike(storage: Storage, table: int, who: int,
                                                        guild: int, hand_no: int) -> None:
    match = await _played_match(storage, table)
    with pytest.raises(UnknownHand, match=f"You did not play hand {hand_no} of match"):
        await storage.history.played_hand(guild, who, match, hand_no)


async def test_a_tournament_tables_chips_stay_out_of_net_chips(storage: Storage) -> None:
    """A tournament's table plays with chips the house lends and takes back: they never reach
    a wallet, so /ofc stats' net chips (what the ledger says play brought) leaves them out,
    while its hands, points and fouls count as any other; /ofc history marks the match."""
    own = await storage.tables.create_table(GUILD, CHANNEL, "{}", now=1.0)
    lent = await storage.tables.create_table(GUILD, CHANNEL + 1, "{}", now=1.0, lent=True)
    matches = []
    for table, chips in ((own, 30), (lent, 5000)):
        match = await storage.history.record_match_start(table, OPTIONS, [ALICE, BOB], now=2.0)
        await storage.history.record_hand(HandRecord(match, 1, "{}", (
            R(ALICE, 6, chips, fouled=False), R(BOB, -6, -chips, fouled=True))), now=3.0)
        await storage.history.record_match_end(match, [ALICE], now=4.0)
        matches.append(match)
    stats = await storage.history.stats(GUILD, ALICE)
    assert (stats.hands, stats.net_points, stats.net_chips, stats.matches) == (2, 12, 30, 2)
    assert (await storage.history.stats(GUILD, BOB)).fouls == 2
    shown = {m.match_id: m.tournament for m in await storage.history.recent_matches(GUILD, ALICE)}
    assert shown == {matches[0]: False, matches[1]: True}
