"""The evening bench reads the answer a user sees, and counts what it could not read instead of crashing: a small
discord.py bot against the emulator, each command doing one thing the Grievous bot does under load."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord.ext import commands

from bench import evening
from emulator import Emulator
from emulator.testing import World, emu_fixture, running_bot, world_fixture  # noqa: F401


class _LoadedBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

        @self.tree.command(description="Slow, then refused: bot/tree.py send_line after a public defer")
        async def roll(interaction: discord.Interaction, expression: str) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.delete_original_response()
            await interaction.followup.send(f"Bandit 1 is already dead ({expression})", ephemeral=True)

        @self.tree.command(description="Slow, then answered: the thinking message edited")
        async def injuries(interaction: discord.Interaction, character: str) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(content=f"{character}: two wounds")

        @self.tree.command(description="Never answers")
        async def log(interaction: discord.Interaction, limit: int) -> None:
            await asyncio.sleep(limit)


@pytest.fixture
def player(emu: Emulator, world: World) -> evening.Player:
    table = evening.Table(world.combat, world.gm, gm_rolls=False, guards=0)
    return evening.Player(emu, table, evening.Tally())


async def test_a_refusal_after_a_public_defer_is_answered_by_its_follow_up(emu: Emulator,
                                                                          player: evening.Player) -> None:
    async with running_bot(emu, _LoadedBot()) as client:
        await client.tree.sync()
        message = await player.slash("roll", "roll", {"expression": "2d6"})
        answered = await player.slash("injuries", "injuries", {"character": "Bandit 1"})
    assert message is not None and message.ephemeral and message.content == "Bandit 1 is already dead (2d6)"
    assert answered is not None and answered.content == "Bandit 1: two wounds"
    tally = player.tally
    assert [len(tally.latencies[k]) for k in ("roll", "injuries")] == [1, 1]
    assert tally.latencies["roll"][0] >= 50  # to the follow-up, not the "thinking"
    assert tally.errors == ["roll: Bandit 1 is already dead (2d6)"] and not tally.unmeasured


async def test_a_command_never_answered_is_counted_by_kind_and_the_run_goes_on(
        emu: Emulator, player: evening.Player, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evening, "WAIT", 0.3)
    async with running_bot(emu, _LoadedBot()) as client:
        await client.tree.sync()
        assert await player.slash("log", "log", {"limit": 1}) is None
        assert await player.slash("injuries", "injuries", {"character": "Bandit 1"}) is not None
    tally = player.tally
    assert {k: len(v) for k, v in tally.unmeasured.items()} == {"log": 1}
    assert "the answer the user sees" in tally.unmeasured["log"][0]
    assert (tally.commands, tally.sent) == (1, 2)
    assert evening.render_unmeasured(tally).startswith("not measured (no answer the bench could read): log 1; ")
    assert evening.render_unmeasured(evening.Tally()) == "not measured: 0"
