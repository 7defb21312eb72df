"""Shard plans (bot/sharding.py) and `ofc-bot`'s shard flags: Discord's routing rule, the
ranges, and one clear line (exit 2) for flags that name no valid set of shards."""

import os
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.sharding import ShardPlan, ShardPlanError, shard_of


def test_a_server_belongs_to_the_shard_of_its_id_timestamp() -> None:
    # an id made at millisecond 1,000,003 of Discord's epoch (worker, process, increment
    # bits set): its shard is that millisecond modulo the count, worked out by hand
    guild = (1_000_003 << 22) | (1 << 17) | (1 << 12) | 4095
    assert [shard_of(guild, n) for n in (1, 2, 3, 4, 7)] == [0, 1, 1, 3, 4]


def test_flags_name_the_shards_of_this_process() -> None:
    assert ShardPlan.parse(None, None) == ShardPlan(1, (0,))
    assert not ShardPlan.parse(None, None).sharded
    assert ShardPlan.parse(4, None) == ShardPlan(4, (0, 1, 2, 3))
    assert ShardPlan.parse(8, "2-4") == ShardPlan(8, (2, 3, 4))
    assert ShardPlan.parse(8, "0,5-6, 3") == ShardPlan(8, (0, 3, 5, 6))
    plan = ShardPlan.parse(4, "1-2")
    assert plan.sharded and not plan.every and plan.describe() == "shards 1-2 of 4"
    assert ShardPlan(8, (0, 3)).describe() == "shards 0,3 of 8"
    assert ShardPlan(2, (1,)).describe() == "shard 1 of 2"
    owned = [g for g in range(0, 40 << 22, 1 << 22) if plan.owns(g)]
    assert len(owned) == 20 and all(shard_of(g, 4) in (1, 2) for g in owned)


@pytest.mark.parametrize(("count", "shards", "message"), [
    (None, "0-1", "--shards needs --shard-count"),
    (2, "1-3", "run from 0 to 1"),
    (0, None, "from 1 to 65536"),
    (4, "3-1", "empty range"),
    (4, "a-b", "takes shard ids like"),
])
def test_bad_flags_are_refused_with_a_reason(count: int | None, shards: str | None,
                                             message: str) -> None:
    with pytest.raises(ShardPlanError, match=message):
        ShardPlan.parse(count, shards)


def test_ofc_bot_exits_2_with_one_line_for_bad_shard_flags(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shard-count", "2", "--shards", "5"]) == 2
    err = capsys.readouterr().err
    assert err == "ofc-bot: shard ids run from 0 to 1 with --shard-count 2.\n"


def test_ofc_bot_runs_some_of_the_shards_only_on_postgresql(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An SQLite file takes one process (its lock file): started with some of the shards, it
    would leave the servers of the others without an answer, and their process could never
    start. It is refused before anything is opened, in one line saying what to do."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("OFC_DATABASE", str(tmp_path / "ofc.sqlite3"))
    monkeypatch.setattr("bot.app.quiet_collector", lambda: None)

    def no_discord(*args: Any, **options: Any) -> None:
        raise AssertionError("started the bot")

    monkeypatch.setattr("bot.app.make_bot", no_discord)
    assert main(["--shard-count", "4", "--shards", "0-1", "--env-file", os.devnull]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "ofc-bot: --shards needs PostgreSQL: an SQLite file is used by one process, which "
        "runs every shard (--shard-count 4 without --shards)."]
    assert not (tmp_path / "ofc.sqlite3").exists()
