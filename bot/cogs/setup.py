"""/setup: the server's system (or one channel's), GM role, who rolls shock and kill, rulings, homebrew packs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions import actor_of
from bot.services import PackView
from bot.ui import autocomplete, embeds
from bot.ui.publish import reply, slow
from content.safe_yaml import MAX_BYTES
from rules.registry import system_ids

if TYPE_CHECKING:
    from bot.app import GrievousBot

SYSTEM_CHOICES = [app_commands.Choice(name=embeds.system_title(s), value=s) for s in system_ids()]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SetupCog(commands.GroupCog, group_name="setup", group_description="Server settings (Manage Server)"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="Show the system, GM role, rolls mode and rulings in this channel")
    async def show(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        settings = self.bot.services.settings
        view = await slow(interaction, settings.show(actor), ephemeral=True)
        rulings = await slow(interaction, settings.ruling_names(actor), ephemeral=True)
        await reply(interaction, embed=embeds.settings(view, rulings), ephemeral=True)

    @app_commands.command(name="system", description="Choose the rule system for this server or one channel")
    @app_commands.describe(system="The rule system", channel_only="Only this channel (overrides the server's)")
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def system(self, interaction: discord.Interaction[GrievousBot], system: str,
                     channel_only: bool = False) -> None:
        await slow(interaction, self.bot.services.settings.set_system(actor_of(interaction), system, channel_only),
                   ephemeral=True)
        await reply(interaction, embed=embeds.system_set(system, channel_only), ephemeral=True)

    @app_commands.command(name="channel-reset", description="Let this channel follow the server's system again")
    async def channel_reset(self, interaction: discord.Interaction[GrievousBot]) -> None:
        view = await slow(interaction, self.bot.services.settings.clear_channel_system(actor_of(interaction)),
                          ephemeral=True)
        await reply(interaction, embed=embeds.system_set(view.system, False), ephemeral=True)

    @app_commands.command(name="gm-role", description="Choose the role whose members are GMs")
    @app_commands.describe(role="Members with this role adjudicate and run GM commands")
    async def gm_role(self, interaction: discord.Interaction[GrievousBot], role: discord.Role) -> None:
        await slow(interaction, self.bot.services.settings.set_gm_role(actor_of(interaction), role.id), ephemeral=True)
        await reply(interaction, embed=embeds.gm_role_set(role.id), ephemeral=True)

    @app_commands.command(name="rolls", description="Whether the bot rolls shock and kill, or they wait for the GM")
    @app_commands.describe(mode="auto: the bot rolls them; gm: they wait for the GM's buttons")
    async def rolls(self, interaction: discord.Interaction[GrievousBot], mode: Literal["auto", "gm"]) -> None:
        await slow(interaction, self.bot.services.settings.set_rolls(actor_of(interaction), mode), ephemeral=True)
        await reply(interaction, embed=embeds.rolls_set(mode), ephemeral=True)

    @app_commands.command(name="ruling", description="Change one of the rule engine's rulings")
    @app_commands.describe(name="The ruling (see /setup show)", value="Its new value")
    @app_commands.autocomplete(name=autocomplete.ruling, value=autocomplete.ruling_value)
    async def ruling(self, interaction: discord.Interaction[GrievousBot], name: app_commands.Range[str, 1, 60],
                     value: app_commands.Range[str, 1, 60]) -> None:
        view = await slow(interaction, self.bot.services.settings.set_ruling(actor_of(interaction), name, value),
                          ephemeral=True)
        shown = view.rulings.get(name, value)
        await reply(interaction, embed=embeds.ruling_set(name, str(shown).lower() if isinstance(shown, bool)
                                                         else str(shown)), ephemeral=True)


    @app_commands.command(name="pack-upload", description="(GM) Replace one file of the content pack with homebrew")
    @app_commands.describe(file="A pack file named as the default one, e.g. weapons.yaml (512 KiB at most)")
    async def pack_upload(self, interaction: discord.Interaction[GrievousBot], file: discord.Attachment) -> None:
        if file.size > MAX_BYTES:
            raise UserError(f"{file.filename}: is {file.size} bytes, over the {MAX_BYTES}-byte limit")
        actor = actor_of(interaction)

        async def work() -> PackView:
            try:
                data = await file.read()
            except discord.HTTPException as exc:
                raise UserError(f"{file.filename}: could not be downloaded; try again") from exc
            return await self.bot.services.packs.upload(actor, file.filename, data)

        view = await slow(interaction, work(), ephemeral=True)
        await reply(interaction, embed=embeds.pack_uploaded(view), ephemeral=True)

    @app_commands.command(name="pack-show", description="Show which content pack files this server replaces")
    async def pack_show(self, interaction: discord.Interaction[GrievousBot]) -> None:
        view = await slow(interaction, self.bot.services.packs.show(actor_of(interaction)), ephemeral=True)
        await reply(interaction, embed=embeds.pack(view), ephemeral=True)

    @app_commands.command(name="pack-reset", description="(GM) Go back to the default file, or the whole default pack")
    @app_commands.describe(file="The homebrew file to drop (none: drop them all)")
    @app_commands.autocomplete(file=autocomplete.pack_file)
    async def pack_reset(self, interaction: discord.Interaction[GrievousBot],
                         file: app_commands.Range[str, 1, 64] | None = None) -> None:
        view = await slow(interaction, self.bot.services.packs.reset(actor_of(interaction), file), ephemeral=True)
        await reply(interaction, embed=embeds.pack_reset(view), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(SetupCog(bot))
