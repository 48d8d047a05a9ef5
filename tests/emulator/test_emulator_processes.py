"""The emulator's pieces for bots in processes of their own: shard-picked guild ids, and the launcher."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.launch import main as launch
from emulator.snowflake import SnowflakeFactory


def test_guild_ids_picked_for_a_shard_are_routed_to_it_and_stay_increasing() -> None:
    ids = SnowflakeFactory()
    picked = [ids.next_on_shard(n % 3, 3) for n in range(12)] + [ids.next() for _ in range(3)]
    assert [(snowflake >> 22) % 3 for snowflake in picked[:12]] == [0, 1, 2] * 4
    assert picked == sorted(picked) and len(set(picked)) == len(picked)


@pytest.mark.parametrize("argv", [[], ["http://127.0.0.1:1"], ["127.0.0.1:1", "bot.cli:main"],
                                  ["http://127.0.0.1:1", "bot.cli"]])
def test_the_launcher_wants_an_address_and_an_entry_point(argv: list[str], capsys: Any) -> None:
    assert launch(argv) == 2
    assert capsys.readouterr().err.startswith("usage: python -m emulator.launch")


def test_the_launcher_runs_the_entry_point_with_discord_redirected(capsys: Any) -> None:
    from discord.http import Route

    before = Route.BASE
    assert launch(["http://127.0.0.1:1234", "tests.emulator.test_emulator_processes:show_base", "x"]) == 7
    assert capsys.readouterr().out == "http://127.0.0.1:1234/api/v10 ['x']\n"
    assert before == Route.BASE


def show_base(argv: list[str]) -> int:
    from discord.http import Route

    print(Route.BASE, argv)
    return 7


async def test_a_shard_over_2500_guilds_is_refused_as_discord_does() -> None:
    """Close code 4011 "Sharding required"; with two shards the same guilds are served."""
    import discord

    from emulator.gateway import MAX_GUILDS_PER_SHARD
    from emulator.harness import running_emulator, start_bot

    async with running_emulator() as emu:
        for n in range(MAX_GUILDS_PER_SHARD + 1):
            emu.add_guild(f"G{n}", shard=(n % 2, 2))
        with pytest.raises(RuntimeError) as refused:
            await start_bot(emu, discord.Client(intents=discord.Intents.none()))
        assert getattr(refused.value.__cause__, "code", None) == 4011
        class Sharded(discord.AutoShardedClient):
            async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
                pass  # no 5 s between the two IDENTIFYs

        runner = await start_bot(emu, Sharded(intents=discord.Intents(guilds=True), shard_count=2), within=30.0)
        try:
            assert len(runner.client.guilds) == MAX_GUILDS_PER_SHARD + 1
        finally:
            await runner.stop()
