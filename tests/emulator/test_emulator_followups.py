"""The loopback Discord answers follow-ups as Discord does once the deferred "thinking" message is gone."""

from __future__ import annotations

import discord
from discord.ext import commands

from emulator import Emulator
from emulator.testing import World, emu_fixture, running_bot, world_fixture  # noqa: F401


class _DeletingBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())

        @self.tree.command(description="Defer, delete the thinking message, then follow up")
        async def vanish(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.delete_original_response()
            await interaction.followup.send("Still here")


async def test_a_followup_after_the_thinking_message_was_deleted_is_a_new_message(emu: Emulator,
                                                                                   world: World) -> None:
    async with running_bot(emu, _DeletingBot()) as client:
        await client.tree.sync()
        handle = await emu.slash("vanish", user=world.alice, channel=world.combat)
        [followup] = await handle.followups()
        original = handle.events[0].message
        assert original is not None
        assert original.deleted and original.loading
        assert followup.id != original.id and followup.content == "Still here" and not followup.deleted
        assert [e.kind for e in handle.events] == ["callback", "delete", "followup"]
    emu.assert_no_refusals()
