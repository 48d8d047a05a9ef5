"""/pack: a server's homebrew content, managed by its GMs (not only by those with Manage Server)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of, read_upload
from bot.services import PackView
from bot.ui import autocomplete, setup_embeds
from bot.ui.publish import reply, slow
from content.input_guard import PACK_FILE

if TYPE_CHECKING:
    from bot.app import GrievousBot


class PacksCog(commands.GroupCog, group_name="pack", group_description="Homebrew content for this server (GM)"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="upload", description="(GM) Add or change entries of a content pack file")
    @app_commands.describe(file="A pack file named as the default one, e.g. weapons.yaml (512 KiB at most)",
                           replace="Make this the whole file, instead of adding its entries to the current one")
    async def upload(self, interaction: discord.Interaction[GrievousBot], file: discord.Attachment,
                     replace: bool = False) -> None:
        actor = actor_of(interaction)

        async def work() -> PackView:
            data = await read_upload(file, PACK_FILE.max_bytes)
            return await self.bot.services.packs.upload(actor, file.filename, data, replace=replace)

        view = await slow(interaction, work(), ephemeral=True)
        await reply(interaction, embed=setup_embeds.pack_uploaded(view), ephemeral=True)

    @app_commands.command(name="file", description="Get a content pack file as it is now, to start homebrew from")
    @app_commands.describe(name="The pack file, e.g. weapons.yaml")
    @app_commands.autocomplete(name=autocomplete.pack_default_file)
    async def file(self, interaction: discord.Interaction[GrievousBot], name: app_commands.Range[str, 1, 64]) -> None:
        system, filename, data, homebrew = await slow(
            interaction, self.bot.services.packs.current_file(actor_of(interaction), name), ephemeral=True)
        await reply(interaction, setup_embeds.pack_file_given(system, filename, homebrew),
                    file=discord.File(io.BytesIO(data), filename=filename), ephemeral=True)

    @app_commands.command(name="show", description="Show which content pack files this server replaces")
    async def show(self, interaction: discord.Interaction[GrievousBot]) -> None:
        view = await slow(interaction, self.bot.services.packs.show(actor_of(interaction)), ephemeral=True)
        await reply(interaction, embed=setup_embeds.pack(view), ephemeral=True)

    @app_commands.command(name="reset", description="(GM) Go back to the default file, or the whole default pack")
    @app_commands.describe(file="The homebrew file to drop (none: drop them all)")
    @app_commands.autocomplete(file=autocomplete.pack_file)
    async def reset(self, interaction: discord.Interaction[GrievousBot],
                    file: app_commands.Range[str, 1, 64] | None = None) -> None:
        view = await slow(interaction, self.bot.services.packs.reset(actor_of(interaction), file), ephemeral=True)
        await reply(interaction, embed=setup_embeds.pack_reset(view), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(PacksCog(bot))
